/*
 * kvm_slub_slab.h: what every SLUB walk reads a slab with
 * (kvm_slub_slab.c): a slab's members, memory and freelists, a cache's
 * geometry, the counts of nodes and CPUs, and a member read as a number.
 */
#ifndef KVM_SLUB_SLAB_H
#define KVM_SLUB_SLAB_H

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
 * nr_node_ids, checked against kmem_cache's array of nodes
 * (kvm_slub_slab.c): 0, or -1 with the error recorded.
 */
int	_memstat_slub_nr_nodes(struct memstat_kvm *kvm,
	    const struct kvm_array *node, uint64_t *n);
/* A member of the struct at base, as an unsigned number of its size
 * (kvm_slub_slab.c). */
int	_memstat_slub_member(struct memstat_kvm *kvm, uint64_t base,
	    const struct kvm_member *m, uint64_t *v);

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

#endif /* !KVM_SLUB_SLAB_H */
