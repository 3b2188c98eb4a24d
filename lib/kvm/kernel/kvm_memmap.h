/*
 * kvm_memmap.h: where a core image's struct page array and direct map
 * are: the architecture's answer (kvm_arch_ops.h), found with the
 * kernel's symbols and memory sections, which this floor hands it; and
 * the array's pages, section by section, for the walks that look for
 * pages of a kind (slabs, free blocks) where no list names them all.
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

/* The array's shape: pages per memory section, and a struct page. */
struct kvm_pages {
	unsigned	 per_section;	/* pages, as a shift */
	uint32_t	 page_size;	/* sizeof(struct page), from BTF */
	uint64_t	 vmemmap;	/* the array's start (pfn 0's) */
};

/*
 * The shape, from VMCOREINFO's SECTION_SIZE_BITS and BTF, and the
 * array's start, the direct map's bounds learnt on the way: 0, or -1 with the error recorded
 * (what names what the pages were wanted for: "its slabs").
 */
int	_memstat_kvm_pages_layout(struct memstat_kvm *kvm,
	    struct kvm_pages *pg, const char *what);

/*
 * fn for each struct page that reads, in pfn order, a few hundred read
 * at once: its address and bytes (pg->page_size of them).  At most
 * *budget struct pages are read (NULL: all), pages a filtered dump left
 * out skipped.  fn returns 0 to go on, 1 to stop (then this returns 1),
 * -1 on failure (-1).  0 when every section was seen.
 */
int	_memstat_kvm_pages_each(struct memstat_kvm *kvm,
	    const struct kvm_pages *pg, uint64_t *budget,
	    int (*fn)(void *arg, uint64_t page, const uint8_t *bytes),
	    void *arg);

#endif /* !KVM_MEMMAP_H */
