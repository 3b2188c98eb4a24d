/*
 * kmem_stacks.h: the kernel stacks a recording holds, each kept once
 * (most allocations of a call site share a few stacks), known by a
 * 32-bit id.
 */
#ifndef KMEM_STACKS_H
#define KMEM_STACKS_H

#include <stddef.h>
#include <stdint.h>

#include "u64map.h"

#define KMEM_NO_STACK	UINT32_MAX

struct kmem_stacks {
	uint64_t	*frames;	/* every stack's, one after another */
	size_t		 nframes, aframes;
	struct kmem_stack_entry {
		uint64_t start;		/* into frames */
		uint32_t n;
	} *stacks;
	size_t		 nstacks, astacks;
	struct u64map	 map;		/* hash (probed) -> id */
};

int	kmem_stacks_init(struct kmem_stacks *s);
void	kmem_stacks_free(struct kmem_stacks *s);
/* The id of the stack of n frames, kept if new; KMEM_NO_STACK: no memory. */
uint32_t kmem_stacks_add(struct kmem_stacks *s, const uint64_t *frames,
	    size_t n);
/* Stack id's frames, *n of them. */
const uint64_t *kmem_stacks_get(const struct kmem_stacks *s, uint32_t id,
	    size_t *n);

#endif /* !KMEM_STACKS_H */
