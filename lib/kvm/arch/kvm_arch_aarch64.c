/*
 * kvm_arch_aarch64.c: arm64's kernel maps, all from the image's own
 * VMCOREINFO (arch/arm64/kernel/vmcore_info.c) and page tables:
 *
 *   - the linear map starts at PAGE_OFFSET, -(1 << VA_BITS), and holds
 *     physical address p at PAGE_OFFSET + p - PHYS_OFFSET (memstart_addr,
 *     which KASLR may make "negative");
 *   - the kernel image, vmalloc, modules and vmemmap are found through
 *     swapper_pg_dir, whose physical address is its own less
 *     kimage_voffset: the walk reads 4, 16 and 64 KiB granules, as many
 *     levels as 64 - TCR_EL1.T1SZ bits take, and the output address bits
 *     of LPA (64 KiB pages, OA[51:48] in bits 15:12) and LPA2 (4 and
 *     16 KiB pages with 52-bit addresses, OA[51:50] in bits 9:8);
 *   - the struct page array is at VMEMMAP_START less PHYS_OFFSET's pages,
 *     or, where VMCOREINFO does not say VMEMMAP_START, what any present
 *     memory section's encoded map says;
 *   - a return address may carry a pointer-authentication code in the
 *     bits KERNELPACMASK names.
 */
#include <inttypes.h>
#include <string.h>

#include "kvm/arch/kvm_arch_ops.h"
#include "kvm/arch/kvm_vmcoreinfo.h"

#define DESC_VALID	1ULL
#define DESC_TABLE	2ULL		/* above the last level; a page at it */

static bool
arm64_claims(kvm_vmcoreinfo_fn vmcoreinfo, void *arg)
{
	uint64_t v;

	return (_memstat_kvm_vmcoreinfo_number(vmcoreinfo, arg,
	    "NUMBER(kimage_voffset)", 0, &v) == 0);
}

static int
arm64_setup(struct memstat_kvm *kvm, kvm_vmcoreinfo_fn vmcoreinfo, void *arg)
{
	struct kvm_arch_state *st = &kvm->arch;
	uint64_t page, va_bits, t1sz, voffset, pgd, modules;

	if (_memstat_kvm_vmcoreinfo_need(kvm, "arm64", vmcoreinfo, arg,
	    "PAGESIZE", 10, &page) != 0 ||
	    _memstat_kvm_vmcoreinfo_need(kvm, "arm64", vmcoreinfo, arg,
	    "NUMBER(VA_BITS)", 10, &va_bits) != 0 ||
	    _memstat_kvm_vmcoreinfo_need(kvm, "arm64", vmcoreinfo, arg,
	    "NUMBER(kimage_voffset)", 0, &voffset) != 0 ||
	    _memstat_kvm_vmcoreinfo_need(kvm, "arm64", vmcoreinfo, arg,
	    "NUMBER(PHYS_OFFSET)", 0, &st->phys_offset) != 0 ||
	    _memstat_kvm_vmcoreinfo_need(kvm, "arm64", vmcoreinfo, arg,
	    "SYMBOL(swapper_pg_dir)", 16, &pgd) != 0)
		return (-1);
	if (page != 4096 && page != 16384 && page != 65536)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM, "an arm64 "
		    "image of %" PRIu64 "-byte pages: arm64 has 4, 16 and 64 "
		    "KiB granules", page));
	st->page_shift = page == 4096 ? 12 : page == 16384 ? 14 : 16;
	if (va_bits < 36 || va_bits > 52)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM, "an arm64 "
		    "image of %" PRIu64 "-bit addresses: arm64 has 36 to 52",
		    va_bits));
	/* What the hardware translates: 48 bits for a 52-bit kernel on some. */
	st->va_bits = (unsigned)va_bits;
	if (_memstat_kvm_vmcoreinfo_number(vmcoreinfo, arg,
	    "NUMBER(TCR_EL1_T1SZ)", 0, &t1sz) == 0 && t1sz >= 12 && t1sz <= 28)
		st->va_bits = 64 - (unsigned)t1sz;
	st->lpa2 = st->page_shift != 16 && st->va_bits == 52;
	st->pgd = pgd - voffset;
	st->lin_start = -(1ULL << va_bits);
	st->lin_end = st->lin_start + (1ULL << (va_bits - 1));
	if (_memstat_kvm_vmcoreinfo_number(vmcoreinfo, arg,
	    "NUMBER(MODULES_VADDR)", 0, &modules) == 0 &&
	    modules > st->lin_start)
		st->lin_end = modules;
	st->direct_map = st->lin_start - st->phys_offset;
	(void)_memstat_kvm_vmcoreinfo_number(vmcoreinfo, arg,
	    "NUMBER(KERNELPACMASK)", 0, &st->pac_mask);
	(void)_memstat_kvm_vmcoreinfo_number(vmcoreinfo, arg,
	    "NUMBER(VMEMMAP_START)", 0, &st->vmemmap_start);
	return (0);
}

