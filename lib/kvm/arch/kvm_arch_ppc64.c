/*
 * kvm_arch_ppc64.c: 64-bit Book3S POWER's kernel maps (ppc64el, and
 * big-endian ppc64), from the image's own VMCOREINFO
 * (arch/powerpc/kexec/vmcore_info.c) and page tables:
 *
 *   - the linear map holds physical address p at PAGE_OFFSET + p, the
 *     kernel image included; PAGE_OFFSET is the top nibble of the
 *     image's own addresses (0xc), and the map ends where vmalloc
 *     starts (NUMBER(VMALLOC_START));
 *   - vmalloc, ioremap and the modules are found through swapper_pg_dir,
 *     radix's or hash's Linux page tables (NUMBER(RADIX_MMU) says
 *     which), four levels whose sizes follow the page size (4 or 64
 *     KiB), their entries big-endian whatever the kernel's byte order
 *     (the radix MMU's format, which hash's tables share): bit 63
 *     present, bit 62 a leaf (2 MiB and 1 GiB ones above the last
 *     level), a table's physical address less the low 8 bits and the
 *     top 2;
 *   - with hash, vmemmap is not in those tables (it is bolted into the
 *     hashed page table): it is found through vmemmap_list, whose
 *     entries say which physical block backs each virtual one;
 *   - the struct page array is what a memory section's map says.
 */
#include <inttypes.h>

#include "kvm/arch/kvm_arch_ops.h"
#include "kvm/arch/kvm_vmcoreinfo.h"

#define PTE_PRESENT	(1ULL << 63)
#define PTE_LEAF	(1ULL << 62)
#define TABLE_BITS	0xc0000000000000ffULL	/* not the next table's */
#define RPN_MASK	((1ULL << 53) - 1)
#define REGION(a)	((a) >> 60)
/*
 * vmemmap_list has a block per 16 MiB of struct pages (16 GiB of 64 KiB
 * pages) where the MMU has 16 MiB pages: more than this is a loop.
 */
#define MAX_BACKING	(1U << 16)

static bool
ppc64_claims(kvm_vmcoreinfo_fn vmcoreinfo, void *arg)
{
	uint64_t v;

	return (_memstat_kvm_vmcoreinfo_number(vmcoreinfo, arg,
	    "SYMBOL(mmu_psize_defs)", 16, &v) == 0 ||
	    _memstat_kvm_vmcoreinfo_number(vmcoreinfo, arg,
	    "NUMBER(RADIX_MMU)", 10, &v) == 0);
}

/* A number the hash walk of vmemmap needs: 0, or -1 recorded. */
static int
hash_need(struct memstat_kvm *kvm, kvm_vmcoreinfo_fn vmcoreinfo, void *arg,
    const char *key, int base, uint64_t *v)
{
	return (_memstat_kvm_vmcoreinfo_need(kvm, "ppc64 (hash MMU)",
	    vmcoreinfo, arg, key, base, v));
}

static int
ppc64_hash_setup(struct memstat_kvm *kvm, kvm_vmcoreinfo_fn vmcoreinfo,
    void *arg)
{
	struct kvm_arch_ppc64 *pp = &kvm->arch.ppc64;
	uint64_t list, psize, defs, def_size, shift, next, phys, virt;

	if (hash_need(kvm, vmcoreinfo, arg, "SYMBOL(vmemmap_list)", 16,
	    &list) != 0 ||
	    hash_need(kvm, vmcoreinfo, arg, "SYMBOL(mmu_vmemmap_psize)", 16,
	    &psize) != 0 ||
	    hash_need(kvm, vmcoreinfo, arg, "SYMBOL(mmu_psize_defs)", 16,
	    &defs) != 0 ||
	    hash_need(kvm, vmcoreinfo, arg, "SIZE(mmu_psize_def)", 10,
	    &def_size) != 0 ||
	    hash_need(kvm, vmcoreinfo, arg, "OFFSET(mmu_psize_def.shift)", 10,
	    &shift) != 0 ||
	    hash_need(kvm, vmcoreinfo, arg, "OFFSET(vmemmap_backing.list)", 10,
	    &next) != 0 ||
	    hash_need(kvm, vmcoreinfo, arg, "OFFSET(vmemmap_backing.phys)", 10,
	    &phys) != 0 ||
	    hash_need(kvm, vmcoreinfo, arg,
	    "OFFSET(vmemmap_backing.virt_addr)", 10, &virt) != 0)
		return (-1);
	if (def_size > 4096 || shift > 4096 || next > 4096 || phys > 4096 ||
	    virt > 4096)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM, "a ppc64 "
		    "image whose vmemmap_backing or mmu_psize_def is not a "
		    "structure"));
	pp->vmemmap_list = list - kvm->arch.direct_map;
	pp->vmemmap_psize = psize - kvm->arch.direct_map;
	pp->psize_defs = defs - kvm->arch.direct_map;
	pp->def_size = (unsigned)def_size;
	pp->def_shift = (unsigned)shift;
	pp->next = (unsigned)next;
	pp->phys = (unsigned)phys;
	pp->virt = (unsigned)virt;
	return (0);
}

