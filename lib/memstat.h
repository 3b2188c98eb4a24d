/*
 * memstat.h: libmemstat(3), FreeBSD's kernel memory statistics API.
 *
 * A memory_type_list holds memory_type entries, one per UMA zone or malloc
 * type.  Both are opaque: callers use the accessors below.  Every query
 * returns 0 or -1 and leaves its error code on the list
 * (memstat_mtl_geterror()); the library never prints.
 */
#ifndef MEMSTAT_H
#define MEMSTAT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Caller data slots kept per type and per type and CPU. */
#define MEMSTAT_MAXCALLER	16

/* Which allocator an entry came from. */
#define ALLOCATOR_UNKNOWN	0
#define ALLOCATOR_MALLOC	1
#define ALLOCATOR_UMA		2
#define ALLOCATOR_ANY		255

/* Longest type name, including its NUL. */
#define MEMTYPE_MAXNAME		32

/*
 * Error codes.  Value 4 (MEMSTAT_ERROR_TOOMANYCPUS) was retired by FreeBSD
 * 9.0 together with the fixed per-CPU arrays, and is not used here either.
 */
#define MEMSTAT_ERROR_UNDEFINED		0	/* Initialization value. */
#define MEMSTAT_ERROR_NOMEMORY		1	/* Out of memory. */
#define MEMSTAT_ERROR_VERSION		2	/* Unsupported version. */
#define MEMSTAT_ERROR_PERMISSION	3	/* Permission denied. */
#define MEMSTAT_ERROR_DATAERROR		5	/* Error in stat data. */
#define MEMSTAT_ERROR_KVM		6	/* See the core reader's error. */
#define MEMSTAT_ERROR_KVM_NOSYMBOL	7	/* Symbol not available. */
#define MEMSTAT_ERROR_KVM_SHORTREAD	8	/* Short read from a core. */

struct memory_type;
struct memory_type_list;

const char	*memstat_strerror(int error);

/*
 * Beyond FreeBSD: a failed query leaves, with its code, what failed in
 * words (at most MEMSTAT_ERRLEN bytes with the NUL): memstat_strerror()'s
 * string where that is all there is to say, as for FreeBSD's streams and
 * the live kernel; the file and what was wrong with it for a saved Linux
 * tree; what the dump lacked for a core image.
 */
#define MEMSTAT_ERRLEN		512

/* Lists. */
struct memory_type_list	*memstat_mtl_alloc(void);
struct memory_type	*memstat_mtl_first(struct memory_type_list *list);
struct memory_type	*memstat_mtl_next(struct memory_type *mtp);
struct memory_type	*memstat_mtl_find(struct memory_type_list *list,
			    int allocator, const char *name);
void			 memstat_mtl_free(struct memory_type_list *list);
int			 memstat_mtl_geterror(struct memory_type_list *list);
const char		*memstat_mtl_geterrmsg(struct memory_type_list *list);

/*
 * What a path holds, decided by content (magic numbers), never by name:
 * what a tool's -M may name.  Returns 0 with kind set, and why saying how
 * it was told or, for MEMSTAT_SOURCE_UNKNOWN, why it is none of them; or
 * -1 when the path cannot be examined, with error (PERMISSION, NOMEMORY,
 * or KVM: the system's reason is in why).  byte_order is FreeBSD data's
 * (1234 little-endian, 4321 big-endian; this host's when nothing tells).
 * A pipe is taken for a stream unread: reading it would consume it.
 */
#define MEMSTAT_SOURCE_UNKNOWN		0
#define MEMSTAT_SOURCE_FREEBSD_STREAM	1	/* "sysctl -b" output */
#define MEMSTAT_SOURCE_FREEBSD_CAPTURE	2	/* one file per sysctl OID */
#define MEMSTAT_SOURCE_LINUX_TREE	3	/* proc/slabinfo and more */
#define MEMSTAT_SOURCE_CORE		4	/* a kernel core image */

struct memstat_probe {
	int	 kind;			/* MEMSTAT_SOURCE_* */
	int	 byte_order;
	int	 error;			/* MEMSTAT_ERROR_*, when -1 */
	char	 why[MEMSTAT_ERRLEN];
};

int	memstat_probe(const char *path, struct memstat_probe *probe);

