/*
 * kvm_slub.h: what the SLUB walks share: the slabinfo walk (kvm_slub.c),
 * the count of the objects the CPUs hold free (kvm_slub_cpu.c) and the
 * objects one by one (kvm_slub_objects.c), over a slab's members, memory
 * and freelists and a member read as a number (kvm_slub_slab.c).
 */
#ifndef KVM_SLUB_H
#define KVM_SLUB_H

#include "kvm/kernel/kvm_finders.h"

/* A slab's members: struct slab since 5.17, struct page before. */
struct slub_slab_layout {
	struct kvm_member list, inuse, objects, freelist, next;
	bool		 has_next;	/* the per-CPU partial chain */
};

/* Slab to memory: the struct page array and the direct map. */
struct slub_memmap {
	uint64_t	 vmemmap, page_offset;
	uint32_t	 page_size_struct;
	unsigned	 page_shift;
};

/* The largest object a cache may have (see _memstat_slub_geometry()). */
#define SLUB_OBJECT_MAX	(1ULL << 32)

/* What a cache's freelists are read with, and where it is in BTF. */
struct slub_geometry {
	uint64_t	 size, offset, random, red_left_pad;
	bool		 hardened;	/* SLAB_FREELIST_HARDENED */
};
struct slub_geometry_layout {
	struct kvm_member size, offset, random, red_left_pad;
	bool		 hardened;
};

/*
 * Where the CPUs keep free objects: per-CPU slabs (each with its lockless
 * freelist and a chain of partial slabs) before 7.0; per-CPU sheaves of
 * object pointers and each node's barn of full sheaves since.  Loaded
 * once per walk; ok false when the kernel has neither (the allocated
 * counts are then unknown).
 */
struct slub_cpu_layout {
	bool		 ok;
	/* Why not ok, where every cache's count is unknown for it. */
	char		 why[MEMSTAT_ERRLEN];
	bool		 sheaves;
	uint32_t	 ncpus;
	uint64_t	*cpu_offset;	/* __per_cpu_offset[0..ncpus-1] */
	/* Per-CPU slabs. */
	struct kvm_member cache_cpu_slab, cpu_freelist, cpu_slab,
	    cpu_partial;
	struct slub_geometry_layout geometry;
	struct slub_memmap memmap;
	/* Sheaves. */
	struct kvm_member cache_cpu_sheaves, pcs_main, pcs_spare,
	    pcs_rcu_free, sheaf_size, sheaf_barn_list, barn_full,
	    barn_nr_full;
	struct kvm_array cache_barn;
};

/*
 * nr_node_ids, checked against kmem_cache's array of nodes
 * (kvm_slub_slab.c): 0, or -1 with the error recorded.
 */
int	_memstat_slub_nr_nodes(struct memstat_kvm *kvm,
	    const struct kvm_array *node, uint64_t *n);
/* nr_cpu_ids, checked (kvm_slub_slab.c): 0, or -1 with the error recorded. */
int	_memstat_slub_nr_cpus(struct memstat_kvm *kvm, uint32_t *n);
/*
 * Found by name, else by the image's structure where kallsyms name the
 * code only (kvm_slub_find.c): slab_caches, the list of every cache (0,
 * or -1 with the error); slab_kset's kset (0; 1 where the kernel has no
 * sysfs; -1); the nodes past the highest online one (0, or -1).
 */
int	_memstat_slub_caches_head(struct memstat_kvm *kvm, uint64_t *head);
int	_memstat_slub_kset(struct memstat_kvm *kvm, uint64_t *kset);
int	_memstat_slub_online_nodes(struct memstat_kvm *kvm, uint64_t *n);

/* A member of the struct at base, as an unsigned number of its size
 * (kvm_slub_slab.c). */
int	_memstat_slub_member(struct memstat_kvm *kvm, uint64_t base,
	    const struct kvm_member *m, uint64_t *v);

/*
 * The cache's name (kvm_slub_name.c), read by the member name of
 * kmem_cache, into buf.  Where a dump left its page out, the name the
 * cache's kobject was given; failing that "kmem_cache@ADDRESS", with why
 * saying what was missing (else why is empty).  0, or -1 with the error
 * recorded.
 */
int	_memstat_slub_cache_name(struct memstat_kvm *kvm,
	    const struct kvm_member *name, uint64_t cache, char *buf,
	    size_t size, char *why, size_t whylen);

/* kvm_slub_slab.c: slabs' members, memory and freelists. */
int	_memstat_slub_slab_layout(struct memstat_kvm *kvm,
	    struct slub_slab_layout *sl);
int	_memstat_slub_memmap(struct memstat_kvm *kvm, struct slub_memmap *mm);
int	_memstat_slub_geometry_layout(struct memstat_kvm *kvm,
	    struct slub_geometry_layout *gl);
/* The cache's geometry, checked: 0, or -1 with the error recorded. */
int	_memstat_slub_geometry(struct memstat_kvm *kvm,
	    const struct slub_geometry_layout *gl, uint64_t cache,
	    struct slub_geometry *g);
/* The address of the first object of slab (its struct slab or page). */
int	_memstat_slub_slab_base(struct memstat_kvm *kvm,
	    const struct slub_memmap *mm, uint64_t slab, uint64_t *base);
/*
 * The length of a freelist of slab, of objects objects, from head, into
 * *np; each object's bit set in free[] if free is not NULL (objects bits,
 * zeroed by the caller).  bytes: the slab's own, read already (its
 * objects' span from its base), or NULL.  0, or -1 with a pointer out of
 * the slab or a loop recorded.
 */
int	_memstat_slub_freelist(struct memstat_kvm *kvm,
	    const struct slub_memmap *mm, const struct slub_geometry *g,
	    uint64_t slab, uint64_t objects, uint64_t head,
	    const uint8_t *bytes, uint8_t *free, uint64_t *np);

/* Load what counting the CPUs' free objects needs: 0, or -1 (error). */
int	_memstat_slub_cpu_layout(struct memstat_kvm *kvm,
	    const struct slub_slab_layout *sl, struct slub_cpu_layout *cl);
void	_memstat_slub_cpu_layout_free(struct slub_cpu_layout *cl);

/*
 * The objects of cache that the CPUs hold free, which slabinfo counts as
 * active: 0 with *freep, or -1 with what was wrong recorded on the handle
 * (a freelist that loops or leaves its slab, a chain longer than the
 * cache's slabs).  max_slabs bounds every chain.
 */
int	_memstat_slub_cpu_free(struct memstat_kvm *kvm,
	    const struct slub_slab_layout *sl, const struct slub_cpu_layout *cl,
	    uint64_t cache, uint32_t nr_nodes, uint64_t max_slabs,
	    uint64_t *freep);

/*
 * The links of /sys/kernel/slab, from the kernfs tree in the image, into
 * sa (kvm_slab_kernfs.c): 0 (none where the kernel has no slab_kset), or
 * -1 with the error recorded.
 */
struct slab_aliases;
int	_memstat_kvm_slab_links(struct memstat_kvm *kvm,
	    struct slab_aliases *sa);

#endif /* !KVM_SLUB_H */
