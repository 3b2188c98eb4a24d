/*
 * kvm_memmap.h: where a core image's struct page array and direct map
 * are: the architecture's answer (kvm_arch_ops.h), found with the
 * kernel's symbols and memory sections, which this floor hands it.
 */
#ifndef KVM_MEMMAP_H
#define KVM_MEMMAP_H

#include "kvm/dump/kvm_handle.h"

/*
 * The struct page array (page_size bytes each) and the virtual address
 * of physical address 0 in the direct map: 0, or -1 with the error
 * recorded.
 */
int	_memstat_kvm_memmap(struct memstat_kvm *kvm, uint32_t page_size,
	    uint64_t *vmemmap, uint64_t *direct_map);

#endif /* !KVM_MEMMAP_H */
