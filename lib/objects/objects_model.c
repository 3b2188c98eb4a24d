/*
 * objects_model.c: memstat_objects, its accessors, and the store its walk
 * fills: caches, objects, and each distinct stack once.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "objects/objects_internal.h"

/* No image has more distinct stacks than this; past it, objects lose
 * theirs rather than the table growing without end. */
#define MAX_STACKS	(1u << 24)

struct memstat_objects *
memstat_objects_alloc(void)
{
	struct memstat_objects *ol = calloc(1, sizeof(*ol));

	if (ol != NULL)
		arc4random_buf(ol->hash_key, sizeof(ol->hash_key));
	return (ol);
}

void
_memstat_objects_clear(struct memstat_objects *ol)
{
	for (size_t i = 0; i < ol->ncaches; i++) {
		free(ol->caches[i].name);
		free(ol->caches[i].damage);
	}
	free(ol->caches);
	_memstat_huge_array_free(ol->objects, ol->aobjects,
	    sizeof(*ol->objects));
	free(ol->stacks);
	free(ol->frames);
	free(ol->stack_slots);
	free(ol->tasks);
	free(ol->hz_why);
	free(ol->tasks_why);
	ol->hz_why = ol->tasks_why = NULL;
	ol->tasks = NULL;
	ol->ntasks = ol->atasks = 0;
	ol->tasks_read = MEMSTAT_TASKS_NONE;
	ol->caches = NULL;
	ol->objects = NULL;
	ol->stacks = NULL;
	ol->frames = NULL;
	ol->stack_slots = NULL;
	ol->ncaches = ol->acaches = ol->nobjects = ol->aobjects = 0;
	ol->nstacks = ol->astacks = ol->nframes = ol->aframes = 0;
	ol->nslots = 0;
	ol->hz = 0;
	ol->err.code = MEMSTAT_ERROR_UNDEFINED;
	ol->err.msg[0] = '\0';
}

void
memstat_objects_free(struct memstat_objects *ol)
{
	if (ol == NULL)
		return;
	_memstat_objects_clear(ol);
	free(ol);
}

int
memstat_objects_geterror(const struct memstat_objects *ol)
{
	return (ol->err.code);
}

const char *
memstat_objects_geterrmsg(const struct memstat_objects *ol)
{
	return (ol->err.msg[0] != '\0' ? ol->err.msg :
	    memstat_strerror(ol->err.code));
}

/* Room for one more of an array of elements of size: 0, or -1. */
static int
grow(void **a, size_t n, size_t *cap, size_t size)
{
	size_t c;
	void *p;

	if (n < *cap)
		return (0);
	c = *cap ? *cap * 2 : 64;
	if ((p = reallocarray(*a, c, size)) == NULL)
		return (-1);
	*a = p;
	*cap = c;
	return (0);
}

int
_memstat_objects_cache_add(struct memstat_objects *ol, const char *name,
    uint64_t size, bool owners, size_t *index)
{
	struct objects_cache *c;

	if (grow((void **)&ol->caches, ol->ncaches, &ol->acaches,
	    sizeof(*ol->caches)) != 0)
		return (-1);
	c = &ol->caches[ol->ncaches];
	*c = (struct objects_cache){ .size = size, .owners = owners };
	if ((c->name = strdup(name)) == NULL)
		return (-1);
	*index = ol->ncaches++;
	return (0);
}

int
_memstat_objects_cache_damage(struct memstat_objects *ol, size_t cache,
    const char *why)
{
	char *d = strdup(why);

	if (d == NULL)
		return (-1);
	free(ol->caches[cache].damage);
	ol->caches[cache].damage = d;
	return (0);
}

int
_memstat_objects_add(struct memstat_objects *ol,
    const struct objects_object *o)
{
	int rc;

	if (ol->each != NULL) {
		ol->current = *o;
		ol->nobjects = 1;
		rc = ol->each(ol, ol->each_arg);
		ol->nobjects = 0;
		return (rc != 0 ? -1 : 0);
	}
	if (_memstat_huge_array_grow((void **)&ol->objects, ol->nobjects,
	    &ol->aobjects, sizeof(*ol->objects)) != 0)
		return (-1);
	ol->objects[ol->nobjects++] = *o;
	return (0);
}

