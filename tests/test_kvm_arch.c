/*
 * test_kvm_arch.c: the architecture room (kvm_arch.h).  arm64's page-table
 * walk over tables built here by hand, as the Arm ARM lays them out, for
 * each granule (4, 16 and 64 KiB), 3 to 5 levels, blocks at each level
 * that has them, LPA's and LPA2's high output bits, and reserved and
 * invalid entries; its answers kept per page; the linear map, KASLR and
 * pointer authentication from a VMCOREINFO; s390x's DAT tables, big-endian,
 * and its maps; riscv64's Sv39, Sv48 and Sv57 tables and its maps;
 * ppc64's radix and hash tables (big-endian under a little-endian
 * kernel), hash's vmemmap_list and its maps; and which architecture an
 * image is, or the one line saying it is not read.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"
#include "kvm/arch/kvm_arch.h"
#include "kvm/dump/kvm_elf_segments.h"

/* Physical memory: the descriptors written, each at its address. */
#define MAX_WORDS	64
struct phys {
	uint64_t	 addr[MAX_WORDS], word[MAX_WORDS];
	size_t		 n;
	unsigned	 reads;
	bool		 big;		/* s390x's words: big-endian */
};

static void
poke(struct phys *p, uint64_t addr, uint64_t word)
{
	assert_true(p->n < MAX_WORDS);
	p->addr[p->n] = addr;
	p->word[p->n++] = word;
}

static bool
peek(void *arg, uint64_t paddr, void *buf, size_t len)
{
	struct phys *p = arg;

	unsigned char w[8];

	p->reads++;
	if (len != 8 && len != 4)
		return (false);
	for (size_t i = 0; i < p->n; i++)
		if (p->addr[i] == paddr) {
			/* In the machine's order, whatever this one's. */
			for (int k = 0; k < 8; k++)
				w[p->big ? 7 - k : k] =
				    (unsigned char)(p->word[i] >> (8 * k));
			/* A 4-byte read: the first half, as memory holds it. */
			memcpy(buf, w, len);
			return (true);
		}
	/* An entry never written: zero, invalid. */
	memset(buf, 0, len);
	return (true);
}

/* Index of vaddr at the level whose entries map 1 << at bytes. */
static uint64_t
index_at(uint64_t vaddr, unsigned at, unsigned width)
{
	return ((vaddr >> at) & ((1ULL << width) - 1));
}

#define TABLE	3ULL	/* valid, table (or a last level's page) */
#define BLOCK	1ULL	/* valid, block */
#define AF	(1ULL << 10)

/*
 * Tables for vaddr from pgd down: tables[i] the physical address of the
 * table at level i below the top; stops at level `leaf` (0 the last)
 * with desc_low | output bits, returns the state.
 */
static struct kvm_arch_state
arm64_state(unsigned shift, unsigned va_bits, uint64_t pgd)
{
	struct kvm_arch_state st = { 0 };

	st.ops = &_memstat_kvm_arch_aarch64;
	st.page_shift = shift;
	st.va_bits = va_bits;
	st.lpa2 = shift != 16 && va_bits == 52;
	st.pgd = pgd;
	return (st);
}

static void
build(struct phys *p, const struct kvm_arch_state *st, uint64_t vaddr,
    const uint64_t *tables, unsigned leaf, uint64_t leaf_desc)
{
	unsigned shift = st->page_shift, per = shift - 3;
	unsigned levels = (st->va_bits - shift + per - 1) / per;
	uint64_t table = st->pgd;

	for (unsigned l = levels, i = 0; l-- > 0; i++) {
		unsigned at = shift + l * per;
		unsigned width = l == levels - 1 ? st->va_bits - at : per;
		uint64_t slot = table + index_at(vaddr, at, width) * 8;

		if (l == leaf) {
			poke(p, slot, leaf_desc);
			return;
		}
		poke(p, slot, tables[i] | TABLE);
		table = tables[i];
	}
}

static uint64_t
walk(const struct kvm_arch_state *st, struct phys *p, uint64_t vaddr,
    int *rc)
{
	uint64_t pa = 0;

	*rc = st->ops->walk(st, vaddr, &pa, peek, p);
	return (pa);
}

/* The walk of vaddr gives paddr. */
static void
assert_walks(const struct kvm_arch_state *st, struct phys *p, uint64_t vaddr,
    uint64_t paddr)
{
	int rc;

	assert_int_equal(walk(st, p, vaddr, &rc), paddr);
	assert_int_equal(rc, 0);
}

/* 4 KiB, 48 bits: four levels; a page, a 2 MiB and a 1 GiB block. */
static void
test_walk_4k(void **state)
{
	struct kvm_arch_state st = arm64_state(12, 48, 0x40000000);
	const uint64_t tables[] = { 0x40001000, 0x40002000, 0x40003000 };
	const uint64_t va = 0xffff800008123456ULL;
	struct phys p = { .n = 0 };
	int rc;

	(void)state;
	build(&p, &st, va, tables, 0, 0x87654000ULL | AF | TABLE);
	assert_walks(&st, &p, va, 0x87654456ULL);
	/* A 2 MiB block two levels down: the offset within it kept. */
	build(&p, &st, 0xffff800040345678ULL, tables, 1,
	    0x80200000ULL | AF | BLOCK);
	assert_walks(&st, &p, 0xffff800040345678ULL, 0x80345678ULL);
	/* A 1 GiB block. */
	build(&p, &st, 0xffff8000c1234567ULL, tables, 2,
	    0xc0000000ULL | AF | BLOCK);
	assert_walks(&st, &p, 0xffff8000c1234567ULL, 0xc1234567ULL);
	/* Unmapped, and a last level's entry with bit 1 clear: reserved. */
	(void)walk(&st, &p, 0xffff900000000000ULL, &rc);
	assert_int_equal(rc, -1);
	build(&p, &st, 0xffff800008124000ULL, tables, 0, 0x87655000ULL | BLOCK);
	(void)walk(&st, &p, 0xffff800008124000ULL, &rc);
	assert_int_equal(rc, -1);
	/* A user address: TTBR0's, not the kernel's. */
	(void)walk(&st, &p, 0x0000400000000000ULL, &rc);
	assert_int_equal(rc, -1);
}

/* 16 KiB, 47 bits (Debian's arm64-16k): three levels, 32 MiB blocks. */
static void
test_walk_16k(void **state)
{
	struct kvm_arch_state st = arm64_state(14, 47, 0x50000000);
	const uint64_t tables[] = { 0x50004000, 0x50008000 };
	const uint64_t va = 0xffffc00008123456ULL;
	struct phys p = { .n = 0 };

	(void)state;
	build(&p, &st, va, tables, 0, 0x12344000ULL | AF | TABLE);
	assert_walks(&st, &p, va, 0x12347456ULL);
	build(&p, &st, 0xffffc00042345678ULL, tables, 1,
	    0x62000000ULL | AF | BLOCK);
	assert_walks(&st, &p, 0xffffc00042345678ULL, 0x62345678ULL);
}

