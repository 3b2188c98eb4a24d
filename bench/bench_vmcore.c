/*
 * bench_vmcore.c: the zone report of a full-size kernel dump, in a fresh
 * process per run: wall time, peak RSS, and bytes read from the file
 * (/proc/self/io rchar; libkdumpfile is told not to mmap), against one
 * sequential read of the whole file.
 *
 *	bench/bench_vmcore RUNS DUMP	one row of the table
 *	bench/bench_vmcore --heading	the table's heading
 */
#include <sys/resource.h>
#include <sys/wait.h>

#include <err.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "memstat.h"
#include "timing.h"

struct sample {
	double	ms;
	double	rss_mib;
	double	read_mib;
};

static uint64_t
rchar(void)
{
	char line[128];
	uint64_t v = 0;
	FILE *f;

	if ((f = fopen("/proc/self/io", "r")) == NULL)
		return (0);
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "rchar: %" SCNu64, &v) == 1)
			break;
	fclose(f);
	return (v);
}

/* In a child: open, report, and send back what it cost. */
static struct sample
one_run(const char *dump, bool report)
{
	struct sample s;
	int p[2], status;
	pid_t pid;

	if (pipe(p) != 0 || (pid = fork()) == -1)
		err(1, "fork");
	if (pid == 0) {
		char errbuf[MEMSTAT_KVM_ERRLEN], buf[1 << 16];
		struct memory_type_list *list;
		struct rusage ru;
		uint64_t r0 = rchar();
		double t0 = now_ms();
		void *kvm;
		int fd;

		if (report) {
			if ((kvm = memstat_kvm_open(dump, NULL, errbuf)) == NULL)
				errx(1, "%s", errbuf);
			if ((list = memstat_mtl_alloc()) == NULL ||
			    memstat_kvm_uma(list, kvm) != 0)
				errx(1, "memstat_kvm_uma: %s",
				    memstat_kvm_geterr(kvm));
			memstat_mtl_free(list);
			memstat_kvm_close(kvm);
		} else {
			if ((fd = open(dump, O_RDONLY)) == -1)
				err(1, "%s", dump);
			while (read(fd, buf, sizeof(buf)) > 0)
				;
			close(fd);
		}
		s.ms = now_ms() - t0;
		s.read_mib = (double)(rchar() - r0) / 1048576;
		getrusage(RUSAGE_SELF, &ru);
		s.rss_mib = ru.ru_maxrss / 1024.0;
		if (write(p[1], &s, sizeof(s)) != sizeof(s))
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	if (read(p[0], &s, sizeof(s)) != sizeof(s))
		errx(1, "run failed");
	close(p[0]);
	waitpid(pid, &status, 0);
	return (s);
}

int
main(int argc, char *argv[])
{
	double ms[64], rss[64], rd[64], seq[64];
	struct sample s;
	int runs, i;
	off_t size;
	int fd;

	if (argc == 2 && strcmp(argv[1], "--heading") == 0) {
		printf("| dump | size | report | peak RSS | read from the dump |"
		    " one sequential read |\n|---|---|---|---|---|---|\n");
		return (0);
	}
	if (argc != 3 || (runs = atoi(argv[1])) < 1 || runs > 64)
		errx(1, "usage: bench_vmcore RUNS DUMP");
	if ((fd = open(argv[2], O_RDONLY)) == -1)
		err(1, "%s", argv[2]);
	size = lseek(fd, 0, SEEK_END);
	close(fd);
	one_run(argv[2], false);	/* the page cache warm for both */
	for (i = 0; i < runs; i++) {
		s = one_run(argv[2], true);
		ms[i] = s.ms;
		rss[i] = s.rss_mib;
		rd[i] = s.read_mib;
		seq[i] = one_run(argv[2], false).ms;
	}
	/* One table row; run-bench prints the heading (see --heading). */
	printf("| %s | %.1f MiB | %.1f ms | %.1f MiB | %.1f MiB (%.1f %%) |"
	    " %.1f ms |\n", argv[2], size / 1048576.0, median(ms, runs),
	    median(rss, runs), median(rd, runs),
	    100 * median(rd, runs) * 1048576 / size, median(seq, runs));
	return (0);
}
