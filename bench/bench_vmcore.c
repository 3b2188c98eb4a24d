/*
 * bench_vmcore.c: the zone report of a full-size kernel dump, in a fresh
 * process per run: wall time, peak RSS, and bytes read from the file
 * (/proc/self/io rchar; libkdumpfile is told not to mmap), against one
 * sequential read of the whole file; and what of the report's time goes
 * to counting the free objects the CPUs hold (the allocated counts of
 * vmstat-z -A and of JSON), timed alone through the library's own walk
 * of them, every cache of slab_caches.
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

#include "kvm/walk/kvm_slub_cpu.h"
#include "memstat.h"
#include "timing.h"

enum run { SEQUENTIAL, REPORT, CPU_FREE };

/* The CPUs' free objects of every cache, as the report counts them. */
static void
cpu_free_walk(void *handle)
{
	struct memstat_kvm *kvm = handle;
	struct slub_slab_layout sl;
	struct slub_cpu_layout cl;
	struct kvm_member list;
	struct kvm_array node;
	uint64_t head, e, nodes, free, total = 0;

	if (_memstat_slub_slab_layout(kvm, &sl) != 0 ||
	    _memstat_slub_cpu_layout(kvm, &sl, &cl) != 0 ||
	    _memstat_kvm_member(kvm, "kmem_cache", "list", &list) != 0 ||
	    _memstat_kvm_pointer_array(kvm, "kmem_cache", "kmem_cache_node",
	    &node) != 0 || _memstat_slub_nr_nodes(kvm, &node, &nodes) != 0 ||
	    _memstat_kvm_symbol(kvm, "slab_caches", &head) != 0 ||
	    _memstat_kvm_read_u64(kvm, head, &e) != 0)
		errx(1, "%s", kvm->err.msg);
	for (int n = 0; e != head && n < 100000; n++) {
		if (_memstat_slub_cpu_free(kvm, &sl, &cl, e - list.offset,
		    (uint32_t)nodes, UINT32_MAX, &free) != 0 ||
		    _memstat_kvm_read_u64(kvm, e, &e) != 0)
			errx(1, "%s", kvm->err.msg);
		total += free;
	}
	_memstat_slub_cpu_layout_free(&cl);
	if (total == 0)
		errx(1, "no free objects on any CPU");
}

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
one_run(const char *dump, enum run what)
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

		if (what != SEQUENTIAL) {
			if ((kvm = memstat_kvm_open(dump, NULL, errbuf)) == NULL)
				errx(1, "%s", errbuf);
			if ((list = memstat_mtl_alloc()) == NULL ||
			    memstat_kvm_uma(list, kvm) != 0)
				errx(1, "memstat_kvm_uma: %s",
				    memstat_kvm_geterr(kvm));
			/* The CPUs' walk alone, after the report has loaded
			 * the symbols and types it uses. */
			if (what == CPU_FREE) {
				r0 = rchar();
				t0 = now_ms();
				cpu_free_walk(kvm);
			}
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
	double ms[64], rss[64], rd[64], seq[64], cpu[64];
	struct sample s;
	int runs, i;
	off_t size;
	int fd;

	if (argc == 2 && strcmp(argv[1], "--heading") == 0) {
		printf("| dump | size | report | peak RSS | read from the dump |"
		    " one sequential read | of the report, the CPUs' free "
		    "objects | the report ÷ the report without them |\n"
		    "|---|---|---|---|---|---|---|---|\n");
		return (0);
	}
	if (argc != 3 || (runs = atoi(argv[1])) < 1 || runs > 64)
		errx(1, "usage: bench_vmcore RUNS DUMP");
	if ((fd = open(argv[2], O_RDONLY)) == -1)
		err(1, "%s", argv[2]);
	size = lseek(fd, 0, SEEK_END);
	close(fd);
	one_run(argv[2], SEQUENTIAL);	/* the page cache warm for all */
	for (i = 0; i < runs; i++) {
		s = one_run(argv[2], REPORT);
		ms[i] = s.ms;
		rss[i] = s.rss_mib;
		rd[i] = s.read_mib;
		seq[i] = one_run(argv[2], SEQUENTIAL).ms;
		cpu[i] = one_run(argv[2], CPU_FREE).ms;
	}
	/* One table row; run-bench prints the heading (see --heading). */
	printf("| %s | %.1f MiB | %.1f ms | %.1f MiB | %.1f MiB (%.1f %%) |"
	    " %.1f ms | %.1f ms | %.2f |\n", argv[2], size / 1048576.0,
	    median(ms, runs), median(rss, runs), median(rd, runs),
	    100 * median(rd, runs) * 1048576 / size, median(seq, runs),
	    median(cpu, runs), median(ms, runs) / (median(ms, runs) -
	    median(cpu, runs)));
	return (0);
}
