/*
 * kvm_memmap.c: the struct page array and the direct map, asked of the
 * image's architecture (kvm_memmap.h).
 */
#include "kvm/arch/kvm_arch.h"
#include "kvm/kernel/kvm_finders.h"
#include "kvm/kernel/kvm_memmap.h"
#include "kvm/kernel/kvm_sections.h"

static const struct kvm_memmap_finders finders = {
	.symbol = _memstat_kvm_symbol,
	.sections_each = _memstat_kvm_sections_each,
};

int
_memstat_kvm_memmap(struct memstat_kvm *kvm, uint32_t page_size,
    uint64_t *vmemmap, uint64_t *direct_map)
{
	return (_memstat_kvm_arch(kvm)->memmap(kvm, &finders, page_size,
	    vmemmap, direct_map));
}
