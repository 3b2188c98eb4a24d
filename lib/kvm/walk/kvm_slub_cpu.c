/*
 * kvm_slub_cpu.c: the free objects SLUB's CPUs hold, which /proc/slabinfo
 * counts as active.  Taken away from active_objs they leave the objects
 * really allocated, crash's ALLOCATED (memory.c's
 * get_kmem_cache_slub_data()):
 *
 *   before 7.0, per CPU (kmem_cache.cpu_slab + __per_cpu_offset[cpu]):
 *     its slab's objects - inuse (frees by other CPUs, on slab->freelist),
 *     the length of its lockless freelist (kmem_cache_cpu.freelist),
 *     objects - inuse of each slab on its partial chain (slab->next);
 *   since 7.0, per CPU (kmem_cache.cpu_sheaves): the objects of its main,
 *     spare and rcu_free sheaves, and per node the full sheaves of the
 *     cache's barn (the rcu_free sheaf's objects are freed, waiting for
 *     a grace period: not allocated either).
 *
 * The lockless freelist is walked as kvm_slub_slab.c walks any: a
 * list that loops or leaves its slab is reported, not followed.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kvm/kernel/kvm_percpu.h"
#include "kvm/walk/kvm_slub_cpu.h"

#define MAX_SHEAF	65536		/* objects in one sheaf */

void
_memstat_slub_cpu_layout_free(struct slub_cpu_layout *cl)
{
	free(cl->cpu_offset);
	cl->cpu_offset = NULL;
}

/* The per-CPU slabs' members, and where slabs' memory is. */
static int
cpu_slab_layout(struct memstat_kvm *kvm, const struct slub_slab_layout *sl,
    struct slub_cpu_layout *cl)
{
	if (_memstat_kvm_member(kvm, "kmem_cache_cpu", "freelist",
	    &cl->cpu_freelist) != 0 ||
	    _memstat_kvm_member(kvm, "kmem_cache_cpu", "partial",
	    &cl->cpu_partial) != 0 ||
	    _memstat_slub_geometry_layout(kvm, &cl->geometry) != 0)
		return (-1);
	/* struct slab *slab since 5.17; struct page *page before. */
	if (_memstat_kvm_member(kvm, "kmem_cache_cpu", "slab",
	    &cl->cpu_slab) != 0 && _memstat_kvm_member(kvm,
	    "kmem_cache_cpu", "page", &cl->cpu_slab) != 0)
		return (-1);
	if (!sl->has_next)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "per-CPU partial slabs with no slab.next"));
	return (_memstat_slub_memmap(kvm, &cl->memmap));
}

static int
sheaf_layout(struct memstat_kvm *kvm, struct slub_cpu_layout *cl)
{
	if (_memstat_kvm_member(kvm, "slub_percpu_sheaves", "main",
	    &cl->pcs_main) != 0 ||
	    _memstat_kvm_member(kvm, "slub_percpu_sheaves", "spare",
	    &cl->pcs_spare) != 0 ||
	    _memstat_kvm_member(kvm, "slab_sheaf", "size",
	    &cl->sheaf_size) != 0 ||
	    _memstat_kvm_member(kvm, "slab_sheaf", "barn_list",
	    &cl->sheaf_barn_list) != 0 ||
	    _memstat_kvm_member(kvm, "node_barn", "sheaves_full",
	    &cl->barn_full) != 0 ||
	    _memstat_kvm_member(kvm, "node_barn", "nr_full",
	    &cl->barn_nr_full) != 0 ||
	    _memstat_kvm_pointer_array(kvm, "kmem_cache", "node_barn",
	    &cl->cache_barn) != 0)
		return (-1);
	/* rcu_free: kfree_rcu()'s sheaf, where the kernel has one. */
	if (_memstat_kvm_member(kvm, "slub_percpu_sheaves", "rcu_free",
	    &cl->pcs_rcu_free) != 0)
		cl->pcs_rcu_free.size = 0;
	return (0);
}

int
_memstat_slub_cpu_layout(struct memstat_kvm *kvm,
    const struct slub_slab_layout *sl, struct slub_cpu_layout *cl)
{
	int rc;

	*cl = (struct slub_cpu_layout){ 0 };
	if (_memstat_kvm_member(kvm, "kmem_cache", "cpu_slab",
	    &cl->cache_cpu_slab) == 0)
		rc = cpu_slab_layout(kvm, sl, cl);
	else if (_memstat_kvm_member(kvm, "kmem_cache", "cpu_sheaves",
	    &cl->cache_cpu_sheaves) == 0) {
		cl->sheaves = true;
		rc = sheaf_layout(kvm, cl);
	} else
		rc = _memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR, "the "
		    "caches have neither per-CPU slabs nor per-CPU sheaves");
	if (rc == 0)
		rc = _memstat_kvm_cpu_offsets(kvm, &cl->cpu_offset,
		    &cl->ncpus);
	if (rc != 0) {
		/* Every count unknown then: each row says why. */
		if (cl->why[0] == '\0')
			snprintf(cl->why, sizeof(cl->why), "%s", kvm->err.msg);
		_memstat_slub_cpu_layout_free(cl);
		return (-1);
	}
	cl->ok = true;
	return (0);
}

/* objects - inuse of one slab, checked. */
static int
slab_free(struct memstat_kvm *kvm, const struct slub_slab_layout *sl,
    uint64_t slab, uint64_t *free, uint64_t *objects)
{
	uint64_t inuse;

	if (_memstat_slub_member(kvm, slab, &sl->inuse, &inuse) != 0 ||
	    _memstat_slub_member(kvm, slab, &sl->objects, objects) != 0)
		return (-1);
	if (inuse > *objects)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "slab 0x%" PRIx64 ": %" PRIu64 " of %" PRIu64 " objects in "
		    "use", slab, inuse, *objects));
	*free = *objects - inuse;
	return (0);
}

