/*
 * kvm_stackdepot.h: stacks from the image's stack depot (kvm_stackdepot.c).
 */
#ifndef KVM_STACKDEPOT_H
#define KVM_STACKDEPOT_H

#include "kvm/walk/kvm_slub_slab.h"

struct depot_layout {
	bool		 ok;
	struct kvm_member pool, offset, extra;		/* handle_parts */
	struct kvm_member rec_handle, rec_size, rec_entries; /* stack_record */
	bool		 plus_one;	/* pool_index_plus_1 */
	uint64_t	 pools;		/* stack_pools or stack_slabs */
	bool		 known, pointer; /* whether pools is a pointer */
};

/* What decoding handles needs: 0, or -1 (no depot in the image). */
int	_memstat_depot_load(struct memstat_kvm *kvm, struct depot_layout *d);
/*
 * The frames of handle's stack into frames[0..max), *n of them: 0, or -1
 * with the error recorded (a handle naming no record among others).
 */
int	_memstat_depot_stack(struct memstat_kvm *kvm, struct depot_layout *d,
	    uint32_t handle, uint64_t *frames, uint32_t max, uint32_t *n);

#endif /* !KVM_STACKDEPOT_H */
