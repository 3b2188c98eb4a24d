/*
 * kmem_state.h: what one pass over a recording keeps, shared by the pass
 * (kmem_stats.c) and the join of a recording read in two halves
 * (kmem_halves.c): the objects, the tombstones, what a second half
 * defers, and the pass's steps the join takes again.
 */
#ifndef KMEM_STATE_H
#define KMEM_STATE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kmem_stats.h"

#define TOMBSTONES	(1U << 17)
#define NONE		UINT32_MAX

/*
 * libtraceevent's handle: its lookups keep state, and the two halves of a
 * recording read at once both look (a second half's formats, GFP names,
 * a page's caller).
 */
extern pthread_mutex_t kmem_tep_lock;

enum { OBJ_LIVE, OBJ_FREED };

/*
 * 56 bytes: a recording's memory is mostly these, one per allocation it
 * never saw freed.  The sizes are 32-bit: a kmalloc is at most 4 MiB (a
 * hostile recording's larger sizes saturate here; the rows and totals
 * count the events' own).  A page's bytes_req is its order, its cache
 * its row in the page table.
 */
struct kmem_object {
	uint64_t	 ptr;		/* a page's: its pfn */
	/* Once freed, the free's place among the frees (free_seq). */
	union {
		uint64_t ts;
		uint64_t freed_at;
	};
	uint32_t	 bytes_alloc, bytes_req;
	uint32_t	 site, cache;	/* a page's: NONE, its page row */
	uint32_t	 stack, comm;	/* KMEM_NO_STACK, KMEM_NO_COMM */
	uint32_t	 gen;		/* bumped when the slot is reused */
	/*
	 * --alloc: its pointer's row, kept with it so that a free, and an
	 * allocation of the address again, need not look the row up (one
	 * cache miss each in a map of every pointer seen); on the free
	 * list, the next free slot.
	 */
	union {
		uint32_t ptr_row;
		uint32_t next_free;
	};
	int32_t		 pid;
	uint16_t	 cpu;
	uint8_t		 kind;	/* KMEM_KMALLOC, _CACHE_ALLOC, _PAGE_ALLOC */
	uint8_t		 state;		/* OBJ_LIVE, OBJ_FREED | OBJ_UNNAMED */
};

#define OBJECT_CHUNK_BITS	16
#define OBJECT_CHUNK		(1U << OBJECT_CHUNK_BITS)

static inline struct kmem_object *
object_at(const struct kmem_stats *st, uint32_t i)
{
	return (&st->object_chunks[i >> OBJECT_CHUNK_BITS][i &
	    (OBJECT_CHUNK - 1)]);
}

/* The object's cache row is "(unnamed, N bytes)": its free may name it. */
#define OBJ_UNNAMED	0x80
#define OBJ_STATE(o)	((o)->state & ~OBJ_UNNAMED)

struct kmem_tombstone {
	uint32_t	 object, gen;
};

/* A second half's command for a pid it has not seen set: the first's. */
#define COMM_EARLIER	(UINT32_MAX - 1)

/* A free a second half leaves to be settled against the first's end. */
struct kmem_deferred {
	uint64_t	 seq, free_seq;		/* within the second half */
	uint64_t	 ts, ptr, call_site;	/* a page's ptr: its pfn */
	uint32_t	 name, name_len;	/* in deferred_names, or NONE */
	unsigned	 order;
	int		 cpu;
	uint8_t		 kind;
};

/* An allocation of an address new to a second half: the first's ends. */
struct kmem_fresh {
	uint64_t	 seq;		/* within the second half; FRESH_PAGE */
	uint64_t	 ptr;		/* a page's: its pfn */
};

#define FRESH_PAGE	(1ULL << 63)

/*
 * The frees and stacks a second half defers, at most: 64 MiB of frees.
 * A recording whose second half frees millions of what was allocated
 * before it (or before the recording) is read in one pass instead.
 */
#define DEFER_MAX	(1U << 20)

/*
 * A CPU's deferred stacks past its first KMEM_PENDING keep no frames: the
 * first half leaves at most that many allocations waiting on it.
 */
#define NO_FRAMES	SIZE_MAX

/*
 * A second half's stack with no allocation of this half waiting: the
 * first half's last may be; its frames kept to settle at the join.
 */
struct kmem_deferred_stack {
	uint64_t	 seq;
	size_t		 frames, nframes;	/* in dframes (or NO_FRAMES) */
	int		 cpu;
	uint8_t		 deepest;	/* this CPU's list since the last */
	bool		 awaited;	/* an allocation of this half was */
};

/* kmem_one_record()'s argument. */
struct gather {
	struct kmem_stats *st;
	struct kt_error	*e;
};

/* The pass's steps (kmem_stats.c). */
int	 kmem_grow(void **array, size_t *alloc, size_t n, size_t size);
uint32_t kmem_row_of(struct u64map *map, struct kmem_row **rows, size_t *n,
	    size_t *a, uint64_t key);
uint32_t kmem_cache_row(struct kmem_stats *st, const char *name, size_t len);
uint32_t kmem_page_row(struct kmem_stats *st, unsigned order,
	    int migratetype, uint64_t gfp_flags, const char *gfp_names,
	    uint64_t callsite);
uint32_t kmem_new_object(struct kmem_stats *st);
int	 kmem_free_of(struct kmem_stats *st, uint32_t i,
	    const struct kmem_event *ev, uint64_t g, uint32_t *buried,
	    struct kt_error *e);
void	 kmem_page_free_of(struct kmem_stats *st, const uint32_t *v,
	    const struct kmem_event *ev);
int	 kmem_give_stack(struct kmem_stats *st, struct kmem_pending p,
	    const uint64_t *frames, size_t n);
int	 kmem_one_record(const struct kt_record *rec, void *arg);

#endif /* !KMEM_STATE_H */
