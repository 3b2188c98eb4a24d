/*
 * kvm_arch.c: which architecture a core image is of, and what the
 * readers (through the handle's translation) and the floors above ask of
 * it, whichever it is (kvm_arch.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "kvm/arch/kvm_arch.h"
#include "kvm/arch/kvm_vmcoreinfo.h"

static const struct kvm_arch *const arches[] = {
	&_memstat_kvm_arch_x86_64,
	&_memstat_kvm_arch_aarch64,
	&_memstat_kvm_arch_s390x,
	&_memstat_kvm_arch_riscv64,
	&_memstat_kvm_arch_ppc64,
};
#define NARCHES	(sizeof(arches) / sizeof(arches[0]))

/* What the readers ask of whichever architecture it is (kvm_handle.h). */
static const struct kvm_translation translation = {
	.linear = _memstat_kvm_arch_linear,
	.walk = _memstat_kvm_arch_walk,
	.page_shift = _memstat_kvm_page_shift,
};

/* The architecture of libkdumpfile's name (any case: "S390X"), or NULL. */
static const struct kvm_arch *
named(const char *name)
{
	for (size_t i = 0; i < NARCHES; i++)
		if (strcasecmp(name, arches[i]->name) == 0)
			return (arches[i]);
	return (NULL);
}

int
_memstat_kvm_arch_setup(struct memstat_kvm *kvm, const char *name,
    kvm_vmcoreinfo_fn vmcoreinfo, void *arg)
{
	const struct kvm_arch *a = NULL;
	uint64_t bits;
	bool big;

	if (name != NULL)
		a = named(name);
	for (size_t i = 0; i < NARCHES && a == NULL && name == NULL; i++)
		if (arches[i]->claims(vmcoreinfo, arg))
			a = arches[i];
	if (a == NULL && name != NULL)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM,
		    "a core image of %s: only x86-64, arm64, s390x, riscv64 "
		    "and ppc64 images are read", name));
	/* No machine named, none claimed: the readers' first, x86-64. */
	if (a == NULL)
		a = arches[0];
	big = kvm->arch.big_endian;	/* the reader's, kept */
	memset(&kvm->arch, 0, sizeof(kvm->arch));
	kvm->arch.big_endian = big;
	kvm->arch.ops = a;
	kvm->translation = &translation;
	kvm->arch.page_shift = 12;
	if (_memstat_kvm_vmcoreinfo_number(vmcoreinfo, arg,
	    "NUMBER(SECTION_SIZE_BITS)", 10, &bits) == 0 && bits >= 12 &&
	    bits < 48)
		kvm->arch.section_bits = (unsigned)bits;
	(void)_memstat_kvm_vmcoreinfo_number(vmcoreinfo, arg,
	    "LENGTH(mem_section)", 10, &kvm->arch.section_roots);
	(void)_memstat_kvm_vmcoreinfo_number(vmcoreinfo, arg, "KERNELOFFSET",
	    16, &kvm->kaslr);
	return (a->setup(kvm, vmcoreinfo, arg));
}

/* Each architecture's pointer to VMCOREINFO, where the file names none. */
static int
any_vmcoreinfo_at(kvm_phys_fn read, void *arg, bool big, uint64_t *paddr)
{
	for (size_t i = 0; i < NARCHES; i++)
		if (arches[i]->vmcoreinfo_at != NULL &&
		    arches[i]->vmcoreinfo_at(read, arg, big, paddr) == 0)
			return (0);
	return (-1);
}

kvm_vmcoreinfo_at_fn
_memstat_kvm_arch_vmcoreinfo_at(const char *name)
{
	const struct kvm_arch *a;

	if (name == NULL)
		return (any_vmcoreinfo_at);
	return ((a = named(name)) != NULL ? a->vmcoreinfo_at : NULL);
}

const struct kvm_arch *
_memstat_kvm_arch(const struct memstat_kvm *kvm)
{
	return (kvm->arch.ops != NULL ? kvm->arch.ops : arches[0]);
}

unsigned
_memstat_kvm_page_shift(const struct memstat_kvm *kvm)
{
	return (kvm->arch.page_shift != 0 ? kvm->arch.page_shift : 12);
}

bool
_memstat_kvm_arch_in_direct_map(const struct memstat_kvm *kvm, uint64_t addr)
{
	const struct kvm_arch_state *st = &kvm->arch;

	return (st->lin_end != 0 && addr >= st->lin_start &&
	    addr < st->lin_end);
}

bool
_memstat_kvm_arch_linear(const struct memstat_kvm *kvm, uint64_t vaddr,
    uint64_t *paddr)
{
	const struct kvm_arch_state *st = &kvm->arch;

	if (st->img_end != 0 && vaddr >= st->img_start &&
	    vaddr < st->img_end) {
		*paddr = vaddr - st->img_delta;
		return (true);
	}
	if (_memstat_kvm_arch_in_direct_map(kvm, vaddr)) {
		*paddr = vaddr - st->direct_map;
		return (true);
	}
	return (false);
}

int
_memstat_kvm_arch_walk(struct memstat_kvm *kvm, uint64_t vaddr,
    uint64_t *paddr, kvm_phys_fn read, void *arg)
{
	struct kvm_arch_state *st = &kvm->arch;
	const struct kvm_arch *a = _memstat_kvm_arch(kvm);
	unsigned shift = _memstat_kvm_page_shift(kvm);
	uint64_t page = vaddr >> shift, off = vaddr & ((1ULL << shift) - 1);
	size_t slot = (size_t)(page % KVM_TLB_SIZE);

	if (a->walk == NULL || st->pgd == 0)
		return (1);
	/* Entry 0 is empty, not page 0: no kernel address is in page 0. */
	if (st->tlb_va[slot] == page && page != 0) {
		*paddr = st->tlb_pa[slot] | off;
		return (0);
	}
	if (a->walk(st, vaddr, paddr, read, arg) != 0)
		return (-1);
	st->tlb_va[slot] = page;
	st->tlb_pa[slot] = *paddr & ~((1ULL << shift) - 1);
	return (0);
}

void
_memstat_kvm_arch_look(struct memstat_kvm *kvm)
{
	if (kvm->live)
		memset(kvm->arch.tlb_va, 0, sizeof(kvm->arch.tlb_va));
}

uint64_t
_memstat_kvm_arch_relocate(const struct memstat_kvm *kvm, uint64_t link_addr)
{
	return (_memstat_kvm_arch(kvm)->kaslr_moves(link_addr) ?
	    link_addr + kvm->kaslr : link_addr);
}

uint64_t
_memstat_kvm_arch_link(const struct memstat_kvm *kvm, uint64_t addr)
{
	uint64_t link = addr - kvm->kaslr;

	/*
	 * An address below the move was not moved: less the move it would
	 * wrap into the image's range (x86-64's per-CPU offset 0 would).
	 */
	if (addr < kvm->kaslr)
		return (addr);
	return (_memstat_kvm_arch(kvm)->kaslr_moves(link) ? link : addr);
}

uint64_t
_memstat_kvm_arch_strip(const struct memstat_kvm *kvm, uint64_t addr)
{
	/* A kernel address's signature bits are ones once stripped. */
	if (kvm->arch.pac_mask != 0 && (addr & (1ULL << 55)) != 0)
		return (addr | kvm->arch.pac_mask);
	return (addr);
}
