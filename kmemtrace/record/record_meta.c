/*
 * record_meta.c: the recording's descriptions, symbols and facts.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ctype.h>
#include <dirent.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "record_meta.h"
#include "recording/recording.h"

/*
 * The room kept for kallsyms while it is copied beside the events: a
 * Debian kernel's is 5 MB, one with every module loaded twice that.
 */
#define KALLSYMS_ROOM	((off_t)32 << 20)

/*
 * Copies src (a tracefs or /proc file: read to its end) to out, *written
 * bytes: 0, or -1 with errno.
 */
static int
copy_to(int out, const char *src, off_t *written)
{
	char buf[65536];
	int in, rc = -1;
	ssize_t n;

	*written = 0;
	if ((in = open(src, O_RDONLY | O_CLOEXEC)) < 0)
		return (-1);
	/*
	 * A /proc file gives a page a read: the buffer is filled before it
	 * is written, a write per 64 KiB rather than per read.
	 */
	for (bool end = false; !end;) {
		size_t have = 0;

		while (have < sizeof(buf) && (n = read(in, buf + have,
		    sizeof(buf) - have)) != 0) {
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0)
				goto done;
			have += (size_t)n;
		}
		end = have < sizeof(buf);
		for (size_t off = 0; off < have;) {
			ssize_t m = write(out, buf + off, have - off);

			if (m < 0 && errno == EINTR)
				continue;
			if (m <= 0) {
				if (m == 0)
					errno = ENOSPC;
				goto done;
			}
			off += (size_t)m;
			*written += m;
		}
	}
	rc = 0;
done:
	close(in);
	return (rc);
}

/* Copies src (a tracefs or /proc file: read to its end) to dir/name. */
static int
copy_file(int dir, const char *name, const char *src)
{
	off_t written;
	int out, rc;

	if ((out = openat(dir, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0644)) < 0)
		return (-1);
	rc = copy_to(out, src, &written);
	if (close(out) != 0)
		rc = -1;
	return (rc);
}

static int
copy_tracefs(int dir, const char *name, struct tracefs_instance *instance,
    const char *file)
{
	char *path = tracefs_instance_get_file(instance, file);
	int rc;

	if (path == NULL)
		return (-1);
	rc = copy_file(dir, name, path);
	tracefs_put_tracing_file(path);
	return (rc);
}

static int
mkdir_p(int dir, const char *path)
{
	char buf[PATH_MAX], *p;

	if (strlcpy(buf, path, sizeof(buf)) >= sizeof(buf)) {
		errno = ENAMETOOLONG;
		return (-1);
	}
	for (p = buf + 1; *p != '\0'; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdirat(dir, buf, 0755) != 0 && errno != EEXIST)
			return (-1);
		*p = '/';
	}
	if (mkdirat(dir, buf, 0755) != 0 && errno != EEXIST)
		return (-1);
	return (0);
}

/*
 * /proc/pagetypeinfo's first "Node ..., zone ..., type NAME" lines name
 * the migrate types in the kernel's order: that order is what
 * mm_page_alloc's migratetype counts in (perf kmem uses a 2015 one).
 */
static int
save_migratetypes(int dir)
{
	char line[1024], first_zone[128] = "", zone[128], type[64];
	FILE *in, *out;
	int fd, rc = 0;

	if ((in = fopen("/proc/pagetypeinfo", "r")) == NULL)
		return (0);	/* not a failure: the report names numbers */
	if ((fd = openat(dir, "migratetypes", O_WRONLY | O_CREAT | O_TRUNC |
	    O_CLOEXEC, 0644)) < 0 || (out = fdopen(fd, "w")) == NULL) {
		if (fd >= 0)
			close(fd);
		fclose(in);
		return (-1);
	}
	while (fgets(line, sizeof(line), in) != NULL) {
		if (sscanf(line, "Node %*d, zone %127[^,], type %63s", zone,
		    type) != 2)
			continue;
		if (first_zone[0] == '\0')
			strlcpy(first_zone, zone, sizeof(first_zone));
		else if (strcmp(zone, first_zone) != 0)
			break;
		fprintf(out, "%s\n", type);
	}
	if (fclose(out) != 0)
		rc = -1;
	fclose(in);
	return (rc);
}