/* 64 KiB, 52-bit physical addresses by LPA: OA[51:48] in bits 15:12. */
static void
test_walk_64k_lpa(void **state)
{
	struct kvm_arch_state st = arm64_state(16, 48, 0x60000000);
	const uint64_t tables[] = { 0x60010000, 0x60020000 };
	const uint64_t va = 0xffff800008123456ULL;
	struct phys p = { .n = 0 };

	(void)state;
	/* The page at 0x000a_0000_1234_0000: 0xa in bits 15:12. */
	build(&p, &st, va, tables, 0,
	    0x12340000ULL | 0xa000ULL | AF | TABLE);
	assert_walks(&st, &p, va, 0x000a000012343456ULL);
}

/* 4 KiB, 52 bits by LPA2: five levels, OA[51:50] in bits 9:8. */
static void
test_walk_4k_lpa2(void **state)
{
	struct kvm_arch_state st = arm64_state(12, 52, 0x70000000);
	const uint64_t tables[] = { 0x70001000, 0x70002000, 0x70003000,
	    0x70004000 };
	const uint64_t va = 0xfff8000008123456ULL;
	struct phys p = { .n = 0 };

	(void)state;
	/* The page at 0x000c_0001_2345_6000: 3 in bits 9:8. */
	build(&p, &st, va, tables, 0,
	    0x0000000123456000ULL | (3ULL << 8) | AF | TABLE);
	assert_walks(&st, &p, va, 0x000c000123456456ULL);
	/* The same bits without LPA2 (48 bits) are shareability, not OA. */
	st = arm64_state(12, 48, 0x70000000);
	p.n = 0;
	build(&p, &st, 0xffff800008123456ULL, tables, 0,
	    0x0000000123456000ULL | (3ULL << 8) | AF | TABLE);
	assert_walks(&st, &p, 0xffff800008123456ULL, 0x0000000123456456ULL);
}

/* VMCOREINFO as text, for the setup. */
static int
line_of(void *arg, const char *key, char *buf, size_t len)
{
	size_t klen = strlen(key);

	for (const char *p = arg; *p != '\0'; p = strchr(p, '\n') + 1) {
		const char *nl = strchr(p, '\n');

		if (strncmp(p, key, klen) == 0 && p[klen] == '=') {
			size_t n = (size_t)(nl - p) - klen - 1;

			if (n >= len)
				return (-1);
			memcpy(buf, p + klen + 1, n);
			buf[n] = '\0';
			return (0);
		}
	}
	return (-1);
}

/* Debian's arm64 6.12 as it ran: KASLR, the linear map moved. */
static const char arm64_info[] =
    "OSRELEASE=6.12.0-test-arm64\n"
    "PAGESIZE=4096\n"
    "SYMBOL(swapper_pg_dir)=ffffa1b2c4a3e000\n"
    "SYMBOL(mem_section)=ffff0000ff7f5c00\n"
    "NUMBER(VA_BITS)=48\n"
    "NUMBER(MODULES_VADDR)=0xffff800000000000\n"
    "NUMBER(VMEMMAP_START)=0xfffffc0000000000\n"
    "NUMBER(kimage_voffset)=0xffffa1b243200000\n"
    "NUMBER(PHYS_OFFSET)=0x40000000\n"
    "NUMBER(TCR_EL1_T1SZ)=0x10\n"
    "KERNELOFFSET=21b2c3200000\n"
    "NUMBER(KERNELPACMASK)=0xff7f000000000000\n";

static void
test_arm64_setup(void **state)
{
	struct memstat_kvm kvm = { 0 };
	uint64_t pa, vmemmap, direct;

	(void)state;
	assert_int_equal(_memstat_kvm_arch_setup(&kvm, NULL, line_of,
	    (void *)arm64_info), 0);
	assert_ptr_equal(_memstat_kvm_arch(&kvm), &_memstat_kvm_arch_aarch64);
	assert_int_equal(_memstat_kvm_page_shift(&kvm), 12);
	assert_int_equal(kvm.arch.pgd, 0xffffa1b2c4a3e000ULL -
	    0xffffa1b243200000ULL);
	/* The linear map: PAGE_OFFSET holds PHYS_OFFSET. */
	assert_true(_memstat_kvm_arch_linear(&kvm, 0xffff000000001234ULL,
	    &pa));
	assert_int_equal(pa, 0x40001234ULL);
	/* Up to the modules, no further: the image is the walk's. */
	assert_false(_memstat_kvm_arch_linear(&kvm, 0xffff800000000000ULL,
	    &pa));
	assert_false(_memstat_kvm_arch_linear(&kvm, 0xffffa1b2c4a3e000ULL,
	    &pa));
	/*
	 * vmemmap: VMEMMAP_START less PHYS_OFFSET's pages of 64 bytes,
	 * nothing asked of the kernel's symbols or sections (no finders).
	 */
	assert_int_equal(_memstat_kvm_arch_aarch64.memmap(&kvm, NULL, 64,
	    &vmemmap, &direct), 0);
	assert_int_equal(vmemmap, 0xfffffc0000000000ULL - (0x40000ULL * 64));
	assert_int_equal(direct, 0xffff000000000000ULL - 0x40000000ULL);
	/* Every symbol is the image's, per-CPU ones too. */
	kvm.kaslr = 0x21b2c3200000ULL;
	assert_int_equal(_memstat_kvm_arch_relocate(&kvm,
	    0xffff800080000000ULL), 0xffff800080000000ULL + kvm.kaslr);
	assert_int_equal(_memstat_kvm_arch_link(&kvm,
	    0xffff800080000000ULL + kvm.kaslr), 0xffff800080000000ULL);
	/* A signed return address, stripped; data addresses untouched. */
	assert_int_equal(_memstat_kvm_arch_strip(&kvm, 0x3a7fa1b2c4567890ULL |
	    (1ULL << 55)), 0xffffa1b2c4567890ULL);
	assert_int_equal(_memstat_kvm_arch_strip(&kvm, 0x0000aaaabbbb0000ULL),
	    0x0000aaaabbbb0000ULL);
}