/*
 * Decoders for FreeBSD's binary sysctl streams, as saved by
 * "sysctl -b vm.zone_stats" and "sysctl -b kern.malloc_stats".  Pure
 * functions of the bytes: any era, either byte order.
 */
int	memstat_stream_uma(struct memory_type_list *list, const void *buf,
	    size_t len);
int	memstat_stream_malloc(struct memory_type_list *list, const void *buf,
	    size_t len);

/*
 * The live kernel.  On Linux: /proc/slabinfo for zones (one per slab
 * cache); /proc/allocinfo for malloc types when the kernel profiles
 * allocations, else one type per kmalloc family.  Flags:
 * MEMSTAT_LINUX_ALIASES also reads /sys/kernel/slab for the other names of
 * merged caches (memstat_get_alias()), MEMSTAT_LINUX_NODES each cache's
 * share per NUMA node (memstat_get_nodes()); SLUB_STATS counters are read
 * there whenever the kernel has them.  memstat_linux_uma() and _malloc() read
 * the same files under root instead of "/": a saved copy of a Linux tree.
 */
#define MEMSTAT_LINUX_ALIASES	0x0001
#define MEMSTAT_LINUX_NODES	0x0002

int	memstat_sysctl_all(struct memory_type_list *list, int flags);
int	memstat_sysctl_uma(struct memory_type_list *list, int flags);
int	memstat_sysctl_malloc(struct memory_type_list *list, int flags);
int	memstat_linux_uma(struct memory_type_list *list, const char *root,
	    int flags);
int	memstat_linux_malloc(struct memory_type_list *list, const char *root,
	    int flags);

/*
 * Kernel core images (Linux vmcores: ELF, kdump-compressed, makedumpfile's
 * flattened stream), with FreeBSD's kvm-style handle.  system (-N) may be
 * NULL (symbols and types come from the dump), a System.map, a vmlinux,
 * or a raw BTF file.  On failure memstat_kvm_open() returns NULL with a
 * message in errbuf (MEMSTAT_KVM_ERRLEN bytes); after a failed query,
 * memstat_kvm_geterr() says what the dump lacked.
 */
#define MEMSTAT_KVM_ERRLEN	512

void	*memstat_kvm_open(const char *core, const char *system, char *errbuf);
int	 memstat_kvm_close(void *kvm_handle);
const char *memstat_kvm_geterr(void *kvm_handle);
int	memstat_kvm_all(struct memory_type_list *list, void *kvm_handle);
int	memstat_kvm_uma(struct memory_type_list *list, void *kvm_handle);
int	memstat_kvm_malloc(struct memory_type_list *list, void *kvm_handle);
/*
 * What the handle's queries read beyond the counts /proc/slabinfo has:
 * MEMSTAT_KVM_ALLOCATED, each cache's allocated objects (the CPUs' free
 * lists walked: memstat_get_allocated()), and MEMSTAT_LINUX_ALIASES, the
 * other names of merged caches (the image's /sys/kernel/slab walked:
 * memstat_get_alias()).  Both, until a caller that will not ask for them
 * says so: on a filtered dump they are a third of the pages a zone report
 * inflates.  Left out, the allocated counts are unknown
 * (MEMSTAT_UNKNOWN_ALLOCATED) and no aliases are given.
 */
#define MEMSTAT_KVM_ALLOCATED	0x0100
void	 memstat_kvm_setflags(void *kvm_handle, int flags);
/*
 * 1 if the handle reads the running kernel (/proc/kcore), whose memory
 * changes between queries: each query reads it anew, while the symbols
 * and types found at the first stay the handle's.  0 for a dump.
 */
int	memstat_kvm_live(void *kvm_handle);
/*
 * The image's time since boot as /proc/uptime said it (the boot-based
 * clock of the kernel's timekeeper, exact to its last tick), in seconds:
 * what --replay orders dumps and saved trees of one machine by.  0, or
 * -1 with the error on the handle.
 */
int	memstat_kvm_uptime(void *kvm_handle, double *seconds);