static uint64_t
stack_hash(const struct memstat_objects *ol, const uint64_t *frames,
    uint32_t n)
{
	return (_memstat_siphash(ol->hash_key, frames, n * sizeof(*frames)));
}

static bool
stack_equal(const struct memstat_objects *ol, uint32_t s,
    const uint64_t *frames, uint32_t n)
{
	const struct objects_stack *st = &ol->stacks[s];

	return (st->n == n && memcmp(&ol->frames[st->first], frames,
	    n * sizeof(*frames)) == 0);
}

/* Twice the slots, every stack placed again. */
static int
slots_grow(struct memstat_objects *ol)
{
	size_t n = ol->nslots ? ol->nslots * 2 : 1024;
	uint32_t *slots = calloc(n, sizeof(*slots));

	if (slots == NULL)
		return (-1);
	for (uint32_t s = 0; s < ol->nstacks; s++) {
		const struct objects_stack *st = &ol->stacks[s];
		size_t i = stack_hash(ol, &ol->frames[st->first], st->n) &
		    (n - 1);

		while (slots[i] != 0)
			i = (i + 1) & (n - 1);
		slots[i] = s + 1;
	}
	free(ol->stack_slots);
	ol->stack_slots = slots;
	ol->nslots = n;
	return (0);
}

int
_memstat_objects_stack(struct memstat_objects *ol, const uint64_t *frames,
    uint32_t n, uint32_t *index)
{
	struct objects_stack *st;
	size_t i;

	if ((ol->nstacks + 1) * 2 > ol->nslots && slots_grow(ol) != 0)
		return (-1);
	for (i = stack_hash(ol, frames, n) & (ol->nslots - 1);
	    ol->stack_slots[i] != 0; i = (i + 1) & (ol->nslots - 1))
		if (stack_equal(ol, ol->stack_slots[i] - 1, frames, n)) {
			*index = ol->stack_slots[i] - 1;
			return (0);
		}
	if (ol->nstacks == MAX_STACKS) {
		*index = OBJECTS_NO_STACK;
		return (0);
	}
	if (grow((void **)&ol->stacks, ol->nstacks, &ol->astacks,
	    sizeof(*ol->stacks)) != 0)
		return (-1);
	while (ol->aframes - ol->nframes < n)
		if (grow((void **)&ol->frames, ol->aframes, &ol->aframes,
		    sizeof(*ol->frames)) != 0)
			return (-1);
	st = &ol->stacks[ol->nstacks];
	st->first = ol->nframes;
	st->n = n;
	memcpy(&ol->frames[ol->nframes], frames, n * sizeof(*frames));
	ol->nframes += n;
	ol->stack_slots[i] = (uint32_t)ol->nstacks + 1;
	*index = (uint32_t)ol->nstacks++;
	return (0);
}

/* ---- accessors: an index out of range reads as 0, "" or NULL ---- */

uint64_t
memstat_objects_hz(const struct memstat_objects *ol)
{
	return (ol->hz);
}

const char *
memstat_objects_hz_why(const struct memstat_objects *ol)
{
	return (ol->hz == 0 ? ol->hz_why : NULL);
}

void
_memstat_objects_why(char **slot, const char *why)
{
	free(*slot);
	*slot = strdup(why);
}

size_t
memstat_objects_caches(const struct memstat_objects *ol)
{
	return (ol->ncaches);
}

const char *
memstat_objects_cache_name(const struct memstat_objects *ol, size_t cache)
{
	return (cache < ol->ncaches ? ol->caches[cache].name : "");
}

uint64_t
memstat_objects_cache_size(const struct memstat_objects *ol, size_t cache)
{
	return (cache < ol->ncaches ? ol->caches[cache].size : 0);
}

int
memstat_objects_cache_owners(const struct memstat_objects *ol, size_t cache)
{
	return (cache < ol->ncaches && ol->caches[cache].owners);
}

