/*
 * kvm_buddy_find.c: the nodes' pglist_data where the kallsyms name the
 * kernel's code only (a kernel built without CONFIG_KALLSYMS_ALL:
 * Debian's arm64 5.10 and 6.1), found as kvm_slub_find.c finds
 * slab_caches, by the image's own structure (kvm_buddy_find.h):
 *
 *   - a free block's first page says so in page_type: VMCOREINFO's
 *     PAGE_BUDDY_MAPCOUNT_VALUE (the whole word to 6.11, its top byte
 *     since, where the low bits are zero), else BTF's PGTY_buddy;
 *   - its lru list holds struct pages but one, the head: a free_list[]
 *     of some order's free_area[] in a zone;
 *   - that zone is the one whose zone_pgdat holds it at a place of its
 *     node_zones[];
 *   - the node's fallback zonelist (node_zonelists[0]) names a zone of
 *     each node with memory, and each zone its node.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kvm/arch/kvm_arch.h"
#include "kvm/arch/kvm_vmcoreinfo.h"
#include "kvm/kernel/kvm_memmap.h"
#include "kvm/walk/kvm_buddy_find.h"

#define MAX_STEPS	(1U << 20)	/* a free list's length, at most */
#define PAGE_BUDGET	(1ULL << 26)	/* struct pages looked at, at most */
/*
 * A zonelist's entries, at most: MAX_NUMNODES (NODES_SHIFT is 10 at
 * most) times MAX_NR_ZONES, plus its end.  Debian's amd64 kernels have
 * 1024 nodes of 5 zones: 5121.
 */
#define MAX_ZONEREFS	((1U << 10) * 16 + 1)

struct find {
	struct memstat_kvm *kvm;
	const struct buddy_layout *l;
	struct kvm_pages pages;
	struct kvm_member lru, page_type, zone_pgdat;
	uint32_t	 buddy;		/* page_type of a free block */
	bool		 top_byte;	/* only its top byte says so */
	uint64_t	 pgdat;		/* found */
};

/* page_type's word that says a page begins a free block. */
static int
buddy_type(struct memstat_kvm *kvm, struct find *f)
{
	uint64_t v;
	int64_t e;

	if (kvm->reader->vmcoreinfo != NULL &&
	    _memstat_kvm_vmcoreinfo_number(kvm->reader->vmcoreinfo,
	    kvm->reader_arg, "NUMBER(PAGE_BUDDY_MAPCOUNT_VALUE)", 10,
	    &v) == 0) {
		f->buddy = (uint32_t)v;
		f->top_byte = (f->buddy & 0xffffff) == 0;
		return (0);
	}
	if (_memstat_kvm_enum_value(kvm, "PGTY_buddy", &e) == 0 && e > 0 &&
	    e < 256) {
		f->buddy = (uint32_t)e << 24;
		f->top_byte = true;
		return (0);
	}
	return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM_NOSYMBOL, "neither "
	    "VMCOREINFO's PAGE_BUDDY_MAPCOUNT_VALUE nor BTF's PGTY_buddy to "
	    "tell a free block by"));
}

/* Whether a list entry is a struct page's lru. */
static bool
is_page(const struct find *f, uint64_t entry)
{
	uint64_t page = entry - f->lru.offset;

	return (!_memstat_kvm_arch_in_direct_map(f->kvm, entry) &&
	    page >= f->pages.vmemmap &&
	    (page - f->pages.vmemmap) % f->pages.page_size == 0);
}

/*
 * The node of the zone whose free list has its head at head: 0 with
 * f->pgdat, 1 if head is none of them.
 */
static int
node_of_head(struct find *f, uint64_t head)
{
	const struct buddy_layout *l = f->l;

	for (int o = 0; o < l->norders; o++)
		for (int t = 0; t < l->ntypes; t++) {
			uint64_t zone = head - l->zone_free_area.offset -
			    (uint64_t)o * l->area_size -
			    l->area_free_list.offset -
			    (uint64_t)t * l->list_size, pgdat, at;

			if (_memstat_kvm_read_u64(f->kvm, zone +
			    f->zone_pgdat.offset, &pgdat) != 0)
				continue;
			at = zone - pgdat - l->node_zones.offset;
			if (pgdat != 0 && zone - l->node_zones.offset >= pgdat &&
			    at % l->zone_size == 0 &&
			    at / l->zone_size < (uint64_t)l->nzones) {
				f->pgdat = pgdat;
				return (0);
			}
		}
	return (1);
}

