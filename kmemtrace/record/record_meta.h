/*
 * record_meta.h: what another machine needs to read a recording's pages,
 * saved beside them (recording.h lists the files).
 */
#ifndef RECORD_META_H
#define RECORD_META_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record_tracefs.h"

struct record_machine {
	int		 ncpus;
	size_t		 page_size;	/* the ring buffer's sub-buffer */
	size_t		 buffer_kib;
	const char	*events;	/* "kmalloc kfree ..." */
	const char	*command;	/* or NULL */
	const char	*caches;	/* -c, or NULL: every cache */
	int64_t		 started, stopped;	/* Unix time */
	const char	*state;		/* "recording", "complete", ... */
	const char	*why;		/* a partial recording's reason */
	pid_t		 recorder_thread; /* kallsyms' copy's, or 0 */
};

/*
 * The descriptions, at the start: header_page, header_event, the enabled
 * events' formats, each CPU's NUMA node, migrate types with page events.
 * -1 with errno and what failed in *what.
 */
int	record_meta_start(int dir, const struct record_tracefs *t, bool page,
	    int ncpus, const char **what);
/*
 * kallsyms, copied by a thread of its own while the recorded command
 * runs: the kernel takes a tenth of a second to print /proc/kallsyms,
 * which the recorder's start would otherwise add to every recording.
 */
struct kallsyms_copy {
	pthread_t	 thread;
	int		 fd;		/* dir/kallsyms, the thread's */
	int		 error;		/* errno of a failed copy, or 0 */
	bool		 room, started;
	off_t		 written;
	pid_t		 tid;		/* the thread's, once joined */
};

/*
 * Before tracing starts (on tmpfs the room is pages, whose allocations
 * are not the command's): kallsyms' room kept beside the events, or
 * where the disk cannot keep it, kallsyms copied now.  0, or -1 with
 * errno.
 */
int	record_meta_kallsyms_room(struct kallsyms_copy *c, int dir);
/* The copy started on its thread, where its room was kept: 0, or -1. */
int	record_meta_kallsyms_start(struct kallsyms_copy *c);
/*
 * After tracing stops: the copy ended, and the room it did not use given
 * back.  0, or -1 with errno (nothing to wait for: 0).
 */
int	record_meta_kallsyms_wait(struct kallsyms_copy *c);

/* At the stop: saved_cmdlines and each CPU's stats. */
int	record_meta_stop(int dir, const struct record_tracefs *t, int ncpus,
	    const char **what);
/* The machine file, written whole and renamed into place. */
int	record_meta_machine(int dir, const struct record_tracefs *t,
	    const struct record_machine *m);
/* The sub-buffer size header_page describes (data offset + size). */
size_t	record_meta_page_size(void);

#endif /* !RECORD_META_H */
