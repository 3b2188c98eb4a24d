/*
 * kvm_arch_ops.h: the interface each architecture's room fills
 * (kvm_arch_x86_64.c, kvm_arch_aarch64.c, kvm_arch_s390x.c,
 * kvm_arch_riscv64.c, kvm_arch_ppc64.c), and what a room may ask of
 * the floor above it, the kernel's (kvm_memmap.c hands it), or use
 * beside it.  Adding an architecture is a room that fills struct
 * kvm_arch and a line in kvm_arch.c's table.
 */
#ifndef KVM_ARCH_OPS_H
#define KVM_ARCH_OPS_H

#include "kvm/dump/kvm_handle.h"

/*
 * The kernel's symbols and memory sections, for the rooms that find the
 * struct page array through them: symbol, a symbol's run-time address (0,
 * or -1 with the error recorded); sections_each, fn on each memory
 * section that has a struct page array, as _memstat_kvm_sections_each().
 */
struct kvm_memmap_finders {
	int	(*symbol)(struct memstat_kvm *kvm, const char *name,
		    uint64_t *addr);
	int	(*sections_each)(struct memstat_kvm *kvm,
		    int (*fn)(void *arg, uint64_t nr, uint64_t map), void *arg);
};

struct kvm_arch {
	const char *name;		/* libkdumpfile's arch.name */
	/* Whether VMCOREINFO is of this architecture's kernel. */
	bool	(*claims)(kvm_vmcoreinfo_fn vmcoreinfo, void *arg);
	/* The state from VMCOREINFO: 0, or -1 with the error recorded. */
	int	(*setup)(struct memstat_kvm *kvm, kvm_vmcoreinfo_fn vmcoreinfo,
		    void *arg);
	/* Whether KASLR moves a symbol at this link-time address. */
	bool	(*kaslr_moves)(uint64_t link_addr);
	/*
	 * The struct page array (page_size bytes each) and the virtual
	 * address of physical address 0 in the direct map, asking the
	 * kernel's floor what it needs through find: 0, or -1 with the
	 * error recorded.
	 */
	int	(*memmap)(struct memstat_kvm *kvm,
		    const struct kvm_memmap_finders *find, uint32_t page_size,
		    uint64_t *vmemmap, uint64_t *direct_map);
	/*
	 * The page tables walked from the image (NULL: the reader's own,
	 * libkdumpfile's): 0 with *paddr, or -1 (not mapped, or a table
	 * not read), nothing recorded.
	 */
	int	(*walk)(const struct kvm_arch_state *st, uint64_t vaddr,
		    uint64_t *paddr, kvm_phys_fn read, void *arg);
	/*
	 * Where the machine keeps a pointer to the kernel's VMCOREINFO
	 * note, for dumps that carry none (kvm_handle.h's
	 * vmcoreinfo_in_ram); NULL where it keeps none.
	 */
	kvm_vmcoreinfo_at_fn vmcoreinfo_at;
};

/*
 * The struct page array where the image does not say where it is: what
 * any present memory section's encoded map says (mm/sparse.c stores
 * mem_map less the section's first pfn: with SPARSEMEM_VMEMMAP, the
 * array's start), for the rooms (kvm_arch_sections.c).  0, or -1 with
 * the error recorded.
 */
int	_memstat_kvm_arch_sections_memmap(struct memstat_kvm *kvm,
	    const struct kvm_memmap_finders *find, uint64_t *vmemmap);
/*
 * struct kvm_arch's memmap for a room whose direct map is
 * kvm->arch.direct_map and whose array is found from the sections.
 */
int	_memstat_kvm_arch_memmap_by_sections(struct memstat_kvm *kvm,
	    const struct kvm_memmap_finders *find, uint32_t page_size,
	    uint64_t *vmemmap, uint64_t *direct_map);

/* The 8-byte word at physical address at, in the order big says. */
static inline bool
_memstat_kvm_arch_word(kvm_phys_fn read, void *arg, bool big, uint64_t at,
    uint64_t *w)
{
	unsigned char b[8];

	if (!read(arg, at, b, sizeof(b)))
		return (false);
	*w = _memstat_uint_in(b, sizeof(b), big);
	return (true);
}

extern const struct kvm_arch _memstat_kvm_arch_x86_64;
extern const struct kvm_arch _memstat_kvm_arch_aarch64;
extern const struct kvm_arch _memstat_kvm_arch_s390x;
extern const struct kvm_arch _memstat_kvm_arch_riscv64;
extern const struct kvm_arch _memstat_kvm_arch_ppc64;

#endif /* !KVM_ARCH_OPS_H */
