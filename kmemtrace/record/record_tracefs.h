/*
 * record_tracefs.h: the kernel state a recording needs, and the undoing of
 * it: tracefs mounted if it was not, a private instance named for our pid
 * (kmemtrace-PID) with its buffers and kmem events, instances left by
 * recorders that were killed.  Nothing else in tracefs is touched.
 */
#ifndef RECORD_TRACEFS_H
#define RECORD_TRACEFS_H

#include <stdbool.h>
#include <stddef.h>

#include <tracefs.h>

#include "record_filter.h"

#define INSTANCE_PREFIX	"kmemtrace-"

/* The kmem events kmemtrace knows, on any kernel: kmalloc, ... */
#define RECORD_MAX_EVENTS	12

struct record_tracefs {
	char			*mounted;	/* where we mounted tracefs */
	struct tracefs_instance	*instance;	/* ours, or NULL */
	char			 name[32];
	const char		*events[RECORD_MAX_EVENTS];	/* kmem's */
	size_t			 nevents;
	/*
	 * With a stacktrace trigger: any allocation event, five of them
	 * until 6.0 (kmalloc, kmem_cache_alloc, their _node twins and
	 * mm_page_alloc); an array of four overflowed on 5.10.
	 */
	const char		*stacked[RECORD_MAX_EVENTS];
	size_t			 nstacked;
	const char		*tasks[2];	/* task_newtask, task_rename */
	size_t			 ntasks;
};

/*
 * Finds tracefs or mounts it at /sys/kernel/tracing.  -1 with errno and a
 * reason in why.
 */
int	record_tracefs_open(struct record_tracefs *t, const char **why);
/* Removes instances whose recorder is gone, saying so on stderr. */
void	record_tracefs_reap(void);
/*
 * Creates our instance: buffer of kib KiB per CPU, overwrite off (the
 * kernel counts what it drops), buffer_percent for the readers' wake-ups.
 */
int	record_tracefs_instance(struct record_tracefs *t, size_t kib,
	    const char **why);
/*
 * Enables the events of the wanted systems that this kernel has: the four
 * slab events (or their _node twins) for slab, the page events
 * (mm_page_alloc, mm_page_free, mm_page_free_batched) for page; with a
 * filter (-c), only the allocations it passes, and no allocation event
 * it has no cache for.  stacks: each allocation event's
 * kernel stack too (the stacktrace trigger), and the task events, for
 * the commands of the tasks made during the recording.  Tracing is off
 * in the instance after it.  -1 if none of the kmem events exists.
 */
int	record_tracefs_enable(struct record_tracefs *t, bool slab, bool page,
	    bool stacks, const struct record_filter *filter,
	    const char **why);
/* Whether kmem_cache_alloc's format names the cache (2025 on). */
bool	record_tracefs_cache_named(struct record_tracefs *t);
/* Tracing off in our instance (the readers then drain it). */
void	record_tracefs_stop(struct record_tracefs *t);
/*
 * Undoes everything: events off, instance removed, tracefs unmounted if we
 * mounted it.  Idempotent; the readers' descriptors must be closed.
 */
void	record_tracefs_close(struct record_tracefs *t);

#endif /* !RECORD_TRACEFS_H */
