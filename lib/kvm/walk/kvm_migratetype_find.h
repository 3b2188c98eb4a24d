/*
 * kvm_migratetype_find.h: migratetype_names[] where no symbol names it
 * (kvm_migratetype_find.c).
 */
#ifndef KVM_MIGRATETYPE_FIND_H
#define KVM_MIGRATETYPE_FIND_H

#include "kvm/dump/kvm_handle.h"

/*
 * migratetype_names[] found in the image's read-only data, its ntypes
 * names held to BTF's enum migratetype: 0 with *array, or -1 (not found;
 * nothing recorded).
 */
int	_memstat_buddy_type_names_find(struct memstat_kvm *kvm, int ntypes,
	    uint64_t *array);

#endif /* !KVM_MIGRATETYPE_FIND_H */
