/*
 * kvm_memcg_stock.c: the slab bytes charged to a memory cgroup that its
 * memory.stat does not count yet, because a CPU holds them back to save
 * the shared counters a write per object:
 *
 *   5.19 on, each CPU's object stock (memcg_stock, obj_stock since the
 *     stocks were split): the obj_cgroup it serves (cached_objcg; since
 *     it serves several, cached[index], none when index is negative) and
 *     the bytes of slab_reclaimable and slab_unreclaimable it has
 *     charged or uncharged since it last flushed them, at most a page
 *     each way (mod_objcg_state());
 *   before rstat (5.13), each memcg's per-CPU counts (vmstats_percpu
 *     ->stat[]), added to its own and its ancestors' vmstats[], which
 *     memory.stat reads, once past 32 pages (MEMCG_CHARGE_BATCH).
 *
 * Which a kernel has is read from its BTF; 5.14 to 5.18's two stocks
 * per CPU (task_obj, irq_obj) are neither, and said so.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kvm/kernel/kvm_percpu.h"
#include "kvm/walk/kvm_memcg_stock.h"

#define MAX_HELD	((int64_t)1 << 40)	/* bytes one CPU holds back */

void
_memstat_memcg_stock_layout_free(struct memcg_stock_layout *sl)
{
	free(sl->cpu_offset);
	sl->cpu_offset = NULL;
}

/* The per-CPU object stock's type and variable, where the kernel has one. */
static int
objcg_stock_layout(struct memstat_kvm *kvm, struct memcg_stock_layout *sl)
{
	static const struct {
		const char *type, *var;
	} stocks[] = {
		{ "obj_stock_pcp", "obj_stock" },
		{ "memcg_stock_pcp", "memcg_stock" },
	};

	for (size_t i = 0; i < sizeof(stocks) / sizeof(stocks[0]); i++) {
		if (_memstat_kvm_member(kvm, stocks[i].type,
		    "nr_slab_reclaimable_b", &sl->reclaimable) != 0)
			continue;
		if (_memstat_kvm_member(kvm, stocks[i].type,
		    "nr_slab_unreclaimable_b", &sl->unreclaimable) != 0)
			return (-1);
		if (_memstat_kvm_member(kvm, stocks[i].type, "cached_objcg",
		    &sl->objcg) != 0) {
			if (_memstat_kvm_member(kvm, stocks[i].type, "cached",
			    &sl->objcg) != 0 || _memstat_kvm_member(kvm,
			    stocks[i].type, "index", &sl->index) != 0)
				return (-1);
			sl->indexed = true;
		}
		if (_memstat_kvm_symbol(kvm, stocks[i].var, &sl->stock) != 0) {
			(void)_memstat_kvm_code_only(kvm, stocks[i].var);
			return (-1);
		}
		sl->per_objcg = true;
		return (0);
	}
	return (1);
}

/* 5.10's per-CPU counts of each memcg, by the stat items' enum values. */
static int
memcg_batch_layout(struct memstat_kvm *kvm, struct memcg_stock_layout *sl)
{
	struct kvm_member stat;
	int64_t r, u;

	if (_memstat_kvm_member(kvm, "memcg_vmstats_percpu", "stat",
	    &stat) != 0 || _memstat_kvm_member(kvm, "mem_cgroup",
	    "vmstats_percpu", &sl->memcg_percpu) != 0)
		return (1);
	if (_memstat_kvm_enum_value(kvm, "NR_SLAB_RECLAIMABLE_B", &r) != 0 ||
	    _memstat_kvm_enum_value(kvm, "NR_SLAB_UNRECLAIMABLE_B", &u) != 0)
		return (-1);
	if (r < 0 || u < 0 || (uint64_t)r >= stat.size / 8 ||
	    (uint64_t)u >= stat.size / 8)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "slab items %" PRId64 " and %" PRId64 " of %" PRIu32
		    " per-CPU counts", r, u, stat.size / 8));
	/* stat.size is at most 2^32 - 1: each offset fits. */
	sl->reclaimable = (struct kvm_member){
	    .offset = stat.offset + (uint32_t)r * 8, .size = 8 };
	sl->unreclaimable = (struct kvm_member){
	    .offset = stat.offset + (uint32_t)u * 8, .size = 8 };
	return (0);
}

