/*
 * kvm_slub.c: /proc/slabinfo, reproduced from a core image as the
 * kernel's get_slabinfo() (mm/slub.c) computes it: walk slab_caches; per
 * cache and node up to nr_node_ids, add the node's nr_slabs and
 * total_objects, and the free objects (objects - inuse) of each slab on
 * its partial list (count_partial()).  Per-CPU slabs count as in use,
 * as the kernel's own /proc/slabinfo counts them, so no per-CPU or
 * hardened freelist is read.  Every list walk is bounded.
 *
 * On the running kernel (/proc/kcore) the caches move while they are
 * walked: a cache whose walk fails or whose counts moved meanwhile is
 * walked again, and slab_caches is walked again from its head when it
 * changed under the walk, each a few times at most (KVM_LIVE_TRIES), then
 * the error names what would not hold still.  Each cache's row is
 * consistent; the rows together are not one instant, as /proc/slabinfo's
 * are not either.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kvm/arch/kvm_arch.h"
#include "kvm/walk/kvm_slab_kernfs.h"
#include "kvm/walk/kvm_slub_cpu.h"
#include "kvm/walk/kvm_slub_find.h"
#include "kvm/walk/kvm_slub_name.h"
#include "linux/linux_tree.h"

#define MAX_CACHES	100000
#define NAME_MAX_LEN	256

struct layout {
	struct kvm_array cache_node;
	struct kvm_member cache_list, cache_name, cache_size, cache_oo,
	    node_nr_partial, node_partial, node_nr_slabs,
	    node_total_objects, list_next, list_prev;
	struct slub_slab_layout slab;
	struct slub_cpu_layout cpu;
};

static int
layout_load(struct memstat_kvm *kvm, struct layout *l)
{
	struct slub_memmap memmap;
	static const struct kvm_member_want want[] = {
#define W(t, m, f) KVM_WANT(struct layout, t, m, f)
		W("kmem_cache", "list", cache_list),
		W("kmem_cache", "name", cache_name),
		W("kmem_cache", "size", cache_size),
		W("kmem_cache_node", "nr_partial", node_nr_partial),
		W("kmem_cache_node", "partial", node_partial),
		W("kmem_cache_node", "nr_slabs", node_nr_slabs),
		W("list_head", "next", list_next),
		W("list_head", "prev", list_prev),
#undef W
	};

	/*
	 * Outside what memstat reads: SLAB's and SLOB's caches (gone in
	 * 6.8), and a SLUB kernel without CONFIG_SLUB_DEBUG, which counts no
	 * slabs or objects per node.
	 */
	if (_memstat_kvm_member(kvm, "kmem_cache", "oo", &l->cache_oo) != 0)
		return (kvm->btf == NULL ? -1 :
		    _memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR, "the "
		    "kernel's caches are not SLUB's (no kmem_cache.oo): "
		    "memstat reads SLUB kernels, every kernel since 6.8"));
	if (_memstat_kvm_member(kvm, "kmem_cache_node", "total_objects",
	    &l->node_total_objects) != 0)
		return (kvm->btf == NULL ? -1 :
		    _memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR, "a SLUB "
		    "kernel built without CONFIG_SLUB_DEBUG (no "
		    "kmem_cache_node.total_objects) counts no objects per "
		    "node: memstat reads kernels built with it, as "
		    "distributions build them"));
	if (_memstat_kvm_members(kvm, want, sizeof(want) / sizeof(want[0]),
	    l) != 0)
		return (-1);
	if (_memstat_slub_slab_layout(kvm, &l->slab) != 0)
		return (-1);
	if (_memstat_kvm_pointer_array(kvm, "kmem_cache", "kmem_cache_node",
	    &l->cache_node) != 0)
		return (-1);
	/*
	 * Without what counting the CPUs' free objects needs, the allocated
	 * counts are unknown; slabinfo's numbers are still read.  Not asked
	 * for, they are not looked for.
	 */
	l->cpu = (struct slub_cpu_layout){ .ok = false };
	if (kvm->flags & MEMSTAT_KVM_ALLOCATED)
		(void)_memstat_slub_cpu_layout(kvm, &l->slab, &l->cpu);
	/*
	 * Where the direct map is, learned before the walk whatever is
	 * asked: the caches, their nodes and names are read through it by
	 * subtraction, not by libkdumpfile's walk of the page tables (nor,
	 * of a page a filtered dump left out, in its words).
	 */
	(void)_memstat_slub_memmap(kvm, &memmap);
	return (0);
}

