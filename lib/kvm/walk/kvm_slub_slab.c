/*
 * kvm_slub_slab.c: a slab's members, where its objects are, and a walk
 * of one of its freelists, for the count of the CPUs' free objects and
 * for the objects one by one; and the kernel's counts of CPUs and nodes
 * that size a cache's per-CPU and per-node arrays.
 *
 * A slab's objects start at its first page's address in the direct map:
 * the direct map's start + pfn << PAGE_SHIFT, the pfn being the slab's
 * index in the struct page array (kvm_arch.h says where both are).
 * Freelist pointers are stored as the kernel stores them: under
 * CONFIG_SLAB_FREELIST_HARDENED (kmem_cache.random exists), the pointer
 * XOR the cache's random XOR the byte-swapped address it is stored at
 * (mm/slub.c's freelist_ptr_encode()).  Each must be an object of the
 * slab, and the list no longer than the slab's objects: a list that
 * loops or leaves its slab is reported, not followed.
 */
#include <inttypes.h>
#include <string.h>

#include "kvm/arch/kvm_arch.h"
#include "kvm/kernel/kvm_memmap.h"
#include "kvm/walk/kvm_slub_find.h"
#include "kvm/walk/kvm_slub_slab.h"

#define MAX_NODES	1024		/* MAX_NUMNODES of the biggest configs */

int
_memstat_slub_member(struct memstat_kvm *kvm, uint64_t base,
    const struct kvm_member *m, uint64_t *v)
{
	unsigned char b[8];

	if (m->size > sizeof(b))
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "a %" PRIu32 "-byte counter", m->size));
	if (_memstat_kvm_read(kvm, base + m->offset, b, m->size) != 0)
		return (-1);
	*v = _memstat_kvm_member_word(kvm, b, m);
	return (0);
}

int
_memstat_slub_slab_layout(struct memstat_kvm *kvm, struct slub_slab_layout *sl)
{
	const char *slab;

	/*
	 * A slab is a struct slab since 5.17; before, its fields are members
	 * of struct page.  Whichever has slab_list is the one.
	 */
	if (_memstat_kvm_member(kvm, "slab", "slab_list", &sl->list) == 0)
		slab = "slab";
	else if (_memstat_kvm_member(kvm, "page", "slab_list",
	    &sl->list) == 0)
		slab = "page";
	else
		return (-1);
	if (_memstat_kvm_member(kvm, slab, "inuse", &sl->inuse) != 0 ||
	    _memstat_kvm_member(kvm, slab, "objects", &sl->objects) != 0 ||
	    _memstat_kvm_member(kvm, slab, "freelist", &sl->freelist) != 0)
		return (-1);
	sl->has_next = _memstat_kvm_member(kvm, slab, "next", &sl->next) == 0;
	return (0);
}

int
_memstat_slub_memmap(struct memstat_kvm *kvm, struct slub_memmap *mm)
{
	if (_memstat_kvm_struct_size(kvm, "page", &mm->page_size_struct) != 0)
		return (-1);
	mm->page_shift = _memstat_kvm_page_shift(kvm);
	return (_memstat_kvm_memmap(kvm, mm->page_size_struct, &mm->vmemmap,
	    &mm->page_offset));
}

int
_memstat_slub_geometry(struct memstat_kvm *kvm,
    const struct slub_geometry_layout *gl, uint64_t cache,
    struct slub_geometry *g)
{
	*g = (struct slub_geometry){ 0 };
	if (_memstat_slub_member(kvm, cache, &gl->size, &g->size) != 0 ||
	    _memstat_slub_member(kvm, cache, &gl->offset, &g->offset) != 0 ||
	    _memstat_slub_member(kvm, cache, &gl->red_left_pad,
	    &g->red_left_pad) != 0 ||
	    (gl->hardened && _memstat_slub_member(kvm, cache, &gl->random,
	    &g->random) != 0))
		return (-1);
	g->hardened = gl->hardened;
	/*
	 * No slab holds an object of 4 GiB (its order is 10 at most): with
	 * that bound no sum of an object's offsets and sizes overflows.
	 */
	if (g->size == 0 || g->size > SLUB_OBJECT_MAX ||
	    g->offset + 8 > g->size || g->red_left_pad >= g->size)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "objects of %" PRIu64 " bytes, their free pointer at %"
		    PRIu64, g->size, g->offset));
	return (0);
}