/* A page of the array: if it begins a free block, its list's head. */
static int
scan_page(void *arg, uint64_t page, const uint8_t *bytes)
{
	struct find *f = arg;
	struct kvm_loop loop = KVM_LOOP_INIT;
	uint32_t type;
	uint64_t e = page + f->lru.offset, next;

	type = (uint32_t)_memstat_kvm_member_of(f->kvm, bytes, &f->page_type);
	if (f->top_byte ? (type >> 24) != (f->buddy >> 24) : type != f->buddy)
		return (0);
	for (uint32_t n = 0; n < MAX_STEPS; n++) {
		if (_memstat_kvm_read_u64(f->kvm, e + f->l->list_next.offset,
		    &next) != 0 || _memstat_kvm_loops(&loop, next))
			return (0);
		if (!is_page(f, next))
			return (node_of_head(f, next) == 0 ? 1 : 0);
		e = next;
	}
	return (0);
}

static int
by_node_id(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return (x[0] < y[0] ? -1 : x[0] > y[0]);
}

/*
 * Every node the first one's fallback zonelist names (itself first), in
 * node id order: pairs of (id, pglist_data) sorted, then the addresses.
 */
static int
all_nodes(struct find *f, uint64_t *nodes, int max, int *n)
{
	struct memstat_kvm *kvm = f->kvm;
	struct kvm_member lists, refs, ref_zone, id;
	uint32_t ref_size, node_id;
	uint64_t (*found)[2], zone, pgdat;
	int nfound = 0;

	if (_memstat_kvm_member(kvm, "pglist_data", "node_zonelists",
	    &lists) != 0 || _memstat_kvm_member(kvm, "zonelist", "_zonerefs",
	    &refs) != 0 || _memstat_kvm_member(kvm, "zoneref", "zone",
	    &ref_zone) != 0 || _memstat_kvm_member(kvm, "pglist_data",
	    "node_id", &id) != 0 || _memstat_kvm_struct_size(kvm, "zoneref",
	    &ref_size) != 0)
		return (-1);
	if (ref_size == 0 || refs.size / ref_size > MAX_ZONEREFS)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "a zonelist of %" PRIu32 " bytes", refs.size));
	if ((found = calloc((size_t)max + 1, sizeof(*found))) == NULL)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_NOMEMORY, "%s",
		    memstat_strerror(MEMSTAT_ERROR_NOMEMORY)));
	pgdat = f->pgdat;
	for (uint32_t r = 0; r <= refs.size / ref_size; r++) {
		bool seen = false;

		/* The node found first, then each the zonelist names. */
		if (r > 0 && (_memstat_kvm_read_u64(kvm, f->pgdat +
		    lists.offset + refs.offset + (r - 1) * ref_size +
		    ref_zone.offset, &zone) != 0 || zone == 0 ||
		    _memstat_kvm_read_u64(kvm, zone + f->zone_pgdat.offset,
		    &pgdat) != 0))
			break;
		for (int i = 0; i < nfound; i++)
			seen |= found[i][1] == pgdat;
		if (seen)
			continue;
		if (nfound == max || _memstat_kvm_read_u32(kvm, pgdat +
		    id.offset, &node_id) != 0) {
			free(found);
			return (nfound == max ? _memstat_kvm_fail(kvm,
			    MEMSTAT_ERROR_DATAERROR, "a zonelist of more than "
			    "%d nodes", max) : -1);
		}
		found[nfound][0] = node_id;
		found[nfound++][1] = pgdat;
	}
	qsort(found, (size_t)nfound, sizeof(*found), by_node_id);
	for (*n = 0; *n < nfound; (*n)++)
		nodes[*n] = found[*n][1];
	free(found);
	return (0);
}

int
_memstat_buddy_nodes_find(struct memstat_kvm *kvm,
    const struct buddy_layout *l, uint64_t *nodes, int max, int *n)
{
	struct find f = { .kvm = kvm, .l = l };
	uint64_t budget = PAGE_BUDGET;
	int rc;

	*n = 0;
	if (buddy_type(kvm, &f) != 0 ||
	    _memstat_kvm_pages_layout(kvm, &f.pages, "its free blocks") != 0 ||
	    _memstat_kvm_member(kvm, "page", "lru", &f.lru) != 0 ||
	    _memstat_kvm_member(kvm, "page", "page_type", &f.page_type) != 0 ||
	    _memstat_kvm_member(kvm, "zone", "zone_pgdat", &f.zone_pgdat) != 0)
		return (-1);
	if (f.page_type.size != 4 ||
	    f.page_type.offset + 4 > f.pages.page_size ||
	    f.lru.offset + 16 > f.pages.page_size)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "a %" PRIu32 "-byte struct page", f.pages.page_size));
	if ((rc = _memstat_kvm_pages_each(kvm, &f.pages, &budget, scan_page,
	    &f)) == 1)
		return (all_nodes(&f, nodes, max, n));
	return (rc == -1 ? -1 : _memstat_kvm_fail(kvm,
	    MEMSTAT_ERROR_KVM_NOSYMBOL, "no free block in the dump leads to "
	    "its nodes"));
}