/* The free objects on one node's partial list. */
static int
partial_free(struct memstat_kvm *kvm, const struct layout *l, uint64_t node,
    uint64_t nr_slabs, uint64_t *freep)
{
	uint64_t head = node + l->node_partial.offset, p, slab, inuse, objects;
	uint64_t steps = 0, free = 0;
	struct kvm_loop loop = KVM_LOOP_INIT;

	if (_memstat_slub_member(kvm, head, &l->list_next, &p) != 0)
		return (-1);
	while (p != head) {
		/* A partial list holds no more slabs than the node has. */
		if (steps++ > nr_slabs || _memstat_kvm_loops(&loop, p))
			return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
			    "partial list of node 0x%" PRIx64 " longer than "
			    "its %" PRIu64 " slabs (a cycle, or the dump was "
			    "taken mid-update)", node, nr_slabs));
		slab = p - l->slab.list.offset;
		if (_memstat_slub_member(kvm, slab, &l->slab.inuse,
		    &inuse) != 0 || _memstat_slub_member(kvm, slab,
		    &l->slab.objects, &objects) != 0)
			return (-1);
		if (inuse > objects)
			return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
			    "slab 0x%" PRIx64 ": %" PRIu64 " of %" PRIu64
			    " objects in use", slab, inuse, objects));
		free += objects - inuse;
		if (_memstat_slub_member(kvm, p, &l->list_next, &p) != 0)
			return (-1);
	}
	*freep = free;
	return (0);
}

/* part: what of the row a filtered dump does not hold, or empty. */
static int
cache_row(struct memstat_kvm *kvm, const struct layout *l, uint64_t cache,
    uint32_t nr_nodes, struct slab_row *r, struct mt_node *nodes, char *name,
    char *part)
{
	uint64_t oo, node, slabs, total, partial, free = 0;
	uint32_t order, i;

	*r = (struct slab_row){ 0 };
	memset(nodes, 0, nr_nodes * sizeof(*nodes));
	if (_memstat_slub_cache_name(kvm, &l->cache_name, cache, name,
	    NAME_MAX_LEN, part, MEMSTAT_ERRLEN) != 0 ||
	    _memstat_slub_member(kvm, cache, &l->cache_size,
	    &r->objsize) != 0 ||
	    _memstat_slub_member(kvm, cache, &l->cache_oo, &oo) != 0)
		return (-1);
	r->objperslab = oo & 0xffff;
	order = (uint32_t)(oo >> 16);
	if (order > 30)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "cache %s: slab order %" PRIu32, name, order));
	r->pagesperslab = 1ULL << order;
	for (i = 0; i < nr_nodes; i++) {
		if (_memstat_kvm_read_u64(kvm, cache + l->cache_node.offset +
		    (uint64_t)i * l->cache_node.stride, &node) != 0)
			return (-1);
		if (node == 0)
			continue;
		if (_memstat_slub_member(kvm, node, &l->node_nr_slabs,
		    &slabs) != 0 || _memstat_slub_member(kvm, node,
		    &l->node_total_objects, &total) != 0 ||
		    _memstat_slub_member(kvm, node, &l->node_nr_partial,
		    &partial) != 0 ||
		    partial_free(kvm, l, node, slabs, &free) != 0)
			return (-1);
		if (free > total || __builtin_add_overflow(r->slabs, slabs,
		    &r->slabs) || __builtin_add_overflow(r->objects, total,
		    &r->objects) || __builtin_add_overflow(r->active,
		    total - free, &r->active))
			return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
			    "cache %s: %" PRIu64 " free of %" PRIu64
			    " objects on node %" PRIu32, name, free, total, i));
		nodes[i] = (struct mt_node){ .mn_count = total - free,
		    .mn_free = free, .mn_slabs = slabs, .mn_partial = partial };
	}
	return (0);
}

