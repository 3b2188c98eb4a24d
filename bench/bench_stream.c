/*
 * bench_stream: how fast libmemstat decodes and refreshes vm.zone_stats
 * streams, against the floor of touching every byte once (a plain 64-bit
 * word scan of the same buffer), and how much memory a decode needs.
 *
 *	bench_stream [VMSTAT-Z]		the whole table; with the path of
 *					vmstat-z, also the tool end to end
 *	bench_stream --rss ZONES CPUS	(internal) one decode, peak RSS
 */
#include <sys/wait.h>

#include <err.h>
#include <fcntl.h>
#include <spawn.h>
#include <malloc.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "timing.h"

#include "memstat.h"
#include "streambuild.h"

#define REPS	11
/* The tool and the decode alone run in turn, so drift hits both alike. */
#define TOOL_RUNS	21

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((double)ts.tv_sec + (double)ts.tv_nsec / 1e9);
}

/* A stream of distinct zones with varied, non-zero numbers. */
static void
build(struct streambuf *sb, uint32_t zones, uint32_t cpus)
{
	struct sb_stream_header h = { 1, cpus, zones, 0 };
	struct sb_uma_type_header t;
	struct sb_uma_percpu_stat c;
	uint64_t x = 0x9e3779b97f4a7c15ULL;

	sb_init(sb, false);
	sb_reserve(sb, 16 + (size_t)zones * (120 + 64 * (size_t)cpus));
	sb_header(sb, &h);
	for (uint32_t z = 0; z < zones; z++) {
		memset(&t, 0, sizeof(t));
		snprintf(t.name, sizeof(t.name), "zone-%07" PRIu32, z);
		t.size = t.rsize = 16u << (z % 10);
		t.limit = z * 3;
		t.keg_free = z % 97;
		t.zone_free = z % 13;
		t.zone_flags = z % 5 == 0;
		t.allocs = 1000000 + z;
		t.frees = 999000 + z;
		sb_uma_type(sb, &t);
		for (uint32_t i = 0; i < cpus; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			memset(&c, 0, sizeof(c));
			c.allocs = x & 0xffff;
			c.frees = (x >> 16) & 0xffff;
			c.cache_free = (x >> 32) & 0xff;
			sb_uma_cpu(sb, &c);
		}
	}
}

static uint64_t
scan(const unsigned char *p, size_t len)
{
	uint64_t sum = 0, w;

	for (size_t i = 0; i + 8 <= len; i += 8) {
		memcpy(&w, p + i, 8);
		sum += w;
	}
	return (sum);
}

/* The high-water RSS of this process image, from /proc/self/status. */
static long
vm_hwm_kib(void)
{
	char line[256];
	long kib = -1;
	FILE *f;

	if ((f = fopen("/proc/self/status", "r")) == NULL)
		return (-1);
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "VmHWM: %ld kB", &kib) == 1)
			break;
	fclose(f);
	return (kib);
}

/*
 * One decode in a fresh process image: its time, cold (every page the list
 * needs is faulted in), and its peak RSS.  The RSS is read inside that image
 * (VmHWM): getrusage's maxrss would carry this process's own high-water mark
 * across the fork and exec.
 */
static long
cold_decode(uint32_t zones, uint32_t cpus, double *secs)
{
	char exe[4096], cmd[4200];
	long kib = -1;
	ssize_t n;
	FILE *p;

	if ((n = readlink("/proc/self/exe", exe, sizeof(exe) - 1)) == -1)
		err(1, "/proc/self/exe");
	exe[n] = '\0';
	snprintf(cmd, sizeof(cmd), "'%s' --rss %" PRIu32 " %" PRIu32, exe,
	    zones, cpus);
	if ((p = popen(cmd, "r")) == NULL)
		err(1, "popen");
	if (fscanf(p, "%ld %lf", &kib, secs) != 2 || pclose(p) != 0)
		errx(1, "rss child failed");
	return (kib);
}

static int
rss_child(uint32_t zones, uint32_t cpus)
{
	struct memory_type_list *mtlp;
	struct streambuf sb;
	double t0, t;

	build(&sb, zones, cpus);
	t0 = now();
	if ((mtlp = memstat_mtl_alloc()) == NULL ||
	    memstat_stream_uma(mtlp, sb.data, sb.len) != 0)
		return (1);
	t = now() - t0;
	printf("%ld %.9f\n", vm_hwm_kib(), t);
	memstat_mtl_free(mtlp);
	sb_free(&sb);
	return (0);
}

/* 100000 as "100,000". */
static const char *
thousands(uint32_t n)
{
	static char buf[16];

	if (n >= 1000)
		snprintf(buf, sizeof(buf), "%" PRIu32 ",%03" PRIu32, n / 1000,
		    n % 1000);
	else
		snprintf(buf, sizeof(buf), "%" PRIu32, n);
	return (buf);
}

/*
 * How many times one sample repeats its operation: enough to cover
 * SAMPLE_BYTES of stream, so that a small stream's sample is not a few
 * microseconds at the mercy of one interrupt.
 */
#define SAMPLE_BYTES	(32u << 20)

