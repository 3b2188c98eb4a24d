/*
 * record_tracefs.c: our instance in tracefs, made and unmade.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record_tracefs.h"

#define TRACEFS_MOUNT	"/sys/kernel/tracing"

/* Where tracefs is mounted, or NULL. */
static char *
tracefs_mount_point(void)
{
	struct mntent *m;
	char *dir = NULL;
	FILE *f;

	if ((f = setmntent("/proc/self/mounts", "r")) == NULL)
		return (NULL);
	while (dir == NULL && (m = getmntent(f)) != NULL)
		if (strcmp(m->mnt_type, "tracefs") == 0)
			dir = strdup(m->mnt_dir);
	endmntent(f);
	return (dir);
}

int
record_tracefs_open(struct record_tracefs *t, const char **why)
{
	char *dir;

	if ((dir = tracefs_mount_point()) != NULL) {
		free(dir);
		return (0);
	}
	if (mount("nodev", TRACEFS_MOUNT, "tracefs", 0, NULL) != 0) {
		*why = errno == ENODEV ? "this kernel has no tracefs" :
		    "cannot mount tracefs on " TRACEFS_MOUNT;
		return (-1);
	}
	if ((t->mounted = strdup(TRACEFS_MOUNT)) == NULL) {
		umount2(TRACEFS_MOUNT, 0);
		*why = "out of memory";
		return (-1);
	}
	return (0);
}

/* Whether the recorder that made instance kmemtrace-PID is gone. */
static bool
recorder_gone(const char *name)
{
	char path[64], comm[32];
	const char *p = name + strlen(INSTANCE_PREFIX);
	long pid;
	char *end;
	FILE *f;
	bool gone;

	if (!isdigit((unsigned char)*p))
		return (false);
	errno = 0;
	pid = strtol(p, &end, 10);
	if (*end != '\0' || errno != 0 || pid <= 0 || pid == getpid())
		return (false);
	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	if ((f = fopen(path, "r")) == NULL)
		return (errno == ENOENT);
	/* The pid lives on in another program: the recorder is gone. */
	gone = fgets(comm, sizeof(comm), f) == NULL ||
	    strcmp(comm, "kmemtrace\n") != 0;
	fclose(f);
	return (gone);
}

void
record_tracefs_reap(void)
{
	const char *top = tracefs_tracing_dir();
	char path[PATH_MAX];
	struct dirent *d;
	DIR *dir;

	if (top == NULL)
		return;
	snprintf(path, sizeof(path), "%s/instances", top);
	if ((dir = opendir(path)) == NULL)
		return;
	while ((d = readdir(dir)) != NULL) {
		if (strncmp(d->d_name, INSTANCE_PREFIX,
		    strlen(INSTANCE_PREFIX)) != 0 || !recorder_gone(d->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/instances/%s", top,
		    d->d_name);
		if (rmdir(path) == 0)
			fprintf(stderr, "kmemtrace: removed the tracefs "
			    "instance %s, left by a recorder that is gone\n",
			    d->d_name);
	}
	closedir(dir);
}

static int
write_setting(struct record_tracefs *t, const char *file, const char *value)
{
	return (tracefs_instance_file_write(t->instance, file, value) < 0 ?
	    -1 : 0);
}

int
record_tracefs_instance(struct record_tracefs *t, size_t kib,
    const char **why)
{
	char value[32];

	snprintf(t->name, sizeof(t->name), INSTANCE_PREFIX "%ld",
	    (long)getpid());
	if (tracefs_instance_exists(t->name)) {
		*why = "an instance with our name exists";
		errno = EEXIST;
		return (-1);
	}
	if ((t->instance = tracefs_instance_create(t->name)) == NULL) {
		*why = "cannot create a tracefs instance";
		return (-1);
	}
	snprintf(value, sizeof(value), "%zu", kib);
	/*
	 * Overwrite off: when the readers fall behind, the kernel drops the
	 * newest events and counts them ("dropped events"), where overwrite
	 * would lose the oldest ones behind our back.
	 */
	if (write_setting(t, "options/overwrite", "0") != 0 ||
	    write_setting(t, "buffer_size_kb", value) != 0 ||
	    write_setting(t, "buffer_percent", "50") != 0) {
		*why = "cannot set up the tracefs instance's buffers";
		return (-1);
	}
	return (0);
}

/*
 * The stacktrace trigger: its stack record follows the event's in the
 * same CPU's buffer.  A trigger is tested apart from the event's filter
 * (and fires even for an event it discards), so it gets the same one.
 */
static int
set_stack_trigger(struct record_tracefs *t, const char *name,
    const char *filter)
{
	char trigger[sizeof(((struct record_filter *)0)->cache) + 32];

	if (t->nstacked == sizeof(t->stacked) / sizeof(t->stacked[0])) {
		errno = E2BIG;
		return (-1);
	}
	snprintf(trigger, sizeof(trigger), "stacktrace%s%s",
	    filter != NULL ? " if " : "", filter != NULL ? filter : "");
	if (tracefs_event_file_write(t->instance, "kmem", name, "trigger",
	    trigger) < 0)
		return (-1);
	t->stacked[t->nstacked++] = name;
	return (0);
}

/*
 * One event of the instance, by its own enable file: tracefs_event_enable()
 * takes regular expressions and reads every system and event of the
 * kernel to match them, which costs the recorder's start more than the
 * kernel's enabling does.
 */
static int
enable_event(struct record_tracefs *t, const char *system, const char *name)
{
	return (tracefs_event_file_write(t->instance, system, name, "enable",
	    "1") < 0 ? -1 : 0);
}

/*
 * Enables those of the events that this kernel has, with filter (NULL:
 * none; "": the event is not wanted at all), and a stack for each if
 * stacks.
 */
static int
enable_events(struct record_tracefs *t, const char *const *names, size_t n,
    const char *filter, bool stacks)
{
	char path[64];

	for (size_t i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "events/kmem/%s", names[i]);
		if ((filter != NULL && filter[0] == '\0') ||
		    !tracefs_dir_exists(t->instance, path))
			continue;
		if (filter != NULL && tracefs_event_file_write(t->instance,
		    "kmem", names[i], "filter", filter) < 0)
			return (-1);
		if (t->nevents == sizeof(t->events) / sizeof(t->events[0])) {
			errno = E2BIG;
			return (-1);
		}
		if (enable_event(t, "kmem", names[i]) != 0)
			return (-1);
		t->events[t->nevents++] = names[i];
		if (stacks && set_stack_trigger(t, names[i], filter) != 0)
			return (-1);
	}
	return (0);
}