/*
 * On the live kernel: whether the cache's nodes still count what its row
 * says, now that its partial lists have been walked.
 */
static int
counts_held(struct memstat_kvm *kvm, const struct layout *l, uint64_t cache,
    uint32_t nr_nodes, const struct slab_row *r, const char *name)
{
	uint64_t node, slabs, total, sum_slabs = 0, sum_total = 0;

	if (!kvm->live)
		return (0);
	for (uint32_t i = 0; i < nr_nodes; i++) {
		if (_memstat_kvm_read_u64(kvm, cache + l->cache_node.offset +
		    (uint64_t)i * l->cache_node.stride, &node) != 0)
			return (-1);
		if (node == 0)
			continue;
		if (_memstat_slub_member(kvm, node, &l->node_nr_slabs,
		    &slabs) != 0 || _memstat_slub_member(kvm, node,
		    &l->node_total_objects, &total) != 0)
			return (-1);
		sum_slabs += slabs;
		sum_total += total;
	}
	if (sum_slabs != r->slabs || sum_total != r->objects)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "cache %s: its counts moved while it was walked", name));
	return (0);
}

/* One cache's row, walked again while the live kernel moves it. */
static int
cache_row_held(struct memstat_kvm *kvm, const struct layout *l,
    uint64_t cache, uint32_t nr_nodes, struct slab_row *r,
    struct mt_node *nodes, char *name, char *part)
{
	int tries = 0;

	for (;;) {
		name[0] = '\0';
		if (cache_row(kvm, l, cache, nr_nodes, r, nodes, name,
		    part) == 0 &&
		    counts_held(kvm, l, cache, nr_nodes, r, name) == 0)
			return (0);
		if (!_memstat_kvm_again(kvm, &tries))
			break;
	}
	if (tries == KVM_LIVE_TRIES) {
		char why[MEMSTAT_ERRLEN];

		snprintf(why, sizeof(why), "%s", kvm->err.msg);
		return (_memstat_kvm_fail(kvm, kvm->err.code, "cache %s%s "
		    "did not hold still for %d walks in a row (the last: %s)",
		    name[0] != '\0' ? name : "at ", name[0] != '\0' ? "" :
		    "its address", KVM_LIVE_TRIES, why));
	}
	return (-1);
}

/*
 * A cache's allocated objects: its active ones less those the CPUs hold
 * free.  What in the dump stopped the count goes into damage (the rest of
 * the row stands); on the live kernel, whose per-CPU lists move under the
 * walk, only after as many tries as a row gets.
 */
static void
cache_allocated(struct memstat_kvm *kvm, const struct layout *l,
    uint64_t cache, uint32_t nr_nodes, struct slab_row *r, char *damage)
{
	uint64_t free;
	int tries = 0;

	snprintf(damage, MEMSTAT_ERRLEN, "%s", l->cpu.why);
	if (!l->cpu.ok)
		return;
	do {
		if (_memstat_slub_cpu_free(kvm, &l->slab, &l->cpu, cache,
		    nr_nodes, r->slabs, &free) == 0) {
			if (free <= r->active) {
				r->has_allocated = true;
				r->allocated = r->active - free;
				return;
			}
			_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR, "the "
			    "CPUs hold %" PRIu64 " free objects of its %"
			    PRIu64 " active", free, r->active);
		}
	} while (_memstat_kvm_again(kvm, &tries));
	snprintf(damage, MEMSTAT_ERRLEN, "%s", kvm->err.msg);
}

/* why, then "; " and more, cut to size (no libbsd in the library). */
static void
append_why(char *why, size_t size, const char *more)
{
	size_t n = strlen(why), m;

	if (n + 3 > size)
		return;
	memcpy(why + n, "; ", 2);
	n += 2;
	m = strnlen(more, size - n - 1);
	memcpy(why + n, more, m);
	why[n + m] = '\0';
}

/* Append s and its NUL to the names buffer: its offset, or -1. */
static int
names_add(char **names, size_t *used, size_t *cap, const char *s,
    size_t *at)
{
	size_t len = strlen(s) + 1;
	char *p;

	if (*cap - *used < len) {
		*cap = *cap ? *cap * 2 : 16384;
		if ((p = realloc(*names, *cap)) == NULL)
			return (-1);
		*names = p;
	}
	memcpy(*names + *used, s, len);
	*at = *used;
	*used += len;
	return (0);
}

