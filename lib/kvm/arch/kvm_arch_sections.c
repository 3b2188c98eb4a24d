/*
 * kvm_arch_sections.c: the struct page array found from the memory
 * sections, for the rooms whose image does not say where it is (arm64
 * without VMEMMAP_START, s390x 6.1 without vmemmap, riscv64, ppc64):
 * kvm_arch_ops.h.
 */
#include "kvm/arch/kvm_arch_ops.h"

/* The first section's map: with SPARSEMEM_VMEMMAP, the array's start. */
static int
first_map(void *arg, uint64_t nr, uint64_t map)
{
	(void)nr;
	*(uint64_t *)arg = map;
	return (1);
}

int
_memstat_kvm_arch_sections_memmap(struct memstat_kvm *kvm,
    const struct kvm_memmap_finders *find, uint64_t *vmemmap)
{
	int rc;

	if ((rc = find->sections_each(kvm, first_map, vmemmap)) != 0)
		return (rc == 1 ? 0 : -1);
	return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
	    "no memory section has a struct page array"));
}

int
_memstat_kvm_arch_memmap_by_sections(struct memstat_kvm *kvm,
    const struct kvm_memmap_finders *find, uint32_t page_size,
    uint64_t *vmemmap, uint64_t *direct_map)
{
	(void)page_size;
	*direct_map = kvm->arch.direct_map;
	return (_memstat_kvm_arch_sections_memmap(kvm, find, vmemmap));
}