static int
ppc64_setup(struct memstat_kvm *kvm, kvm_vmcoreinfo_fn vmcoreinfo, void *arg)
{
	struct kvm_arch_state *st = &kvm->arch;
	uint64_t page, pgd, radix = 1, vmalloc, physbits;

	if (_memstat_kvm_vmcoreinfo_need(kvm, "ppc64", vmcoreinfo, arg,
	    "PAGESIZE", 10, &page) != 0 ||
	    _memstat_kvm_vmcoreinfo_need(kvm, "ppc64", vmcoreinfo, arg,
	    "SYMBOL(swapper_pg_dir)", 16, &pgd) != 0)
		return (-1);
	if (page != 4096 && page != 65536)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM, "a ppc64 "
		    "image of %" PRIu64 "-byte pages: Book3S has 4 and 64 KiB",
		    page));
	if (REGION(pgd) != 0xc)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM, "a ppc64 "
		    "image whose swapper_pg_dir (0x%" PRIx64 ") is not in the "
		    "linear map at 0xc...: only Book3S kernels are read", pgd));
	st->page_shift = page == 4096 ? 12 : 16;
	st->direct_map = pgd & ~((1ULL << 60) - 1);
	st->pgd = pgd - st->direct_map;
	/* Before 6.7 VMCOREINFO does not say: radix, the default since 4.x. */
	(void)_memstat_kvm_vmcoreinfo_number(vmcoreinfo, arg,
	    "NUMBER(RADIX_MMU)", 10, &radix);
	st->ppc64.hash = radix == 0;
	/*
	 * The linear map ends where vmalloc starts (6.9 on say where);
	 * before, radix's maps all the memory there can be, 2 to the
	 * MAX_PHYSMEM_BITS bytes, below vmalloc (bookworm's 6.1: 2^51, up
	 * to 0xc008...); with neither, every address but the image's own
	 * is walked.
	 */
	st->lin_start = st->direct_map;
	st->lin_end = 0;
	if (_memstat_kvm_vmcoreinfo_number(vmcoreinfo, arg,
	    "NUMBER(VMALLOC_START)", 0, &vmalloc) == 0 &&
	    vmalloc > st->lin_start)
		st->lin_end = vmalloc;
	else if (st->ppc64.hash)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM, "a ppc64 "
		    "image with the hash MMU whose VMCOREINFO does not say "
		    "where vmalloc starts (no NUMBER(VMALLOC_START))"));
	else if (_memstat_kvm_vmcoreinfo_number(vmcoreinfo, arg,
	    "NUMBER(MAX_PHYSMEM_BITS)", 10, &physbits) == 0 &&
	    physbits >= 32 && physbits < 60)
		st->lin_end = st->direct_map + (1ULL << physbits);
	if (st->ppc64.hash)
		return (ppc64_hash_setup(kvm, vmcoreinfo, arg));
	return (0);
}

static bool
ppc64_kaslr_moves(uint64_t link_addr)
{
	return (REGION(link_addr) == 0xc);
}

/*
 * Index bits of each level, the page table's first: radix's
 * (RADIX_PTE_INDEX_SIZE ...) or hash's (H_PTE_INDEX_SIZE ...).
 */
