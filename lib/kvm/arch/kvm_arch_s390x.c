/*
 * kvm_arch_s390x.c: s390x's kernel maps (z/Architecture, big-endian),
 * from the image's own VMCOREINFO (arch/s390/kernel/vmcore_info.c) and
 * page tables:
 *
 *   - the identity map holds physical address p at IDENTITYBASE + p (0
 *     where VMCOREINFO names none), up to the struct page array, which
 *     lies above it at SYMBOL(vmemmap) (where 6.1 names none, from a
 *     memory section's map, as arm64's room finds it);
 *   - the kernel image is at KERNELOFFSET, loaded at KERNELOFFPHYS, and
 *     is found, as vmalloc and modules are, through swapper_pg_dir, whose
 *     physical address is its own less that difference;
 *   - DAT's tables: region-first, -second and -third tables and segment
 *     tables of 2048 entries, page tables of 256; the kernel's top table
 *     is of whichever type its entries say (their TT field), 2 GiB and
 *     1 MiB frames where an entry's FC bit says so;
 *   - the absolute lowcore holds the physical address of the kernel's
 *     VMCOREINFO note (lowcore.vmcore_info), which QEMU's dumps of s390x
 *     guests carry nowhere else.
 */
#include <inttypes.h>

#include "kvm/arch/kvm_arch_ops.h"
#include "kvm/arch/kvm_vmcoreinfo.h"

/* An entry's bits, counted from the right (IBM counts from the left). */
#define TABLE_INVALID	(1ULL << 5)	/* region and segment entries */
#define TABLE_TYPE(e)	((unsigned)((e) >> 2) & 3)	/* TT */
#define FRAME_CONTROL	(1ULL << 10)	/* FC: a 2 GiB or 1 MiB frame */
#define PAGE_INVALID	(1ULL << 10)	/* page-table entries */
#define TABLE_ORIGIN	(~0xfffULL)	/* region and segment tables */
#define PT_ORIGIN	(~0x7ffULL)	/* page tables: 2 KiB aligned */
#define LOWCORE_VMCOREINFO	0xe0c	/* lowcore.vmcore_info */

static bool
s390x_claims(kvm_vmcoreinfo_fn vmcoreinfo, void *arg)
{
	uint64_t v;

	return (_memstat_kvm_vmcoreinfo_number(vmcoreinfo, arg,
	    "SYMBOL(lowcore_ptr)", 16, &v) == 0);
}

static int
s390x_setup(struct memstat_kvm *kvm, kvm_vmcoreinfo_fn vmcoreinfo, void *arg)
{
	struct kvm_arch_state *st = &kvm->arch;
	uint64_t page, pgd, vmemmap, ident = 0, off = 0, phys = 0;

	if (_memstat_kvm_vmcoreinfo_need(kvm, "s390x", vmcoreinfo, arg,
	    "PAGESIZE", 10, &page) != 0 ||
	    _memstat_kvm_vmcoreinfo_need(kvm, "s390x", vmcoreinfo, arg,
	    "SYMBOL(swapper_pg_dir)", 16, &pgd) != 0)
		return (-1);
	if (page != 4096)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM, "an s390x "
		    "image of %" PRIu64 "-byte pages: s390x has 4 KiB",
		    page));
	(void)_memstat_kvm_vmcoreinfo_number(vmcoreinfo, arg, "IDENTITYBASE",
	    16, &ident);
	/* Without KERNELOFFPHYS the image is in the identity map. */
	if (_memstat_kvm_vmcoreinfo_number(vmcoreinfo, arg, "KERNELOFFPHYS",
	    16, &phys) != 0)
		off = phys = ident;
	else if (_memstat_kvm_vmcoreinfo_need(kvm, "s390x", vmcoreinfo, arg,
	    "KERNELOFFSET", 16, &off) != 0)
		return (-1);
	st->page_shift = 12;
	st->direct_map = ident;
	/*
	 * The identity map ends below the struct page array where
	 * VMCOREINFO names it (6.1's names none: every address is walked
	 * until the array is found from a memory section, s390x_memmap).
	 */
	if (_memstat_kvm_vmcoreinfo_number(vmcoreinfo, arg, "SYMBOL(vmemmap)",
	    16, &vmemmap) == 0) {
		if (vmemmap <= ident)
			return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM, "an "
			    "s390x image whose struct page array (0x%" PRIx64
			    ") is not above its identity map (0x%" PRIx64 ")",
			    vmemmap, ident));
		st->lin_start = ident;
		st->lin_end = vmemmap;
		st->vmemmap_start = vmemmap;
	}
	st->pgd = pgd - (off - phys);
	/* KERNELOFFSET is where the image starts, not a move of it. */
	kvm->kaslr = 0;
	return (0);
}