/* A KASLR'd linear map: PHYS_OFFSET below zero (5.10's). */
static void
test_arm64_negative_phys_offset(void **state)
{
	static const char info[] =
	    "PAGESIZE=4096\n"
	    "SYMBOL(swapper_pg_dir)=ffffd0a5e9b9a000\n"
	    "NUMBER(VA_BITS)=48\n"
	    "NUMBER(kimage_voffset)=0xffffd0a5a8600000\n"
	    "NUMBER(PHYS_OFFSET)=0xfffff48b00000000\n"
	    "NUMBER(VMEMMAP_START)=0xfffffdffc0000000\n";
	struct memstat_kvm kvm = { 0 };
	uint64_t pa, vmemmap, direct;

	(void)state;
	assert_int_equal(_memstat_kvm_arch_setup(&kvm, "aarch64", line_of,
	    (void *)info), 0);
	/* Physical 0x4000_0000 sits at PAGE_OFFSET + 0x4000_0000 - PHYS_OFFSET. */
	assert_true(_memstat_kvm_arch_linear(&kvm,
	    0xffff000000000000ULL + 0x40000000ULL + 0xb7500000000ULL, &pa));
	assert_int_equal(pa, 0x40000000ULL);
	assert_int_equal(_memstat_kvm_arch_aarch64.memmap(&kvm, NULL, 64,
	    &vmemmap, &direct), 0);
	/* memstart_addr's pages counted signed: the array starts above. */
	assert_int_equal(vmemmap, 0xfffffdffc0000000ULL +
	    (0xb7500000000ULL >> 12) * 64);
}

/* The walk's answers kept per page: a second read walks nothing. */
static void
test_walk_kept(void **state)
{
	struct memstat_kvm kvm = { 0 };
	const uint64_t tables[] = { 0x40001000, 0x40002000, 0x40003000 };
	const uint64_t va = 0xffff800008123456ULL;
	struct phys p = { .n = 0 };
	uint64_t pa;

	(void)state;
	kvm.arch = arm64_state(12, 48, 0x40000000);
	build(&p, &kvm.arch, va, tables, 0, 0x87654000ULL | AF | TABLE);
	assert_int_equal(_memstat_kvm_arch_walk(&kvm, va, &pa, peek, &p), 0);
	assert_int_equal(pa, 0x87654456ULL);
	assert_int_equal(p.reads, 4);
	assert_int_equal(_memstat_kvm_arch_walk(&kvm, va + 8, &pa, peek, &p),
	    0);
	assert_int_equal(pa, 0x8765445eULL);
	assert_int_equal(p.reads, 4);
	/* A dump's are kept for good; the running kernel's for one look. */
	_memstat_kvm_arch_look(&kvm);
	assert_int_equal(_memstat_kvm_arch_walk(&kvm, va, &pa, peek, &p), 0);
	assert_int_equal(p.reads, 4);
	kvm.live = true;
	_memstat_kvm_arch_look(&kvm);
	assert_int_equal(_memstat_kvm_arch_walk(&kvm, va, &pa, peek, &p), 0);
	assert_int_equal(pa, 0x87654456ULL);
	assert_int_equal(p.reads, 8);
	assert_int_equal(_memstat_kvm_arch_walk(&kvm, va + 8, &pa, peek, &p),
	    0);
	assert_int_equal(p.reads, 8);
	/* Page tables not known: the walk is the reader's. */
	kvm.arch.pgd = 0;
	assert_int_equal(_memstat_kvm_arch_walk(&kvm, va + 16, &pa, peek, &p),
	    1);
}

/*
 * x86-64's tables for vaddr from the top level down, each entry present
 * (and written, accessed, dirty, with the encryption bit): tables[i] the
 * table at level i below the top; stops at level leaf (0 the last, 1 a
 * 2 MiB page, 2 a 1 GiB one) at frame.
 */
#define X86_ENTRY	0x63ULL		/* present, writable, accessed, dirty */
#define X86_PS		(1ULL << 7)
#define X86_SME		(1ULL << 47)

static struct kvm_arch_state
x86_state(unsigned levels, uint64_t pgd)
{
	struct kvm_arch_state st = { 0 };

	st.ops = &_memstat_kvm_arch_x86_64;
	st.page_shift = 12;
	st.va_bits = levels == 5 ? 57 : 48;
	st.pgd = pgd;
	st.addr_mask = 0x000ffffffffff000ULL & ~X86_SME;
	return (st);
}

static void
x86_build(struct phys *p, const struct kvm_arch_state *st, uint64_t vaddr,
    const uint64_t *tables, unsigned leaf, uint64_t frame)
{
	unsigned levels = st->va_bits == 57 ? 5 : 4;
	uint64_t table = st->pgd;

	for (unsigned l = levels, i = 0; l-- > 0; i++) {
		uint64_t slot = table + index_at(vaddr, 12 + 9 * l, 9) * 8;

		if (l == leaf) {
			poke(p, slot, frame | X86_SME | X86_ENTRY |
			    (leaf > 0 ? X86_PS : 0));
			return;
		}
		poke(p, slot, tables[i] | X86_SME | X86_ENTRY);
		table = tables[i];
	}
}

/*
 * x86-64: 4 KiB, 2 MiB and 1 GiB pages under four levels and five, the
 * encryption bit no part of an address, an entry not present and an
 * address not the kernel's refused.
 */
static void
test_walk_x86(void **state)
{
	const uint64_t tables[] = { 0x101000, 0x102000, 0x103000, 0x104000 };
	const uint64_t vmemmap = 0xffffea0001234567ULL;
	const uint64_t vmalloc = 0xffffc90000a0b0c0ULL;
	const uint64_t l5 = 0xff11000012345678ULL;
	struct kvm_arch_state st = x86_state(4, 0x100000);
	struct phys p = { .n = 0 };
	int rc;

	(void)state;
	x86_build(&p, &st, vmemmap, tables, 0, 0x7654321000ULL);
	assert_int_equal(walk(&st, &p, vmemmap, &rc), 0x7654321567ULL);
	assert_int_equal(rc, 0);
	x86_build(&p, &st, vmalloc, tables + 1, 1, 0x40000000ULL);
	assert_int_equal(walk(&st, &p, vmalloc, &rc),
	    0x40000000ULL | (vmalloc & 0x1fffff));
	assert_int_equal(rc, 0);
	/* A 1 GiB page, under the same top-level entry as vmalloc. */
	p.n = 0;
	x86_build(&p, &st, vmalloc, tables + 2, 2, 0x80000000ULL);
	assert_int_equal(walk(&st, &p, vmalloc, &rc),
	    0x80000000ULL | (vmalloc & 0x3fffffff));
	assert_int_equal(rc, 0);
	/* Not present: nothing there. */
	(void)walk(&st, &p, vmemmap, &rc);
	assert_int_equal(rc, -1);
	/* Not canonical under four levels: no kernel address. */
	(void)walk(&st, &p, 0xff00800000000000ULL, &rc);
	assert_int_equal(rc, -1);
	/* Five levels. */
	st = x86_state(5, 0x200000);
	p.n = 0;
	x86_build(&p, &st, l5, tables, 0, 0x123456000ULL);
	assert_int_equal(walk(&st, &p, l5, &rc), 0x123456678ULL);
	assert_int_equal(rc, 0);
}