static const unsigned *
levels_of(const struct kvm_arch_state *st)
{
	static const unsigned radix4k[4] = { 9, 9, 9, 13 };
	static const unsigned radix64k[4] = { 5, 9, 9, 13 };
	static const unsigned hash4k[4] = { 9, 7, 9, 9 };
	static const unsigned hash64k[4] = { 8, 10, 10, 8 };

	if (st->ppc64.hash)
		return (st->page_shift == 12 ? hash4k : hash64k);
	return (st->page_shift == 12 ? radix4k : radix64k);
}

static int
tables_walk(const struct kvm_arch_state *st, uint64_t vaddr, uint64_t *paddr,
    kvm_phys_fn read, void *arg)
{
	const unsigned *bits = levels_of(st);
	unsigned shift[4];
	uint64_t table = st->pgd, e, span;

	shift[0] = st->page_shift;
	for (int i = 1; i < 4; i++)
		shift[i] = shift[i - 1] + bits[i - 1];
	for (int l = 3; l >= 0; l--) {
		/* Entries are big-endian, whatever the kernel's order. */
		if (!_memstat_kvm_arch_word(read, arg, true,
		    table + ((vaddr >> shift[l]) & ((1ULL << bits[l]) - 1)) * 8,
		    &e) ||
		    (e & PTE_PRESENT) == 0)
			return (-1);
		if ((e & PTE_LEAF) != 0) {
			span = 1ULL << shift[l];
			*paddr = (e & RPN_MASK & ~(span - 1)) |
			    (vaddr & (span - 1));
			return (0);
		}
		if (l == 0)
			return (-1);
		table = e & ~TABLE_BITS;
	}
	return (-1);
}

/* A vmemmap address by vmemmap_list (hash): 0, or -1. */
static int
backing_walk(const struct kvm_arch_state *st, uint64_t vaddr,
    uint64_t *paddr, kvm_phys_fn read, void *arg)
{
	const struct kvm_arch_ppc64 *pp = &st->ppc64;
	bool big = st->big_endian;
	unsigned char b[4];
	uint64_t node, virt, phys, size;
	uint32_t psize, shift;

	if (!read(arg, pp->vmemmap_psize, b, 4))
		return (-1);
	psize = (uint32_t)_memstat_uint_in(b, 4, big);
	if (psize > 64 || !read(arg, pp->psize_defs + (uint64_t)psize *
	    pp->def_size + pp->def_shift, b, 4))
		return (-1);
	shift = (uint32_t)_memstat_uint_in(b, 4, big);
	if (shift < 12 || shift > 40 ||
	    !_memstat_kvm_arch_word(read, arg, big, pp->vmemmap_list, &node))
		return (-1);
	size = 1ULL << shift;
	for (unsigned n = 0; node != 0 && n < MAX_BACKING; n++) {
		if (REGION(node) != 0xc)
			return (-1);
		node -= st->direct_map;
		if (!_memstat_kvm_arch_word(read, arg, big, node + pp->virt,
		    &virt) ||
		    !_memstat_kvm_arch_word(read, arg, big, node + pp->phys,
		    &phys))
			return (-1);
		if (vaddr >= virt && vaddr - virt < size) {
			*paddr = phys + (vaddr - virt);
			return (0);
		}
		if (!_memstat_kvm_arch_word(read, arg, big, node + pp->next,
		    &node))
			return (-1);
	}
	return (-1);
}

static int
ppc64_walk(const struct kvm_arch_state *st, uint64_t vaddr, uint64_t *paddr,
    kvm_phys_fn read, void *arg)
{
	/* Only the kernel's region (0xc...): user and I/O ones are not. */
	if (REGION(vaddr) != 0xc || st->pgd == 0)
		return (-1);
	if (tables_walk(st, vaddr, paddr, read, arg) == 0)
		return (0);
	if (st->ppc64.hash)
		return (backing_walk(st, vaddr, paddr, read, arg));
	return (-1);
}

const struct kvm_arch _memstat_kvm_arch_ppc64 = {
	.name = "ppc64",
	.claims = ppc64_claims,
	.setup = ppc64_setup,
	.kaslr_moves = ppc64_kaslr_moves,
	.memmap = _memstat_kvm_arch_memmap_by_sections,
	.walk = ppc64_walk,
};