int
_memstat_memcg_stock_layout(struct memstat_kvm *kvm,
    struct memcg_stock_layout *sl)
{
	int rc;

	*sl = (struct memcg_stock_layout){ 0 };
	if ((rc = objcg_stock_layout(kvm, sl)) > 0 &&
	    (rc = memcg_batch_layout(kvm, sl)) > 0)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR, "the "
		    "kernel keeps neither one object stock per CPU nor "
		    "per-CPU counts of each memory cgroup (5.14 to 5.18's "
		    "two stocks per CPU are not read)"));
	if (rc == 0 && _memstat_kvm_cpu_offsets(kvm, &sl->cpu_offset,
	    &sl->ncpus) != 0)
		rc = -1;
	if (rc != 0)
		_memstat_memcg_stock_layout_free(sl);
	return (rc);
}

/* A signed count of 1, 2, 4 or 8 bytes at base + m's offset. */
static int
read_signed(struct memstat_kvm *kvm, uint64_t base,
    const struct kvm_member *m, int64_t *v)
{
	unsigned char b[8];
	uint64_t u;
	unsigned pad;

	if (m->bit_size != 0 || (m->size != 1 && m->size != 2 &&
	    m->size != 4 && m->size != 8))
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "a %" PRIu32 "-byte stock count", m->size));
	if (_memstat_kvm_read(kvm, base + m->offset, b, m->size) != 0)
		return (-1);
	/* Its sign carried into the bits above its own. */
	pad = 64 - 8 * m->size;
	u = _memstat_kvm_uint(kvm, b, m->size) << pad;
	*v = (int64_t)u >> pad;
	/* A page each way in a stock, 32 pages in a batch: far below. */
	if (*v > MAX_HELD || *v < -MAX_HELD)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "a CPU holds back %" PRId64 " bytes of slab at 0x%" PRIx64,
		    *v, base));
	return (0);
}

/* The obj_cgroup a stock's slab counts are of: 0, or -1. */
static int
stock_objcg(struct memstat_kvm *kvm, const struct memcg_stock_layout *sl,
    uint64_t at, uint64_t *objcg)
{
	int64_t i = 0;

	*objcg = 0;
	if (sl->indexed && read_signed(kvm, at, &sl->index, &i) != 0)
		return (-1);
	if (i < 0)
		return (0);
	if ((uint64_t)i >= sl->objcg.size / 8)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "a CPU's object stock names obj_cgroup %" PRId64 " of %"
		    PRIu32, i, sl->objcg.size / 8));
	return (_memstat_kvm_read_u64(kvm, at + sl->objcg.offset +
	    (uint64_t)i * 8, objcg));
}

int
_memstat_memcg_stock_objcgs(struct memstat_kvm *kvm,
    const struct memcg_stock_layout *sl,
    int (*fn)(void *arg, uint64_t objcg, int64_t bytes), void *arg)
{
	uint64_t at, objcg;
	int64_t r, u;
	int rc;

	for (uint32_t cpu = 0; cpu < sl->ncpus; cpu++) {
		at = sl->stock + sl->cpu_offset[cpu];
		if (stock_objcg(kvm, sl, at, &objcg) != 0 ||
		    read_signed(kvm, at, &sl->reclaimable,
		    &r) != 0 || read_signed(kvm, at, &sl->unreclaimable,
		    &u) != 0)
			return (-1);
		if (objcg != 0 && r + u != 0 && (rc = fn(arg, objcg,
		    r + u)) != 0)
			return (rc);
	}
	return (0);
}

int
_memstat_memcg_stock_memcg(struct memstat_kvm *kvm,
    const struct memcg_stock_layout *sl, uint64_t memcg, int64_t *bytes)
{
	uint64_t percpu, at;
	int64_t r, u;

	*bytes = 0;
	if (_memstat_kvm_read_u64(kvm, memcg + sl->memcg_percpu.offset,
	    &percpu) != 0)
		return (-1);
	for (uint32_t cpu = 0; cpu < sl->ncpus; cpu++) {
		at = percpu + sl->cpu_offset[cpu];
		if (read_signed(kvm, at, &sl->reclaimable, &r) != 0 ||
		    read_signed(kvm, at, &sl->unreclaimable, &u) != 0)
			return (-1);
		*bytes += r + u;
	}
	return (0);
}