/* x86-64: the image linear from phys_base; what KASLR moves. */
static void
test_x86_setup(void **state)
{
	static const char info[] = "OSRELEASE=6.1.0-test-amd64\n"
	    "PAGESIZE=4096\nSYMBOL(init_top_pgt)=ffffffff8b60a000\n"
	    "NUMBER(phys_base)=-2113929216\n";
	static const char l5_sme[] = "OSRELEASE=6.12.0-test-amd64\n"
	    "SYMBOL(init_top_pgt)=ffffffff8260a000\nNUMBER(phys_base)=0\n"
	    "NUMBER(pgtable_l5_enabled)=1\nNUMBER(sme_mask)=0x800000000000\n";
	struct memstat_kvm kvm = { 0 };
	uint64_t pa;

	(void)state;
	assert_int_equal(_memstat_kvm_arch_setup(&kvm, NULL, line_of,
	    (void *)info), 0);
	assert_ptr_equal(_memstat_kvm_arch(&kvm), &_memstat_kvm_arch_x86_64);
	/* phys_base negative: the image loaded below its link address. */
	assert_true(_memstat_kvm_arch_linear(&kvm, 0xffffffff81000000ULL,
	    &pa));
	assert_int_equal(pa, 0x1000000ULL - 2113929216ULL);
	/* The page tables: init_top_pgt by the image's map, four levels. */
	assert_int_equal(kvm.arch.pgd, 0xb60a000ULL - 2113929216ULL);
	assert_int_equal(kvm.arch.va_bits, 48);
	assert_int_equal(kvm.arch.addr_mask, 0x000ffffffffff000ULL);
	kvm.kaslr = 0x9000000;
	assert_int_equal(_memstat_kvm_arch_relocate(&kvm,
	    0xffffffff81000000ULL), 0xffffffff8a000000ULL);
	/* Per-CPU symbols are offsets: KASLR does not move them. */
	assert_int_equal(_memstat_kvm_arch_relocate(&kvm, 0x1f000ULL),
	    0x1f000ULL);
	/* And back: a per-CPU offset below the move is its own link address. */
	assert_int_equal(_memstat_kvm_arch_link(&kvm, 0xffffffff8a000000ULL),
	    0xffffffff81000000ULL);
	assert_int_equal(_memstat_kvm_arch_link(&kvm, 0x1f000ULL), 0x1f000ULL);
	assert_int_equal(_memstat_kvm_arch_link(&kvm, 0), 0);
	assert_int_equal(_memstat_kvm_arch_link(&kvm, 0x9001000ULL),
	    0x9001000ULL);
	/* Five levels, and memory encryption's bit taken out of entries. */
	assert_int_equal(_memstat_kvm_arch_setup(&kvm, NULL, line_of,
	    (void *)l5_sme), 0);
	assert_int_equal(kvm.arch.pgd, 0x260a000ULL);
	assert_int_equal(kvm.arch.va_bits, 57);
	assert_int_equal(kvm.arch.addr_mask, 0x000f7ffffffff000ULL);
}

/* s390x's DAT: an entry's table type (TT), invalid bits, frame control. */
#define S390_TT(t)	((uint64_t)(t) << 2)
#define S390_FC		(1ULL << 10)
#define S390_TABLE_I	(1ULL << 5)
#define S390_PAGE_I	(1ULL << 10)

/* Slot of vaddr in a table of type t (3 region-first .. 0 segment). */
static uint64_t
s390x_slot(uint64_t table, uint64_t vaddr, unsigned t)
{
	return (table + ((vaddr >> (20 + 11 * t)) & 0x7ff) * 8);
}

/*
 * s390x, big-endian tables: a region-third top table as Debian's 7.2
 * builds (its image at 0x3ffff311af4 in one boot) and a region-first one;
 * 4 KiB pages, 1 MiB and 2 GiB frames; invalid entries and a table type
 * that does not match its place refused.
 */
static void
test_walk_s390x(void **state)
{
	const uint64_t image = 0x3ffff311af4ULL, small = 0x12345678ULL;
	struct kvm_arch_state st = { .ops = &_memstat_kvm_arch_s390x,
	    .big_endian = true, .page_shift = 12, .pgd = 0x100000 };
	struct phys p = { .n = 0, .big = true };
	int rc;

	(void)state;
	poke(&p, s390x_slot(0x100000, image, 1), 0x200000 | S390_TT(1) | 3);
	poke(&p, s390x_slot(0x200000, image, 0), 0x300000 | S390_TT(0));
	poke(&p, 0x300000 + ((image >> 12) & 0xff) * 8, 0x1911000ULL | 0x1);
	assert_int_equal(walk(&st, &p, image, &rc), 0x1911af4ULL);
	assert_int_equal(rc, 0);
	/* A page marked invalid. */
	p.word[2] |= S390_PAGE_I;
	(void)walk(&st, &p, image, &rc);
	assert_int_equal(rc, -1);
	/* A 1 MiB frame from the segment table. */
	p.word[1] = 0x40000000ULL | S390_FC | S390_TT(0);
	assert_int_equal(walk(&st, &p, image, &rc),
	    0x40000000ULL | (image & 0xfffff));
	/* A 2 GiB frame from the region-third table. */
	p.word[0] = 0x80000000ULL | S390_FC | S390_TT(1);
	assert_int_equal(walk(&st, &p, image, &rc),
	    0x80000000ULL | (image & 0x7fffffff));
	assert_int_equal(rc, 0);
	/* A segment entry where a region-third one belongs. */
	p.word[0] = 0x200000 | S390_TT(0);
	(void)walk(&st, &p, image, &rc);
	assert_int_equal(rc, -1);
	/* Past what a region-third table spans (4 TiB). */
	(void)walk(&st, &p, 1ULL << 42, &rc);
	assert_int_equal(rc, -1);
	/* Five levels: region-first, -second, -third, segment, page. */
	p.n = 0;
	poke(&p, s390x_slot(0x100000, small, 3), 0x110000 | S390_TT(3) | 3);
	poke(&p, s390x_slot(0x110000, small, 2), 0x120000 | S390_TT(2) | 3);
	poke(&p, s390x_slot(0x120000, small, 1), 0x130000 | S390_TT(1) | 3);
	poke(&p, s390x_slot(0x130000, small, 0), 0x140800 | S390_TT(0));
	poke(&p, 0x140800 + ((small >> 12) & 0xff) * 8, 0x7000000ULL);
	assert_int_equal(walk(&st, &p, small, &rc), 0x7000678ULL);
	assert_int_equal(rc, 0);
	/* A region table entry marked invalid. */
	p.word[2] |= S390_TABLE_I;
	(void)walk(&st, &p, small, &rc);
	assert_int_equal(rc, -1);
}

/* Memory sections, for a room that finds the struct page array by them. */
static int
sections_one(struct memstat_kvm *kvm, int (*fn)(void *arg, uint64_t nr,
    uint64_t map), void *arg)
{
	(void)kvm;
	return (fn(arg, 0, 0x3d000000000ULL));
}

static const struct kvm_memmap_finders one_section = {
	.sections_each = sections_one,
};

/*
 * s390x from its VMCOREINFO (Debian's 7.2 under QEMU): the identity map
 * up to the struct page array, the page tables by the image's load, and
 * the lowcore's pointer to the note itself.
 */
