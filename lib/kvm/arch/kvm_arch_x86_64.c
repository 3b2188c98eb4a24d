/*
 * kvm_arch_x86_64.c: x86-64's kernel maps.  The kernel image is linked
 * at __START_KERNEL_map and sits phys_base above its physical load
 * address (VMCOREINFO's NUMBER(phys_base)); the direct map starts at
 * page_offset_base and the struct page array at vmemmap_base, both moved
 * by KASLR and read from the image; pages are 4 KiB.  Other addresses
 * (vmemmap, vmalloc, per-CPU areas) are found through the kernel's page
 * tables, init_top_pgt (its physical address by the image's map): four
 * levels, or five where VMCOREINFO says pgtable_l5_enabled; 1 GiB and
 * 2 MiB pages where an entry's PS bit says so; the memory-encryption
 * bit (NUMBER(sme_mask)) is no part of an address.
 */
#include <inttypes.h>

#include "kvm/arch/kvm_arch_ops.h"
#include "kvm/arch/kvm_vmcoreinfo.h"

/*
 * The kernel image mapping (__START_KERNEL_map): the image's link-time
 * base, what KASLR moves; and its size with KASLR (KERNEL_IMAGE_SIZE).
 */
#define KVM_KERNEL_MAP		0xffffffff80000000ULL
#define KERNEL_IMAGE_SIZE	(1ULL << 30)
#define PTE_PRESENT		1ULL
#define PTE_PS			(1ULL << 7)	/* a 1 GiB or 2 MiB page */
#define PTE_ADDR		0x000ffffffffff000ULL	/* bits 51:12 */

static bool
x86_claims(kvm_vmcoreinfo_fn vmcoreinfo, void *arg)
{
	uint64_t v;

	return (_memstat_kvm_vmcoreinfo_number(vmcoreinfo, arg,
	    "NUMBER(phys_base)", 0, &v) == 0 ||
	    _memstat_kvm_vmcoreinfo_number(vmcoreinfo, arg,
	    "SYMBOL(init_top_pgt)", 16, &v) == 0);
}

static int
x86_setup(struct memstat_kvm *kvm, kvm_vmcoreinfo_fn vmcoreinfo, void *arg)
{
	struct kvm_arch_state *st = &kvm->arch;
	uint64_t phys_base, pgt, l5 = 0, sme = 0;

	if (_memstat_kvm_vmcoreinfo_number(vmcoreinfo, arg,
	    "NUMBER(phys_base)", 0, &phys_base) != 0)
		return (0);
	st->img_start = KVM_KERNEL_MAP;
	st->img_end = KVM_KERNEL_MAP + KERNEL_IMAGE_SIZE;
	st->img_delta = KVM_KERNEL_MAP - phys_base;
	/* No page tables named: every such address is the reader's. */
	if (_memstat_kvm_vmcoreinfo_number(vmcoreinfo, arg,
	    "SYMBOL(init_top_pgt)", 16, &pgt) != 0 || pgt < st->img_start ||
	    pgt >= st->img_end)
		return (0);
	(void)_memstat_kvm_vmcoreinfo_number(vmcoreinfo, arg,
	    "NUMBER(pgtable_l5_enabled)", 0, &l5);
	(void)_memstat_kvm_vmcoreinfo_number(vmcoreinfo, arg,
	    "NUMBER(sme_mask)", 0, &sme);
	st->pgd = pgt - st->img_delta;
	st->va_bits = l5 == 1 ? 57 : 48;
	st->addr_mask = PTE_ADDR & ~sme;
	return (0);
}

static bool
x86_kaslr_moves(uint64_t link_addr)
{
	/* Below it: per-CPU symbols, offsets into each CPU's area. */
	return (link_addr >= KVM_KERNEL_MAP);
}

static int
x86_memmap(struct memstat_kvm *kvm, const struct kvm_memmap_finders *find,
    uint32_t page_size, uint64_t *vmemmap, uint64_t *direct_map)
{
	uint64_t addr;

	(void)page_size;
	if (find->symbol(kvm, "vmemmap_base", &addr) != 0 ||
	    _memstat_kvm_read_u64(kvm, addr, vmemmap) != 0 ||
	    find->symbol(kvm, "page_offset_base", &addr) != 0 ||
	    _memstat_kvm_read_u64(kvm, addr, direct_map) != 0)
		return (-1);
	/*
	 * From there up, what is not the image is read as the direct map
	 * first; what the dump has no page for there is libkdumpfile's.
	 */
	kvm->arch.lin_start = kvm->arch.direct_map = *direct_map;
	kvm->arch.lin_end = UINT64_MAX;
	return (0);
}

static int
x86_walk(const struct kvm_arch_state *st, uint64_t vaddr, uint64_t *paddr,
    kvm_phys_fn read, void *arg)
{
	uint64_t table = st->pgd, entry;
	unsigned char b[8];
	unsigned levels = st->va_bits == 57 ? 5 : 4;

	/* A kernel address: every bit from the top level's up set. */
	if (st->pgd == 0 || vaddr >> (st->va_bits - 1) !=
	    ~0ULL >> (st->va_bits - 1))
		return (-1);
	for (unsigned l = levels; l-- > 0; ) {
		unsigned at = 12 + 9 * l;
		uint64_t span = 1ULL << at;

		if (!read(arg, table + ((vaddr >> at) & 511) * 8, b,
		    sizeof(b)))
			return (-1);
		entry = _memstat_uint_in(b, sizeof(b), st->big_endian);
		if ((entry & PTE_PRESENT) == 0)
			return (-1);
		/* The last level, or a 1 GiB or 2 MiB page. */
		if (l == 0 || ((entry & PTE_PS) != 0 && l <= 2)) {
			*paddr = (entry & st->addr_mask & ~(span - 1)) |
			    (vaddr & (span - 1));
			return (0);
		}
		table = entry & st->addr_mask;
	}
	return (-1);
}

const struct kvm_arch _memstat_kvm_arch_x86_64 = {
	.name = "x86_64",
	.claims = x86_claims,
	.setup = x86_setup,
	.kaslr_moves = x86_kaslr_moves,
	.memmap = x86_memmap,
	.walk = x86_walk,
};
