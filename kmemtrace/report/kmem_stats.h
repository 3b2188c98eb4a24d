/*
 * kmem_stats.h: what a recording says, gathered in one pass over its
 * events: per call site, per cache, per pointer (when asked), per page
 * order, migrate type and GFP flags; the totals; the misuse found.  The
 * memory it holds grows with the addresses the recording touched, not
 * with its length.
 */
#ifndef KMEM_STATS_H
#define KMEM_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "recording/kmem_events.h"
#include "kmem_stacks.h"
#include "kmem_tasks.h"
#include "u64map.h"

struct kmem_object;
struct kmem_tombstone;
struct kmem_deferred;
struct kmem_fresh;
struct kmem_deferred_stack;

/* One table row: a call site, a pointer or a cache. */
struct kmem_row {
	uint64_t	 key;		/* call site or pointer */
	const char	*name;		/* a cache's name */
	size_t		 name_len;
	uint64_t	 bytes_alloc, bytes_req;
	uint64_t	 hits;		/* allocations */
	uint64_t	 frees;		/* of allocations seen */
	uint64_t	 pingpong;	/* of those, on another CPU */
	/* Allocations of an address still live: frees without events. */
	uint64_t	 realloc_live;
};

struct kmem_page_row {
	unsigned	 order;
	int		 migratetype;
	uint64_t	 gfp_flags;
	const char	*gfp_names;	/* the kernel's names for the flags */
	uint64_t	 callsite;	/* with stacks: who asked; 0: unknown */
	uint64_t	 hits;
	uint64_t	 pages;
};

enum kmem_misuse_kind {
	MISUSE_KMALLOC_CACHE_FREE,	/* kmalloc'd, kmem_cache_free'd */
	MISUSE_CACHE_KFREE,		/* cache object kfree'd (6.4+: legal) */
	MISUSE_OTHER_CACHE,		/* freed to another cache */
	MISUSE_DOUBLE_FREE,
	MISUSE_SHORT,			/* less allocated than requested */
	MISUSE_NKINDS
};

#define KMEM_MISUSE_EXAMPLES	3

struct kmem_misuse {
	uint64_t	 count;
	struct kmem_misuse_example {
		uint64_t ptr, alloc_site, free_site, ts;
		int	 cpu;
		uint64_t bytes_req, bytes_alloc;
		uint64_t seq;	/* its event's place in the recording */
	} example[KMEM_MISUSE_EXAMPLES];
};

struct kmem_totals {
	uint64_t	 events, slab_events, page_events, other_events;
	uint64_t	 first_ts, last_ts;
	uint64_t	 allocs, frees, kfree_null;
	uint64_t	 bytes_req, bytes_alloc, bytes_freed;
	uint64_t	 cross_node, node_known;	/* node known: CPU map */
	uint64_t	 cross_cpu_frees, frees_matched;
	uint64_t	 frees_unknown;		/* allocated before the start */
	uint64_t	 realloc_live;		/* allocated again, no free seen */
	uint64_t	 recorder_allocs;	/* the recorder's own: left out */
	uint64_t	 live, live_bytes;	/* at the end */
	/* Stacks (record -g). */
	uint64_t	 stack_events, task_events;
	uint64_t	 stacks_unmatched;	/* no event: explained by a loss */
	uint64_t	 stacks_early;		/* no event: before its CPU's first */
	uint64_t	 stacks_cut;		/* deeper than KMEM_MAX_FRAMES */
	/* Pages. */
	uint64_t	 page_allocs, page_frees, page_alloc_fail;
	uint64_t	 page_bytes_alloc, page_bytes_freed;
	uint64_t	 page_alloc_freed, page_free_unknown;
	uint64_t	 page_bytes_free_all, page_bytes_free_unknown;
};

/* An allocation not freed by the end, for --outstanding. */
struct kmem_live {
	uint64_t	 ptr;		/* a page's: its pfn */
	uint64_t	 ts;
	uint64_t	 bytes_alloc, bytes_req;
	uint64_t	 call_site;	/* 0 for a page */
	uint32_t	 cache;		/* row in caches; a page's: none */
	uint32_t	 stack;		/* or KMEM_NO_STACK */
	uint32_t	 comm;		/* in tasks, or KMEM_NO_COMM */
	int		 pid, cpu;
	unsigned	 order;		/* a page's */
};

/* Allocations the recording's CPUs kept waiting for their stacks. */
#define KMEM_PENDING	8

