/*
 * kvm_memmap.c: the struct page array and the direct map, asked of the
 * image's architecture, and the array read section by section
 * (kvm_memmap.h).
 */
#include <inttypes.h>
#include <string.h>

#include "kvm/arch/kvm_arch.h"
#include "kvm/kernel/kvm_finders.h"
#include "kvm/kernel/kvm_memmap.h"
#include "kvm/kernel/kvm_sections.h"

#define PAGES_AT_ONCE	256		/* struct pages read at once */
#define PAGE_STRUCT_MAX	256		/* bytes: a struct page is 64 */

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

int
_memstat_kvm_pages_layout(struct memstat_kvm *kvm, struct kvm_pages *pg,
    const char *what)
{
	uint64_t direct;

	*pg = (struct kvm_pages){ 0 };
	if (kvm->arch.section_bits <= _memstat_kvm_page_shift(kvm))
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM_NOSYMBOL,
		    "no SECTION_SIZE_BITS in the dump's VMCOREINFO to find "
		    "%s by", what));
	pg->per_section = kvm->arch.section_bits - _memstat_kvm_page_shift(kvm);
	if (pg->per_section > 30)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "memory sections of 2^%u pages", pg->per_section));
	if (_memstat_kvm_struct_size(kvm, "page", &pg->page_size) != 0)
		return (-1);
	if (pg->page_size < 8 || pg->page_size > PAGE_STRUCT_MAX)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "a %" PRIu32 "-byte struct page", pg->page_size));
	/*
	 * Each section's own map gives its struct pages; the array's start
	 * is asked for the direct map's bounds, which x86-64 learns here.
	 */
	return (_memstat_kvm_memmap(kvm, pg->page_size, &pg->vmemmap,
	    &direct));
}

struct each {
	struct memstat_kvm *kvm;
	const struct kvm_pages *pg;
	uint64_t	*budget;
	int		(*fn)(void *, uint64_t, const uint8_t *);
	void		*arg;
};

/*
 * A run of struct pages that would not read whole, page by page: a
 * filtered dump leaves some out, and /proc/kcore maps the struct pages
 * of memory that exists only (a section's holes have none): those that
 * read are valid, the others passed over.
 */
static void
piecewise(struct each *e, uint64_t at, uint64_t n, uint8_t *pages,
    uint8_t *valid)
{
	uint32_t size = e->pg->page_size;

	for (uint64_t j = 0; j < n; j++)
		valid[j] = _memstat_kvm_read(e->kvm, at + j * size,
		    pages + j * size, size) == 0;
}

static int
each_section(void *arg, uint64_t nr, uint64_t map)
{
	struct each *e = arg;
	const struct kvm_pages *pg = e->pg;
	uint8_t pages[PAGES_AT_ONCE * PAGE_STRUCT_MAX], valid[PAGES_AT_ONCE];
	uint64_t first = nr << pg->per_section, count = 1ULL << pg->per_section;
	uint64_t at;
	int rc;

	for (uint64_t i = 0; i < count; i += PAGES_AT_ONCE) {
		uint64_t n = count - i < PAGES_AT_ONCE ? count - i :
		    PAGES_AT_ONCE;

		if (e->budget != NULL) {
			if (*e->budget == 0)
				return (1);
			*e->budget -= n < *e->budget ? n : *e->budget;
		}
		at = map + (first + i) * pg->page_size;
		memset(valid, 1, n);
		if (_memstat_kvm_read(e->kvm, at, pages, n * pg->page_size) !=
		    0)
			piecewise(e, at, n, pages, valid);
		for (uint64_t j = 0; j < n; j++)
			if (valid[j] && (rc = e->fn(e->arg, at + j *
			    pg->page_size, pages + j * pg->page_size)) != 0)
				return (rc);
	}
	return (0);
}

int
_memstat_kvm_pages_each(struct memstat_kvm *kvm, const struct kvm_pages *pg,
    uint64_t *budget, int (*fn)(void *arg, uint64_t page,
    const uint8_t *bytes), void *arg)
{
	struct each e = { kvm, pg, budget, fn, arg };

	return (_memstat_kvm_sections_each(kvm, each_section, &e));
}