/* The task events, which name the commands of tasks made or renamed. */
static int
enable_task_events(struct record_tracefs *t)
{
	static const char *const names[] = { "task_newtask", "task_rename" };

	for (size_t i = 0; i < 2; i++) {
		if (!tracefs_dir_exists(t->instance, i == 0 ?
		    "events/task/task_newtask" : "events/task/task_rename"))
			continue;
		if (enable_event(t, "task", names[i]) != 0)
			return (-1);
		t->tasks[t->ntasks++] = names[i];
	}
	return (0);
}

bool
record_tracefs_cache_named(struct record_tracefs *t)
{
	char *format = tracefs_event_file_read(t->instance, "kmem",
	    "kmem_cache_alloc", "format", NULL);
	bool named = format != NULL && strstr(format, " name;") != NULL;

	free(format);
	return (named);
}

int
record_tracefs_enable(struct record_tracefs *t, bool slab, bool page,
    bool stacks, const struct record_filter *filter, const char **why)
{
	/* Until 6.0 the _node twins; since 6.1 node is a field. */
	static const char *const kmallocs[] = { "kmalloc", "kmalloc_node" };
	static const char *const cache_allocs[] = { "kmem_cache_alloc",
	    "kmem_cache_alloc_node" };
	static const char *const frees[] = { "kfree", "kmem_cache_free" };
	/* free_unref_folios() tells its frees as mm_page_free_batched. */
	static const char *const pages[] = { "mm_page_alloc", "mm_page_free",
	    "mm_page_free_batched" };
	bool f = filter != NULL && filter->ncaches > 0;

	t->nevents = t->nstacked = t->ntasks = 0;
	/* Tracing off first: no event is recorded before its stack can be. */
	record_tracefs_stop(t);
	if ((slab && (enable_events(t, kmallocs, 2, f ? filter->kmalloc :
	    NULL, stacks) != 0 || enable_events(t, cache_allocs, 2, f ?
	    filter->cache : NULL, stacks) != 0 || enable_events(t, frees, 2,
	    NULL, false) != 0)) ||
	    (page && (enable_events(t, pages, 1, NULL, stacks) != 0 ||
	    enable_events(t, pages + 1, 2, NULL, false) != 0))) {
		*why = stacks ? "cannot enable the kmem trace events with "
		    "their stacktrace triggers" :
		    "cannot enable the kmem trace events";
		return (-1);
	}
	if (stacks && enable_task_events(t) != 0) {
		*why = "cannot enable the task trace events";
		return (-1);
	}
	if (t->nevents == 0) {
		*why = "this kernel has no kmem trace events";
		errno = ENOENT;
		return (-1);
	}
	return (0);
}

void
record_tracefs_stop(struct record_tracefs *t)
{
	if (t->instance != NULL)
		write_setting(t, "tracing_on", "0");
}

void
record_tracefs_close(struct record_tracefs *t)
{
	if (t->instance != NULL) {
		record_tracefs_stop(t);
		/* A trigger keeps its event soft-enabled: it goes first. */
		for (size_t i = 0; i < t->nstacked; i++)
			tracefs_event_file_write(t->instance, "kmem",
			    t->stacked[i], "trigger", "!stacktrace");
		t->nstacked = 0;
		/* Every event of the instance, ours all, in one write. */
		write_setting(t, "events/enable", "0");
		/* rmdir is refused while a file in it is open: ours are not. */
		for (int i = 0; tracefs_instance_destroy(t->instance) != 0 &&
		    errno == EBUSY && i < 50; i++)
			usleep(20000);
		tracefs_instance_free(t->instance);
		t->instance = NULL;
	}
	if (t->mounted != NULL) {
		/* Busy: someone else uses it now; it is theirs. */
		umount2(t->mounted, 0);
		free(t->mounted);
		t->mounted = NULL;
	}
}
