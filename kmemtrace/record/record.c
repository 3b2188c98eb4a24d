/*
 * record.c: kmemtrace record.  Records the live kernel's kmem events into
 * a recording directory, through a private tracefs instance that is gone
 * again on every way out: the normal stop, SIGINT, SIGTERM, SIGHUP, an
 * error (atexit), and a kill -9 (the next run removes it).
 *
 * The main thread does nothing while recording but wait for a signal:
 * they are blocked in every thread and taken by sigtimedwait(2), so a
 * signal is an ordinary event here, never a handler racing the teardown.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "record.h"
#include "tool_options.h"
#include "record_cpu.h"
#include "record_filter.h"
#include "record_meta.h"
#include "record_tracefs.h"
#include "recording/recording.h"
#include "recording/recording_loss.h"

/* Enough for the dense benchmark workload to lose nothing (README). */
#define DEFAULT_BUFFER_KIB	8192
#define MAX_BUFFER_KIB		(4UL << 20)

static const char record_usage[] =
    "usage: kmemtrace record [-fg] [-o dir] [-e slab|page|all] [-b KiB]\n"
    "                        [-c cache ...] [-t seconds] [-- command [arg ...]]\n"
    "  -o dir       the recording (default kmemtrace.data)\n"
    "  -f           replace an existing recording\n"
    "  -g           each allocation's kernel stack, and the tasks' commands\n"
    "  -e events    slab (default): kmalloc, kfree, kmem_cache_alloc,\n"
    "               kmem_cache_free; page: mm_page_alloc, mm_page_free,\n"
    "               mm_page_free_batched; all: both\n"
    "  -b KiB       ring buffer per CPU (default 8192)\n"
    "  -c cache     only this slab cache's allocations (repeatable;\n"
    "               kmalloc-N by size); frees of every cache\n"
    "  -t seconds   stop after this long\n"
    "  command      stop when it exits (else at SIGINT or SIGTERM)\n";

/* Everything the teardown must undo; one recorder per process. */
static struct recorder {
	struct record_tracefs	 tracefs;
	struct cpu_reader	*readers;
	struct kallsyms_copy	 kallsyms;
	int			 ncpus;
	int			 stop;		/* eventfd */
	int			 dir;
	/* Made by us and nothing recorded yet: an error removes it. */
	const char		*out;
	bool			 recording;
	bool			 torn_down;
} rec = { .stop = -1, .dir = -1 };

static void
stop_readers(void)
{
	uint64_t one = 1;

	record_tracefs_stop(&rec.tracefs);
	if (rec.stop >= 0 && write(rec.stop, &one, sizeof(one)) < 0)
		warn("eventfd");
	for (int i = 0; i < rec.ncpus; i++)
		cpu_reader_join(&rec.readers[i]);
}

static void
close_readers(void)
{
	for (int i = 0; rec.readers != NULL && i < rec.ncpus; i++) {
		if (rec.readers[i].raw >= 0)
			close(rec.readers[i].raw);
		if (rec.readers[i].out >= 0)
			close(rec.readers[i].out);
		rec.readers[i].raw = rec.readers[i].out = -1;
	}
}


static int remove_entry(const char *, const struct stat *, int,
    struct FTW *);