/* Each CPU's NUMA node, from sysfs's cpuN/nodeM links: "cpu node". */
static int
save_cpu_nodes(int dir, int ncpus)
{
	char path[64];
	struct dirent *d;
	DIR *cpu;
	FILE *out;
	int fd, rc = 0;

	if ((fd = openat(dir, "cpu-nodes", O_WRONLY | O_CREAT | O_TRUNC |
	    O_CLOEXEC, 0644)) < 0 || (out = fdopen(fd, "w")) == NULL) {
		if (fd >= 0)
			close(fd);
		return (-1);
	}
	for (int c = 0; c < ncpus; c++) {
		int node = 0;	/* no NUMA: everything is node 0 */

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", c);
		if ((cpu = opendir(path)) == NULL)
			continue;
		while ((d = readdir(cpu)) != NULL)
			if (strncmp(d->d_name, "node", 4) == 0 &&
			    isdigit((unsigned char)d->d_name[4]))
				node = atoi(d->d_name + 4);
		closedir(cpu);
		fprintf(out, "%d %d\n", c, node);
	}
	if (fclose(out) != 0)
		rc = -1;
	return (rc);
}

/*
 * Every task's command at the start, as saved_cmdlines lines ("pid
 * command"): the tasks that allocate during the recording but were made
 * before it.  The task events tell of those made or renamed after.
 */