/*
 * Every cache of slab_caches, in list order (= /proc/slabinfo's), once:
 * 0, -1, or LIST_MOVED.  On the live kernel each step checks that the
 * next entry still points back at this one: else the list changed under
 * the walk (LIST_MOVED, the error recorded).
 */
#define LIST_MOVED	1
static int
slub_walk_once(struct memstat_kvm *kvm, const struct layout *lp,
    uint64_t head, uint64_t nr_node_ids, struct slabinfo *si)
{
	const struct layout l = *lp;
	uint64_t e, back, here;
	size_t cap = 0, at;
	struct slab_row *rows, *r;
	char name[NAME_MAX_LEN], damage[MEMSTAT_ERRLEN], part[MEMSTAT_ERRLEN];
	char *names = NULL;
	size_t used = 0, namecap = 0;
	struct mt_node *nodes;
	bool moved = false;

	*si = (struct slabinfo){ 0 };
	if ((nodes = calloc(nr_node_ids, sizeof(*nodes))) == NULL)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_NOMEMORY, "%s",
		    strerror(ENOMEM)));
	if (_memstat_slub_member(kvm, head, &l.list_next, &e) != 0)
		goto fail;
	while (e != head) {
		if (si->nrows == MAX_CACHES) {
			_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
			    "slab_caches does not end (a cycle?)");
			goto fail;
		}
		if (si->nrows == cap) {
			cap = cap ? cap * 2 : 256;
			if ((rows = reallocarray(si->rows, cap,
			    sizeof(*rows))) == NULL)
				goto nomem;
			si->rows = rows;
		}
		if (cache_row_held(kvm, &l, e - l.cache_list.offset,
		    (uint32_t)nr_node_ids, &si->rows[si->nrows], nodes, name,
		    part) != 0)
			goto fail;
		/*
		 * Names and damage go in one buffer; rows point into it at
		 * the end (damage 0 is none: a name comes first).
		 */
		r = &si->rows[si->nrows];
		/* Not asked for, the CPU layout is not ok and says no why. */
		cache_allocated(kvm, &l, e - l.cache_list.offset,
		    (uint32_t)nr_node_ids, r, damage);
		/* The row's part the dump lacks, and the count's damage. */
		if (part[0] != '\0' && damage[0] != '\0')
			append_why(part, sizeof(part), damage);
		if (part[0] != '\0')
			memcpy(damage, part, sizeof(damage));
		if (names_add(&names, &used, &namecap, name, &at) != 0)
			goto nomem;
		r->name = (const char *)(uintptr_t)at;
		if (damage[0] != '\0') {
			if (names_add(&names, &used, &namecap, damage,
			    &at) != 0)
				goto nomem;
			r->damage = (const char *)(uintptr_t)at;
		}
		if (_memstat_slabinfo_nodes(si, si->nrows, nodes,
		    (uint32_t)nr_node_ids) != 0)
			goto nomem;
		si->nrows++;
		here = e;
		if (_memstat_slub_member(kvm, here, &l.list_next, &e) != 0)
			goto fail;
		if (kvm->live && (_memstat_slub_member(kvm, e, &l.list_prev,
		    &back) != 0 || back != here)) {
			_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
			    "slab_caches changed under the walk");
			moved = true;
			goto fail;
		}
	}
	for (size_t i = 0; i < si->nrows; i++) {
		r = &si->rows[i];
		r->name = names + (uintptr_t)r->name;
		if (r->damage != NULL)
			r->damage = names + (uintptr_t)r->damage;
	}
	si->buf = names;
	free(nodes);
	return (0);
nomem:
	_memstat_kvm_fail(kvm, MEMSTAT_ERROR_NOMEMORY, "%s", strerror(ENOMEM));
fail:
	free(names);
	free(nodes);
	_memstat_slabinfo_free(si);
	return (moved ? LIST_MOVED : -1);
}

static int
slub_walk_caches(struct memstat_kvm *kvm, const struct layout *lp,
    struct slabinfo *si)
{
	const struct layout l = *lp;
	uint64_t head, nr_node_ids;
	int rc, tries = 0;