static void
test_s390x_setup(void **state)
{
	static const char info[] = "OSRELEASE=7.2.13+deb14-s390x\n"
	    "PAGESIZE=4096\nSYMBOL(swapper_pg_dir)=3fffff54000\n"
	    "SYMBOL(vmemmap)=37200000000\nSYMBOL(lowcore_ptr)=3fffff5c280\n"
	    "IDENTITYBASE=0\nKERNELOFFSET=3fffe3a8000\nKERNELOFFPHYS=9a8000\n";
	static const char no_vmemmap[] = "PAGESIZE=4096\n"
	    "SYMBOL(swapper_pg_dir)=3fffff54000\nSYMBOL(lowcore_ptr)=1\n";
	static const char no_offset[] = "PAGESIZE=4096\n"
	    "SYMBOL(swapper_pg_dir)=3fffff54000\nKERNELOFFPHYS=9a8000\n";
	struct memstat_kvm kvm = { 0 };
	struct phys p = { .n = 0, .big = true };
	uint64_t pa, vmemmap, direct;

	(void)state;
	kvm.arch.big_endian = true;
	assert_int_equal(_memstat_kvm_arch_setup(&kvm, NULL, line_of,
	    (void *)info), 0);
	assert_ptr_equal(_memstat_kvm_arch(&kvm), &_memstat_kvm_arch_s390x);
	/* The reader's byte order outlives the setup. */
	assert_true(kvm.arch.big_endian);
	assert_int_equal(kvm.arch.pgd, 0x2554000ULL);
	assert_true(_memstat_kvm_arch_linear(&kvm, 0x3faac000ULL, &pa));
	assert_int_equal(pa, 0x3faac000ULL);
	assert_false(_memstat_kvm_arch_linear(&kvm, 0x37200000040ULL, &pa));
	assert_int_equal(_memstat_kvm_arch_s390x.memmap(&kvm, NULL, 64,
	    &vmemmap, &direct), 0);
	assert_int_equal(vmemmap, 0x37200000000ULL);
	assert_int_equal(direct, 0);
	assert_int_equal(kvm.kaslr, 0);
	/*
	 * 6.1's VMCOREINFO names no vmemmap: every address walked, the
	 * array found from a memory section's map, and then the identity
	 * map known to end below it (the image, at 0x100000, within it).
	 */
	assert_int_equal(_memstat_kvm_arch_setup(&kvm, "s390x", line_of,
	    (void *)no_vmemmap), 0);
	assert_false(_memstat_kvm_arch_linear(&kvm, 0x3faac000ULL, &pa));
	assert_false(_memstat_kvm_arch_in_direct_map(&kvm, 0x1c41100ULL));
	assert_int_equal(kvm.arch.pgd, 0x3fffff54000ULL);
	assert_int_equal(_memstat_kvm_arch_s390x.memmap(&kvm, &one_section,
	    64, &vmemmap, &direct), 0);
	assert_int_equal(vmemmap, 0x3d000000000ULL);
	assert_true(_memstat_kvm_arch_in_direct_map(&kvm, 0x1c41100ULL));
	assert_true(_memstat_kvm_arch_linear(&kvm, 0x3faac000ULL, &pa));
	assert_int_equal(pa, 0x3faac000ULL);
	assert_false(_memstat_kvm_arch_in_direct_map(&kvm, 0x3d000000040ULL));
	/* Where the image was loaded, but not where it runs: refused. */
	assert_int_equal(_memstat_kvm_arch_setup(&kvm, "s390x", line_of,
	    (void *)no_offset), -1);
	assert_non_null(strstr(kvm.err.msg, "no KERNELOFFSET"));
	/* The absolute lowcore's vmcore_info, in the machine's order. */
	poke(&p, 0xe0c, 0x6f8000);
	assert_int_equal(_memstat_kvm_arch_vmcoreinfo_at("S390X")(peek, &p,
	    true, &pa), 0);
	assert_int_equal(pa, 0x6f8000);
	assert_null(_memstat_kvm_arch_vmcoreinfo_at("x86_64"));
	p.word[0] = 0;
	assert_int_equal(_memstat_kvm_arch_vmcoreinfo_at(NULL)(peek, &p,
	    true, &pa), -1);
}

/* Slot of vaddr in a riscv64 table at level l (0: the pages'). */
static uint64_t
riscv_slot(uint64_t table, uint64_t vaddr, unsigned l)
{
	return (table + ((vaddr >> (12 + 9 * l)) & 511) * 8);
}

/* A riscv64 entry: a table's (V) or a leaf's (V, R, W), of pa. */
#define RISCV_TABLE(pa)	(((pa) >> 12) << 10 | 1)
#define RISCV_LEAF(pa)	(((pa) >> 12) << 10 | 7)

/*
 * riscv64: Sv48 as Debian's 7.2 chose under QEMU (a vmalloc page, a
 * 2 MiB and a 1 GiB leaf), Sv39 and Sv57 (3 and 5 levels); an invalid
 * entry, a table where the last level's page belongs, an address not of
 * the kernel's half, and Svpbmt's memory-type bits beside the number.
 */