/* Accessors.  They never fail; an out-of-range cpu or index reads as 0. */
const char	*memstat_get_name(const struct memory_type *mtp);
int		 memstat_get_allocator(const struct memory_type *mtp);
uint64_t	 memstat_get_countlimit(const struct memory_type *mtp);
uint64_t	 memstat_get_byteslimit(const struct memory_type *mtp);
uint64_t	 memstat_get_sizemask(const struct memory_type *mtp);
uint64_t	 memstat_get_size(const struct memory_type *mtp);
uint64_t	 memstat_get_rsize(const struct memory_type *mtp);
uint64_t	 memstat_get_memalloced(const struct memory_type *mtp);
uint64_t	 memstat_get_memfreed(const struct memory_type *mtp);
uint64_t	 memstat_get_numallocs(const struct memory_type *mtp);
uint64_t	 memstat_get_numfrees(const struct memory_type *mtp);
uint64_t	 memstat_get_bytes(const struct memory_type *mtp);
uint64_t	 memstat_get_count(const struct memory_type *mtp);
uint64_t	 memstat_get_free(const struct memory_type *mtp);
uint64_t	 memstat_get_failures(const struct memory_type *mtp);
uint64_t	 memstat_get_sleeps(const struct memory_type *mtp);
uint64_t	 memstat_get_xdomain(const struct memory_type *mtp);
void		*memstat_get_caller_pointer(const struct memory_type *mtp,
		    int index);
void		 memstat_set_caller_pointer(struct memory_type *mtp,
		    int index, void *value);
uint64_t	 memstat_get_caller_uint64(const struct memory_type *mtp,
		    int index);
void		 memstat_set_caller_uint64(struct memory_type *mtp,
		    int index, uint64_t value);
uint64_t	 memstat_get_zonefree(const struct memory_type *mtp);
uint64_t	 memstat_get_kegfree(const struct memory_type *mtp);
/* Linux: the slabs a cache holds (num_slabs); FreeBSD data has none. */
uint64_t	 memstat_get_slabs(const struct memory_type *mtp);
/*
 * The items callers hold: count less the free items the CPUs keep (Linux
 * core images and /proc/kcore, from SLUB's per-CPU slabs or sheaves:
 * crash's ALLOCATED); on FreeBSD data, count.  Unknown for /proc/slabinfo,
 * which counts the CPUs' free objects as active.
 */
uint64_t	 memstat_get_allocated(const struct memory_type *mtp);
/*
 * What in a core image stopped a count of this entry (a freelist that
 * loops, a pointer out of its slab), or NULL: the rest of the entry was
 * read, the count it names is unknown.
 */
const char	*memstat_get_damage(const struct memory_type *mtp);
uint64_t	 memstat_get_percpu_memalloced(const struct memory_type *mtp,
		    int cpu);
uint64_t	 memstat_get_percpu_memfreed(const struct memory_type *mtp,
		    int cpu);
uint64_t	 memstat_get_percpu_numallocs(const struct memory_type *mtp,
		    int cpu);
uint64_t	 memstat_get_percpu_numfrees(const struct memory_type *mtp,
		    int cpu);
uint64_t	 memstat_get_percpu_sizemask(const struct memory_type *mtp,
		    int cpu);
void		*memstat_get_percpu_caller_pointer(
		    const struct memory_type *mtp, int cpu, int index);
void		 memstat_set_percpu_caller_pointer(struct memory_type *mtp,
		    int cpu, int index, void *value);
uint64_t	 memstat_get_percpu_caller_uint64(
		    const struct memory_type *mtp, int cpu, int index);
void		 memstat_set_percpu_caller_uint64(struct memory_type *mtp,
		    int cpu, int index, uint64_t value);
uint64_t	 memstat_get_percpu_free(const struct memory_type *mtp,
		    int cpu);

/*
 * What the source does not keep.  The accessors of these read 0, which
 * would be a lie: Linux keeps no limits, no failure, sleep or cross-domain
 * counts, and request counts only with CONFIG_SLUB_STATS; only its slab
 * caches count slabs.  FreeBSD data has none unknown but the slab count.
 */
#define MEMSTAT_UNKNOWN_LIMIT		0x0001	/* countlimit, byteslimit */
#define MEMSTAT_UNKNOWN_NUMALLOCS	0x0002
#define MEMSTAT_UNKNOWN_NUMFREES	0x0004
#define MEMSTAT_UNKNOWN_FAILURES	0x0008
#define MEMSTAT_UNKNOWN_SLEEPS		0x0010
#define MEMSTAT_UNKNOWN_XDOMAIN		0x0020
#define MEMSTAT_UNKNOWN_MEMALLOCED	0x0040	/* memalloced, memfreed */
#define MEMSTAT_UNKNOWN_SLABS		0x0080
#define MEMSTAT_UNKNOWN_ALLOCATED	0x0100
/* Aliases read in part: a filtered dump lacks some of /sys/kernel/slab. */
#define MEMSTAT_UNKNOWN_ALIASES		0x0200
uint32_t	 memstat_get_unknown(const struct memory_type *mtp);