/* One CPU's slab, lockless freelist and partial chain. */
static int
cpu_slab_free(struct memstat_kvm *kvm, const struct slub_slab_layout *sl,
    const struct slub_cpu_layout *cl, const struct slub_geometry *g,
    uint64_t c, uint64_t max_slabs, uint64_t *freep)
{
	uint64_t slab, head, free, objects, n = 0, steps = 0;
	struct kvm_loop loop = KVM_LOOP_INIT;

	if (_memstat_slub_member(kvm, c, &cl->cpu_slab, &slab) != 0 ||
	    _memstat_slub_member(kvm, c, &cl->cpu_freelist, &head) != 0)
		return (-1);
	if (slab != 0) {
		if (slab_free(kvm, sl, slab, &free, &objects) != 0 ||
		    _memstat_slub_freelist(kvm, &cl->memmap, g, slab, objects,
		    head, NULL, NULL, &n) != 0)
			return (-1);
		*freep += free + n;
	}
	if (_memstat_slub_member(kvm, c, &cl->cpu_partial, &slab) != 0)
		return (-1);
	while (slab != 0) {
		if (steps++ == max_slabs || _memstat_kvm_loops(&loop, slab))
			return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
			    "a per-CPU partial chain longer than the cache's "
			    "%" PRIu64 " slabs (it loops)", max_slabs));
		if (slab_free(kvm, sl, slab, &free, &objects) != 0 ||
		    _memstat_slub_member(kvm, slab, &sl->next, &slab) != 0)
			return (-1);
		*freep += free;
	}
	return (0);
}

/* The objects of one sheaf (0 for none). */
static int
sheaf_objects(struct memstat_kvm *kvm, const struct slub_cpu_layout *cl,
    uint64_t sheaf, uint64_t *freep)
{
	uint64_t size;

	if (sheaf == 0)
		return (0);
	if (_memstat_slub_member(kvm, sheaf, &cl->sheaf_size, &size) != 0)
		return (-1);
	if (size > MAX_SHEAF)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "sheaf 0x%" PRIx64 " of %" PRIu64 " objects", sheaf, size));
	*freep += size;
	return (0);
}

/* One CPU's sheaves. */
static int
cpu_sheaves_free(struct memstat_kvm *kvm, const struct slub_cpu_layout *cl,
    uint64_t pcs, uint64_t *freep)
{
	const struct kvm_member *which[] = { &cl->pcs_main, &cl->pcs_spare,
	    &cl->pcs_rcu_free };
	uint64_t sheaf;

	for (size_t i = 0; i < sizeof(which) / sizeof(which[0]); i++) {
		if (which[i]->size == 0)
			continue;
		if (_memstat_slub_member(kvm, pcs, which[i], &sheaf) != 0 ||
		    sheaf_objects(kvm, cl, sheaf, freep) != 0)
			return (-1);
	}
	return (0);
}

/* The full sheaves of one node's barn. */
static int
barn_free(struct memstat_kvm *kvm, const struct slub_cpu_layout *cl,
    uint64_t barn, uint64_t *freep)
{
	uint64_t head = barn + cl->barn_full.offset, p, nr, steps = 0;
	struct kvm_loop loop = KVM_LOOP_INIT;

	if (_memstat_slub_member(kvm, barn, &cl->barn_nr_full, &nr) != 0 ||
	    _memstat_kvm_read_u64(kvm, head, &p) != 0)
		return (-1);
	while (p != head) {
		if (steps++ == nr || _memstat_kvm_loops(&loop, p))
			return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
			    "barn 0x%" PRIx64 ": more full sheaves than its "
			    "%" PRIu64 " (the list loops)", barn, nr));
		if (sheaf_objects(kvm, cl, p - cl->sheaf_barn_list.offset,
		    freep) != 0 || _memstat_kvm_read_u64(kvm, p, &p) != 0)
			return (-1);
	}
	return (0);
}

int
_memstat_slub_cpu_free(struct memstat_kvm *kvm,
    const struct slub_slab_layout *sl, const struct slub_cpu_layout *cl,
    uint64_t cache, uint32_t nr_nodes, uint64_t max_slabs, uint64_t *freep)
{
	struct slub_geometry g = { 0 };
	uint64_t percpu, barn;

	*freep = 0;
	if (_memstat_slub_member(kvm, cache, cl->sheaves ?
	    &cl->cache_cpu_sheaves : &cl->cache_cpu_slab, &percpu) != 0)
		return (-1);
	if (percpu == 0)
		return (0);
	if (!cl->sheaves && _memstat_slub_geometry(kvm, &cl->geometry, cache,
	    &g) != 0)
		return (-1);
	for (uint32_t cpu = 0; cpu < cl->ncpus; cpu++) {
		uint64_t at = percpu + cl->cpu_offset[cpu];

		if ((cl->sheaves ? cpu_sheaves_free(kvm, cl, at, freep) :
		    cpu_slab_free(kvm, sl, cl, &g, at, max_slabs, freep)) != 0)
			return (-1);
	}
	for (uint32_t i = 0; cl->sheaves && i < nr_nodes &&
	    i < cl->cache_barn.count; i++) {
		if (_memstat_kvm_read_u64(kvm, cache + cl->cache_barn.offset +
		    (uint64_t)i * cl->cache_barn.stride, &barn) != 0)
			return (-1);
		if (barn != 0 && barn_free(kvm, cl, barn, freep) != 0)
			return (-1);
	}
	return (0);
}
