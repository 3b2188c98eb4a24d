/*
 * kvm_buddy.c: the free lists of a core image, as /proc/buddyinfo and
 * /proc/pagetypeinfo print them (mm/vmstat.c): per node (node_data[], or
 * contig_page_data without NUMA) and per populated zone of
 * pglist_data.node_zones[], each order's free_area[].nr_free; with
 * MEMSTAT_FRAG_TYPES, each migrate type's free_list[] walked and counted.
 * Every size comes from BTF; a free list longer than its area's nr_free
 * is bad data (a cycle, or a dump taken mid-update), so every walk ends.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frag/frag_internal.h"
#include "kvm/arch/kvm_arch.h"
#include "kvm/kernel/kvm_finders.h"
#include "kvm/walk/kvm_buddy_find.h"
#include "kvm/walk/kvm_buddy_layout.h"
#include "kvm/walk/kvm_migratetype_find.h"

#define MAX_NODES	1024

/*
 * The nodes found from a free block, where the symbols name neither
 * node_data nor contig_page_data (kallsyms of the kernel's code only, a
 * System.map without them): the symbol's lack said with the reason.
 */
static int
nodes_found(struct memstat_kvm *kvm, const struct buddy_layout *l,
    uint64_t *nodes, int *n)
{
	char why[MEMSTAT_ERRLEN];

	if (_memstat_buddy_nodes_find(kvm, l, nodes, MAX_NODES, n) == 0)
		return (0);
	snprintf(why, sizeof(why), "%s", kvm->err.msg);
	return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM_NOSYMBOL,
	    "no symbol node_data in the %s, and %s%s", kvm->system != NULL ?
	    kvm->system : "dump's kallsyms", why, kvm->system != NULL ? "" :
	    ": name its System.map with -N"));
}

/* The nodes' pglist_data addresses: *n of them into nodes. */
static int
nodes_of(struct memstat_kvm *kvm, const struct buddy_layout *l,
    uint64_t *nodes, int *n)
{
	uint64_t node_data, nr, p;
	uint32_t nr32;

	*n = 0;
	if (_memstat_kvm_symbol(kvm, "node_data", &node_data) != 0) {
		/* No NUMA: one node, contig_page_data. */
		if (_memstat_kvm_symbol(kvm, "contig_page_data", &p) != 0)
			return (nodes_found(kvm, l, nodes, n));
		nodes[(*n)++] = p;
		return (0);
	}
	nr = 1;
	if (_memstat_kvm_symbol(kvm, "nr_node_ids", &p) == 0) {
		if (_memstat_kvm_read_u32(kvm, p, &nr32) != 0)
			return (-1);
		nr = nr32;
	}
	if (nr == 0 || nr > MAX_NODES)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "nr_node_ids is %" PRIu64, nr));
	for (uint64_t i = 0; i < nr; i++) {
		if (_memstat_kvm_read_u64(kvm, node_data + i * 8, &p) != 0)
			return (-1);
		if (p != 0)
			nodes[(*n)++] = p;
	}
	return (0);
}

/*
 * The migrate types' names, from migratetype_names[] (named, else found
 * in the image), or "type N".
 */
static int
type_names(struct memstat_kvm *kvm, int ntypes,
    char (*names)[MEMSTAT_FRAG_NAMELEN])
{
	uint64_t arr, p;

	if (_memstat_kvm_symbol(kvm, "migratetype_names", &arr) != 0 &&
	    _memstat_buddy_type_names_find(kvm, ntypes, &arr) != 0) {
		for (int t = 0; t < ntypes; t++)
			snprintf(names[t], MEMSTAT_FRAG_NAMELEN, "type %d", t);
		return (0);
	}
	for (int t = 0; t < ntypes; t++)
		if (_memstat_kvm_read_u64(kvm, arr + (uint64_t)t * 8, &p) != 0 ||
		    _memstat_kvm_read_string(kvm, p, names[t],
		    MEMSTAT_FRAG_NAMELEN) != 0)
			return (-1);
	return (0);
}

/* The blocks on the list at head, no more than max. */
static int
list_count(struct memstat_kvm *kvm, const struct buddy_layout *l,
    uint64_t head, uint64_t max, uint64_t *count, const char *zone, int order)
{
	struct kvm_loop loop = KVM_LOOP_INIT;
	uint64_t p, n = 0;

	if (_memstat_kvm_read_u64(kvm, head + l->list_next.offset, &p) != 0)
		return (-1);
	while (p != head) {
		if (n++ == max || _memstat_kvm_loops(&loop, p))
			return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
			    "zone %s: an order-%d free list longer than its "
			    "%" PRIu64 " free blocks (a cycle, or the dump was "
			    "taken mid-update)", zone, order, max));
		if (_memstat_kvm_read_u64(kvm, p + l->list_next.offset, &p) !=
		    0)
			return (-1);
	}
	*count = n;
	return (0);
}