static void
test_walk_riscv64(void **state)
{
	const uint64_t va = 0xffff8f8000123456ULL;
	const uint64_t sv39 = 0xffffffc000123456ULL;
	struct kvm_arch_state st = { .ops = &_memstat_kvm_arch_riscv64,
	    .page_shift = 12, .pgd = 0x80100000ULL, .va_bits = 48 };
	struct phys p = { .n = 0 };
	int rc;

	(void)state;
	poke(&p, riscv_slot(0x80100000ULL, va, 3), RISCV_TABLE(0x80200000ULL));
	poke(&p, riscv_slot(0x80200000ULL, va, 2), RISCV_TABLE(0x80300000ULL));
	poke(&p, riscv_slot(0x80300000ULL, va, 1), RISCV_TABLE(0x80400000ULL));
	poke(&p, riscv_slot(0x80400000ULL, va, 0), RISCV_LEAF(0x9abcd000ULL));
	assert_int_equal(walk(&st, &p, va, &rc), 0x9abcd456ULL);
	assert_int_equal(rc, 0);
	/* Svpbmt's bits 61 and 62 are not the page's number. */
	p.word[3] |= 3ULL << 61;
	assert_int_equal(walk(&st, &p, va, &rc), 0x9abcd456ULL);
	/* Not valid. */
	p.word[3] &= ~1ULL;
	(void)walk(&st, &p, va, &rc);
	assert_int_equal(rc, -1);
	/* A table where the page belongs: no fifth level below Sv48. */
	p.word[3] = RISCV_TABLE(0x80500000ULL);
	(void)walk(&st, &p, va, &rc);
	assert_int_equal(rc, -1);
	/* A 2 MiB leaf, then a 1 GiB one. */
	p.word[2] = RISCV_LEAF(0xc0200000ULL);
	assert_int_equal(walk(&st, &p, va, &rc), 0xc0323456ULL);
	p.word[1] = RISCV_LEAF(0x100000000ULL);
	assert_int_equal(walk(&st, &p, va, &rc), 0x100123456ULL);
	assert_int_equal(rc, 0);
	/* Not the kernel's half of Sv48's space. */
	(void)walk(&st, &p, 0x00008f8000123456ULL, &rc);
	assert_int_equal(rc, -1);
	/* Sv39: three levels from the same top table. */
	st.va_bits = 39;
	p.n = 0;
	poke(&p, riscv_slot(0x80100000ULL, sv39, 2),
	    RISCV_TABLE(0x80300000ULL));
	poke(&p, riscv_slot(0x80300000ULL, sv39, 1),
	    RISCV_TABLE(0x80400000ULL));
	poke(&p, riscv_slot(0x80400000ULL, sv39, 0),
	    RISCV_LEAF(0x9abcd000ULL));
	assert_int_equal(walk(&st, &p, sv39, &rc), 0x9abcd456ULL);
	/* Sv39's kernel half starts at bit 38. */
	(void)walk(&st, &p, sv39 & ~(1ULL << 38), &rc);
	assert_int_equal(rc, -1);
	/* Sv57: five, as trixie's 6.12 chose. */
	st.va_bits = 57;
	p.n = 0;
	poke(&p, riscv_slot(0x80100000ULL, 0xff20000000123456ULL, 4),
	    RISCV_TABLE(0x80200000ULL));
	poke(&p, riscv_slot(0x80200000ULL, 0xff20000000123456ULL, 3),
	    RISCV_TABLE(0x80300000ULL));
	poke(&p, riscv_slot(0x80300000ULL, 0xff20000000123456ULL, 2),
	    RISCV_TABLE(0x80400000ULL));
	poke(&p, riscv_slot(0x80400000ULL, 0xff20000000123456ULL, 1),
	    RISCV_TABLE(0x80500000ULL));
	poke(&p, riscv_slot(0x80500000ULL, 0xff20000000123456ULL, 0),
	    RISCV_LEAF(0x87654000ULL));
	assert_int_equal(walk(&st, &p, 0xff20000000123456ULL, &rc),
	    0x87654456ULL);
	assert_int_equal(rc, 0);
}

/*
 * riscv64 from its VMCOREINFO (Debian's 7.2 under QEMU, Sv48): the
 * direct map up to the modules, the image by va_kernel_pa_offset, the
 * page tables' root, the struct page array from a memory section; an
 * image that does not say where its kernel was loaded, refused.
 */
static void
test_riscv64_setup(void **state)
{
	static const char info[] = "OSRELEASE=7.2.13+deb14-riscv64\n"
	    "PAGESIZE=4096\nSYMBOL(swapper_pg_dir)=ffffffff82307000\n"
	    "NUMBER(phys_ram_base)=2147483648\n"
	    "NUMBER(PAGE_OFFSET)=0xffffaf8000000000\n"
	    "NUMBER(VA_BITS)=48\n"
	    "NUMBER(VMEMMAP_START)=0xffff8d8000000000\n"
	    "NUMBER(MODULES_VADDR)=0xffffffff023a0000\n"
	    "NUMBER(KERNEL_LINK_ADDR)=0xffffffff80000000\n"
	    "NUMBER(va_kernel_pa_offset)=0xfffffffeffe00000\n"
	    "KERNELOFFSET=0\n";
	static const char sv42[] = "PAGESIZE=4096\n"
	    "SYMBOL(swapper_pg_dir)=ffffffff82307000\n"
	    "NUMBER(phys_ram_base)=2147483648\n"
	    "NUMBER(PAGE_OFFSET)=0xffffaf8000000000\nNUMBER(VA_BITS)=42\n"
	    "NUMBER(KERNEL_LINK_ADDR)=0xffffffff80000000\n"
	    "NUMBER(va_kernel_pa_offset)=0xfffffffeffe00000\n";
	static const char no_offset[] = "PAGESIZE=4096\n"
	    "SYMBOL(swapper_pg_dir)=ffffffff82307000\n"
	    "NUMBER(phys_ram_base)=2147483648\n"
	    "NUMBER(PAGE_OFFSET)=0xffffaf8000000000\nNUMBER(VA_BITS)=48\n"
	    "NUMBER(KERNEL_LINK_ADDR)=0xffffffff80000000\n";
	struct memstat_kvm kvm = { 0 };
	uint64_t pa, vmemmap, direct;

	(void)state;
	assert_int_equal(_memstat_kvm_arch_setup(&kvm, NULL, line_of,
	    (void *)info), 0);
	assert_ptr_equal(_memstat_kvm_arch(&kvm), &_memstat_kvm_arch_riscv64);
	assert_false(kvm.arch.big_endian);
	assert_int_equal(kvm.arch.va_bits, 48);
	assert_int_equal(kvm.arch.pgd, 0x82507000ULL);
	/* The direct map: RAM starts at 2 GiB. */
	assert_true(_memstat_kvm_arch_linear(&kvm, 0xffffaf8001234000ULL,
	    &pa));
	assert_int_equal(pa, 0x81234000ULL);
	/* The image. */
	assert_true(_memstat_kvm_arch_linear(&kvm, 0xffffffff81000010ULL,
	    &pa));
	assert_int_equal(pa, 0x81200010ULL);
	/* vmalloc, vmemmap and the modules are the page tables'. */
	assert_false(_memstat_kvm_arch_linear(&kvm, 0xffff8d8000000040ULL,
	    &pa));
	assert_false(_memstat_kvm_arch_linear(&kvm, 0xffffffff023a1000ULL,
	    &pa));
	assert_int_equal(_memstat_kvm_arch_riscv64.memmap(&kvm, &one_section,
	    64, &vmemmap, &direct), 0);
	assert_int_equal(vmemmap, 0x3d000000000ULL);
	assert_int_equal(direct, 0xffffaf8000000000ULL - 0x80000000ULL);
	assert_int_equal(_memstat_kvm_arch_relocate(&kvm,
	    0xffffffff81000000ULL), 0xffffffff81000000ULL);
	/* What is not read, and what it lacks, said. */
	assert_int_equal(_memstat_kvm_arch_setup(&kvm, "riscv64", line_of,
	    (void *)sv42), -1);
	assert_non_null(strstr(kvm.err.msg, "42-bit addresses"));
	assert_int_equal(_memstat_kvm_arch_setup(&kvm, "riscv64", line_of,
	    (void *)no_offset), -1);
	assert_non_null(strstr(kvm.err.msg, "va_kernel_pa_offset"));
	assert_string_equal(_memstat_elf_machine_name(243), "riscv64");
	assert_null(_memstat_kvm_arch_vmcoreinfo_at("riscv64"));
}