/*
 * A Linux slab cache merged with others is one entry under the name
 * /proc/slabinfo gives it; the other names are its aliases, sorted.
 */
size_t		 memstat_get_alias_count(const struct memory_type *mtp);
const char	*memstat_get_alias(const struct memory_type *mtp, size_t n);

/*
 * Each NUMA node's share of a Linux slab cache, by node id from 0 to
 * memstat_get_nodes() - 1 (0: the source does not say): objects in use
 * (as memstat_get_count() counts them), free in its slabs, its slabs, and
 * those on its partial list.  A node without the cache reads as 0.  Core
 * images and /proc/kcore give them always (each kmem_cache_node); the
 * live kernel and saved trees with MEMSTAT_LINUX_NODES, from
 * /sys/kernel/slab/CACHE/{objects,total_objects,slabs,partial}, read
 * after /proc/slabinfo: a moment later than its counts.
 */
uint32_t	 memstat_get_nodes(const struct memory_type *mtp);
uint64_t	 memstat_get_node_count(const struct memory_type *mtp,
		    uint32_t node);
uint64_t	 memstat_get_node_free(const struct memory_type *mtp,
		    uint32_t node);
uint64_t	 memstat_get_node_slabs(const struct memory_type *mtp,
		    uint32_t node);
uint64_t	 memstat_get_node_partial(const struct memory_type *mtp,
		    uint32_t node);

/*
 * A core image's slab objects one by one (beyond FreeBSD's libmemstat),
 * with who allocated each where the kernel kept it: caches created with
 * SLAB_STORE_USER, every cache under slub_debug=U.  The kernel stores
 * the pid, CPU and jiffies of each allocation and its stack (in the stack
 * depot since 5.17, inline before).  A memstat_objects holds one query's
 * caches and objects; a failed query leaves its code and message on it,
 * as on a list.
 */
struct memstat_objects;

struct memstat_objects *memstat_objects_alloc(void);
void	memstat_objects_free(struct memstat_objects *ol);
int	memstat_objects_geterror(const struct memstat_objects *ol);
const char *memstat_objects_geterrmsg(const struct memstat_objects *ol);

/*
 * Every cache of the image (only those named in caches[0..ncaches) if
 * ncaches > 0), and the objects allocated from each that keeps owners,
 * replacing what ol held.  What in the image stops one cache's walk (a
 * freelist that loops, a pointer out of its slab) is that cache's
 * damage; a bad owner (a pid out of range, a stack depot handle naming
 * no record) is that object's.  0, or -1 with the error on ol.
 */
int	memstat_kvm_objects(struct memstat_objects *ol, void *kvm_handle,
	    const char *const *caches, size_t ncaches);
/*
 * The same walk keeping no object: each is handed to fn as it is read
 * (cache by cache, each cache's in address order) and then forgotten, so
 * the walk's memory is its caches' and stacks' however many objects the
 * image holds.  While fn runs, its object is ol's only one (index 0),
 * the caches up to its own are listed, and the tasks are not yet read
 * (they are when the walk ends).  fn returns 0, or -1 when memory runs
 * out, which stops the walk with MEMSTAT_ERROR_NOMEMORY.  Afterwards ol
 * holds what memstat_kvm_objects() leaves, with no objects.
 */
int	memstat_kvm_objects_each(struct memstat_objects *ol,
	    void *kvm_handle, const char *const *caches, size_t ncaches,
	    int (*fn)(const struct memstat_objects *ol, void *arg), void *arg);

/* The kernel's ticks per second (HZ), found in the image; 0: unknown. */
uint64_t memstat_objects_hz(const struct memstat_objects *ol);
/*
 * Why HZ (and so every age) is unknown, in a line that says what to give
 * (a System.map with -N where the image's kallsyms name only code), or
 * NULL: known, or no query.
 */
const char *memstat_objects_hz_why(const struct memstat_objects *ol);

