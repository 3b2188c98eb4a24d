/*
 * kmem_events.h: the kmem events decoded by the recorded formats: which
 * fields an event has, where, how wide, in the recording's byte order.
 * Nothing here knows an offset; 6.1's kmem_cache_alloc has no name,
 * 6.18's has, older kernels have the _node twins.
 */
#ifndef KMEM_EVENTS_H
#define KMEM_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <event-parse.h>

#include "kt_error.h"
#include "source.h"

enum kmem_kind {
	KMEM_KMALLOC,		/* kmalloc, kmalloc_node */
	KMEM_CACHE_ALLOC,	/* kmem_cache_alloc, kmem_cache_alloc_node */
	KMEM_KFREE,
	KMEM_CACHE_FREE,
	KMEM_PAGE_ALLOC,
	KMEM_PAGE_FREE,
	/* With stacks (record -g): */
	KMEM_STACK,		/* ftrace's kernel_stack, after its event */
	KMEM_TASK_NEW,		/* task_newtask: a task and its command */
	KMEM_TASK_RENAME,	/* task_rename: a task's new command */
};

/* A stack's frames kept at most; deeper ones are cut (and said so). */
#define KMEM_MAX_FRAMES	64

struct kmem_event {
	enum kmem_kind	 kind;
	int		 cpu;
	int		 pid;
	uint64_t	 ts;
	uint64_t	 call_site;
	uint64_t	 ptr;
	uint64_t	 bytes_req, bytes_alloc;
	uint64_t	 gfp_flags;
	int		 node;		/* -1: none asked for, or no field */
	/* The cache's name (not NUL-terminated), or NULL. */
	const char	*name;
	size_t		 name_len;
	/* Page events. */
	uint64_t	 pfn;
	unsigned	 order;
	int		 migratetype;
	/* A stack: its frames, frame_size bytes each, in the record. */
	const void	*frames;
	size_t		 nframes;
	int		 frame_size;
	/* A task event: the task and its command (not NUL-terminated). */
	int		 task_pid;
	const char	*comm;
	size_t		 comm_len;
	/* The raw record, to print a field with the event's own format. */
	const struct kt_record *record;
};

struct kmem_field {
	int		 offset, size;	/* size 0: the event has none */
	bool		 is_signed;
	bool		 placed;	/* frames: a __data_loc word at offset */
};

#define KMEM_MAX_EVENTS	12

struct kmem_events {
	struct tep_handle *tep;
	bool		 swap;		/* the recording's byte order is not ours */
	struct kmem_field type;		/* common_type */
	struct kmem_field pid;		/* common_pid */
	size_t		 common_end;	/* where both end */
	bool		 type_u16;	/* common_type: 2 bytes, our order */
	struct kmem_event_desc {
		int		 id;
		enum kmem_kind	 kind;
		struct tep_event *event;
		struct kmem_field call_site, ptr, bytes_req, bytes_alloc,
				 gfp_flags, node, name, pfn, order,
				 migratetype;
		/* A stack's count and frames (size: one frame's). */
		struct kmem_field nframes, frames;
		/* A task event's pid and command (size: the array's). */
		struct kmem_field task_pid, comm;
		size_t		 min_size;	/* the fields' end */
		/*
		 * A slab event whose numbers are the host's longs in its
		 * byte order (a node, an int): read without a switch.
		 */
		bool		 plain;
	} desc[KMEM_MAX_EVENTS];
	int		 ndesc;
	/* desc's index + 1 by the id's low bits, where no other id is. */
#define KMEM_DESC_HINTS	64
	int8_t		 desc_hint[KMEM_DESC_HINTS];
	bool		 have_slab, have_page, have_stacks;
	/* Why an event's format is of no use, by kind ("": it is). */
	struct kt_error	 unusable[KMEM_TASK_RENAME + 1];
};

/* The descriptions from the source's formats; -1 on a format that lies. */
int	kmem_events_init(struct kmem_events *ev, struct tep_handle *tep,
	    struct kt_error *e);
/*
 * Whether the events a report uses were described: -1 with the reason a
 * format was of no use.  stacks: the stack and task events.
 */
int	kmem_events_need(const struct kmem_events *ev, bool slab, bool page,
	    bool stacks, struct kt_error *e);
/*
 * rec decoded into out: 0; 1 if it is no kmem event; -1 if a field lies
 * outside the record; -2 if a stack's count of frames does.
 */
int	kmem_events_decode(const struct kmem_events *ev,
	    const struct kt_record *rec, struct kmem_event *out);

/* A stack event's first n frames (n at most its nframes) into out. */
void	kmem_events_frames(const struct kmem_events *ev,
	    const struct kmem_event *stack, uint64_t *out, size_t n);

#endif /* !KMEM_EVENTS_H */
