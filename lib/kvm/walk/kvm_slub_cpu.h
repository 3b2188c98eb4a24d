/*
 * kvm_slub_cpu.h: the free objects SLUB's CPUs hold (kvm_slub_cpu.c),
 * for the slabinfo walk's active counts and the objects' walk.
 */
#ifndef KVM_SLUB_CPU_H
#define KVM_SLUB_CPU_H

#include "kvm/walk/kvm_slub_slab.h"

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

#endif /* !KVM_SLUB_CPU_H */