/* Slot of vaddr in a ppc64 table whose entries map 1 << shift bytes. */
static uint64_t
ppc_slot(uint64_t table, uint64_t vaddr, unsigned shift, unsigned bits)
{
	return (table + ((vaddr >> shift) & ((1ULL << bits) - 1)) * 8);
}

/* A ppc64 entry: a table's (present) or a leaf's (present, PTE). */
#define PPC_TABLE(pa)	((pa) | 1ULL << 63 | 9)
#define PPC_LEAF(pa)	((pa) | 3ULL << 62 | 0x10e)

/*
 * ppc64, radix: Debian's 7.2 (4 KiB pages) and its 64k flavour, a
 * little-endian kernel whose page tables are big-endian; a 2 MiB and a
 * 1 GiB leaf; an entry not present, a table where the page belongs, an
 * address outside the kernel's region.
 */
static void
test_walk_ppc64_radix(void **state)
{
	const uint64_t va = 0xc008000012345678ULL;
	struct kvm_arch_state st = { .ops = &_memstat_kvm_arch_ppc64,
	    .page_shift = 12, .pgd = 0x29d0000ULL };
	struct phys p = { .n = 0, .big = true };
	int rc;

	(void)state;
	poke(&p, ppc_slot(0x29d0000ULL, va, 39, 13), PPC_TABLE(0x1000000ULL));
	poke(&p, ppc_slot(0x1000000ULL, va, 30, 9), PPC_TABLE(0x1001000ULL));
	poke(&p, ppc_slot(0x1001000ULL, va, 21, 9), PPC_TABLE(0x1002000ULL));
	poke(&p, ppc_slot(0x1002000ULL, va, 12, 9), PPC_LEAF(0x7654000ULL));
	assert_int_equal(walk(&st, &p, va, &rc), 0x7654678ULL);
	assert_int_equal(rc, 0);
	/* Read little-endian, the tables would not be found. */
	p.big = false;
	(void)walk(&st, &p, va, &rc);
	assert_int_equal(rc, -1);
	p.big = true;
	/* Not present. */
	p.word[3] &= ~(1ULL << 63);
	(void)walk(&st, &p, va, &rc);
	assert_int_equal(rc, -1);
	/* A table where the page belongs. */
	p.word[3] = PPC_TABLE(0x1003000ULL);
	(void)walk(&st, &p, va, &rc);
	assert_int_equal(rc, -1);
	/* A 2 MiB leaf, then a 1 GiB one. */
	p.word[2] = PPC_LEAF(0x40000000ULL);
	assert_int_equal(walk(&st, &p, va, &rc), 0x40145678ULL);
	p.word[1] = PPC_LEAF(0x80000000ULL);
	assert_int_equal(walk(&st, &p, va, &rc), 0x92345678ULL);
	assert_int_equal(rc, 0);
	/* Not the kernel's region. */
	(void)walk(&st, &p, va & ~(0xcULL << 60), &rc);
	assert_int_equal(rc, -1);
	/* 64 KiB pages: the last level indexes 5 bits from bit 16. */
	st.page_shift = 16;
	p.n = 0;
	poke(&p, ppc_slot(0x29d0000ULL, va, 39, 13), PPC_TABLE(0x1000000ULL));
	poke(&p, ppc_slot(0x1000000ULL, va, 30, 9), PPC_TABLE(0x1010000ULL));
	poke(&p, ppc_slot(0x1010000ULL, va, 21, 9), PPC_TABLE(0x1020100ULL));
	poke(&p, ppc_slot(0x1020100ULL, va, 16, 5), PPC_LEAF(0x7650000ULL));
	assert_int_equal(walk(&st, &p, va, &rc), 0x7655678ULL);
	assert_int_equal(rc, 0);
}

/*
 * ppc64, hash: vmalloc by hash's tables (64 KiB pages: 8, 10, 10, 8
 * bits), and vmemmap, which they do not map, by vmemmap_list's blocks
 * (16 MiB each here: mmu_psize_defs[mmu_vmemmap_psize].shift 24), in the
 * kernel's own byte order.
 */
static void
test_walk_ppc64_hash(void **state)
{
	const uint64_t va = 0xc008000012345678ULL;
	const uint64_t page = 0xc00c000001000040ULL;
	struct kvm_arch_state st = { .ops = &_memstat_kvm_arch_ppc64,
	    .page_shift = 16, .pgd = 0x29d0000ULL,
	    .direct_map = 0xc000000000000000ULL,
	    .ppc64 = { .hash = true, .vmemmap_list = 0x29eba78ULL,
	    .vmemmap_psize = 0x29ec288ULL, .psize_defs = 0x29ebbf8ULL,
	    .def_size = 96, .def_shift = 0, .next = 0, .phys = 8,
	    .virt = 16 } };
	struct phys p = { .n = 0, .big = true };
	int rc;

	(void)state;
	poke(&p, ppc_slot(0x29d0000ULL, va, 44, 8), PPC_TABLE(0x1000000ULL));
	poke(&p, ppc_slot(0x1000000ULL, va, 34, 10), PPC_TABLE(0x1010000ULL));
	poke(&p, ppc_slot(0x1010000ULL, va, 24, 10), PPC_TABLE(0x1020000ULL));
	poke(&p, ppc_slot(0x1020000ULL, va, 16, 8), PPC_LEAF(0x7650000ULL));
	assert_int_equal(walk(&st, &p, va, &rc), 0x7655678ULL);
	assert_int_equal(rc, 0);
	/* vmemmap: two blocks in the list, the second the page's. */
	p.n = 0;
	p.big = false;
	poke(&p, 0x29ec288ULL, 4);			/* mmu_vmemmap_psize */
	poke(&p, 0x29ebbf8ULL + 4 * 96, 24);		/* its shift */
	poke(&p, 0x29eba78ULL, 0xc000000003000000ULL);	/* vmemmap_list */
	poke(&p, 0x3000000ULL, 0xc000000003000100ULL);	/* list */
	poke(&p, 0x3000008ULL, 0x9000000ULL);		/* phys */
	poke(&p, 0x3000010ULL, 0xc00c000000000000ULL);	/* virt_addr */
	poke(&p, 0x3000100ULL, 0);
	poke(&p, 0x3000108ULL, 0x5000000ULL);
	poke(&p, 0x3000110ULL, 0xc00c000001000000ULL);
	st.big_endian = false;
	assert_int_equal(walk(&st, &p, page, &rc), 0x5000040ULL);
	assert_int_equal(rc, 0);
	/* Past the last block. */
	(void)walk(&st, &p, page + (16ULL << 20), &rc);
	assert_int_equal(rc, -1);
	/* A list that loops on itself ends. */
	p.word[6] = 0xc000000003000100ULL;
	(void)walk(&st, &p, page + (16ULL << 20), &rc);
	assert_int_equal(rc, -1);
}

/*
 * ppc64 from its VMCOREINFO (Debian's 7.2, 4 KiB pages, radix): the
 * linear map up to vmalloc, the page tables' root; hash needing
 * vmemmap_list's numbers, and an image outside Book3S's map refused.
 */
