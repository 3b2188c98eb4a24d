/*
 * kvm_sections.h: SPARSEMEM's memory sections (mm/sparse.c), read from
 * the image: VMCOREINFO's SYMBOL(mem_section), the roots of
 * SPARSEMEM_EXTREME, each a page of struct mem_section (BTF's size and
 * section_mem_map), each section's map stored less its first pfn: with
 * SPARSEMEM_VMEMMAP, the struct page array's start.
 */
#ifndef KVM_SECTIONS_H
#define KVM_SECTIONS_H

#include "kvm/dump/kvm_handle.h"

/* mm/sparse.c: SECTION_HAS_MEM_MAP, and the flag bits below the map. */
#define KVM_SECTION_HAS_MEM_MAP		2ULL
#define KVM_SECTION_FLAG_BITS		8

/*
 * fn for each section that has a struct page array, in order: its number
 * and its map (flags cleared).  fn returns 0 to go on, 1 to stop (then
 * this returns 1), -1 on failure (then -1).  0 when every section was
 * seen; -1 with the error recorded where the sections cannot be read.
 */
int	_memstat_kvm_sections_each(struct memstat_kvm *kvm,
	    int (*fn)(void *arg, uint64_t nr, uint64_t map), void *arg);

#endif /* !KVM_SECTIONS_H */
