/*
 * kvm_arch_x86_64.c: x86-64's kernel maps.  The kernel image is linked
 * at __START_KERNEL_map and sits phys_base above its physical load
 * address (VMCOREINFO's NUMBER(phys_base)); the direct map starts at
 * page_offset_base and the struct page array at vmemmap_base, both moved
 * by KASLR and read from the image; pages are 4 KiB.  Other addresses
 * are libkdumpfile's to walk, which knows x86-64's page tables.
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
	uint64_t phys_base;

	if (_memstat_kvm_vmcoreinfo_number(vmcoreinfo, arg,
	    "NUMBER(phys_base)", 0, &phys_base) == 0) {
		kvm->arch.img_start = KVM_KERNEL_MAP;
		kvm->arch.img_end = KVM_KERNEL_MAP + KERNEL_IMAGE_SIZE;
		kvm->arch.img_delta = KVM_KERNEL_MAP - phys_base;
	}
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

const struct kvm_arch _memstat_kvm_arch_x86_64 = {
	.name = "x86_64",
	.claims = x86_claims,
	.setup = x86_setup,
	.kaslr_moves = x86_kaslr_moves,
	.memmap = x86_memmap,
	.walk = NULL,
};