static bool
s390x_kaslr_moves(uint64_t link_addr)
{
	(void)link_addr;
	return (false);
}

/* Entry index of vaddr in a table of type t (3 region-first .. 0 segment). */
static uint64_t
index_of(uint64_t vaddr, unsigned t)
{
	return ((vaddr >> (20 + 11 * t)) & 0x7ff);
}

static int
s390x_walk(const struct kvm_arch_state *st, uint64_t vaddr, uint64_t *paddr,
    kvm_phys_fn read, void *arg)
{
	uint64_t table = st->pgd, e;
	int t;

	/*
	 * The top table's type is what its valid entries say of it: the
	 * one whose entry for vaddr is valid and says so.
	 */
	for (t = 3; ; t--) {
		/* A table of type t spans 2^(31 + 11t) bytes. */
		if (t < 0 || (t < 3 && (vaddr >> (31 + 11 * t)) != 0))
			return (-1);
		if (!_memstat_kvm_arch_word(read, arg, st->big_endian,
		    table + index_of(vaddr, (unsigned)t) * 8, &e))
			return (-1);
		if ((e & TABLE_INVALID) == 0 && TABLE_TYPE(e) == (unsigned)t)
			break;
	}
	for (;;) {
		/* e: the entry for vaddr in a table of type t. */
		if (t == 1 && (e & FRAME_CONTROL) != 0) {	/* 2 GiB */
			*paddr = (e & ~((1ULL << 31) - 1)) |
			    (vaddr & ((1ULL << 31) - 1));
			return (0);
		}
		if (t == 0) {
			if ((e & FRAME_CONTROL) != 0) {		/* 1 MiB */
				*paddr = (e & ~((1ULL << 20) - 1)) |
				    (vaddr & ((1ULL << 20) - 1));
				return (0);
			}
			if (!_memstat_kvm_arch_word(read, arg, st->big_endian,
			    (e & PT_ORIGIN) + ((vaddr >> 12) & 0xff) * 8, &e) ||
			    (e & PAGE_INVALID) != 0)
				return (-1);
			*paddr = (e & TABLE_ORIGIN) | (vaddr & 0xfff);
			return (0);
		}
		table = e & TABLE_ORIGIN;
		t--;
		if (!_memstat_kvm_arch_word(read, arg, st->big_endian,
		    table + index_of(vaddr, (unsigned)t) * 8, &e) ||
		    (e & TABLE_INVALID) != 0 ||
		    TABLE_TYPE(e) != (unsigned)t)
			return (-1);
	}
}

static int
s390x_memmap(struct memstat_kvm *kvm, const struct kvm_memmap_finders *find,
    uint32_t page_size, uint64_t *vmemmap, uint64_t *direct_map)
{
	struct kvm_arch_state *st = &kvm->arch;

	(void)page_size;
	*direct_map = st->direct_map;
	*vmemmap = st->vmemmap_start;
	if (*vmemmap != 0)
		return (0);
	if (_memstat_kvm_arch_sections_memmap(kvm, find, vmemmap) != 0)
		return (-1);
	/*
	 * 6.1's identity map, which VMCOREINFO does not bound, ends below
	 * the array a memory section's map shows (the image within it).
	 */
	if (st->lin_end == 0 && *vmemmap > st->direct_map) {
		st->lin_start = st->direct_map;
		st->lin_end = *vmemmap;
		st->vmemmap_start = *vmemmap;
	}
	return (0);
}

static int
s390x_vmcoreinfo_at(kvm_phys_fn read, void *arg, bool big, uint64_t *paddr)
{
	return (_memstat_kvm_arch_word(read, arg, big, LOWCORE_VMCOREINFO,
	    paddr) && *paddr != 0 ? 0 : -1);
}

const struct kvm_arch _memstat_kvm_arch_s390x = {
	.name = "s390x",
	.claims = s390x_claims,
	.setup = s390x_setup,
	.kaslr_moves = s390x_kaslr_moves,
	.memmap = s390x_memmap,
	.walk = s390x_walk,
	.vmcoreinfo_at = s390x_vmcoreinfo_at,
};