struct kmem_stats {
	struct kmem_events events;
	const struct kt_source *src;
	int		 page_shift;
	bool		 by_pointer;		/* --alloc */
	/* --pid: only these processes' events (sorted), or none. */
	const int	*pids;
	size_t		 npids;
	/* Rows, in first-seen order; the maps hold indices into them. */
	struct kmem_row	*sites, *ptrs, *caches;
	size_t		 nsites, nptrs, ncaches, asites, aptrs, acaches;
	struct kmem_page_row *pages;
	size_t		 npages, apages;
	struct u64map	 site_map, ptr_map, cache_map, page_map, gfp_map;
	struct u64map	 kmalloc_map;		/* bytes_alloc -> its cache */
	/*
	 * The rows a call site's last allocation went to, by the site's
	 * low bits: a site allocates from one cache, and finding the two
	 * (a name hashed, two maps probed) cost more than the rest of an
	 * allocation's work.
	 */
#define KMEM_SITE_MEMO	256
	struct kmem_site_memo {
		uint64_t call_site, bytes_alloc;
		uint32_t site, cache;
		uint8_t	 kind;
		bool	 named, used;
	}		 site_memo[KMEM_SITE_MEMO];
	/*
	 * Objects and pages live or freed in the recording, in chunks of
	 * KMEM_OBJECT_CHUNK: a store that grows by copying copied tens of
	 * megabytes, and faulted each copy in again.
	 */
	struct kmem_object **object_chunks;
	size_t		 nobjects, nchunks, achunks;
	uint32_t	 free_object;		/* free list head, or UINT32_MAX */
	struct u64map	 object_map, pfn_map;
	/* The last frees' objects, kept to see a second free of them. */
	struct kmem_tombstone *ring;
	size_t		 ring_head, ring_count, ring_size;
	char		**gfp_names;
	size_t		 ngfp, agfp;
	/*
	 * Stacks: a stack record follows its event on the same CPU, after
	 * any that interrupted it between the two (a stack of events).
	 */
	struct kmem_stacks stacks;
	struct kmem_tasks tasks;
	bool		 stacked[KMEM_TASK_RENAME + 1];	/* kinds with stacks */
	bool		 stack_adjacent; /* a trace.dat: the record before */
	struct kmem_pending {
		uint32_t object, gen;	/* NONE: none to give it to */
	}		*pending;	/* [ncpus][KMEM_PENDING] */
	uint8_t		*npending;	/* [ncpus] */
	bool		*cpu_lost;	/* [ncpus]: a loss was met */
	bool		*cpu_awaited;	/* [ncpus]: an allocation awaited one */
	uint32_t	 made;		/* the last event's object, or none */
	uint64_t	 loss_ts;	/* the last loss met, 0: none */
	uint64_t	 seq;		/* the event's place among them all */
	uint64_t	 free_seq;	/* frees of an address so far */
	/*
	 * The second half of a recording read in two at once: the events
	 * whose outcome hangs on the first half, settled when the two are
	 * joined: the frees of an address not allocated in this half, and
	 * (apart: they are many, and only an address and a place) the
	 * allocations of one not known in it.
	 */
	bool		 second;
	struct kmem_deferred *deferred;
	size_t		 ndeferred, adeferred;
	char		*deferred_names;	/* their caches' names */
	size_t		 nnames, anames;
	struct kmem_fresh *fresh;
	size_t		 nfresh, afresh;
	/*
	 * Its stacks that come before any allocation of their CPU in this
	 * half (theirs may be the first half's), their frames, and the
	 * deepest each CPU's pending list went since the last of them;
	 * the place where each of its stacks was first met.
	 */
	struct kmem_deferred_stack *dstacks;
	size_t		 ndstacks, adstacks;
	uint64_t	*dframes;
	size_t		 ndframes, adframes;
	uint8_t		*deepest;	/* [ncpus] */
	uint8_t		*deferred_on;	/* [ncpus], up to KMEM_PENDING */
	uint64_t	*stack_seq;	/* [stacks.nstacks] */
	size_t		 astack_seq;
	struct kmem_totals totals;
	struct kmem_misuse misuse[MISUSE_NKINDS];
};

int	kmem_stats_init(struct kmem_stats *st, const struct kt_source *src,
	    bool by_pointer, struct kt_error *e);
/*
 * Every event of the source; -1 with e set on bad data.  A recording is
 * read in two halves of time at once where the halves can be joined
 * into what one pass would have gathered (no stacks).
 */
int	kmem_stats_gather(struct kmem_stats *st, struct kt_source *src,
	    struct kt_error *e);
/* The same, cut at time at (0: the source's middle; KMEM_WHOLE: not). */
#define KMEM_WHOLE	UINT64_MAX
int	kmem_stats_gather_at(struct kmem_stats *st, struct kt_source *src,
	    uint64_t at, struct kt_error *e);
void	kmem_stats_free(struct kmem_stats *st);
/*
 * The allocations live at the end, slab objects or pages, in allocation
 * order: a new array (free it), *n long; NULL with *n 0 if none or out of
 * memory (*n SIZE_MAX).
 */
struct kmem_live *kmem_stats_live(const struct kmem_stats *st, bool pages,
	    size_t *n);
/*
 * Whether stacks were recorded: by the formats, or for a trace.dat (which
 * has every event's) by the stacks met.
 */
bool	kmem_stats_stacks(const struct kmem_stats *st);
/* The command a live allocation's task ran then, or NULL. */
const char *kmem_stats_comm(const struct kmem_stats *st,
	    const struct kmem_live *l);

#endif /* !KMEM_STATS_H */