/* Every exit path: the normal one calls it, exit(3) from err(3) too. */
static void
teardown(void)
{
	if (rec.torn_down)
		return;
	rec.torn_down = true;
	stop_readers();
	close_readers();
	record_tracefs_close(&rec.tracefs);
	free(rec.readers);
	rec.readers = NULL;
	if (rec.stop >= 0)
		close(rec.stop);
	rec.stop = -1;
	if (rec.out != NULL && !rec.recording)
		nftw(rec.out, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static int
remove_entry(const char *path, const struct stat *st, int type,
    struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return (type == FTW_DP ? rmdir(path) : unlink(path));
}

/* -f: the old recording goes, but only if it is one. */
static void
replace_recording(const char *path)
{
	char line[64], file[PATH_MAX];
	FILE *f;
	bool ours;

	snprintf(file, sizeof(file), "%s/%s", path, RECORDING_MACHINE);
	ours = (f = fopen(file, "r")) != NULL &&
	    fgets(line, sizeof(line), f) != NULL &&
	    strcmp(line, RECORDING_MAGIC "\n") == 0;
	if (f != NULL)
		fclose(f);
	if (!ours)
		errx(1, "%s: not a kmemtrace recording: not replaced", path);
	if (nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS) != 0)
		err(1, "%s: cannot remove the old recording", path);
}

static int
make_output(const char *path, bool force)
{
	struct stat st;
	int dir;

	if (lstat(path, &st) == 0) {
		if (!force)
			errx(1, "%s exists (-f replaces it)", path);
		replace_recording(path);
	}
	if (mkdir(path, 0755) != 0)
		err(1, "%s", path);
	if ((dir = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		err(1, "%s", path);
	return (dir);
}

/* The readers, one per CPU the instance has a buffer for. */
static void
start_readers(const char *out, size_t page_size)
{
	char path[64];

	rec.ncpus = 0;
	for (int cpu = 0; cpu < RECORDING_MAX_CPUS; cpu++) {
		snprintf(path, sizeof(path), "per_cpu/cpu%d", cpu);
		if (!tracefs_dir_exists(rec.tracefs.instance, path))
			break;
		rec.ncpus++;
	}
	if (rec.ncpus == 0)
		errx(1, "the tracefs instance has no per-CPU buffers");
	if ((rec.readers = calloc((size_t)rec.ncpus, sizeof(*rec.readers))) ==
	    NULL)
		err(1, "calloc");
	if ((rec.stop = eventfd(0, EFD_CLOEXEC)) < 0)
		err(1, "eventfd");
	for (int cpu = 0; cpu < rec.ncpus; cpu++) {
		struct cpu_reader *r = &rec.readers[cpu];

		*r = (struct cpu_reader){ .cpu = cpu, .raw = -1, .out = -1,
		    .stop = rec.stop, .pipe = { -1, -1 },
		    .page_size = page_size };
		snprintf(path, sizeof(path), "per_cpu/cpu%d/trace_pipe_raw",
		    cpu);
		r->raw = tracefs_instance_file_open(rec.tracefs.instance, path,
		    O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (r->raw < 0)
			err(1, "%s", path);
		snprintf(path, sizeof(path), "cpu%d.raw", cpu);
		if ((r->out = openat(rec.dir, path, O_WRONLY | O_CREAT |
		    O_EXCL | O_CLOEXEC, 0644)) < 0)
			err(1, "%s/%s", out, path);
		if (cpu_reader_start(r) != 0) {
			errno = r->error;
			err(1, "%s", r->failed);
		}
	}
}

/*
 * The command, started once the events are on.  An exec that fails is
 * told through a close-on-exec pipe, before the recording goes on.
 */
static pid_t
start_command(char *const argv[], const sigset_t *oldmask)
{
	int status[2], e = 0;
	pid_t pid;

	if (pipe2(status, O_CLOEXEC) != 0)
		err(1, "pipe");
	if ((pid = fork()) < 0)
		err(1, "fork");
	if (pid == 0) {
		signal(SIGPIPE, SIG_DFL);
		sigprocmask(SIG_SETMASK, oldmask, NULL);
		close(status[0]);
		execvp(argv[0], argv);
		e = errno;
		if (write(status[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(status[1]);
	if (read(status[0], &e, sizeof(e)) == (ssize_t)sizeof(e)) {
		waitpid(pid, NULL, 0);
		errno = e;
		err(1, "%s", argv[0]);
	}
	close(status[0]);
	return (pid);
}

/*
 * Waits for the end: the command's exit, the time limit, a stop signal,
 * or a reader's failure (SIGUSR1).  Returns the reason for a partial
 * recording, or NULL.
 */
static const char *
wait_for_stop(const sigset_t *set, pid_t child, double seconds)
{
	struct timespec now, end, left;
	siginfo_t info;
	int sig;

	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += (time_t)seconds;
	end.tv_nsec += (long)((seconds - (double)(time_t)seconds) * 1e9);
	if (end.tv_nsec >= 1000000000L) {
		end.tv_sec++;
		end.tv_nsec -= 1000000000L;
	}
	for (;;) {
		if (seconds > 0) {
			clock_gettime(CLOCK_MONOTONIC, &now);
			left.tv_sec = end.tv_sec - now.tv_sec;
			left.tv_nsec = end.tv_nsec - now.tv_nsec;
			if (left.tv_nsec < 0) {
				left.tv_sec--;
				left.tv_nsec += 1000000000L;
			}
			if (left.tv_sec < 0)
				return (NULL);
		} else
			left = (struct timespec){ .tv_sec = 3600 };
		sig = sigtimedwait(set, &info, &left);
		if (sig < 0) {
			if (errno == EAGAIN && seconds > 0)
				return (NULL);
			continue;
		}
		switch (sig) {
		case SIGCHLD:
			if (child > 0 && waitpid(child, NULL, WNOHANG) == child)
				return (NULL);
			break;
		case SIGUSR1:
			return ("a reader failed");
		default:
			return (NULL);	/* SIGINT, SIGTERM, SIGHUP: the end */
		}
	}
}

/* "sleep 1" from argv, for the machine file. */
static char *
join_words(char *const argv[])
{
	size_t len = 1;
	char *s;

	for (int i = 0; argv[i] != NULL; i++)
		len += strlen(argv[i]) + 1;
	if ((s = calloc(1, len)) == NULL)
		err(1, "calloc");
	for (int i = 0; argv[i] != NULL; i++) {
		if (i > 0)
			strlcat(s, " ", len);
		strlcat(s, argv[i], len);
	}
	return (s);
}

/* What the command line asks for. */
struct record_args {
	const char	*out;
	bool		 force, slab, page, stacks;
	size_t		 kib;
	double		 seconds;
	struct record_filter filter;
	char		 caches[RECORD_MAX_CACHES * 64];
	char *const	*command;	/* NULL-terminated; argv[0] NULL: none */
};

static void
record_option(struct record_args *a, int ch)
{
	char *end;

	switch (ch) {
	case 'b':
		errno = 0;
		a->kib = strtoul(optarg, &end, 10);
		if (*optarg == '\0' || *end != '\0' || errno != 0 ||
		    a->kib < 4 || a->kib > MAX_BUFFER_KIB)
			tool_usage_error("-b %s: a size in KiB from 4 to %lu",
			    optarg, MAX_BUFFER_KIB);
		break;
	case 'c':
		if (a->filter.ncaches == RECORD_MAX_CACHES)
			tool_usage_error("-c: at most %d caches",
			    RECORD_MAX_CACHES);
		a->filter.caches[a->filter.ncaches++] = optarg;
		if (a->caches[0] != '\0')
			strlcat(a->caches, " ", sizeof(a->caches));
		strlcat(a->caches, optarg, sizeof(a->caches));
		break;
	case 'e':
		a->slab = strcmp(optarg, "slab") == 0 ||
		    strcmp(optarg, "all") == 0;
		a->page = strcmp(optarg, "page") == 0 ||
		    strcmp(optarg, "all") == 0;
		if (!a->slab && !a->page)
			tool_usage_error("-e %s: slab, page or all", optarg);
		break;
	case 'f':
		a->force = true;
		break;
	case 'g':
		a->stacks = true;
		break;
	case 'h':
		printf("%s", record_usage);
		exit(0);
	case 'o':
		a->out = optarg;
		break;
	case 't':
		errno = 0;
		a->seconds = strtod(optarg, &end);
		if (*optarg == '\0' || *end != '\0' || errno != 0 ||
		    !(a->seconds > 0 && a->seconds < 1e9))
			tool_usage_error("-t %s: a number of seconds", optarg);
		break;
	case ':':
		tool_usage_error("option -%c needs an argument", optopt);
	default:
		tool_usage_error("unknown option -%c", optopt);
	}
}

static void
parse_record_args(int argc, char *argv[], struct record_args *a)
{
	int ch;

	memset(a, 0, sizeof(*a));
	a->out = "kmemtrace.data";
	a->slab = true;
	a->kib = DEFAULT_BUFFER_KIB;
	optind = 1;
	opterr = 0;
	while ((ch = getopt(argc, argv, "+:b:c:e:fgho:t:")) != -1)
		record_option(a, ch);
	a->command = argv + optind;
}

/*
 * The instance made, its events enabled, the readers started and the
 * recording's files written, up to tracing on.
 */
static void
start_recording(struct record_args *a, struct record_machine *m,
    char *events, size_t events_len)
{
	size_t page_size;
	const char *why, *what;
	char whybuf[256];

	rec.dir = make_output(a->out, a->force);
	rec.out = a->out;
	if (atexit(teardown) != 0)
		errx(1, "atexit");
	if (record_tracefs_open(&rec.tracefs, &why) != 0)
		err(1, "%s", why);
	record_tracefs_reap();
	if (record_tracefs_instance(&rec.tracefs, a->kib, &why) != 0)
		err(1, "%s", why);
	if ((page_size = record_meta_page_size()) < 64)
		errx(1, "events/header_page: no sub-buffer size");
	if (a->filter.ncaches > 0 && !a->slab)
		errx(1, "-c chooses slab caches: record them with -e slab or "
		    "-e all");
	if (a->filter.ncaches > 0 && record_filter_make(&a->filter,
	    record_tracefs_cache_named(&rec.tracefs), whybuf,
	    sizeof(whybuf)) != 0)
		errx(1, "%s", whybuf);
	if (record_tracefs_enable(&rec.tracefs, a->slab, a->page, a->stacks,
	    &a->filter, &why) != 0)
		err(1, "%s", why);
	for (size_t i = 0; i < rec.tracefs.nevents; i++) {
		if (i > 0)
			strlcat(events, " ", events_len);
		strlcat(events, rec.tracefs.events[i], events_len);
	}
	start_readers(a->out, page_size);
	if (record_meta_start(rec.dir, &rec.tracefs, a->page, rec.ncpus,
	    &what) != 0)
		err(1, "%s/%s", a->out, what);
	*m = (struct record_machine){ .ncpus = rec.ncpus,
	    .page_size = page_size, .buffer_kib = a->kib, .events = events,
	    .command = a->command[0] != NULL ? join_words(a->command) : NULL,
	    .caches = a->caches[0] != '\0' ? a->caches : NULL,
	    .started = time(NULL), .state = "recording",
	    .why = "the recorder did not finish" };
	if (record_meta_machine(rec.dir, &rec.tracefs, m) != 0)
		err(1, "%s/%s", a->out, RECORDING_MACHINE);
}

/*
 * The readers drained and their files on the disk, the stop's files
 * written: NULL, or why the recording is partial.
 */
static const char *
finish_recording(const char *failed)
{
	static char reason[128];
	const char *what;

	stop_readers();
	if (record_meta_kallsyms_wait(&rec.kallsyms) != 0 && failed == NULL) {
		snprintf(reason, sizeof(reason), "kallsyms: %s",
		    strerror(errno));
		failed = reason;
	}
	for (int i = 0; i < rec.ncpus; i++) {
		struct cpu_reader *r = &rec.readers[i];

		if (r->error != 0) {
			snprintf(reason, sizeof(reason), "%s cpu%d.raw: %s",
			    r->failed, i, strerror(r->error));
			return (reason);
		}
	}
	if (failed == NULL && record_meta_stop(rec.dir, &rec.tracefs,
	    rec.ncpus, &what) != 0) {
		snprintf(reason, sizeof(reason), "%s: %s", what,
		    strerror(errno));
		failed = reason;
	}
	return (failed);
}

int
kmemtrace_record(int argc, char *argv[])
{
	struct record_args a;
	struct record_machine m;
	sigset_t set, oldmask;
	char events[256] = "";
	const char *failed;
	pid_t child = -1;

	parse_record_args(argc, argv, &a);
	if (geteuid() != 0)
		errx(1, "record needs root: the kernel's trace events are "
		    "root's");
	/* From here on a signal waits for sigtimedwait(). */
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, &oldmask);
	signal(SIGPIPE, SIG_IGN);

	start_recording(&a, &m, events, sizeof(events));
	if (record_meta_kallsyms_room(&rec.kallsyms, rec.dir) != 0)
		err(1, "%s/kallsyms", a.out);
	if (tracefs_instance_file_write(rec.tracefs.instance, "tracing_on",
	    "1") < 0)
		err(1, "tracing_on");
	rec.recording = true;
	/*
	 * After tracing starts: the copy allocates, and an allocation whose
	 * event came before tracing_on and whose stack trigger after it
	 * leaves a stack with no event (both guests' -g recordings did).
	 * The report leaves its allocations out (recorder-thread).
	 */
	if (record_meta_kallsyms_start(&rec.kallsyms) != 0)
		err(1, "%s/kallsyms", a.out);
	if (a.command[0] != NULL)
		child = start_command(a.command, &oldmask);
	failed = wait_for_stop(&set, child, a.seconds);
	m.stopped = time(NULL);
	failed = finish_recording(failed);
	m.recorder_thread = rec.kallsyms.tid;
	m.state = failed != NULL ? RECORDING_PARTIAL : RECORDING_COMPLETE;
	m.why = failed;
	/* On a full disk this may fail: the first one says "recording". */
	record_meta_machine(rec.dir, &rec.tracefs, &m);
	teardown();
	/*
	 * A stop that was not the command's exit (the time limit, a signal,
	 * a failure) ends the command too: it is what was being recorded.
	 */
	if (child > 0 && waitpid(child, NULL, WNOHANG) == 0) {
		kill(child, SIGTERM);
		waitpid(child, NULL, 0);
	}
	if (failed != NULL)
		errx(1, "%s: partial recording: %s", a.out, failed);
	recording_loss_summary(stderr, a.out);
	close(rec.dir);
	free((char *)m.command);
	return (0);
}
