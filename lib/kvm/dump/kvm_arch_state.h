/*
 * kvm_arch_state.h: what a core image's architecture told us, kept on
 * the handle: data only, so that the handle need not know the
 * architectures' code (kvm_arch.h), which reads through the handle.
 */
#ifndef KVM_ARCH_STATE_H
#define KVM_ARCH_STATE_H

#include <stdbool.h>
#include <stdint.h>

struct kvm_arch;

/*
 * ppc64's: which MMU the kernel runs, and, with hash, where vmemmap_list
 * and the sizes of its blocks are (physical addresses) and the offsets
 * of struct vmemmap_backing's and struct mmu_psize_def's members.
 */
struct kvm_arch_ppc64 {
	bool		 hash;
	uint64_t	 vmemmap_list, vmemmap_psize, psize_defs;
	unsigned	 def_size, def_shift, next, phys, virt;
};

/* Page-table steps remembered, by page: the kernel image's and vmemmap's. */
#define KVM_TLB_SIZE	64

struct kvm_arch_state {
	const struct kvm_arch *ops;	/* NULL: x86-64's, as before */
	/*
	 * The image's byte order, said once by its reader (a dump's
	 * header): its numbers are read in it whatever this machine's,
	 * by _memstat_uint_in() and nowhere else.
	 */
	bool		 big_endian;
	unsigned	 page_shift;	/* the kernel's pages: 12, 14 or 16 */
	/*
	 * The direct map (arm64's linear map): [lin_start, lin_end) holds
	 * physical memory at direct_map + its physical address; lin_end 0
	 * until known.
	 */
	uint64_t	 lin_start, lin_end, direct_map;
	/* The kernel image, where linear: [img_start, img_end), less img_delta. */
	uint64_t	 img_start, img_end, img_delta;
	/* The kernel's page tables, read by physical address. */
	uint64_t	 pgd;		/* swapper_pg_dir's, init_top_pgt's; 0 */
	unsigned	 va_bits;	/* translated: 64 less TCR_EL1.T1SZ */
	uint64_t	 addr_mask;	/* x86-64: an entry's address bits */
	bool		 lpa2;		/* OA[51:50] in descriptor bits 9:8 */
	uint64_t	 pac_mask;	/* KERNELPACMASK: bits a return address signs */
	uint64_t	 phys_offset;	/* PHYS_OFFSET (memstart_addr) */
	uint64_t	 vmemmap_start;	/* NUMBER(VMEMMAP_START), or 0 */
	uint64_t	 tlb_va[KVM_TLB_SIZE], tlb_pa[KVM_TLB_SIZE];
	/* SPARSEMEM's section size (NUMBER(SECTION_SIZE_BITS)), or 0. */
	unsigned	 section_bits;
	uint64_t	 section_roots;	/* LENGTH(mem_section), or 0 */
	struct kvm_arch_ppc64 ppc64;
};

#endif /* !KVM_ARCH_STATE_H */