static void
test_ppc64_setup(void **state)
{
	static const char info[] = "OSRELEASE=7.2.13+deb14-powerpc64le\n"
	    "PAGESIZE=4096\nSYMBOL(swapper_pg_dir)=c0000000029d0000\n"
	    "NUMBER(VMALLOC_START)=0xc008000000000000\n"
	    "SYMBOL(vmemmap_list)=c0000000029eba78\n"
	    "SYMBOL(mmu_vmemmap_psize)=c0000000029ec288\n"
	    "SYMBOL(mmu_psize_defs)=c0000000029ebbf8\n"
	    "SIZE(vmemmap_backing)=24\nOFFSET(vmemmap_backing.list)=0\n"
	    "OFFSET(vmemmap_backing.phys)=8\n"
	    "OFFSET(vmemmap_backing.virt_addr)=16\n"
	    "SIZE(mmu_psize_def)=96\nOFFSET(mmu_psize_def.shift)=0\n"
	    "NUMBER(RADIX_MMU)=1\nKERNELOFFSET=0\n";
	static const char hash_short[] = "PAGESIZE=65536\n"
	    "SYMBOL(swapper_pg_dir)=c0000000029d0000\n"
	    "NUMBER(VMALLOC_START)=0xc008000000000000\n"
	    "SYMBOL(mmu_psize_defs)=c0000000029ebbf8\n"
	    "NUMBER(RADIX_MMU)=0\n";
	static const char book3e[] = "PAGESIZE=4096\n"
	    "SYMBOL(swapper_pg_dir)=8000000000a00000\nNUMBER(RADIX_MMU)=0\n";
	/* Bookworm's 6.1: radix, no VMALLOC_START, the image in the map. */
	static const char radix61[] = "OSRELEASE=6.1.0-50-powerpc64le\n"
	    "PAGESIZE=65536\nSYMBOL(swapper_pg_dir)=c000000002810000\n"
	    "NUMBER(MAX_PHYSMEM_BITS)=51\n";
	struct memstat_kvm kvm = { 0 };
	uint64_t pa, vmemmap, direct;

	(void)state;
	assert_int_equal(_memstat_kvm_arch_setup(&kvm, NULL, line_of,
	    (void *)info), 0);
	assert_ptr_equal(_memstat_kvm_arch(&kvm), &_memstat_kvm_arch_ppc64);
	assert_int_equal(kvm.arch.pgd, 0x29d0000ULL);
	assert_false(kvm.arch.ppc64.hash);
	assert_true(_memstat_kvm_arch_linear(&kvm, 0xc00000001f728000ULL,
	    &pa));
	assert_int_equal(pa, 0x1f728000ULL);
	assert_false(_memstat_kvm_arch_linear(&kvm, 0xc00c000000000040ULL,
	    &pa));
	assert_int_equal(_memstat_kvm_arch_ppc64.memmap(&kvm, &one_section,
	    64, &vmemmap, &direct), 0);
	assert_int_equal(direct, 0xc000000000000000ULL);
	assert_int_equal(_memstat_kvm_arch_setup(&kvm, "ppc64", line_of,
	    (void *)hash_short), -1);
	assert_non_null(strstr(kvm.err.msg, "SYMBOL(vmemmap_list)"));
	assert_int_equal(_memstat_kvm_arch_setup(&kvm, "ppc64", line_of,
	    (void *)book3e), -1);
	assert_non_null(strstr(kvm.err.msg, "only Book3S kernels"));
	/* Its linear map all the memory there can be, up to vmalloc. */
	assert_int_equal(_memstat_kvm_arch_setup(&kvm, "ppc64", line_of,
	    (void *)radix61), 0);
	assert_true(_memstat_kvm_arch_in_direct_map(&kvm,
	    0xc0000000028a5700ULL));
	assert_true(_memstat_kvm_arch_linear(&kvm, 0xc0000000028a5700ULL,
	    &pa));
	assert_int_equal(pa, 0x28a5700ULL);
	assert_false(_memstat_kvm_arch_in_direct_map(&kvm,
	    0xc008000000000000ULL));
	assert_false(_memstat_kvm_arch_in_direct_map(&kvm,
	    0xc00c000000008040ULL));
}

/* An architecture not read, and an arm64 image that cannot be read. */
static void
test_refusals(void **state)
{
	static const char bad_page[] = "PAGESIZE=8192\n"
	    "SYMBOL(swapper_pg_dir)=ffff800081a3e000\nNUMBER(VA_BITS)=48\n"
	    "NUMBER(kimage_voffset)=0xffff7fff43200000\n"
	    "NUMBER(PHYS_OFFSET)=0x40000000\n";
	static const char no_pgd[] = "PAGESIZE=4096\nNUMBER(VA_BITS)=48\n"
	    "NUMBER(kimage_voffset)=0xffff7fff43200000\n"
	    "NUMBER(PHYS_OFFSET)=0x40000000\n";
	struct memstat_kvm kvm = { 0 };

	(void)state;
	assert_int_equal(_memstat_kvm_arch_setup(&kvm, "arm", line_of,
	    (void *)arm64_info), -1);
	assert_int_equal(kvm.err.code, MEMSTAT_ERROR_KVM);
	assert_string_equal(kvm.err.msg, "a core image of arm: only x86-64, "
	    "arm64, s390x, riscv64 and ppc64 images are read");
	assert_int_equal(_memstat_kvm_arch_setup(&kvm, NULL, line_of,
	    (void *)bad_page), -1);
	assert_non_null(strstr(kvm.err.msg, "8192-byte pages"));
	assert_int_equal(_memstat_kvm_arch_setup(&kvm, NULL, line_of,
	    (void *)no_pgd), -1);
	assert_non_null(strstr(kvm.err.msg, "SYMBOL(swapper_pg_dir)"));
	assert_string_equal(_memstat_elf_machine_name(183), "aarch64");
	assert_null(_memstat_elf_machine_name(0));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_walk_4k),
		cmocka_unit_test(test_walk_16k),
		cmocka_unit_test(test_walk_64k_lpa),
		cmocka_unit_test(test_walk_4k_lpa2),
		cmocka_unit_test(test_walk_kept),
		cmocka_unit_test(test_walk_x86),
		cmocka_unit_test(test_arm64_setup),
		cmocka_unit_test(test_arm64_negative_phys_offset),
		cmocka_unit_test(test_x86_setup),
		cmocka_unit_test(test_walk_s390x),
		cmocka_unit_test(test_s390x_setup),
		cmocka_unit_test(test_walk_riscv64),
		cmocka_unit_test(test_riscv64_setup),
		cmocka_unit_test(test_walk_ppc64_radix),
		cmocka_unit_test(test_walk_ppc64_hash),
		cmocka_unit_test(test_ppc64_setup),
		cmocka_unit_test(test_refusals),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
