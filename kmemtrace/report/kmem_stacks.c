/*
 * kmem_stacks.c: stacks kept once, found by a hash of their frames; the
 * map's key is the hash, probed on to the next key where another stack
 * has it (u64map seeds its own mixing, so a recording cannot make the
 * probes long for long).
 */
#include <stdlib.h>
#include <string.h>

#include "kmem_stacks.h"

#define PROBES	64

int
kmem_stacks_init(struct kmem_stacks *s)
{
	memset(s, 0, sizeof(*s));
	return (u64map_init(&s->map));
}

void
kmem_stacks_free(struct kmem_stacks *s)
{
	free(s->frames);
	free(s->stacks);
	u64map_free(&s->map);
}

static uint64_t
hash(const uint64_t *frames, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL ^ n;

	for (size_t i = 0; i < n; i++)
		h = (h ^ frames[i]) * 0x100000001b3ULL;
	return (h);
}

static int
grow(void **array, size_t *alloc, size_t want, size_t size)
{
	size_t a = *alloc == 0 ? 256 : *alloc;
	void *p;

	if (want <= *alloc)
		return (0);
	while (a < want)
		a += a / 2;
	if (a > UINT32_MAX || (p = reallocarray(*array, a, size)) == NULL)
		return (-1);
	*array = p;
	*alloc = a;
	return (0);
}

uint32_t
kmem_stacks_add(struct kmem_stacks *s, const uint64_t *frames, size_t n)
{
	uint64_t key = hash(frames, n);

	for (int probe = 0; probe < PROBES; probe++, key++) {
		uint32_t *v = u64map_find(&s->map, key);
		bool made;

		if (v != NULL) {
			const struct kmem_stack_entry *e = &s->stacks[*v];

			if (e->n == n && memcmp(s->frames + e->start, frames,
			    n * sizeof(*frames)) == 0)
				return (*v);
			continue;	/* another stack with this hash */
		}
		if (grow((void **)&s->stacks, &s->astacks, s->nstacks + 1,
		    sizeof(*s->stacks)) != 0 ||
		    grow((void **)&s->frames, &s->aframes, s->nframes + n,
		    sizeof(*s->frames)) != 0 ||
		    (v = u64map_insert(&s->map, key, &made)) == NULL)
			return (KMEM_NO_STACK);
		if (n > 0)
			memcpy(s->frames + s->nframes, frames,
			    n * sizeof(*frames));
		s->stacks[s->nstacks] = (struct kmem_stack_entry){
		    .start = s->nframes, .n = (uint32_t)n };
		s->nframes += n;
		*v = (uint32_t)s->nstacks++;
		return (*v);
	}
	return (KMEM_NO_STACK);
}

const uint64_t *
kmem_stacks_get(const struct kmem_stacks *s, uint32_t id, size_t *n)
{
	*n = s->stacks[id].n;
	return (s->frames + s->stacks[id].start);
}
