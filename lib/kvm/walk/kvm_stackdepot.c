/*
 * kvm_stackdepot.c: a stack from the image's stack depot (lib/stackdepot.c,
 * where SLUB keeps its tracks' stacks since 5.17).
 *
 * A handle is a union handle_parts: a pool's index (slabindex before 6.3,
 * pool_index_plus_1 since 6.8, 0 then being no pool), the record's offset
 * in the pool in units of 1 << DEPOT_STACK_ALIGN (4) bytes, and bits the
 * depot leaves to its users; BTF gives the fields' widths.  The pools are
 * an array of pointers (stack_slabs, stack_pools) or, in later kernels, a
 * pointer to one: the image says which, for each record keeps its own
 * handle, and only the right reading finds it there.
 */
#include <inttypes.h>
#include <string.h>

#include "kvm/walk/kvm_stackdepot.h"

#define DEPOT_STACK_ALIGN	4
#define MAX_FRAMES_DEPOT	256	/* CONFIG_STACKDEPOT_MAX_FRAMES: 64 */

int
_memstat_depot_load(struct memstat_kvm *kvm, struct depot_layout *d)
{
	*d = (struct depot_layout){ 0 };
	if (_memstat_kvm_member(kvm, "handle_parts", "offset",
	    &d->offset) != 0 ||
	    _memstat_kvm_member(kvm, "handle_parts", "extra", &d->extra) != 0 ||
	    _memstat_kvm_member(kvm, "stack_record", "handle",
	    &d->rec_handle) != 0 ||
	    _memstat_kvm_member(kvm, "stack_record", "size", &d->rec_size) != 0 ||
	    _memstat_kvm_member(kvm, "stack_record", "entries",
	    &d->rec_entries) != 0)
		return (-1);
	if (_memstat_kvm_member(kvm, "handle_parts", "pool_index_plus_1",
	    &d->pool) == 0)
		d->plus_one = true;
	else if (_memstat_kvm_member(kvm, "handle_parts", "pool_index",
	    &d->pool) != 0 && _memstat_kvm_member(kvm, "handle_parts",
	    "slabindex", &d->pool) != 0)
		return (-1);
	if (_memstat_kvm_symbol(kvm, "stack_pools", &d->pools) != 0 &&
	    _memstat_kvm_symbol(kvm, "stack_slabs", &d->pools) != 0)
		return (-1);
	if (d->offset.bit_size == 0 || d->pool.bit_size == 0 ||
	    d->rec_handle.size != 4 || d->rec_size.size > 8)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "the stack depot's handle is not made of bitfields"));
	d->ok = true;
	return (0);
}

static uint32_t
field(uint32_t handle, const struct kvm_member *m)
{
	return ((handle >> m->bit_shift) & (uint32_t)((1ULL << m->bit_size) -
	    1));
}

/* The record of handle in the pools read as pointer (or array): 0. */
static int
record_at(struct memstat_kvm *kvm, const struct depot_layout *d,
    uint32_t handle, bool pointer, uint64_t *rec)
{
	uint64_t pools = d->pools, pool, index = field(handle, &d->pool);
	uint32_t stored, mask = (uint32_t)(((1ULL << d->extra.bit_size) - 1) <<
	    d->extra.bit_shift);

	if (d->plus_one) {
		if (index == 0)
			return (-1);
		index--;
	}
	if (pointer && _memstat_kvm_read_u64(kvm, d->pools, &pools) != 0)
		return (-1);
	if (pools == 0 || _memstat_kvm_read_u64(kvm, pools + index * 8,
	    &pool) != 0 || pool == 0)
		return (-1);
	*rec = pool + ((uint64_t)field(handle, &d->offset) <<
	    DEPOT_STACK_ALIGN);
	if (_memstat_kvm_read_u32(kvm, *rec + d->rec_handle.offset,
	    &stored) != 0)
		return (-1);
	return ((stored & ~mask) == (handle & ~mask) ? 0 : -1);
}

int
_memstat_depot_stack(struct memstat_kvm *kvm, struct depot_layout *d,
    uint32_t handle, uint64_t *frames, uint32_t max, uint32_t *n)
{
	uint64_t rec, size;

	/* The first record found says how the pools are kept. */
	if (!d->known) {
		if (record_at(kvm, d, handle, false, &rec) == 0)
			d->pointer = false;
		else if (record_at(kvm, d, handle, true, &rec) == 0)
			d->pointer = true;
		else
			goto bad;
		d->known = true;
	} else if (record_at(kvm, d, handle, d->pointer, &rec) != 0)
		goto bad;
	if (_memstat_slub_member(kvm, rec, &d->rec_size, &size) != 0)
		return (-1);
	/* entries[] is flexible (size 0) before 6.8, entries[64] since. */
	if (size > MAX_FRAMES_DEPOT || size > max ||
	    (d->rec_entries.size != 0 && size * 8 > d->rec_entries.size))
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "stack depot record 0x%" PRIx64 " of %" PRIu64 " frames",
		    rec, size));
	if (_memstat_kvm_read(kvm, rec + d->rec_entries.offset, frames,
	    size * 8) != 0)
		return (-1);
	for (uint64_t i = 0; i < size; i++)
		frames[i] = _memstat_kvm_u64(kvm, &frames[i]);
	*n = (uint32_t)size;
	return (0);
bad:
	return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
	    "stack depot handle 0x%08" PRIx32 " names no record", handle));
}