/* Caches, in the kernel's list order. */
size_t	memstat_objects_caches(const struct memstat_objects *ol);
const char *memstat_objects_cache_name(const struct memstat_objects *ol,
	    size_t cache);
/* Bytes an object holds for its caller (kmem_cache.object_size). */
uint64_t memstat_objects_cache_size(const struct memstat_objects *ol,
	    size_t cache);
/* Whether the kernel kept each object's owner; its objects are listed. */
int	memstat_objects_cache_owners(const struct memstat_objects *ol,
	    size_t cache);
/* What stopped the cache's walk (its objects then are those read), or NULL. */
const char *memstat_objects_cache_damage(const struct memstat_objects *ol,
	    size_t cache);

/* Objects, cache by cache, each cache's in address order. */
#define MEMSTAT_OBJECT_BAD_PID		0x0001	/* pid out of range */
#define MEMSTAT_OBJECT_BAD_CPU		0x0002	/* CPU out of range */
#define MEMSTAT_OBJECT_BAD_STACK	0x0004	/* a handle naming no stack */
#define MEMSTAT_OBJECT_BAD_AGE		0x0008	/* jiffies after the dump's */

size_t	memstat_objects_count(const struct memstat_objects *ol);
size_t	memstat_object_cache(const struct memstat_objects *ol, size_t i);
uint64_t memstat_object_address(const struct memstat_objects *ol, size_t i);
int	memstat_object_pid(const struct memstat_objects *ol, size_t i);
int	memstat_object_cpu(const struct memstat_objects *ol, size_t i);
/* Nanoseconds from the allocation to the image; UINT64_MAX: unknown. */
uint64_t memstat_object_age_ns(const struct memstat_objects *ol, size_t i);
/* The caller of the allocator (track.addr). */
uint64_t memstat_object_callsite(const struct memstat_objects *ol,
	    size_t i);
/*
 * The stack, innermost frame first: *n frames (0: none kept).  Objects
 * with the same stack share its id (SIZE_MAX: none), whose frames
 * memstat_objects_stack() gives.
 */
const uint64_t *memstat_object_stack(const struct memstat_objects *ol,
	    size_t i, size_t *n);
size_t	memstat_object_stack_id(const struct memstat_objects *ol, size_t i);
const uint64_t *memstat_objects_stack(const struct memstat_objects *ol,
	    size_t id, size_t *n);
/*
 * The image's tasks, threads included, from the kernel's task list
 * (init_task.tasks, each process's signal->thread_head), read when a
 * cache kept owners: whether the list was read (MEMSTAT_TASKS_NONE: not
 * read, or could not be; _PART: a filtered dump left some tasks out;
 * _ALL), and the command of the task whose pid is pid, or NULL: no such
 * task in what was read (with _ALL, it had exited).
 */
#define MEMSTAT_TASKS_NONE	0
#define MEMSTAT_TASKS_PART	1
#define MEMSTAT_TASKS_ALL	2
int	memstat_objects_tasks(const struct memstat_objects *ol);
/* Why the list was not read (MEMSTAT_TASKS_NONE), or NULL. */
const char *memstat_objects_tasks_why(const struct memstat_objects *ol);
const char *memstat_objects_command(const struct memstat_objects *ol,
	    int pid);
/* MEMSTAT_OBJECT_BAD_*: what of the owner the image got wrong. */
uint32_t memstat_object_damage(const struct memstat_objects *ol, size_t i);

/*
 * The image's symbols (the kallsyms tables it holds, or -N's), each once,
 * in the table's order, each name the handle's until it is closed: 0, or
 * -1 with the error on the handle.
 */
int	memstat_kvm_symbols(void *kvm_handle,
	    void (*fn)(const char *name, uint64_t addr, void *arg), void *arg);

/*
 * Memory cgroups and the slab objects charged to each (beyond FreeBSD's
 * libmemstat).  The kernel charges each object of an accounted cache
 * (SLAB_ACCOUNT, kmalloc-cg-*) to the memory cgroup of the task that
 * allocated it (5.9 and later) and keeps the owner beside the object.  A
 * memstat_cgroups holds one query's cgroups, parents before children; a
 * failed query leaves its code and message on it, as on a list.
 */
struct memstat_cgroups;

struct memstat_cgroups *memstat_cgroups_alloc(void);
void	memstat_cgroups_free(struct memstat_cgroups *cg);
int	memstat_cgroups_geterror(const struct memstat_cgroups *cg);
const char *memstat_cgroups_geterrmsg(const struct memstat_cgroups *cg);

