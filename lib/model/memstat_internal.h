/*
 * memstat_internal.h: the memory_type model behind the opaque API, shared by
 * the list code, the accessors and every source that fills a list.
 */
#ifndef MEMSTAT_INTERNAL_H
#define MEMSTAT_INTERNAL_H

#include <sys/queue.h>
#include <stdarg.h>
#include <stdint.h>

#include "memstat.h"

/*
 * A failure as the library records it, on a list or a core image's
 * handle: the MEMSTAT_ERROR_* code and, in words, what failed where.  The
 * two travel together from where the failure happens to the caller.
 */
struct memstat_err {
	int	 code;
	char	 msg[MEMSTAT_ERRLEN];
};

/* Set e's code and message (default: memstat_strerror(code)); -1. */
int	_memstat_err_set(struct memstat_err *e, int code, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
int	_memstat_err_vset(struct memstat_err *e, int code, const char *fmt,
	    va_list ap);
int	_memstat_err_code(struct memstat_err *e, int code);

/* One NUMA node's share of a Linux slab cache. */
struct mt_node {
	uint64_t	mn_count;	/* objects in use */
	uint64_t	mn_free;	/* free in its slabs */
	uint64_t	mn_slabs;
	uint64_t	mn_partial;	/* slabs on its partial list */
};

/* Statistics the kernel reports for one CPU of a malloc type. */
struct mt_percpu_alloc {
	uint64_t	mtp_memalloced;
	uint64_t	mtp_memfreed;
	uint64_t	mtp_numallocs;
	uint64_t	mtp_numfrees;
	uint64_t	mtp_sizemask;
};

/*
 * Caller slots, of the type or of one CPU.  Most callers never set one, so
 * they are allocated on the first set rather than carried by every entry.
 */
struct mt_caller_slots {
	void		*mcs_pointer[MEMSTAT_MAXCALLER];
	uint64_t	 mcs_uint64[MEMSTAT_MAXCALLER];
};

struct memory_type {
	/* Identity: (allocator, name, dup) is the index key. */
	int		 mt_allocator;
	char		*mt_name;	/* mt_name_buf, or allocated if longer */
	char		 mt_name_buf[MEMTYPE_MAXNAME];
	uint32_t	 mt_dup;	/* n-th type of this name in a source */
	uint64_t	 mt_seq;	/* creation order: higher = nearer head */
	struct memory_type *mt_dup_last; /* on dup 0: the newest of the name */

	/* Statistics, zeroed by mt_reset_stats() on every refresh. */
	uint64_t	 mt_countlimit;
	uint64_t	 mt_byteslimit;
	uint64_t	 mt_sizemask;
	uint64_t	 mt_size;
	uint64_t	 mt_rsize;
	uint64_t	 mt_memalloced;
	uint64_t	 mt_memfreed;
	uint64_t	 mt_numallocs;
	uint64_t	 mt_numfrees;
	uint64_t	 mt_bytes;
	uint64_t	 mt_count;
	uint64_t	 mt_free;
	uint64_t	 mt_failures;
	uint64_t	 mt_sleeps;
	uint64_t	 mt_xdomain;
	uint64_t	 mt_zonefree;
	uint64_t	 mt_kegfree;
	uint64_t	 mt_slabs;
	uint64_t	 mt_allocated;	/* in use by callers: count less the
					   objects CPUs hold free */
	uint32_t	 mt_unknown;	/* MEMSTAT_UNKNOWN_* */
	char		*mt_damage;	/* what in the data stopped a count */

	/* Other names of the same cache (Linux merged slab caches). */
	char		**mt_aliases;	/* one allocation: pointers, strings */
	size_t		 mt_naliases;

	/* Each NUMA node's share, by node id (Linux slab caches). */
	struct mt_node	*mt_nodes;
	uint32_t	 mt_nnodes;

	/*
	 * Per-CPU data, sized by the source.  UMA fills only the cache free
	 * counts, malloc only the alloc records, as FreeBSD's sysctl path
	 * does; the other pointer stays NULL.  Carved from the list's
	 * per-CPU blocks: mt_percpu_cap slots, grown only past the largest
	 * count seen, so refreshes reuse them.
	 */
	uint32_t		 mt_ncpus;
	uint32_t		 mt_percpu_cap;
	uint64_t		*mt_percpu_free;
	struct mt_percpu_alloc	*mt_percpu_alloc;

	/* Caller slots: survive refreshes. */
	struct mt_caller_slots	*mt_caller;
	uint32_t		 mt_ncallercpus;
	struct mt_caller_slots	*mt_percpu_caller;

	/* On dup 0: how many records of this name the current pass saw. */
	uint64_t	 mt_pass;
	uint32_t	 mt_pass_seen;

	LIST_ENTRY(memory_type)	 mt_list;
	uint64_t		 mt_hash;	/* of (allocator, name, dup) */
};

/* Entries are carved from chunks: they are only ever freed all together. */
struct mt_chunk {
	struct mt_chunk		*mc_next;
	size_t			 mc_used;
	size_t			 mc_size;
	struct memory_type	 mc_entries[];
};

/* Per-CPU arrays are carved from blocks, freed all together too. */
struct mt_block {
	struct mt_block		*mb_next;
	size_t			 mb_used;
	size_t			 mb_size;
	_Alignas(16) unsigned char mb_data[];
};

struct memory_type_list {
	LIST_HEAD(, memory_type) mtl_list;
	struct mt_chunk		*mtl_chunks;
	struct mt_block		*mtl_blocks;
	struct memstat_err	 mtl_err;
	uint64_t		 mtl_seq;	/* last mt_seq handed out */
	uint64_t		 mtl_pass;	/* current refresh pass */
	/*
	 * The (allocator, name, dup) index: open addressing, linear probing,
	 * at most half full, each slot's hash beside its entry so that a
	 * probe touches an entry only when the hashes agree.
	 */
	struct mt_slot {
		uint64_t		 hash;
		struct memory_type	*mtp;
	}			*mtl_index;
	size_t			 mtl_index_size; /* slots, a power of two */
	uint64_t		 mtl_hash_key[2]; /* random, per list */
	size_t			 mtl_count;
};

/*
 * Filling a list.  A source calls _memstat_mtl_begin_pass() once (with the
 * number of records it will look up, if it knows, so that the index grows
 * once), then
 * _memstat_mtl_lookup() once per record in source order: the n-th record
 * named N gets the n-th entry named N (created at the list head if missing)
 * with its statistics reset, so refreshing from the same data reproduces a
 * fresh decode even when names repeat.  Names are used whole: a source with
 * a width limit (FreeBSD's 32-byte records) cuts them itself.  The lookup
 * returns NULL only when memory runs out.
 */
void			 _memstat_mtl_begin_pass(struct memory_type_list *list,
			    size_t records);
struct memory_type	*_memstat_mtl_lookup(struct memory_type_list *list,
			    int allocator, const char *name, uint32_t ncpus);

/*
 * A name about to be looked up, with its hash, taken once.  A source that
 * knows its next records takes their names a few records ahead: that also
 * starts fetching the index slot the lookup will read, since a large
 * list's index does not fit in the caches and each lookup would otherwise
 * wait for memory.  name must stay put until the lookup, which is for the
 * same allocator.
 */
struct mt_name {
	const char	*name;
	size_t		 len;
	uint64_t	 hash;		/* of the name */
	uint64_t	 key;		/* of (allocator, name, 0) */
};
void	_memstat_mtl_name(const struct memory_type_list *list, int allocator,
	    const char *name, size_t len, struct mt_name *key);
struct memory_type *_memstat_mtl_lookup_name(struct memory_type_list *list,
	    int allocator, const struct mt_name *key, uint32_t ncpus);

/*
 * Replace an entry's aliases with a copy of names[0..n-1]: 0, or -1 when
 * memory runs out (the entry then has none).
 */
int	_memstat_mt_set_aliases(struct memory_type *mtp,
	    const char *const *names, size_t n);

/*
 * Replace an entry's per-node shares with a copy of nodes[0..n-1], indexed
 * by node id, and none on the nodes from n to all (n <= all): 0, or -1
 * when memory runs out (the entry then has none).
 */
int	_memstat_mt_set_nodes(struct memory_type *mtp,
	    const struct mt_node *nodes, uint32_t n, uint32_t all);

/*
 * Record an error, its message memstat_strerror()'s, formatted, or a
 * copy of e; _empty: after parsing began, also drop every entry.  -1.
 */
int	_memstat_mtl_fail(struct memory_type_list *list, int error);
int	_memstat_mtl_failf(struct memory_type_list *list, int error,
	    const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int	_memstat_mtl_fail_err(struct memory_type_list *list,
	    const struct memstat_err *e);
int	_memstat_mtl_fail_empty(struct memory_type_list *list, int error);

/*
 * Room for element n of an array of *cap elements of size at *a, which
 * doubles when full, past 2 MiB in huge pages (huge_array.c): 0, or -1
 * when memory runs out (the array as it was).  Freed by
 * _memstat_huge_array_free(), with its capacity.
 */
int	_memstat_huge_array_grow(void **a, size_t n, size_t *cap,
	    size_t size);
void	_memstat_huge_array_free(void *a, size_t cap, size_t size);
/*
 * The whole pages of [p, p + len) made present in one system call, before
 * they are written (huge_array.c): a first touch of each costs a fault.
 * _memstat_zalloc() is calloc() whose pages are made present so.
 */
void	_memstat_prefault(void *p, size_t len);
void	*_memstat_zalloc(size_t n, size_t size);

/* SipHash-1-3 of data under key (siphash.c). */
uint64_t	_memstat_siphash(const uint64_t key[2], const void *data,
		    size_t len);

#endif /* !MEMSTAT_INTERNAL_H */
