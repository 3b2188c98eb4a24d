/*
 * kvm_slab_pages.c: every slab's first page, from each memory section's
 * struct pages (kvm_slab_pages.h).  A slab's first page says it is one
 * by PG_slab in its flags (to 6.9) or by the slab page type, PGTY_slab
 * in the top byte of page_type (6.10 on), whichever BTF's enums name;
 * its slab_cache (struct slab's since 5.17, struct page's before) says
 * whose it is.  The pages of a section are read a few hundred at once.
 */
#include <inttypes.h>
#include <string.h>

#include "kvm/arch/kvm_arch.h"
#include "kvm/kernel/kvm_memmap.h"
#include "kvm/kernel/kvm_sections.h"
#include "kvm/walk/kvm_slab_pages.h"

#define PAGES_AT_ONCE	256		/* struct pages read at once */
#define PAGE_STRUCT_MAX	256		/* bytes: a struct page is 64 */

int
_memstat_slab_pages_layout(struct memstat_kvm *kvm, struct slab_pages *sp)
{
	uint64_t vmemmap, direct;
	int64_t v;

	*sp = (struct slab_pages){ 0 };
	if (kvm->arch.section_bits <= _memstat_kvm_page_shift(kvm))
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM_NOSYMBOL,
		    "no SECTION_SIZE_BITS in the dump's VMCOREINFO to find "
		    "its slabs by"));
	sp->per_section = kvm->arch.section_bits - _memstat_kvm_page_shift(kvm);
	if (sp->per_section > 30)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "memory sections of 2^%u pages", sp->per_section));
	/* A struct slab since 5.17; before, struct page's own members. */
	if (_memstat_kvm_member(kvm, "slab", "slab_cache",
	    &sp->slab_cache) != 0 && _memstat_kvm_member(kvm, "page",
	    "slab_cache", &sp->slab_cache) != 0)
		return (-1);
	if (_memstat_kvm_struct_size(kvm, "page", &sp->page_size) != 0 ||
	    _memstat_kvm_member(kvm, "page", "flags", &sp->flags) != 0)
		return (-1);
	if (_memstat_kvm_enum_value(kvm, "PG_slab", &v) == 0 && v >= 0 &&
	    v < 64)
		sp->slab_bit = 1ULL << v;
	else if (_memstat_kvm_enum_value(kvm, "PGTY_slab", &v) == 0 &&
	    v > 0 && v < 256 && _memstat_kvm_member(kvm, "page", "page_type",
	    &sp->page_type) == 0 && sp->page_type.size == 4)
		sp->slab_type = (uint32_t)v;
	else
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "neither a PG_slab page flag nor a PGTY_slab page type "
		    "in the kernel's BTF to tell its slabs by"));
	if (sp->page_size == 0 || sp->page_size > PAGE_STRUCT_MAX ||
	    sp->flags.offset + 8 > sp->page_size ||
	    sp->page_type.offset + 4 > sp->page_size ||
	    sp->slab_cache.offset + 8 > sp->page_size)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "a %" PRIu32 "-byte struct page", sp->page_size));
	/*
	 * Each section's own map gives its struct pages; the array's start
	 * is asked for the direct map's bounds, which x86-64 learns here.
	 */
	return (_memstat_kvm_memmap(kvm, sp->page_size, &vmemmap, &direct));
}

uint64_t
_memstat_slab_pages_member(const uint8_t *bytes, const struct kvm_member *m)
{
	uint64_t v = 0;

	memcpy(&v, bytes + m->offset, m->size < 8 ? m->size : 8);
	if (m->bit_size != 0)
		v = (v >> m->bit_shift) & ((1ULL << m->bit_size) - 1);
	return (v);
}

static bool
is_slab(const struct slab_pages *sp, const uint8_t *p)
{
	uint64_t flags = 0;
	uint32_t type = 0;

	if (sp->slab_bit != 0) {
		memcpy(&flags, p + sp->flags.offset, 8);
		return ((flags & sp->slab_bit) != 0);
	}
	memcpy(&type, p + sp->page_type.offset, 4);
	return ((type >> 24) == sp->slab_type);
}

struct each {
	struct memstat_kvm *kvm;
	const struct slab_pages *sp;
	uint64_t	*budget;
	int		(*fn)(void *, uint64_t, const uint8_t *, uint64_t);
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
	uint32_t size = e->sp->page_size;

	for (uint64_t j = 0; j < n; j++)
		valid[j] = _memstat_kvm_read(e->kvm, at + j * size,
		    pages + j * size, size) == 0;
}

static int
each_section(void *arg, uint64_t nr, uint64_t map)
{
	struct each *e = arg;
	const struct slab_pages *sp = e->sp;
	uint8_t pages[PAGES_AT_ONCE * PAGE_STRUCT_MAX], valid[PAGES_AT_ONCE];
	uint64_t first = nr << sp->per_section, count = 1ULL << sp->per_section;
	uint64_t cache, at;
	int rc;

	for (uint64_t i = 0; i < count; i += PAGES_AT_ONCE) {
		uint64_t n = count - i < PAGES_AT_ONCE ? count - i :
		    PAGES_AT_ONCE;

		if (e->budget != NULL) {
			if (*e->budget == 0)
				return (1);
			*e->budget -= n < *e->budget ? n : *e->budget;
		}
		at = map + (first + i) * sp->page_size;
		memset(valid, 1, n);
		if (_memstat_kvm_read(e->kvm, at, pages, n * sp->page_size) !=
		    0)
			piecewise(e, at, n, pages, valid);
		for (uint64_t j = 0; j < n; j++) {
			const uint8_t *p = pages + j * sp->page_size;

			if (!valid[j] || !is_slab(sp, p))
				continue;
			cache = 0;
			memcpy(&cache, p + sp->slab_cache.offset, 8);
			if (!_memstat_kvm_arch_in_direct_map(e->kvm, cache))
				continue;
			if ((rc = e->fn(e->arg, at + j * sp->page_size, p,
			    cache)) != 0)
				return (rc);
		}
	}
	return (0);
}

int
_memstat_slab_pages_each(struct memstat_kvm *kvm, const struct slab_pages *sp,
    uint64_t *budget, int (*fn)(void *arg, uint64_t page,
    const uint8_t *bytes, uint64_t cache), void *arg)
{
	struct each e = { kvm, sp, budget, fn, arg };

	return (_memstat_kvm_sections_each(kvm, each_section, &e));
}
