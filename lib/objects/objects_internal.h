/*
 * objects_internal.h: the object model behind memstat_objects, shared by
 * its accessors and the walk that fills it (kvm/walk/kvm_slub_objects.c).
 * Stacks are kept once each: the objects of one call path share one.
 */
#ifndef OBJECTS_INTERNAL_H
#define OBJECTS_INTERNAL_H

#include <stdbool.h>

#include "model/memstat_internal.h"

#define OBJECTS_NO_STACK	UINT32_MAX

struct objects_cache {
	char		*name;
	uint64_t	 size;
	bool		 owners;
	char		*damage;	/* or NULL */
};

/* 40 bytes: a dump holds millions. */
struct objects_object {
	uint64_t	 address, callsite, age_ns;
	uint32_t	 cache, stack;	/* stack: or OBJECTS_NO_STACK */
	int32_t		 pid;
	int16_t		 cpu;		/* below MAX_CPUS, or -1 */
	uint16_t	 damage;	/* MEMSTAT_OBJECT_BAD_* */
};

/* A task of the image: its pid (a thread's own) and command. */
struct objects_task {
	int32_t		 pid;
	char		 comm[16];	/* TASK_COMM_LEN, NUL-terminated */
};

struct objects_stack {
	size_t		 first;		/* in frames */
	uint32_t	 n;
};

struct memstat_objects {
	struct memstat_err err;
	uint64_t	 hz;
	char		*hz_why;	/* hz 0: why, or NULL */
	struct objects_cache *caches;
	size_t		 ncaches, acaches;
	struct objects_object *objects;
	size_t		 nobjects, aobjects;
	struct objects_stack *stacks;
	size_t		 nstacks, astacks;
	uint64_t	*frames;
	size_t		 nframes, aframes;
	/* Open addressing, at most half full: stack index + 1, 0 empty. */
	uint32_t	*stack_slots;
	size_t		 nslots;
	uint64_t	 hash_key[2];
	/* The image's tasks, by pid once sorted; MEMSTAT_TASKS_*. */
	struct objects_task *tasks;
	size_t		 ntasks, atasks;
	int		 tasks_read;
	char		*tasks_why;	/* MEMSTAT_TASKS_NONE: why, or NULL */
	/* memstat_kvm_objects_each(): objects go to each, one at a time. */
	int		(*each)(const struct memstat_objects *ol, void *arg);
	void		*each_arg;
	struct objects_object current;	/* each's object, as index 0 */
};

/* Empty ol, for a new query. */
void	_memstat_objects_clear(struct memstat_objects *ol);
/* A new cache at the end: its index, or -1 when memory runs out. */
int	_memstat_objects_cache_add(struct memstat_objects *ol,
	    const char *name, uint64_t size, bool owners, size_t *index);
/* The cache's damage, a copy of why: 0, or -1 (memory). */
int	_memstat_objects_cache_damage(struct memstat_objects *ol,
	    size_t cache, const char *why);
/* A new object (copied, or handed to ol's each): 0, or -1 (memory). */
int	_memstat_objects_add(struct memstat_objects *ol,
	    const struct objects_object *o);
/* The stack of frames[0..n), kept once: its index, or -1 (memory). */
int	_memstat_objects_stack(struct memstat_objects *ol,
	    const uint64_t *frames, uint32_t n, uint32_t *index);

/* A task (comm cut to 15 bytes): 0, or -1 (memory). */
int	_memstat_objects_task_add(struct memstat_objects *ol, int32_t pid,
	    const char *comm);
/*
 * Why what ol says is unknown (*slot: ol's hz_why or tasks_why), a copy
 * of why; memory running out leaves it unsaid.
 */
void	_memstat_objects_why(char **slot, const char *why);
/* The tasks are all added (MEMSTAT_TASKS_ALL or _PART): sorted by pid. */
void	_memstat_objects_tasks_done(struct memstat_objects *ol, int how);

#endif /* !OBJECTS_INTERNAL_H */