const char *
memstat_objects_cache_damage(const struct memstat_objects *ol, size_t cache)
{
	return (cache < ol->ncaches ? ol->caches[cache].damage : NULL);
}

size_t
memstat_objects_count(const struct memstat_objects *ol)
{
	return (ol->nobjects);
}

static const struct objects_object *
object(const struct memstat_objects *ol, size_t i)
{
	static const struct objects_object none = { .stack =
	    OBJECTS_NO_STACK, .age_ns = UINT64_MAX };

	if (i >= ol->nobjects)
		return (&none);
	return (ol->each != NULL ? &ol->current : &ol->objects[i]);
}

size_t
memstat_object_cache(const struct memstat_objects *ol, size_t i)
{
	return (object(ol, i)->cache);
}

uint64_t
memstat_object_address(const struct memstat_objects *ol, size_t i)
{
	return (object(ol, i)->address);
}

int
memstat_object_pid(const struct memstat_objects *ol, size_t i)
{
	return (object(ol, i)->pid);
}

int
memstat_object_cpu(const struct memstat_objects *ol, size_t i)
{
	return (object(ol, i)->cpu);
}

uint64_t
memstat_object_age_ns(const struct memstat_objects *ol, size_t i)
{
	return (object(ol, i)->age_ns);
}

uint64_t
memstat_object_callsite(const struct memstat_objects *ol, size_t i)
{
	return (object(ol, i)->callsite);
}

const uint64_t *
memstat_objects_stack(const struct memstat_objects *ol, size_t id, size_t *n)
{
	if (id >= ol->nstacks) {
		*n = 0;
		return (NULL);
	}
	*n = ol->stacks[id].n;
	return (&ol->frames[ol->stacks[id].first]);
}

size_t
memstat_object_stack_id(const struct memstat_objects *ol, size_t i)
{
	uint32_t s = object(ol, i)->stack;

	return (s == OBJECTS_NO_STACK ? SIZE_MAX : s);
}

const uint64_t *
memstat_object_stack(const struct memstat_objects *ol, size_t i, size_t *n)
{
	return (memstat_objects_stack(ol, memstat_object_stack_id(ol, i), n));
}

uint32_t
memstat_object_damage(const struct memstat_objects *ol, size_t i)
{
	return (object(ol, i)->damage);
}

int
_memstat_objects_task_add(struct memstat_objects *ol, int32_t pid,
    const char *comm)
{
	struct objects_task *t;

	if (grow((void **)&ol->tasks, ol->ntasks, &ol->atasks,
	    sizeof(*ol->tasks)) != 0)
		return (-1);
	t = &ol->tasks[ol->ntasks++];
	t->pid = pid;
	snprintf(t->comm, sizeof(t->comm), "%.*s", (int)sizeof(t->comm) - 1,
	    comm);
	return (0);
}

static int
cmp_task(const void *a, const void *b)
{
	const struct objects_task *x = a, *y = b;

	return (x->pid < y->pid ? -1 : x->pid > y->pid);
}

void
_memstat_objects_tasks_done(struct memstat_objects *ol, int how)
{
	if (ol->ntasks > 1)
		qsort(ol->tasks, ol->ntasks, sizeof(*ol->tasks), cmp_task);
	ol->tasks_read = how;
}

int
memstat_objects_tasks(const struct memstat_objects *ol)
{
	return (ol->tasks_read);
}

const char *
memstat_objects_tasks_why(const struct memstat_objects *ol)
{
	return (ol->tasks_read == MEMSTAT_TASKS_NONE ? ol->tasks_why : NULL);
}

const char *
memstat_objects_command(const struct memstat_objects *ol, int pid)
{
	struct objects_task key = { .pid = pid };
	const struct objects_task *t;

	if (ol->ntasks == 0)
		return (NULL);
	t = bsearch(&key, ol->tasks, ol->ntasks, sizeof(key), cmp_task);
	return (t != NULL ? t->comm : NULL);
}