	if (_memstat_slub_caches_head(kvm, &head) != 0 ||
	    _memstat_slub_nr_nodes(kvm, &l.cache_node, &nr_node_ids) != 0)
		return (-1);
	while ((rc = slub_walk_once(kvm, &l, head, nr_node_ids, si)) != 0)
		if (rc != LIST_MOVED || !_memstat_kvm_again(kvm, &tries)) {
			if (tries == KVM_LIVE_TRIES)
				_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
				    "slab_caches changed under %d walks in a "
				    "row", KVM_LIVE_TRIES);
			return (-1);
		}
	return (0);
}

static int
slub_walk(struct memstat_kvm *kvm, struct slabinfo *si)
{
	struct layout l;
	int rc;

	*si = (struct slabinfo){ 0 };
	if (layout_load(kvm, &l) != 0)
		return (-1);
	rc = slub_walk_caches(kvm, &l, si);
	_memstat_slub_cpu_layout_free(&l.cpu);
	return (rc);
}

/*
 * A failed walk's error, for the list: the reader's own words for a KVM
 * error (as FreeBSD's tools print kvm_geterr()); otherwise the error and
 * what the dump lacked.
 */
static int
walk_failed(struct memory_type_list *list, const struct memstat_err *e)
{
	if (e->code == MEMSTAT_ERROR_KVM)
		return (_memstat_mtl_fail_err(list, e));
	if (e->code == MEMSTAT_ERROR_NOMEMORY)
		return (_memstat_mtl_fail(list, e->code));
	return (_memstat_mtl_failf(list, e->code, "%s: %s",
	    memstat_strerror(e->code), e->msg));
}

/*
 * One walk of the dump for every query, so that memstat_kvm_all()'s zones
 * and kmalloc families are the same caches.  A failed query leaves its
 * code and message on the list and on the handle, and the list as it was.
 */
/* The aliases of si's rows, from the image's /sys/kernel/slab. */
static int
aliases_of(struct memstat_kvm *kvm, const struct slabinfo *si,
    struct slab_aliases **sap)
{
	int error;

	if ((*sap = _memstat_slab_aliases_new()) == NULL)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_NOMEMORY, "%s",
		    strerror(ENOMEM)));
	if (_memstat_kvm_slab_links(kvm, *sap) != 0)
		return (-1);
	if ((error = _memstat_slab_aliases_group(*sap, si)) != 0)
		return (_memstat_kvm_fail(kvm, error, "/sys/kernel/slab's "
		    "links"));
	return (0);
}

static int
kvm_query(struct memory_type_list *list, struct memstat_kvm *kvm, bool uma,
    bool kmalloc)
{
	struct slab_aliases *sa = NULL;
	struct slabinfo si;
	int rc = 0;

	_memstat_kvm_arch_look(kvm);
	if (slub_walk(kvm, &si) != 0)
		return (walk_failed(list, &kvm->err));
	if (uma && (kvm->flags & MEMSTAT_LINUX_ALIASES) &&
	    aliases_of(kvm, &si, &sa) != 0) {
		_memstat_slab_aliases_free(sa);
		_memstat_slabinfo_free(&si);
		return (walk_failed(list, &kvm->err));
	}
	if (kmalloc)
		rc = _memstat_kmalloc_families(list, &si);
	if (rc == 0 && uma)
		rc = _memstat_slab_fill(list, &si, sa);
	_memstat_slab_aliases_free(sa);
	_memstat_slabinfo_free(&si);
	if (rc != 0) {
		_memstat_kvm_fail(kvm, memstat_mtl_geterror(list),
		    "the dump's slab caches are out of range");
		walk_failed(list, &kvm->err);
	}
	return (rc);
}

int
memstat_kvm_uma(struct memory_type_list *list, void *kvm_handle)
{
	return (kvm_query(list, kvm_handle, true, false));
}

int
memstat_kvm_malloc(struct memory_type_list *list, void *kvm_handle)
{
	return (kvm_query(list, kvm_handle, false, true));
}

int
memstat_kvm_all(struct memory_type_list *list, void *kvm_handle)
{
	return (kvm_query(list, kvm_handle, true, true));
}
