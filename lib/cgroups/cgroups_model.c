/*
 * cgroups_model.c: memstat_cgroups, its accessors, and the store its
 * sources fill: cgroups in tree order, caches, and a count per cgroup
 * and cache, found by (cgroup, cache) in a table while filling.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroups/cgroups_internal.h"

/* No kernel has this many memory cgroups (the ids are 16 bits). */
#define MAX_GROUPS	(1u << 20)
#define MAX_CACHES	(1u << 20)

struct memstat_cgroups *
memstat_cgroups_alloc(void)
{
	return (calloc(1, sizeof(struct memstat_cgroups)));
}

void
_memstat_cgroups_clear(struct memstat_cgroups *cg)
{
	for (size_t i = 0; i < cg->ngroups; i++)
		free(cg->groups[i].path);
	for (size_t i = 0; i < cg->ncaches; i++)
		free(cg->caches[i].name);
	_memstat_huge_array_free(cg->groups, cg->agroups, sizeof(*cg->groups));
	_memstat_huge_array_free(cg->caches, cg->acaches, sizeof(*cg->caches));
	_memstat_huge_array_free(cg->charges, cg->acharges,
	    sizeof(*cg->charges));
	free(cg->slots);
	*cg = (struct memstat_cgroups){ 0 };
}

void
memstat_cgroups_free(struct memstat_cgroups *cg)
{
	if (cg == NULL)
		return;
	_memstat_cgroups_clear(cg);
	free(cg);
}

int
memstat_cgroups_geterror(const struct memstat_cgroups *cg)
{
	return (cg->err.code);
}

const char *
memstat_cgroups_geterrmsg(const struct memstat_cgroups *cg)
{
	return (cg->err.msg[0] != '\0' ? cg->err.msg :
	    memstat_strerror(cg->err.code));
}

int
_memstat_cgroups_group_add(struct memstat_cgroups *cg, const char *path,
    size_t parent, bool dying, size_t *index)
{
	struct cgroups_group *g;
	char *copy;

	if (cg->ngroups == MAX_GROUPS || _memstat_huge_array_grow((void **)&cg->groups,
	    cg->ngroups, &cg->agroups, sizeof(*cg->groups)) != 0 ||
	    (copy = strdup(path)) == NULL)
		return (-1);
	g = &cg->groups[cg->ngroups];
	*g = (struct cgroups_group){ .path = copy, .parent = parent,
	    .dying = dying, .memory = UINT64_MAX, .stat_slab = UINT64_MAX,
	    .dying_below = UINT64_MAX };
	*index = cg->ngroups++;
	return (0);
}

int
_memstat_cgroups_cache_add(struct memstat_cgroups *cg, const char *name,
    uint64_t charged, size_t *index)
{
	char *copy;

	if (cg->ncaches == MAX_CACHES || _memstat_huge_array_grow((void **)&cg->caches,
	    cg->ncaches, &cg->acaches, sizeof(*cg->caches)) != 0 ||
	    (copy = strdup(name)) == NULL)
		return (-1);
	cg->caches[cg->ncaches] = (struct cgroups_cache){ copy, charged };
	*index = cg->ncaches++;
	return (0);
}

static size_t
slot_of(const struct memstat_cgroups *cg, uint64_t key)
{
	/* Fibonacci hashing: the keys are small indices, not input. */
	return ((size_t)((key * 0x9e3779b97f4a7c15ULL) >> 32) &
	    (cg->nslots - 1));
}

static uint64_t
key_of(const struct cgroups_charge *c)
{
	return ((uint64_t)c->group << 32 | c->cache);
}

/* The table twice as large, every charge in it again: 0, or -1. */
static int
rehash(struct memstat_cgroups *cg)
{
	size_t n = cg->nslots != 0 ? cg->nslots * 2 : 1024, s;
	uint32_t *slots;

	if ((slots = calloc(n, sizeof(*slots))) == NULL)
		return (-1);
	free(cg->slots);
	cg->slots = slots;
	cg->nslots = n;
	for (size_t i = 0; i < cg->ncharges; i++) {
		for (s = slot_of(cg, key_of(&cg->charges[i]));
		    cg->slots[s] != 0; s = (s + 1) & (n - 1))
			;
		cg->slots[s] = (uint32_t)i + 1;
	}
	return (0);
}

int
_memstat_cgroups_charge(struct memstat_cgroups *cg, size_t group,
    size_t cache, uint64_t objects, uint64_t inherited)
{
	struct cgroups_charge *c;
	uint64_t key = (uint64_t)group << 32 | cache;
	size_t s;

	if (group >= cg->ngroups || cache >= cg->ncaches)
		return (-1);
	if (2 * (cg->ncharges + 1) > cg->nslots && rehash(cg) != 0)
		return (-1);
	for (s = slot_of(cg, key); cg->slots[s] != 0;
	    s = (s + 1) & (cg->nslots - 1)) {
		c = &cg->charges[cg->slots[s] - 1];
		if (key_of(c) == key) {
			c->objects += objects;
			c->inherited += inherited;
			return (0);
		}
	}
	if (cg->ncharges >= UINT32_MAX - 1 || _memstat_huge_array_grow((void **)&cg->charges,
	    cg->ncharges, &cg->acharges, sizeof(*cg->charges)) != 0)
		return (-1);
	cg->charges[cg->ncharges] = (struct cgroups_charge){
	    (uint32_t)group, (uint32_t)cache, objects, inherited };
	cg->slots[s] = (uint32_t)++cg->ncharges;
	return (0);
}