static void
run(uint32_t zones, uint32_t cpus)
{
	double t_scan[REPS], t_dec[REPS], t_ref[REPS], t0, scan_s, dec_s, ref_s;
	double cold_s;
	struct memory_type_list *mtlp;
	volatile uint64_t sink;
	struct streambuf sb;
	size_t k, inner;
	long rss;

	build(&sb, zones, cpus);
	inner = sb.len >= SAMPLE_BYTES ? 1 : SAMPLE_BYTES / sb.len;
	for (int r = 0; r < REPS; r++) {
		t0 = now();
		for (k = 0; k < inner; k++)
			sink = scan(sb.data, sb.len);
		t_scan[r] = (now() - t0) / (double)inner;

		/*
		 * Each decode goes into a new list and each refresh into that
		 * list again, timed alone; the list is freed untimed, so the
		 * next one finds the heap warm, as the scan finds its buffer.
		 */
		t_dec[r] = t_ref[r] = 0;
		for (k = 0; k < inner; k++) {
			if ((mtlp = memstat_mtl_alloc()) == NULL)
				err(1, "memstat_mtl_alloc");
			t0 = now();
			if (memstat_stream_uma(mtlp, sb.data, sb.len) != 0)
				errx(1, "decode: %s", memstat_strerror(
				    memstat_mtl_geterror(mtlp)));
			t_dec[r] += now() - t0;
			t0 = now();
			if (memstat_stream_uma(mtlp, sb.data, sb.len) != 0)
				errx(1, "refresh failed");
			t_ref[r] += now() - t0;
			memstat_mtl_free(mtlp);
		}
		t_dec[r] /= (double)inner;
		t_ref[r] /= (double)inner;
	}
	(void)sink;
	scan_s = median(t_scan, REPS);
	dec_s = median(t_dec, REPS);
	ref_s = median(t_ref, REPS);
	rss = cold_decode(zones, cpus, &cold_s);
	printf("| %s × %" PRIu32 " | %.1f MiB | %.2f ms | %.2f ms | %.2f ms |"
	    " %.2f ms | %.0f ns | **%.2f** | %.2f | %.1f MiB (%.2f× the stream)"
	    " |\n", thousands(zones), cpus, sb.len / 1048576.0, scan_s * 1e3,
	    dec_s * 1e3, ref_s * 1e3, cold_s * 1e3, dec_s / zones * 1e9,
	    dec_s / scan_s, ref_s / dec_s, rss / 1024.0,
	    rss * 1024.0 / (double)sb.len);
	fflush(stdout);
	sb_free(&sb);
}

/* Wall time of one run of argv with stdout to /dev/null. */
static double
time_command(char *const argv[])
{
	posix_spawn_file_actions_t fa;
	double t0, t;
	int status;
	pid_t pid;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	t0 = now();
	if (posix_spawn(&pid, argv[0], &fa, NULL, argv, NULL) != 0)
		err(1, "%s", argv[0]);
	if (waitpid(pid, &status, 0) == -1 || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		errx(1, "%s failed", argv[0]);
	t = now() - t0;
	posix_spawn_file_actions_destroy(&fa);
	return (t);
}

/*
 * vmstat-z -M on a saved stream, end to end (process start, reading the
 * file, decoding, formatting every row), against the decode alone in a
 * fresh process, where it pays the same page faults.
 */
static void
run_tool(const char *vmstat_z, uint32_t zones, uint32_t cpus)
{
	char path[] = "/tmp/memstat-bench-XXXXXX";
	double t_tool[TOOL_RUNS], t_dec[TOOL_RUNS], ratio[TOOL_RUNS];
	double tool_s, dec_s;
	struct streambuf sb;
	int fd;

	build(&sb, zones, cpus);
	if ((fd = mkstemp(path)) == -1)
		err(1, "mkstemp");
	if (write(fd, sb.data, sb.len) != (ssize_t)sb.len || close(fd) != 0)
		err(1, "%s", path);
	sb_free(&sb);
	char *argv[] = { (char *)vmstat_z, "-M", path, NULL };
	for (int r = 0; r < TOOL_RUNS; r++) {
		t_tool[r] = time_command(argv);
		(void)cold_decode(zones, cpus, &t_dec[r]);
		ratio[r] = t_tool[r] / t_dec[r];
	}
	unlink(path);
	tool_s = median(t_tool, TOOL_RUNS);
	dec_s = median(t_dec, TOOL_RUNS);
	printf("| `vmstat-z -M`, %s zones × %" PRIu32 " CPUs | %.1f ms |"
	    " %.1f ms | **%.2f×** (target ≤ 1.5×) |\n", thousands(zones), cpus,
	    tool_s * 1e3, dec_s * 1e3, median(ratio, TOOL_RUNS));
}

int
main(int argc, char *argv[])
{
	if (argc == 4 && strcmp(argv[1], "--rss") == 0)
		return (rss_child((uint32_t)strtoul(argv[2], NULL, 10),
		    (uint32_t)strtoul(argv[3], NULL, 10)));

	/*
	 * Keep freed memory in this process, so that every timed decode finds
	 * a warm heap, as the scan finds a warm buffer; the cold column times
	 * a first decode in a fresh process, page faults included.
	 */
	mallopt(M_TRIM_THRESHOLD, 1 << 30);
	mallopt(M_MMAP_THRESHOLD, 64 << 20);
	printf("The stream decoder, `memstat_stream_uma()`, medians of %d "
	    "samples:\n\n", REPS);
	printf("| zones × CPUs | stream | scan | decode | refresh | cold decode"
	    " | decode per zone | decode ÷ scan | refresh ÷ decode | peak RSS "
	    "|\n");
	printf("|---|---|---|---|---|---|---|---|---|---|\n");
	run(10000, 256);
	run(1000, 4);
	run(10000, 4);
	run(100000, 4);
	if (argc == 2) {
		printf("\nThe tool end to end on that stream saved to a file, "
		    "medians of %d runs, each beside a decode alone (the "
		    "ratio is the median of those pairs'):\n\n", TOOL_RUNS);
		printf("| command | end to end | decode alone, fresh process |"
		    " ratio |\n|---|---|---|---|\n");
		run_tool(argv[1], 10000, 256);
	}
	return (0);
}
