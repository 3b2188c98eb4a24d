/*
 * kvm_sections.c: the memory sections of kvm_sections.h, walked.
 */
#include <inttypes.h>

#include "kvm/arch/kvm_arch.h"
#include "kvm/kernel/kvm_finders.h"
#include "kvm/kernel/kvm_sections.h"

#define MAX_ROOTS	(1u << 16)	/* NR_SECTION_ROOTS' bound */

/*
 * A word of the roots or of a root's sections.  Both are the kernel's own
 * allocations, which a filtered dump keeps unless they are zero (-d 1):
 * an ELF dump cannot say a page was zero, so it leaves the page out, and
 * the words of a page left out read as 0 (no root, no memory map).
 */
static int
read_kept(struct memstat_kvm *kvm, uint64_t addr, uint64_t *v)
{
	if (_memstat_kvm_read_u64(kvm, addr, v) == 0)
		return (0);
	*v = 0;
	return (_memstat_kvm_left_out(kvm) ? 0 : -1);
}

int
_memstat_kvm_sections_each(struct memstat_kvm *kvm,
    int (*fn)(void *arg, uint64_t nr, uint64_t map), void *arg)
{
	struct kvm_member map;
	uint64_t roots, root, coded, nroots;
	uint32_t size;
	size_t per_root;
	int rc;

	if (_memstat_kvm_vmcoreinfo_symbol(kvm, "mem_section", &roots) != 0)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM, "no "
		    "mem_section in the image's VMCOREINFO: its memory "
		    "sections cannot be found"));
	if (_memstat_kvm_struct_size(kvm, "mem_section", &size) != 0 ||
	    _memstat_kvm_member(kvm, "mem_section", "section_mem_map",
	    &map) != 0)
		return (-1);
	if (size == 0 || size > 4096)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "a %" PRIu32 "-byte mem_section", size));
	per_root = ((size_t)1 << _memstat_kvm_page_shift(kvm)) / size;
	/*
	 * NR_SECTION_ROOTS, as VMCOREINFO's LENGTH(mem_section) says: what
	 * follows the array is not roots (a 7.2 guest's next words, read as
	 * roots, led to maps in text).
	 */
	nroots = kvm->arch.section_roots != 0 &&
	    kvm->arch.section_roots < MAX_ROOTS ? kvm->arch.section_roots :
	    MAX_ROOTS;
	for (uint32_t r = 0; r < nroots; r++) {
		if (read_kept(kvm, roots + 8ULL * r, &root) != 0)
			return (-1);
		for (size_t i = 0; root != 0 && i < per_root; i++) {
			if (read_kept(kvm, root + i * size + map.offset,
			    &coded) != 0)
				return (-1);
			if ((coded & KVM_SECTION_HAS_MEM_MAP) == 0)
				continue;
			if ((rc = fn(arg, (uint64_t)r * per_root + i, coded &
			    ~((1ULL << KVM_SECTION_FLAG_BITS) - 1))) != 0)
				return (rc);
		}
	}
	return (0);
}