/*
 * The sources, each replacing what cg held.  A core image or
 * /proc/kcore: every memory cgroup of the tree from root_mem_cgroup,
 * removed ones the kernel still holds (dying) included, and every
 * slab's owner vector walked: the objects each cgroup is charged, cache
 * by cache.  A Linux tree ("/" is the live kernel): the cgroup v2
 * hierarchy under sys/fs/cgroup, each cgroup's memory.current,
 * memory.stat's slab bytes and cgroup.stat's dying descendants, with no
 * count per cache.  0, or -1 with the error on cg.
 */
int	memstat_cgroups_kvm(struct memstat_cgroups *cg, void *kvm_handle);
int	memstat_cgroups_linux(struct memstat_cgroups *cg, const char *root);

/* 1 if the objects were walked (per cache), 0 if memory.stat's. */
int	memstat_cgroups_walked(const struct memstat_cgroups *cg);
size_t	memstat_cgroups_count(const struct memstat_cgroups *cg);
/* As the kernel names it: "/" the root, "/a/b" below it. */
const char *memstat_cgroup_path(const struct memstat_cgroups *cg, size_t i);
/* The parent's index (before i), or SIZE_MAX for the root. */
size_t	memstat_cgroup_parent(const struct memstat_cgroups *cg, size_t i);
/* Removed, still allocated: what it still charges holds it. */
int	memstat_cgroup_dying(const struct memstat_cgroups *cg, size_t i);
/*
 * Bytes charged to it and its descendants (memory.current, the page
 * counter's usage), memory.stat's slab_reclaimable + slab_unreclaimable
 * (also hierarchical), and its dying descendants (cgroup.stat); each
 * UINT64_MAX where the source does not say.
 */
uint64_t memstat_cgroup_memory(const struct memstat_cgroups *cg, size_t i);
uint64_t memstat_cgroup_stat_slab(const struct memstat_cgroups *cg,
	    size_t i);
uint64_t memstat_cgroup_dying_below(const struct memstat_cgroups *cg,
	    size_t i);
/*
 * The slab bytes charged to the cgroup itself that its memory.stat does
 * not count yet, held back by the CPUs (each one's object stock; 5.10's
 * per-CPU counts), negative for frees: memory.stat's slab is SLAB less
 * the sum of these over the cgroup and its descendants (what rstat has
 * not flushed aside).  INT64_MIN where unknown, and then
 * memstat_cgroups_stocked_unknown() says why (NULL when known).
 */
int64_t	memstat_cgroup_stocked(const struct memstat_cgroups *cg, size_t i);
const char *memstat_cgroups_stocked_unknown(const struct memstat_cgroups *cg);
/*
 * What a filtered dump left out of a core image that the walk needed,
 * said: a cgroup list cut short (the cgroups after it found from their
 * objects' owners only, so one that owns none, a dying one among them,
 * is not listed), and how many objects in how many slabs count in no
 * cgroup, the vectors naming their owners left out; NULL when nothing
 * was.
 */
const char *memstat_cgroups_left_out(const struct memstat_cgroups *cg);
/*
 * The caches with objects charged to the cgroup itself (its
 * descendants' not included), by name: the objects, their bytes as the
 * kernel charges them (the slot and its owner's pointer), and how many
 * of them were charged to a cgroup since removed, whose charges the
 * kernel moved up to this one.
 */
size_t	memstat_cgroup_caches(const struct memstat_cgroups *cg, size_t i);
const char *memstat_cgroup_cache_name(const struct memstat_cgroups *cg,
	    size_t i, size_t j);
uint64_t memstat_cgroup_cache_objects(const struct memstat_cgroups *cg,
	    size_t i, size_t j);
uint64_t memstat_cgroup_cache_bytes(const struct memstat_cgroups *cg,
	    size_t i, size_t j);
uint64_t memstat_cgroup_cache_inherited(const struct memstat_cgroups *cg,
	    size_t i, size_t j);

/*
 * malloc(9) small-zone sizes: bit n of a malloc type's size mask means an
 * allocation from zone n.  The table starts as FreeBSD 13's (with its 384
 * entry and the terminating 0); memstat_malloc_zone_set_sizes() replaces it,
 * e.g. with the contents of a saved vm.malloc.zone_sizes.
 */