static int
save_tasks(int dir)
{
	char path[300], sub[600], comm[64];
	struct dirent *p, *t;
	DIR *procs, *tasks;
	FILE *out, *f;
	int fd, rc = 0;

	if ((procs = opendir("/proc")) == NULL)
		return (-1);
	if ((fd = openat(dir, "tasks", O_WRONLY | O_CREAT | O_TRUNC |
	    O_CLOEXEC, 0644)) < 0 || (out = fdopen(fd, "w")) == NULL) {
		if (fd >= 0)
			close(fd);
		closedir(procs);
		return (-1);
	}
	while ((p = readdir(procs)) != NULL) {
		if (!isdigit((unsigned char)p->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/task", p->d_name);
		if ((tasks = opendir(path)) == NULL)
			continue;	/* gone meanwhile */
		while ((t = readdir(tasks)) != NULL) {
			if (!isdigit((unsigned char)t->d_name[0]))
				continue;
			snprintf(sub, sizeof(sub), "%s/%s/comm", path,
			    t->d_name);
			if ((f = fopen(sub, "r")) == NULL)
				continue;
			if (fgets(comm, sizeof(comm), f) != NULL &&
			    comm[0] != '\n')
				fprintf(out, "%s %s", t->d_name, comm);
			fclose(f);
		}
		closedir(tasks);
	}
	closedir(procs);
	if (fclose(out) != 0)
		rc = -1;
	return (rc);
}

/* system/event's format from the top level (an instance has no ftrace). */
static int
copy_format(int dir, const char *system, const char *event,
    struct tracefs_instance *instance)
{
	char name[128];

	snprintf(name, sizeof(name), "events/%s/%s", system, event);
	if (mkdir_p(dir, name) != 0)
		return (-1);
	strlcat(name, "/format", sizeof(name));
	return (copy_tracefs(dir, name, instance, name));
}

int
record_meta_start(int dir, const struct record_tracefs *t, bool page,
    int ncpus, const char **what)
{

	*what = "events";
	if (mkdir_p(dir, "events/kmem") != 0)
		return (-1);
	*what = "events/header_page";
	if (copy_tracefs(dir, *what, NULL, *what) != 0)
		return (-1);
	*what = "events/header_event";
	if (copy_tracefs(dir, *what, NULL, *what) != 0)
		return (-1);
	*what = "events/kmem";
	for (size_t i = 0; i < t->nevents; i++)
		if (copy_format(dir, "kmem", t->events[i], t->instance) != 0)
			return (-1);
	*what = "events/task";
	for (size_t i = 0; i < t->ntasks; i++)
		if (copy_format(dir, "task", t->tasks[i], t->instance) != 0)
			return (-1);
	if (t->nstacked > 0) {
		*what = "events/ftrace/kernel_stack";
		if (copy_format(dir, "ftrace", "kernel_stack", NULL) != 0)
			return (-1);
		*what = "tasks";
		if (save_tasks(dir) != 0)
			return (-1);
	}
	*what = "migratetypes";
	if (page && save_migratetypes(dir) != 0)
		return (-1);
	*what = "cpu-nodes";
	if (save_cpu_nodes(dir, ncpus) != 0)
		return (-1);
	return (0);
}

static void *
kallsyms_main(void *arg)
{
	struct kallsyms_copy *c = arg;

	c->tid = gettid();
	if (copy_to(c->fd, "/proc/kallsyms", &c->written) != 0)
		c->error = errno != 0 ? errno : EIO;
	return (NULL);
}

int
record_meta_kallsyms_room(struct kallsyms_copy *c, int dir)
{
	*c = (struct kallsyms_copy){ .fd = -1 };
	if ((c->fd = openat(dir, "kallsyms", O_WRONLY | O_CREAT | O_TRUNC |
	    O_CLOEXEC, 0644)) < 0)
		return (-1);
	/*
	 * The events must not cut kallsyms when they fill the disk: its room
	 * is kept first.  Where it cannot be (no room, or no fallocate), it
	 * is copied now, before tracing starts, as the copy beside the
	 * events could be cut.
	 */
	if (fallocate(c->fd, FALLOC_FL_KEEP_SIZE, 0, KALLSYMS_ROOM) != 0) {
		int rc = copy_to(c->fd, "/proc/kallsyms", &c->written);

		if (close(c->fd) != 0)
			rc = -1;
		c->fd = -1;
		return (rc);
	}
	c->room = true;
	return (0);
}

int
record_meta_kallsyms_start(struct kallsyms_copy *c)
{
	if (!c->room)
		return (0);
	if ((errno = pthread_create(&c->thread, NULL, kallsyms_main, c)) !=
	    0)
		return (-1);
	c->started = true;
	return (0);
}

int
record_meta_kallsyms_wait(struct kallsyms_copy *c)
{
	if (!c->room)
		return (0);
	if (c->started)
		pthread_join(c->thread, NULL);
	c->started = c->room = false;
	/*
	 * The room kept and not used, given back: ext4 frees it past the
	 * end at a truncate to the same size, tmpfs at a punched hole.
	 */
	if (c->error == 0 && c->written < KALLSYMS_ROOM &&
	    (ftruncate(c->fd, c->written) != 0 || fallocate(c->fd,
	    FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, c->written,
	    KALLSYMS_ROOM - c->written) != 0) && errno != EOPNOTSUPP)
		c->error = errno;
	if (close(c->fd) != 0 && c->error == 0)
		c->error = errno;
	c->fd = -1;
	errno = c->error;
	return (c->error != 0 ? -1 : 0);
}

int
record_meta_stop(int dir, const struct record_tracefs *t, int ncpus,
    const char **what)
{
	char name[64], file[64];

	*what = "saved_cmdlines";
	if (copy_tracefs(dir, "saved_cmdlines", NULL, "saved_cmdlines") != 0)
		return (-1);
	*what = "stats";
	if (mkdirat(dir, "stats", 0755) != 0 && errno != EEXIST)
		return (-1);
	for (int cpu = 0; cpu < ncpus; cpu++) {
		snprintf(name, sizeof(name), "stats/cpu%d", cpu);
		snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
		if (copy_tracefs(dir, name, t->instance, file) != 0)
			return (-1);
	}
	return (0);
}

/* The clock in brackets in trace_clock's "[local] global ...". */
static void
trace_clock(struct tracefs_instance *instance, char *buf, size_t len)
{
	char *text = tracefs_instance_file_read(instance, "trace_clock", NULL);
	char *open, *close;

	strlcpy(buf, "unknown", len);
	if (text == NULL)
		return;
	if ((open = strchr(text, '[')) != NULL &&
	    (close = strchr(open, ']')) != NULL) {
		*close = '\0';
		strlcpy(buf, open + 1, len);
	}
	free(text);
}

size_t
record_meta_page_size(void)
{
	char *text = tracefs_instance_file_read(NULL, "events/header_page",
	    NULL);
	unsigned offset, size;
	char *p;
	size_t page = 0;

	if (text == NULL)
		return (0);
	if ((p = strstr(text, "char data;")) != NULL &&
	    sscanf(p, "char data;\toffset:%u;\tsize:%u;", &offset, &size) == 2)
		page = (size_t)offset + size;
	free(text);
	return (page);
}

int
record_meta_machine(int dir, const struct record_tracefs *t,
    const struct record_machine *m)
{
	char clock[32];
	struct utsname u;
	FILE *f;
	int fd;

	if (uname(&u) != 0)
		return (-1);
	trace_clock(t->instance, clock, sizeof(clock));
	if ((fd = openat(dir, RECORDING_MACHINE ".new", O_WRONLY | O_CREAT |
	    O_TRUNC | O_CLOEXEC, 0644)) < 0)
		return (-1);
	if ((f = fdopen(fd, "w")) == NULL) {
		close(fd);
		unlinkat(dir, RECORDING_MACHINE ".new", 0);
		return (-1);
	}
	fprintf(f, "%s\n", RECORDING_MAGIC);
	fprintf(f, "state: %s%s%s\n", m->state, m->why != NULL ? ": " : "",
	    m->why != NULL ? m->why : "");
	fprintf(f, "kernel: %s\n", u.release);
	fprintf(f, "architecture: %s\n", u.machine);
	fprintf(f, "page-size: %ld\n", sysconf(_SC_PAGESIZE));
	fprintf(f, "sub-buffer-size: %zu\n", m->page_size);
	fprintf(f, "long-size: %zu\n", sizeof(long));
	fprintf(f, "byte-order: %s\n", BYTE_ORDER == LITTLE_ENDIAN ?
	    "little" : "big");
	fprintf(f, "cpus: %d\n", m->ncpus);
	fprintf(f, "trace-clock: %s\n", clock);
	fprintf(f, "buffer-size-kb: %zu\n", m->buffer_kib);
	fprintf(f, "events: %s\n", m->events);
	if (t->nstacked > 0) {
		fprintf(f, "stacks:");
		for (size_t i = 0; i < t->nstacked; i++)
			fprintf(f, " %s", t->stacked[i]);
		fprintf(f, "\n");
	}
	if (m->command != NULL)
		fprintf(f, "command: %s\n", m->command);
	if (m->caches != NULL)
		fprintf(f, "caches: %s\n", m->caches);
	/* Its allocations are the recorder's: the report leaves them out. */
	if (m->recorder_thread > 0)
		fprintf(f, "recorder-thread: %d\n", (int)m->recorder_thread);
	fprintf(f, "started: %lld\n", (long long)m->started);
	if (m->stopped != 0)
		fprintf(f, "stopped: %lld\n", (long long)m->stopped);
	if (fclose(f) != 0) {
		/* A full disk: the machine file written first stays. */
		unlinkat(dir, RECORDING_MACHINE ".new", 0);
		return (-1);
	}
	return (renameat(dir, RECORDING_MACHINE ".new", dir,
	    RECORDING_MACHINE));
}