static int
zone_read(struct memstat_kvm *kvm, struct memstat_frag *frag,
    const struct buddy_layout *l, int node, uint64_t zone, int flags,
    char (*names)[MEMSTAT_FRAG_NAMELEN])
{
	uint64_t present, namep, area;
	char name[MEMSTAT_FRAG_NAMELEN];
	struct frag_zone *z;

	if (_memstat_kvm_read_u64(kvm, zone + l->zone_present.offset,
	    &present) != 0)
		return (-1);
	if (present == 0)
		return (0);	/* unpopulated: buddyinfo leaves it out */
	if (_memstat_kvm_read_u64(kvm, zone + l->zone_name.offset, &namep) !=
	    0 || _memstat_kvm_read_string(kvm, namep, name, sizeof(name)) != 0)
		return (-1);
	if ((z = _memstat_frag_zone_add(frag)) == NULL)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_NOMEMORY, "%s",
		    memstat_strerror(MEMSTAT_ERROR_NOMEMORY)));
	z->node = node;
	snprintf(z->name, sizeof(z->name), "%.*s", (int)sizeof(z->name) - 1,
	    name);
	z->norders = l->norders;
	z->has_blocks = true;
	for (int t = 0; (flags & MEMSTAT_FRAG_TYPES) && t < l->ntypes; t++) {
		struct frag_type *ft = _memstat_frag_type_add(z);

		if (ft == NULL)
			return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_NOMEMORY,
			    "%s", memstat_strerror(MEMSTAT_ERROR_NOMEMORY)));
		snprintf(ft->name, sizeof(ft->name), "%.*s",
		    (int)sizeof(ft->name) - 1, names[t]);
	}
	for (int o = 0; o < l->norders; o++) {
		uint64_t sum = 0;

		area = zone + l->zone_free_area.offset +
		    (uint64_t)o * l->area_size;
		if (_memstat_kvm_read_u64(kvm, area + l->area_nr_free.offset,
		    &z->blocks[o]) != 0)
			return (-1);
		if (z->blocks[o] > (FRAG_MAX_PAGES >> o))
			return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
			    "zone %s: %" PRIu64 " free blocks of order %d",
			    name, z->blocks[o], o));
		for (size_t t = 0; t < z->ntypes; t++) {
			uint64_t *c = &z->types[t].blocks[o];

			if (list_count(kvm, l, area +
			    l->area_free_list.offset + t * l->list_size,
			    z->blocks[o] - sum, c, name, o) != 0)
				return (-1);
			sum += *c;
		}
	}
	if (!_memstat_frag_zone_sane(z))
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "zone %s: more free pages than any machine has", name));
	return (0);
}

/*
 * On the live kernel, with the free lists walked: whether each order's
 * nr_free still is what it was before its lists were.
 */
static int
free_held(struct memstat_kvm *kvm, const struct buddy_layout *l,
    uint64_t zone, const struct frag_zone *z)
{
	uint64_t n;

	for (int o = 0; kvm->live && z->ntypes > 0 && o < z->norders; o++) {
		if (_memstat_kvm_read_u64(kvm, zone + l->zone_free_area.offset +
		    (uint64_t)o * l->area_size + l->area_nr_free.offset, &n) !=
		    0)
			return (-1);
		if (n != z->blocks[o])
			return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
			    "zone %s: its free lists moved while they were "
			    "walked", z->name));
	}
	return (0);
}

/* One zone, read again while the live kernel moves its free lists. */
static int
zone_read_held(struct memstat_kvm *kvm, struct memstat_frag *frag,
    const struct buddy_layout *l, int node, uint64_t zone, int flags,
    char (*names)[MEMSTAT_FRAG_NAMELEN])
{
	size_t before = frag->nzones;
	int tries = 0;

	for (;;) {
		if (zone_read(kvm, frag, l, node, zone, flags, names) == 0 &&
		    (frag->nzones == before || free_held(kvm, l, zone,
		    &frag->zones[frag->nzones - 1]) == 0))
			return (0);
		while (frag->nzones > before)
			_memstat_frag_zone_drop(frag);
		if (!_memstat_kvm_again(kvm, &tries))
			break;
	}
	if (tries == KVM_LIVE_TRIES) {
		char why[MEMSTAT_ERRLEN];

		snprintf(why, sizeof(why), "%s", kvm->err.msg);
		return (_memstat_kvm_fail(kvm, kvm->err.code, "node %d: a zone "
		    "did not hold still for %d walks in a row (the last: %s)",
		    node, KVM_LIVE_TRIES, why));
	}
	return (-1);
}

static int
buddy_walk(struct memstat_kvm *kvm, struct memstat_frag *frag, int flags)
{
	uint64_t nodes[MAX_NODES];
	char names[FRAG_MAX_TYPES][MEMSTAT_FRAG_NAMELEN];
	struct buddy_layout l;
	uint32_t node_id;
	int n;

	if (_memstat_buddy_layout(kvm, &l) != 0 ||
	    nodes_of(kvm, &l, nodes, &n) != 0 || ((flags & MEMSTAT_FRAG_TYPES) && type_names(kvm, l.ntypes,
	    names) != 0))
		return (-1);
	for (int i = 0; i < n; i++) {
		struct kvm_member id;

		/* The node's own id, as buddyinfo prints it. */
		node_id = (uint32_t)i;
		if (_memstat_kvm_member(kvm, "pglist_data", "node_id", &id) ==
		    0 && _memstat_kvm_read_u32(kvm, nodes[i] + id.offset,
		    &node_id) != 0)
			return (-1);
		for (int zi = 0; zi < l.nzones; zi++)
			if (zone_read_held(kvm, frag, &l, (int)node_id, nodes[i] +
			    l.node_zones.offset + (uint64_t)zi * l.zone_size,
			    flags, names) != 0)
				return (-1);
	}
	if (frag->nzones == 0)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "no populated zone"));
	return (0);
}

int
memstat_frag_kvm(struct memstat_frag *frag, void *kvm_handle, int flags)
{
	struct memstat_kvm *kvm = kvm_handle;

	_memstat_frag_clear(frag);
	_memstat_kvm_arch_look(kvm);
	if (buddy_walk(kvm, frag, flags) == 0)
		return (0);
	_memstat_frag_clear(frag);
	return (_memstat_err_set(&frag->err, kvm->err.code, "%s",
	    kvm->err.msg));
}
