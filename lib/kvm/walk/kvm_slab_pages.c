/*
 * kvm_slab_pages.c: every slab's first page, from each memory section's
 * struct pages (kvm_slab_pages.h).  A slab's first page says it is one
 * by PG_slab in its flags (to 6.9) or by the slab page type, PGTY_slab
 * in the top byte of page_type (6.10 on), whichever BTF's enums name;
 * its slab_cache (struct slab's since 5.17, struct page's before) says
 * whose it is.
 */
#include <inttypes.h>
#include <string.h>

#include "kvm/arch/kvm_arch.h"
#include "kvm/kernel/kvm_memmap.h"
#include "kvm/walk/kvm_slab_pages.h"

int
_memstat_slab_pages_layout(struct memstat_kvm *kvm, struct slab_pages *sp)
{
	uint32_t size;
	int64_t v;

	*sp = (struct slab_pages){ 0 };
	if (_memstat_kvm_pages_layout(kvm, &sp->pages, "its slabs") != 0)
		return (-1);
	size = sp->pages.page_size;
	/* A struct slab since 5.17; before, struct page's own members. */
	if (_memstat_kvm_member(kvm, "slab", "slab_cache",
	    &sp->slab_cache) != 0 && _memstat_kvm_member(kvm, "page",
	    "slab_cache", &sp->slab_cache) != 0)
		return (-1);
	if (_memstat_kvm_member(kvm, "page", "flags", &sp->flags) != 0)
		return (-1);
	/* A tail page's pointer to its head, bit 0 set (a union member). */
	if (_memstat_kvm_member(kvm, "page", "compound_head",
	    &sp->compound_head) != 0 || sp->compound_head.size != 8 ||
	    sp->compound_head.offset + 8 > size)
		sp->compound_head = (struct kvm_member){ 0 };
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
	if (sp->flags.offset + 8 > size || sp->page_type.offset + 4 > size ||
	    sp->slab_cache.offset + 8 > size)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "a %" PRIu32 "-byte struct page", size));
	return (0);
}

static bool
is_slab(const struct memstat_kvm *kvm, const struct slab_pages *sp,
    const uint8_t *p)
{
	if (sp->slab_bit != 0)
		return ((_memstat_kvm_member_of(kvm, p, &sp->flags) &
		    sp->slab_bit) != 0);
	return ((_memstat_kvm_member_of(kvm, p, &sp->page_type) >> 24) ==
	    sp->slab_type);
}

struct each {
	struct memstat_kvm *kvm;
	const struct slab_pages *sp;
	int		(*fn)(void *, uint64_t, const uint8_t *, uint64_t);
	void		*arg;
};

/* A page of the array: on to fn if it is a slab's first. */
static int
each_page(void *arg, uint64_t page, const uint8_t *bytes)
{
	struct each *e = arg;
	uint64_t cache;

	if (!is_slab(e->kvm, e->sp, bytes))
		return (0);
	cache = _memstat_kvm_member_of(e->kvm, bytes, &e->sp->slab_cache);
	if (!_memstat_kvm_arch_in_direct_map(e->kvm, cache))
		return (0);
	return (e->fn(e->arg, page, bytes, cache));
}

int
_memstat_slab_pages_each(struct memstat_kvm *kvm, const struct slab_pages *sp,
    uint64_t *budget, int (*fn)(void *arg, uint64_t page,
    const uint8_t *bytes, uint64_t cache), void *arg)
{
	struct each e = { kvm, sp, fn, arg };

	return (_memstat_kvm_pages_each(kvm, &sp->pages, budget, each_page,
	    &e));
}

int
_memstat_slab_pages_holds(struct memstat_kvm *kvm, const struct slab_pages *sp,
    uint64_t addr)
{
	uint8_t bytes[256];
	uint64_t paddr, page, head;
	uint32_t size = sp->pages.page_size;

	if (!_memstat_kvm_arch_in_direct_map(kvm, addr) ||
	    !_memstat_kvm_arch_linear(kvm, addr, &paddr))
		return (0);
	if (size > sizeof(bytes))
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "a %" PRIu32 "-byte struct page", size));
	page = sp->pages.vmemmap + (paddr >> _memstat_kvm_page_shift(kvm)) *
	    size;
	if (_memstat_kvm_read(kvm, page, bytes, size) != 0)
		return (-1);
	if (sp->compound_head.size != 0 && ((head = _memstat_kvm_member_of(kvm,
	    bytes, &sp->compound_head)) & 1) != 0 &&
	    _memstat_kvm_read(kvm, head - 1, bytes, size) != 0)
		return (-1);
	return (is_slab(kvm, sp, bytes) ? 1 : 0);
}
