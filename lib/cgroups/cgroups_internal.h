/*
 * cgroups_internal.h: the memory cgroup model behind memstat_cgroups,
 * shared by its accessors and what fills it: a core image's walk
 * (kvm/walk/kvm_memcg.c) and a Linux tree's memory.stat files
 * (cgroups/cgroups_linux.c).  The walk keeps groups, not objects: a count
 * per cgroup and cache.
 */
#ifndef CGROUPS_INTERNAL_H
#define CGROUPS_INTERNAL_H

#include <stdbool.h>

#include "model/memstat_internal.h"

struct cgroups_cache {
	char		*name;
	uint64_t	 charged;	/* bytes an object charges */
};

/* What one cgroup holds of one cache. */
struct cgroups_charge {
	uint32_t	 group, cache;
	uint64_t	 objects;
	uint64_t	 inherited;	/* of them, charged to a cgroup since
					   removed, moved up to this one */
};

struct cgroups_group {
	char		*path;
	size_t		 parent;	/* SIZE_MAX: the root */
	bool		 dying;
	uint64_t	 memory;	/* UINT64_MAX: unknown */
	uint64_t	 stat_slab;	/* UINT64_MAX: unknown */
	uint64_t	 dying_below;	/* UINT64_MAX: unknown */
	int64_t		 stocked;	/* slab bytes CPUs hold back from
					   its memory.stat: its own */
	size_t		 first, n;	/* its charges, once finished */
};

struct memstat_cgroups {
	struct memstat_err err;
	bool		 walked;	/* charges per cache, not memory.stat */
	/* Why the CPUs' stocks are unknown: "" when every group's is read. */
	char		 stocked_why[MEMSTAT_ERRLEN];
	/* What a filtered dump left out of the walk: "" when nothing. */
	char		 left_out_why[MEMSTAT_ERRLEN];
	struct cgroups_group *groups;
	size_t		 ngroups, agroups;
	struct cgroups_cache *caches;
	size_t		 ncaches, acaches;
	struct cgroups_charge *charges;
	size_t		 ncharges, acharges;
	/* (group, cache) to charge + 1, while filling: open addressing. */
	uint32_t	*slots;
	size_t		 nslots;
};

/* Empty cg, for a new query. */
void	_memstat_cgroups_clear(struct memstat_cgroups *cg);
/*
 * A cgroup at the end (its parent before it, SIZE_MAX for a root): its
 * index in *index; memory, stat_slab and dying_below unknown until set.
 * 0, or -1 (memory).
 */
int	_memstat_cgroups_group_add(struct memstat_cgroups *cg,
	    const char *path, size_t parent, bool dying, size_t *index);
/* A cache whose objects charge charged bytes each: 0, or -1 (memory). */
int	_memstat_cgroups_cache_add(struct memstat_cgroups *cg,
	    const char *name, uint64_t charged, size_t *index);
/* Add objects (inherited of them) to group's count of cache: 0, or -1. */
int	_memstat_cgroups_charge(struct memstat_cgroups *cg, size_t group,
	    size_t cache, uint64_t objects, uint64_t inherited);
/* The charges sorted, group by group, each by cache: 0, or -1 (memory). */
int	_memstat_cgroups_finish(struct memstat_cgroups *cg);

#endif /* !CGROUPS_INTERNAL_H */
