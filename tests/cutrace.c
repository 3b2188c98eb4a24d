/*
 * cutrace: vmstat-z -M on a large stream while another process cuts the
 * file in half, at delays spread over the run and beyond.  Every run must end as if
 * the cut came before it (one error line, exit 1, nothing on stdout) or
 * after it (the whole report, exit 0): never a signal, never a partial
 * report.  Prints "ok"/"not ok" lines.
 *
 *	cutrace VMSTAT-Z TMPDIR
 */
#include <sys/stat.h>
#include <sys/wait.h>

#include <err.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sigbus_probe.h"
#include "streambuild.h"

#define ZONES	4000
#define CPUS	256		/* 4000 x 256: a 65 MiB stream */
#define RUNS	24

static void
write_stream(const char *path)
{
	struct sb_stream_header h = { 1, CPUS, ZONES, 0 };
	struct sb_uma_percpu_stat c = { .allocs = 3, .frees = 1 };
	struct sb_uma_type_header t;
	struct streambuf sb;
	int fd;

	sb_init(&sb, false);
	sb_header(&sb, &h);
	for (uint32_t z = 0; z < ZONES; z++) {
		memset(&t, 0, sizeof(t));
		snprintf(t.name, sizeof(t.name), "zone-%05" PRIu32, z);
		t.size = 64;
		sb_uma_type(&sb, &t);
		for (uint32_t i = 0; i < CPUS; i++)
			sb_uma_cpu(&sb, &c);
	}
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600)) == -1 ||
	    write(fd, sb.data, sb.len) != (ssize_t)sb.len || close(fd) != 0)
		err(1, "%s", path);
	sb_free(&sb);
}

static off_t
size_of(const char *path)
{
	struct stat st;

	return (stat(path, &st) == 0 ? st.st_size : -1);
}

static void
sleep_us(long us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };

	nanosleep(&ts, NULL);
}

/*
 * One run, cut after delay_us (0: no cut): its status, the size of its
 * stdout, its stderr's line count and whether it says the file changed
 * under the tool (rather than before it looked).
 */
static int
run(const char *tool, const char *stream, const char *out, const char *errf,
    long delay_us, off_t *outsz, int *errlines, int *changed)
{
	char line[1024];
	int status;
	pid_t pid;
	FILE *f;

	if ((pid = fork()) == -1)
		err(1, "fork");
	if (pid == 0) {
		if (freopen(out, "w", stdout) == NULL ||
		    freopen(errf, "w", stderr) == NULL)
			_exit(126);
		execl(tool, tool, "-M", stream, (char *)NULL);
		_exit(127);
	}
	if (delay_us > 0) {
		sleep_us(delay_us);
		if (truncate(stream, size_of(stream) / 2) != 0)
			err(1, "truncate");
	}
	if (waitpid(pid, &status, 0) == -1)
		err(1, "waitpid");
	*outsz = size_of(out);
	*errlines = *changed = 0;
	if ((f = fopen(errf, "r")) != NULL) {
		while (fgets(line, sizeof(line), f) != NULL) {
			(*errlines)++;
			*changed |= strstr(line, "changed while") != NULL;
		}
		fclose(f);
	}
	return (status);
}

int
main(int argc, char *argv[])
{
	char stream[4096], out[4096], errf[4096];
	int status, errlines, changed, signalled = 0, partial = 0, cut = 0;
	int during = 0, whole = 0;
	off_t full, outsz;
	struct timespec t0, t1;
	long span_us, spans[3];

	if (argc != 3)
		errx(2, "usage: cutrace VMSTAT-Z TMPDIR");
	snprintf(stream, sizeof(stream), "%s/cut.stream", argv[2]);
	snprintf(out, sizeof(out), "%s/cut.out", argv[2]);
	snprintf(errf, sizeof(errf), "%s/cut.err", argv[2]);

	/*
	 * Uncut runs, each on a stream just written as the cut runs' are:
	 * the middle one's time sets the delays (the first, on a cold
	 * cache, may be far slower), their output is "whole".
	 */
	for (int u = 0; u < 3; u++) {
		write_stream(stream);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		status = run(argv[1], stream, out, errf, 0, &full, &errlines,
		    &changed);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
		    errlines != 0)
			errx(1, "%s -M %s failed uncut", argv[1], stream);
		spans[u] = (t1.tv_sec - t0.tv_sec) * 1000000L +
		    (t1.tv_nsec - t0.tv_nsec) / 1000;
	}
	span_us = spans[0] < spans[1] ?
	    (spans[1] < spans[2] ? spans[1] : spans[0] > spans[2] ? spans[0] :
	    spans[2]) :
	    (spans[0] < spans[2] ? spans[0] : spans[1] > spans[2] ? spans[1] :
	    spans[2]);

	if (!sigbus_says_where()) {
		printf("skip - a stream cut while read (this machine's SIGBUS "
		    "does not say where a cut map was read: qemu-user)\n");
		return (0);
	}
	for (int r = 0; r < RUNS; r++) {
		write_stream(stream);
		/*
		 * From at once to four times the uncut run's time: the cut
		 * itself (freeing half the file's pages) slows the run it
		 * races, so twice was not always enough to land inside it.
		 */
		status = run(argv[1], stream, out, errf,
		    1 + 4 * span_us * r / RUNS, &outsz, &errlines, &changed);
		if (WIFSIGNALED(status))
			signalled++;
		else if (WEXITSTATUS(status) == 0 && outsz == full &&
		    errlines == 0)
			whole++;
		else if (WEXITSTATUS(status) == 1 && outsz == 0 &&
		    errlines == 1) {
			cut++;
			during += changed;
		}
		else
			partial++;
	}
	unlink(stream);
	unlink(out);
	unlink(errf);
	printf("%s - a stream cut while read: no signal (%d of %d runs "
	    "signalled)\n", signalled == 0 ? "ok" : "not ok", signalled, RUNS);
	printf("%s - a stream cut while read: one error line or the whole "
	    "report (%d cut, %d of them while read, %d whole, %d otherwise)\n",
	    partial == 0 && during > 0 ? "ok" : "not ok", cut, during, whole,
	    partial);
	return (0);
}
