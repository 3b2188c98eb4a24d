/*
 * kvm_slub.h: what the SLUB walk (kvm_slub.c) and the count of the objects
 * the CPUs hold free (kvm_slub_cpu.c) share: the members they read, found
 * in BTF, and a member read as a number.
 */
#ifndef KVM_SLUB_H
#define KVM_SLUB_H

#include "kvm/kvm_finders.h"

/* A slab's members: struct slab since 5.17, struct page before. */
struct slub_slab_layout {
	struct kvm_member list, inuse, objects, next;
	bool		 has_next;	/* the per-CPU partial chain */
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
	bool		 sheaves;
	uint32_t	 ncpus;
	uint64_t	*cpu_offset;	/* __per_cpu_offset[0..ncpus-1] */
	/* Per-CPU slabs. */
	struct kvm_member cache_cpu_slab, cache_offset, cache_random,
	    cache_size, cache_red_left_pad, cpu_freelist, cpu_slab,
	    cpu_partial;
	bool		 hardened;	/* SLAB_FREELIST_HARDENED */
	/* Slab to memory: the struct page array and the direct map. */
	uint64_t	 vmemmap, page_offset;
	uint32_t	 page_size_struct;
	/* Sheaves. */
	struct kvm_member cache_cpu_sheaves, pcs_main, pcs_spare,
	    pcs_rcu_free, sheaf_size, sheaf_barn_list, barn_full,
	    barn_nr_full;
	struct kvm_array cache_barn;
};

/* A member of the struct at base, as an unsigned number of its size. */
int	_memstat_slub_member(struct memstat_kvm *kvm, uint64_t base,
	    const struct kvm_member *m, uint64_t *v);

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