static int
cmp_charge(const void *a, const void *b)
{
	uint64_t x = key_of(a), y = key_of(b);

	return (x < y ? -1 : x > y);
}

int
_memstat_cgroups_finish(struct memstat_cgroups *cg)
{
	size_t i, g;

	free(cg->slots);
	cg->slots = NULL;
	cg->nslots = 0;
	if (cg->ncharges > 0)
		qsort(cg->charges, cg->ncharges, sizeof(*cg->charges),
		    cmp_charge);
	for (g = 0; g < cg->ngroups; g++)
		cg->groups[g].first = cg->groups[g].n = 0;
	for (i = 0; i < cg->ncharges; i++) {
		g = cg->charges[i].group;
		if (cg->groups[g].n++ == 0)
			cg->groups[g].first = i;
	}
	return (0);
}

/* --- Accessors ------------------------------------------------------------ */

int
memstat_cgroups_walked(const struct memstat_cgroups *cg)
{
	return (cg->walked);
}

size_t
memstat_cgroups_count(const struct memstat_cgroups *cg)
{
	return (cg->ngroups);
}

const char *
memstat_cgroup_path(const struct memstat_cgroups *cg, size_t i)
{
	return (i < cg->ngroups ? cg->groups[i].path : "");
}

size_t
memstat_cgroup_parent(const struct memstat_cgroups *cg, size_t i)
{
	return (i < cg->ngroups ? cg->groups[i].parent : SIZE_MAX);
}

int
memstat_cgroup_dying(const struct memstat_cgroups *cg, size_t i)
{
	return (i < cg->ngroups && cg->groups[i].dying);
}

uint64_t
memstat_cgroup_memory(const struct memstat_cgroups *cg, size_t i)
{
	return (i < cg->ngroups ? cg->groups[i].memory : UINT64_MAX);
}

uint64_t
memstat_cgroup_stat_slab(const struct memstat_cgroups *cg, size_t i)
{
	return (i < cg->ngroups ? cg->groups[i].stat_slab : UINT64_MAX);
}

uint64_t
memstat_cgroup_dying_below(const struct memstat_cgroups *cg, size_t i)
{
	return (i < cg->ngroups ? cg->groups[i].dying_below : UINT64_MAX);
}

const char *
memstat_cgroups_stocked_unknown(const struct memstat_cgroups *cg)
{
	if (!cg->walked)
		return ("memory.stat's own totals count no CPU's stock");
	return (cg->stocked_why[0] != '\0' ? cg->stocked_why : NULL);
}

const char *
memstat_cgroups_left_out(const struct memstat_cgroups *cg)
{
	return (cg->left_out_why[0] != '\0' ? cg->left_out_why : NULL);
}

int64_t
memstat_cgroup_stocked(const struct memstat_cgroups *cg, size_t i)
{
	return (i < cg->ngroups && memstat_cgroups_stocked_unknown(cg) ==
	    NULL ? cg->groups[i].stocked : INT64_MIN);
}

size_t
memstat_cgroup_caches(const struct memstat_cgroups *cg, size_t i)
{
	return (i < cg->ngroups ? cg->groups[i].n : 0);
}

static const struct cgroups_charge *
charge(const struct memstat_cgroups *cg, size_t i, size_t j)
{
	if (i >= cg->ngroups || j >= cg->groups[i].n)
		return (NULL);
	return (&cg->charges[cg->groups[i].first + j]);
}

const char *
memstat_cgroup_cache_name(const struct memstat_cgroups *cg, size_t i,
    size_t j)
{
	const struct cgroups_charge *c = charge(cg, i, j);

	return (c != NULL ? cg->caches[c->cache].name : "");
}

uint64_t
memstat_cgroup_cache_objects(const struct memstat_cgroups *cg, size_t i,
    size_t j)
{
	const struct cgroups_charge *c = charge(cg, i, j);

	return (c != NULL ? c->objects : 0);
}

uint64_t
memstat_cgroup_cache_bytes(const struct memstat_cgroups *cg, size_t i,
    size_t j)
{
	const struct cgroups_charge *c = charge(cg, i, j);

	return (c != NULL ? c->objects * cg->caches[c->cache].charged : 0);
}

uint64_t
memstat_cgroup_cache_inherited(const struct memstat_cgroups *cg, size_t i,
    size_t j)
{
	const struct cgroups_charge *c = charge(cg, i, j);

	return (c != NULL ? c->inherited : 0);
}