int
_memstat_slub_geometry_layout(struct memstat_kvm *kvm,
    struct slub_geometry_layout *gl)
{
	if (_memstat_kvm_member(kvm, "kmem_cache", "offset", &gl->offset) != 0 ||
	    _memstat_kvm_member(kvm, "kmem_cache", "size", &gl->size) != 0 ||
	    _memstat_kvm_member(kvm, "kmem_cache", "red_left_pad",
	    &gl->red_left_pad) != 0)
		return (-1);
	gl->hardened = _memstat_kvm_member(kvm, "kmem_cache", "random",
	    &gl->random) == 0;
	return (0);
}

int
_memstat_slub_slab_base(struct memstat_kvm *kvm, const struct slub_memmap *mm,
    uint64_t slab, uint64_t *base)
{
	if (slab < mm->vmemmap || (slab - mm->vmemmap) %
	    mm->page_size_struct != 0)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "slab 0x%" PRIx64 " is not in the struct page array",
		    slab));
	*base = mm->page_offset + ((slab - mm->vmemmap) /
	    mm->page_size_struct << mm->page_shift);
	return (0);
}

int
_memstat_slub_freelist(struct memstat_kvm *kvm, const struct slub_memmap *mm,
    const struct slub_geometry *g, uint64_t slab, uint64_t objects,
    uint64_t head, const uint8_t *bytes, uint8_t *free, uint64_t *np)
{
	uint64_t base = 0, end, p = head, stored, n = 0, i;

	if (_memstat_slub_slab_base(kvm, mm, slab, &base) != 0)
		return (-1);
	end = base + objects * g->size;
	while (p != 0) {
		if (p < base || p >= end ||
		    (p - base) % g->size != g->red_left_pad)
			return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
			    "freelist pointer 0x%" PRIx64 " is not an object "
			    "of slab 0x%" PRIx64, p, slab));
		i = (p - base) / g->size;
		if (n++ == objects || (free != NULL && (free[i / 8] &
		    (1u << (i % 8))) != 0))
			return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
			    "the freelist of slab 0x%" PRIx64 " loops", slab));
		if (free != NULL)
			free[i / 8] |= (uint8_t)(1u << (i % 8));
		if (bytes != NULL && p - base + g->offset + 8 <= end - base)
			stored = _memstat_kvm_u64(kvm, bytes + (p - base) +
			    g->offset);
		else if (_memstat_kvm_read_u64(kvm, p + g->offset, &stored) !=
		    0)
			return (-1);
		p = g->hardened ? stored ^ g->random ^
		    __builtin_bswap64(p + g->offset) : stored;
	}
	*np = n;
	return (0);
}

int
_memstat_slub_nr_nodes(struct memstat_kvm *kvm, const struct kvm_array *node,
    uint64_t *n)
{
	uint64_t addr;
	uint32_t nodes32;

	/*
	 * Without NUMA the kernel has no nr_node_ids (one node), nor where
	 * kallsyms name the code only: past the highest online node then.
	 */
	if (_memstat_kvm_symbol(kvm, "nr_node_ids", &addr) == 0) {
		if (_memstat_kvm_read_u32(kvm, addr, &nodes32) != 0)
			return (-1);
		*n = nodes32;
	} else if (_memstat_slub_online_nodes(kvm, n) != 0)
		return (-1);
	if (*n == 0 || *n > MAX_NODES || *n > node->count)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "nr_node_ids is %" PRIu64, *n));
	return (0);
}

