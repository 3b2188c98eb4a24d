/*
 * outstanding_model.h: what kmemtrace report --outstanding keeps of an
 * outstanding_set (outstanding_model.c), as the writers read it
 * (report_outstanding.c).
 */
#ifndef OUTSTANDING_MODEL_H
#define OUTSTANDING_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "outstanding_set.h"
#include "report_outstanding.h"
#include "u64map.h"

/*
 * By object, every live allocation, keyed for its place: 16 bytes, as
 * a dump lists millions.  Its group is a cache (pages: an order), k2,
 * and its objects go oldest first, by k1, the time.
 */
struct item {
	uint64_t	 k1;		/* ts */
	uint32_t	 k2;		/* cache rank; pages: order */
	uint32_t	 live;		/* index into the set */
};

/*
 * A name (a cache, an order; a pid and command) and how many of a
 * group's objects have it.
 */
struct tally {
	uint64_t	 key, key2;
	uint64_t	 count;
	uint32_t	 group;
	bool		 pid;
};

/*
 * A group: by stack, call site or pid, kept as the allocations are
 * handed over, with its tallies (caches first, then pids); by object, a
 * cache's items.  The groups, not the allocations, are what is kept.
 */
struct group {
	uint64_t	 k1;		/* stack, call site, pid */
	uint32_t	 k2;		/* order, command; object: cache */
	size_t		 first, n;	/* object: items; else first tally */
	size_t		 ncaches, npids;	/* tallies from first */
	uint64_t	 bytes, pages;
	uint64_t	 oldest, newest;	/* ts */
	size_t		 lost, untraced;	/* marked objects */
};

/* A stack and where it ends (a cache, or a page order), and its bytes. */
struct fold {
	uint32_t	 stack, leaf;
	uint64_t	 bytes;
	char		*line;
};

struct outstanding_model {
	const struct outstanding_set *set;
	const struct outstanding_options *o;
	struct item	*items;		/* by object */
	size_t		 nitems, aitems;
	struct group	*groups;
	size_t		 ngroups, agroups;
	struct tally	*tallies;
	size_t		 ntallies, atallies;
	/* Group by key; call sites and (pid, command) pairs by number. */
	struct u64map	 group_of, site_of, pid_of, cache_tally, pid_tally;
	uint64_t	*sites;
	size_t		 nsites, asites;
	uint64_t	*pid_pairs;	/* pid << 32 | command */
	size_t		 npid_pairs, apid_pairs;
	struct fold	*folds;		/* folded: by stack and leaf */
	size_t		 nfolds, afolds;
	struct u64map	 fold_of;
	uint64_t	 end, bytes;
	size_t		 lost, untraced;
};

/*
 * The set read into what the report keeps: its groups (by stack, call
 * site or pid), its allocations sorted (by object), or its bytes by stack
 * (folded); the set's producer hands them over while this runs.  NULL
 * when memory runs out.
 */
struct outstanding_model *outstanding_model_build(
	    const struct outstanding_set *set,
	    const struct outstanding_options *o);
void	outstanding_model_free(struct outstanding_model *m);

/*
 * The set's allocation i (by object: an item's live): its array's, or
 * made by its producer into buf.
 */
const struct kmem_live *outstanding_live(const struct outstanding_model *m,
	    size_t i, struct kmem_live *buf);
/* Stack id's frames past the trace machinery's; none for KMEM_NO_STACK. */
const uint64_t *outstanding_frames(const struct outstanding_set *set,
	    uint32_t id, size_t *n);
/* Whether a lost event, or a free without one, could explain l. */
bool	outstanding_lost(const struct outstanding_model *m,
	    const struct kmem_live *l);
bool	outstanding_untraced(const struct outstanding_model *m,
	    const struct kmem_live *l);
/* The group's caches (pages: orders) or processes, most first: *n. */
const struct tally *outstanding_tally(const struct outstanding_model *m,
	    const struct group *g, bool pids, size_t *n);
/* A tally's name: "kmalloc-1k", "order 2", "1234 kmemload". */
void	outstanding_tally_name(const struct outstanding_model *m,
	    const struct tally *t, bool pids, char *buf, size_t len);
/* Seconds from ts to the end. */
double	outstanding_age(const struct outstanding_model *m, uint64_t ts);

#endif /* !OUTSTANDING_MODEL_H */
