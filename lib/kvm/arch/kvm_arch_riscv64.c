/*
 * kvm_arch_riscv64.c: RISC-V's kernel maps (RV64), from the image's own
 * VMCOREINFO (arch/riscv/kernel/vmcore_info.c) and page tables:
 *
 *   - the direct map holds physical address p at PAGE_OFFSET + p -
 *     phys_ram_base, from PAGE_OFFSET up to the modules (MODULES_VADDR;
 *     the kernel image's link address where VMCOREINFO names none);
 *   - the kernel image, from KERNEL_LINK_ADDR up, is its physical address
 *     plus va_kernel_pa_offset (where KASLR put it, too);
 *   - vmalloc, vmemmap, modules and the rest are found through
 *     swapper_pg_dir: Sv39, Sv48 or Sv57, the mode the kernel chose at
 *     boot (its VA_BITS: 39, 48 or 57, 3 to 5 levels), tables of 512
 *     entries, a leaf at any level whose R, W or X bit is set;
 *   - the struct page array is what a memory section's map says: the
 *     kernel's vmemmap is VMEMMAP_START less RAM's first page in some
 *     kernels and VMEMMAP_START in others, and VMCOREINFO does not say
 *     which.
 */
#include <inttypes.h>

#include "kvm/arch/kvm_arch_ops.h"
#include "kvm/arch/kvm_vmcoreinfo.h"

#define PTE_VALID	1ULL
#define PTE_LEAF	0xeULL		/* R, W, X: any set, a leaf */
#define PTE_PPN(e)	(((e) >> 10) & ((1ULL << 44) - 1))

static bool
riscv64_claims(kvm_vmcoreinfo_fn vmcoreinfo, void *arg)
{
	uint64_t v;

	return (_memstat_kvm_vmcoreinfo_number(vmcoreinfo, arg,
	    "NUMBER(phys_ram_base)", 0, &v) == 0);
}

static int
riscv64_setup(struct memstat_kvm *kvm, kvm_vmcoreinfo_fn vmcoreinfo,
    void *arg)
{
	struct kvm_arch_state *st = &kvm->arch;
	uint64_t page, va_bits, ram, offset, link, voffset, pgd, modules;

	if (_memstat_kvm_vmcoreinfo_need(kvm, "riscv64", vmcoreinfo, arg,
	    "PAGESIZE", 10, &page) != 0 ||
	    _memstat_kvm_vmcoreinfo_need(kvm, "riscv64", vmcoreinfo, arg,
	    "NUMBER(VA_BITS)", 10, &va_bits) != 0 ||
	    _memstat_kvm_vmcoreinfo_need(kvm, "riscv64", vmcoreinfo, arg,
	    "NUMBER(phys_ram_base)", 10, &ram) != 0 ||
	    _memstat_kvm_vmcoreinfo_need(kvm, "riscv64", vmcoreinfo, arg,
	    "NUMBER(PAGE_OFFSET)", 0, &offset) != 0 ||
	    _memstat_kvm_vmcoreinfo_need(kvm, "riscv64", vmcoreinfo, arg,
	    "NUMBER(KERNEL_LINK_ADDR)", 0, &link) != 0 ||
	    _memstat_kvm_vmcoreinfo_need(kvm, "riscv64", vmcoreinfo, arg,
	    "NUMBER(va_kernel_pa_offset)", 0, &voffset) != 0 ||
	    _memstat_kvm_vmcoreinfo_need(kvm, "riscv64", vmcoreinfo, arg,
	    "SYMBOL(swapper_pg_dir)", 16, &pgd) != 0)
		return (-1);
	if (page != 4096)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM, "a riscv64 "
		    "image of %" PRIu64 "-byte pages: riscv64 has 4 KiB",
		    page));
	if (va_bits != 39 && va_bits != 48 && va_bits != 57)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM, "a riscv64 "
		    "image of %" PRIu64 "-bit addresses: Sv39, Sv48 and Sv57 "
		    "are read", va_bits));
	if (offset >= link || pgd < link)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM, "a riscv64 "
		    "image whose direct map (0x%" PRIx64 ") is not below its "
		    "kernel (0x%" PRIx64 ", swapper_pg_dir 0x%" PRIx64 ")",
		    offset, link, pgd));
	st->page_shift = 12;
	st->va_bits = (unsigned)va_bits;
	st->lin_start = offset;
	st->lin_end = link;
	if (_memstat_kvm_vmcoreinfo_number(vmcoreinfo, arg,
	    "NUMBER(MODULES_VADDR)", 0, &modules) == 0 && modules > offset &&
	    modules < link)
		st->lin_end = modules;
	st->direct_map = offset - ram;
	st->img_start = link;
	st->img_end = UINT64_MAX;
	st->img_delta = voffset;
	st->pgd = pgd - voffset;
	return (0);
}

static bool
riscv64_kaslr_moves(uint64_t link_addr)
{
	/* The image holds every symbol, per-CPU ones too. */
	return ((link_addr >> 63) != 0);
}

static int
riscv64_walk(const struct kvm_arch_state *st, uint64_t vaddr,
    uint64_t *paddr, kvm_phys_fn read, void *arg)
{
	unsigned levels = (st->va_bits - 12) / 9;
	uint64_t table = st->pgd, e, span;

	/* A kernel address: every bit from va_bits - 1 up set. */
	if (levels < 3 || levels > 5 || st->pgd == 0 ||
	    (vaddr >> (st->va_bits - 1)) != ~0ULL >> (st->va_bits - 1))
		return (-1);
	for (unsigned l = levels; l-- > 0; ) {
		span = 1ULL << (12 + 9 * l);
		if (!_memstat_kvm_arch_word(read, arg, st->big_endian,
		    table + ((vaddr / span) & 511) * 8, &e) ||
		    (e & PTE_VALID) == 0)
			return (-1);
		if ((e & PTE_LEAF) != 0) {
			*paddr = ((PTE_PPN(e) << 12) & ~(span - 1)) |
			    (vaddr & (span - 1));
			return (0);
		}
		table = PTE_PPN(e) << 12;
	}
	return (-1);		/* a table where a page belongs */
}

const struct kvm_arch _memstat_kvm_arch_riscv64 = {
	.name = "riscv64",
	.claims = riscv64_claims,
	.setup = riscv64_setup,
	.kaslr_moves = riscv64_kaslr_moves,
	.memmap = _memstat_kvm_arch_memmap_by_sections,
	.walk = riscv64_walk,
};