#define MEMSTAT_MALLOC_ZONE_MAX	32

size_t	memstat_malloc_zone_get_count(void);
size_t	memstat_malloc_zone_get_size(size_t n);
int	memstat_malloc_zone_used(const struct memory_type *mtp, size_t n);
int	memstat_malloc_zone_set_sizes(const int *sizes, size_t count);

/*
 * Physical memory fragmentation (beyond FreeBSD's libmemstat): the buddy
 * allocator's free blocks per order, per NUMA node and zone on Linux, per
 * memory domain on FreeBSD (summed over its free lists and pools), and
 * optionally per migrate type (Linux) or free list and pool (FreeBSD).
 * A memstat_frag holds one source's zones; a failed query leaves its code
 * and message on it, as on a list.
 */
#define MEMSTAT_FRAG_MAXORDER	32	/* orders a zone may have */
#define MEMSTAT_FRAG_NAMELEN	32	/* zone and type names, with NUL */

/* Query flags. */
#define MEMSTAT_FRAG_TYPES	0x0001	/* per migrate type (or list, pool) */

struct memstat_frag;

struct memstat_frag *memstat_frag_alloc(void);
void	memstat_frag_free(struct memstat_frag *frag);
int	memstat_frag_geterror(const struct memstat_frag *frag);
const char *memstat_frag_geterrmsg(const struct memstat_frag *frag);

/*
 * The sources, each replacing what frag held: a Linux tree under root
 * ("/" is the live kernel: /proc/buddyinfo, and /proc/pagetypeinfo for
 * MEMSTAT_FRAG_TYPES, which only root may read); a FreeBSD capture
 * directory (its vm.phys_free text, or else a patched kernel's
 * vm.phys_frag_idx, which has FMFI only); a core image (each zone's
 * free_area, through BTF: free lists walked for MEMSTAT_FRAG_TYPES, none
 * longer than its nr_free).  0, or -1 with the error on frag.
 */
int	memstat_frag_linux(struct memstat_frag *frag, const char *root,
	    int flags);
int	memstat_frag_freebsd(struct memstat_frag *frag, const char *capture,
	    int flags);
int	memstat_frag_kvm(struct memstat_frag *frag, void *kvm_handle,
	    int flags);

/* Accessors; an out-of-range zone, type or order reads as 0 or "". */
size_t	memstat_frag_zones(const struct memstat_frag *frag);
int	memstat_frag_node(const struct memstat_frag *frag, size_t zone);
const char *memstat_frag_zone_name(const struct memstat_frag *frag,
	    size_t zone);			/* "" for a FreeBSD domain */
int	memstat_frag_orders(const struct memstat_frag *frag, size_t zone);
/* Whether block counts are known (a vm.phys_frag_idx has FMFI only). */
int	memstat_frag_has_blocks(const struct memstat_frag *frag, size_t zone);
uint64_t memstat_frag_blocks(const struct memstat_frag *frag, size_t zone,
	    int order);
size_t	memstat_frag_types(const struct memstat_frag *frag, size_t zone);
const char *memstat_frag_type_name(const struct memstat_frag *frag,
	    size_t zone, size_t type);
/* *at_least: the kernel capped the count (pagetypeinfo's ">"). */
uint64_t memstat_frag_type_blocks(const struct memstat_frag *frag,
	    size_t zone, size_t type, int order, int *at_least);
/* FMFI of a zone at an order: computed, or as a vm.phys_frag_idx said. */
int64_t	memstat_frag_zone_fmfi(const struct memstat_frag *frag, size_t zone,
	    int order);

/*
 * The indices, from the free blocks of each order (blocks[0..norders),
 * at most 2^50 free pages), exactly as the kernels compute them:
 * FreeBSD's free memory fragmentation index (D40575: at most 1000,
 * unbounded below), and Linux's unusable free space index and
 * fragmentation index (mm/vmstat.c, in thousandths; the latter -1000
 * when a block of the order is free).
 */
int64_t	memstat_frag_fmfi(const uint64_t *blocks, int norders, int order);
int	memstat_frag_unusable(const uint64_t *blocks, int norders, int order);
int	memstat_frag_extfrag(const uint64_t *blocks, int norders, int order);

#ifdef __cplusplus
}
#endif

#endif /* !MEMSTAT_H */