static bool
arm64_kaslr_moves(uint64_t link_addr)
{
	/* The image holds every symbol, per-CPU ones too. */
	return ((link_addr >> 63) != 0);
}

/* Bits hi down to lo set. */
static uint64_t
bits(unsigned hi, unsigned lo)
{
	return ((~0ULL >> (63 - hi)) & ~((1ULL << lo) - 1));
}

/* A descriptor's output address: a table's, a block's or a page's. */
static uint64_t
output_address(const struct kvm_arch_state *st, uint64_t desc)
{
	if (st->lpa2)
		return ((desc & bits(49, st->page_shift)) |
		    ((desc >> 8) & 3) << 50);
	if (st->page_shift == 16)
		return ((desc & bits(47, 16)) | ((desc >> 12) & 0xf) << 48);
	return (desc & bits(47, st->page_shift));
}

static int
arm64_walk(const struct kvm_arch_state *st, uint64_t vaddr, uint64_t *paddr,
    kvm_phys_fn read, void *arg)
{
	unsigned shift = st->page_shift, per_level = shift - 3;
	unsigned levels = (st->va_bits - shift + per_level - 1) / per_level;
	uint64_t table = st->pgd, desc, oa;
	unsigned char b[8];

	/* A kernel address: TTBR1's, every bit above va_bits set. */
	if (levels == 0 || levels > 5 || st->pgd == 0 ||
	    (vaddr | bits(st->va_bits - 1, 0)) != ~0ULL)
		return (-1);
	for (unsigned l = levels; l-- > 0; ) {
		unsigned at = shift + l * per_level;
		unsigned width = l == levels - 1 ? st->va_bits - at : per_level;
		uint64_t index = (vaddr >> at) & ((1ULL << width) - 1);

		if (!read(arg, table + index * 8, b, sizeof(b)))
			return (-1);
		desc = _memstat_uint_in(b, sizeof(b), st->big_endian);
		if ((desc & DESC_VALID) == 0)
			return (-1);
		oa = output_address(st, desc);
		if (l == 0) {
			if ((desc & DESC_TABLE) == 0)	/* reserved */
				return (-1);
			*paddr = oa | (vaddr & bits(shift - 1, 0));
			return (0);
		}
		if ((desc & DESC_TABLE) == 0) {		/* a block */
			*paddr = (oa & ~bits(at - 1, 0)) |
			    (vaddr & bits(at - 1, 0));
			return (0);
		}
		table = oa;
	}
	return (-1);
}

static int
arm64_memmap(struct memstat_kvm *kvm, const struct kvm_memmap_finders *find,
    uint32_t page_size, uint64_t *vmemmap, uint64_t *direct_map)
{
	const struct kvm_arch_state *st = &kvm->arch;

	*direct_map = st->direct_map;
	if (st->vmemmap_start == 0)
		return (_memstat_kvm_arch_sections_memmap(kvm, find, vmemmap));
	/* memstart_addr is signed: KASLR may put it below zero. */
	*vmemmap = st->vmemmap_start - (uint64_t)(((int64_t)st->phys_offset >>
	    st->page_shift) * (int64_t)page_size);
	return (0);
}

const struct kvm_arch _memstat_kvm_arch_aarch64 = {
	.name = "aarch64",
	.claims = arm64_claims,
	.setup = arm64_setup,
	.kaslr_moves = arm64_kaslr_moves,
	.memmap = arm64_memmap,
	.walk = arm64_walk,
};
