/*
 * memstat_access.c: the accessors of struct memory_type.  They never fail:
 * a cpu or slot index outside what the entry holds reads as 0 and is not
 * written, so callers can never reach out of bounds.
 */
#include <stdlib.h>

#include "model/memstat_internal.h"

#define SLOT_OK(index)	((index) >= 0 && (index) < MEMSTAT_MAXCALLER)

const char *
memstat_get_name(const struct memory_type *mtp)
{
	return (mtp->mt_name);
}

int
memstat_get_allocator(const struct memory_type *mtp)
{
	return (mtp->mt_allocator);
}

#define GETTER(field)							\
uint64_t								\
memstat_get_##field(const struct memory_type *mtp)			\
{									\
	return (mtp->mt_##field);					\
}

GETTER(countlimit)
GETTER(byteslimit)
GETTER(sizemask)
GETTER(size)
GETTER(rsize)
GETTER(memalloced)
GETTER(memfreed)
GETTER(numallocs)
GETTER(numfrees)
GETTER(bytes)
GETTER(count)
GETTER(free)
GETTER(failures)
GETTER(sleeps)
GETTER(xdomain)
GETTER(zonefree)
GETTER(kegfree)
GETTER(slabs)
GETTER(allocated)

const char *
memstat_get_damage(const struct memory_type *mtp)
{
	return (mtp->mt_damage);
}

uint32_t
memstat_get_unknown(const struct memory_type *mtp)
{
	return (mtp->mt_unknown);
}

size_t
memstat_get_alias_count(const struct memory_type *mtp)
{
	return (mtp->mt_naliases);
}

const char *
memstat_get_alias(const struct memory_type *mtp, size_t n)
{
	return (n < mtp->mt_naliases ? mtp->mt_aliases[n] : NULL);
}

uint32_t
memstat_get_nodes(const struct memory_type *mtp)
{
	return (mtp->mt_nnodes);
}

#define NODE_GETTER(field)						\
uint64_t								\
memstat_get_node_##field(const struct memory_type *mtp, uint32_t node)	\
{									\
	return (node < mtp->mt_nnodes ? mtp->mt_nodes[node].mn_##field : 0); \
}

NODE_GETTER(count)
NODE_GETTER(free)
NODE_GETTER(slabs)
NODE_GETTER(partial)

/*
 * Caller slots are allocated on the first set.  A set that cannot allocate
 * is dropped: setters have no way to fail in this API.
 */
static struct mt_caller_slots *
type_slots_for_set(struct memory_type *mtp, int index)
{
	if (!SLOT_OK(index))
		return (NULL);
	if (mtp->mt_caller == NULL)
		mtp->mt_caller = calloc(1, sizeof(*mtp->mt_caller));
	return (mtp->mt_caller);
}

void *
memstat_get_caller_pointer(const struct memory_type *mtp, int index)
{
	if (!SLOT_OK(index) || mtp->mt_caller == NULL)
		return (NULL);
	return (mtp->mt_caller->mcs_pointer[index]);
}

void
memstat_set_caller_pointer(struct memory_type *mtp, int index, void *value)
{
	struct mt_caller_slots *slots = type_slots_for_set(mtp, index);

	if (slots != NULL)
		slots->mcs_pointer[index] = value;
}

uint64_t
memstat_get_caller_uint64(const struct memory_type *mtp, int index)
{
	if (!SLOT_OK(index) || mtp->mt_caller == NULL)
		return (0);
	return (mtp->mt_caller->mcs_uint64[index]);
}

void
memstat_set_caller_uint64(struct memory_type *mtp, int index, uint64_t value)
{
	struct mt_caller_slots *slots = type_slots_for_set(mtp, index);

	if (slots != NULL)
		slots->mcs_uint64[index] = value;
}

static const struct mt_percpu_alloc *
percpu_alloc(const struct memory_type *mtp, int cpu)
{
	if (cpu < 0 || (uint32_t)cpu >= mtp->mt_ncpus ||
	    mtp->mt_percpu_alloc == NULL)
		return (NULL);
	return (&mtp->mt_percpu_alloc[cpu]);
}

#define PERCPU_GETTER(field)						\
uint64_t								\
memstat_get_percpu_##field(const struct memory_type *mtp, int cpu)	\
{									\
	const struct mt_percpu_alloc *mpa = percpu_alloc(mtp, cpu);	\
									\
	return (mpa != NULL ? mpa->mtp_##field : 0);			\
}

PERCPU_GETTER(memalloced)
PERCPU_GETTER(memfreed)
PERCPU_GETTER(numallocs)
PERCPU_GETTER(numfrees)
PERCPU_GETTER(sizemask)

uint64_t
memstat_get_percpu_free(const struct memory_type *mtp, int cpu)
{
	if (cpu < 0 || (uint32_t)cpu >= mtp->mt_ncpus ||
	    mtp->mt_percpu_free == NULL)
		return (0);
	return (mtp->mt_percpu_free[cpu]);
}

static const struct mt_caller_slots *
caller_slots(const struct memory_type *mtp, int cpu, int index)
{
	if (!SLOT_OK(index) || cpu < 0 ||
	    (uint32_t)cpu >= mtp->mt_ncallercpus)
		return (NULL);
	return (&mtp->mt_percpu_caller[cpu]);
}

/* Per-CPU slots come for all the CPUs the entry has at the first set. */
static struct mt_caller_slots *
caller_slots_for_set(struct memory_type *mtp, int cpu, int index)
{
	struct mt_caller_slots *slots;
	uint32_t n;

	if (!SLOT_OK(index) || cpu < 0 || (uint32_t)cpu >= mtp->mt_ncpus)
		return (NULL);
	if ((uint32_t)cpu >= mtp->mt_ncallercpus) {
		n = mtp->mt_ncpus;
		slots = reallocarray(mtp->mt_percpu_caller, n, sizeof(*slots));
		if (slots == NULL)
			return (NULL);
		for (uint32_t i = mtp->mt_ncallercpus; i < n; i++)
			slots[i] = (struct mt_caller_slots){ 0 };
		mtp->mt_percpu_caller = slots;
		mtp->mt_ncallercpus = n;
	}
	return (&mtp->mt_percpu_caller[cpu]);
}

void *
memstat_get_percpu_caller_pointer(const struct memory_type *mtp, int cpu,
    int index)
{
	const struct mt_caller_slots *slots = caller_slots(mtp, cpu, index);

	return (slots != NULL ? slots->mcs_pointer[index] : NULL);
}

void
memstat_set_percpu_caller_pointer(struct memory_type *mtp, int cpu,
    int index, void *value)
{
	struct mt_caller_slots *slots = caller_slots_for_set(mtp, cpu, index);

	if (slots != NULL)
		slots->mcs_pointer[index] = value;
}

uint64_t
memstat_get_percpu_caller_uint64(const struct memory_type *mtp, int cpu,
    int index)
{
	const struct mt_caller_slots *slots = caller_slots(mtp, cpu, index);

	return (slots != NULL ? slots->mcs_uint64[index] : 0);
}

void
memstat_set_percpu_caller_uint64(struct memory_type *mtp, int cpu,
    int index, uint64_t value)
{
	struct mt_caller_slots *slots = caller_slots_for_set(mtp, cpu, index);

	if (slots != NULL)
		slots->mcs_uint64[index] = value;
}
