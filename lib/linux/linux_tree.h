/*
 * linux_tree.h: reading a Linux tree (the live "/" or a saved copy of its
 * /proc and /sys files) into the model.  Shared by the Linux sources only.
 */
#ifndef LINUX_TREE_H
#define LINUX_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/memstat_internal.h"

/* No file these sources read is anywhere near this; a bigger one is bad. */
#define LINUX_FILE_MAX	((size_t)64 << 20)

/* Open root as a directory: a file descriptor, or -1 with errno set. */
int	_memstat_linux_open(const char *root);

/*
 * Read root/path whole, NUL-terminated, in one pass of read(2) calls (the
 * kernel builds /proc files as they are read).  0, or an errno value;
 * EFBIG past LINUX_FILE_MAX.
 */
int	_memstat_linux_read(int rootfd, const char *path, char **bufp,
	    size_t *lenp);

/* The MEMSTAT_ERROR_* for a failed open or read. */
int	_memstat_linux_error(int errnum);

/* One row of /proc/slabinfo: one real kmem_cache. */
struct slab_row {
	const char	*name;		/* into the file's buffer, or the dump's names */
	uint64_t	 active;	/* active_objs */
	uint64_t	 objects;	/* num_objs */
	uint64_t	 objsize;	/* s->size: the slot, with metadata */
	uint64_t	 objperslab;
	uint64_t	 pagesperslab;
	uint64_t	 slabs;		/* num_slabs */
	/* CONFIG_SLUB_STATS, when has_stats. */
	bool		 has_stats;
	uint64_t	 allocs;
	uint64_t	 frees;
	/*
	 * Core images: active less the objects the CPUs hold free, when
	 * has_allocated; else damage may say what in the dump stopped the
	 * count (into the names buffer, as name).
	 */
	bool		 has_allocated;
	uint64_t	 allocated;
	const char	*damage;
	/* Its share per NUMA node: nnodes from si->nodes[node_first]. */
	size_t		 node_first;
	uint32_t	 nnodes;
};

struct slabinfo {
	char		*buf;
	struct slab_row	*rows;		/* in file order: newest cache first */
	size_t		 nrows;
	struct mt_node	*nodes;		/* the rows' shares per node */
	size_t		 nnodes, nodecap;
	uint32_t	 maxnodes;	/* every row's, its missing nodes 0 */
};

/*
 * Far more node ids than any kernel has (MAX_NUMNODES is at most 1024):
 * a bound on what a tree or a dump may claim.
 */
#define LINUX_NODES_MAX	4096

/* Give row its shares of nodes[0..n): 0, or -1 when memory runs out. */
int	_memstat_slabinfo_nodes(struct slabinfo *si, size_t row,
	    const struct mt_node *nodes, uint32_t n);

/* Read and check root/proc/slabinfo: 0 or a MEMSTAT_ERROR_*. */
int	_memstat_slabinfo_read(int rootfd, struct slabinfo *si);
int	_memstat_slabinfo_parse(char *buf, size_t len, struct slabinfo *si);
void	_memstat_slabinfo_free(struct slabinfo *si);

/*
 * From root/sys/kernel/slab: the SLUB_STATS counters of every row, when the
 * kernel keeps them (a kernel without them costs one failed stat).
 */
void	_memstat_slab_stats(int rootfd, struct slabinfo *si);

/*
 * Each row's share per NUMA node, from root/sys/kernel/slab/NAME's
 * objects, total_objects, slabs and partial ("TOTAL N0=a N1=b", a node
 * left out holding none).  A tree without them gives none; a file that
 * does not read as the kernel writes it is MEMSTAT_ERROR_DATAERROR, with
 * its path in bad (PATH_MAX bytes).  0 or a MEMSTAT_ERROR_*.
 */
int	_memstat_slab_nodes(int rootfd, struct slabinfo *si, char *bad);

/*
 * The other names of merged caches, from the symlinks in
 * root/sys/kernel/slab, for the entries a list holds for si's rows.  A
 * tree without that directory gives none.  0 or a MEMSTAT_ERROR_*.
 */
struct slab_aliases;
int	_memstat_slab_aliases_read(int rootfd, const struct slabinfo *si,
	    struct slab_aliases **sap);
/*
 * The same from links found elsewhere (a core image's kernfs): a link
 * named name to a directory named target (its last component) at a time,
 * then grouped against si's rows.  0 or a MEMSTAT_ERROR_*.
 */
struct slab_aliases *_memstat_slab_aliases_new(void);
int	_memstat_slab_aliases_link(struct slab_aliases *sa, const char *name,
	    const char *target);
int	_memstat_slab_aliases_group(struct slab_aliases *sa,
	    const struct slabinfo *si);
/*
 * n entries of the directory could not be read (a filtered dump left
 * their pages out): every row's aliases are then read in part
 * (MEMSTAT_UNKNOWN_ALIASES).
 */
void	_memstat_slab_aliases_lost(struct slab_aliases *sa, size_t n);
/* Give row i's entry its aliases: 0, or -1 when memory runs out. */
int	_memstat_slab_aliases_apply(const struct slab_aliases *sa, size_t row,
	    struct memory_type *mtp);
void	_memstat_slab_aliases_free(struct slab_aliases *sa);

/*
 * Fill a list with one UMA entry per row (aliases from sa, if not NULL),
 * or with one malloc entry per kmalloc family of the rows: 0, or -1 with
 * the list's error set.  Shared by the live tree and core images.
 */
int	_memstat_slab_fill(struct memory_type_list *list,
	    const struct slabinfo *si, const struct slab_aliases *sa);
int	_memstat_kmalloc_families(struct memory_type_list *list,
	    const struct slabinfo *si);
/* One malloc entry per /proc/allocinfo site; checked before any change. */
int	_memstat_allocinfo_fill(struct memory_type_list *list, char *buf,
	    size_t len);

/*
 * The checks every /proc text file gets: whole lines (the last ends in
 * '\n', or the file was cut short), no NUL, a first line of magic then
 * "MAJOR.MINOR" (and maybe " (...)").  0 with the major version and the
 * line count, or MEMSTAT_ERROR_DATAERROR.
 */
int	_memstat_linux_header(const char *buf, size_t len, const char *magic,
	    uint64_t *major, size_t *lines);

/* Parse a decimal u64 at *p, moving *p past it: false on none or overflow. */
bool	_memstat_linux_u64(const char **p, uint64_t *v);

#endif /* !LINUX_TREE_H */
