/*
 * kvm_buddy_layout.c: the free lists' layout (kvm_buddy_layout.h): the
 * members of pglist_data, zone, free_area and list_head the walk reads,
 * and the arrays' lengths (MAX_NR_ZONES, NR_PAGE_ORDERS, MIGRATE_TYPES)
 * from their sizes, each bounded.
 */
#include "frag/frag_internal.h"
#include "kvm/walk/kvm_buddy_layout.h"

int
_memstat_buddy_layout(struct memstat_kvm *kvm, struct buddy_layout *l)
{
	static const struct kvm_member_want want[] = {
#define W(t, m, f) KVM_WANT(struct buddy_layout, t, m, f)
		W("pglist_data", "node_zones", node_zones),
		W("zone", "name", zone_name),
		W("zone", "present_pages", zone_present),
		W("zone", "free_area", zone_free_area),
		W("free_area", "free_list", area_free_list),
		W("free_area", "nr_free", area_nr_free),
		W("list_head", "next", list_next),
#undef W
	};

	if (_memstat_kvm_members(kvm, want, sizeof(want) / sizeof(want[0]),
	    l) != 0)
		return (-1);
	if (_memstat_kvm_struct_size(kvm, "zone", &l->zone_size) != 0 ||
	    _memstat_kvm_struct_size(kvm, "free_area", &l->area_size) != 0 ||
	    _memstat_kvm_struct_size(kvm, "list_head", &l->list_size) != 0)
		return (-1);
	/* The arrays' lengths: MAX_NR_ZONES, NR_PAGE_ORDERS, MIGRATE_TYPES. */
	l->nzones = (int)(l->node_zones.size / l->zone_size);
	l->norders = (int)(l->zone_free_area.size / l->area_size);
	l->ntypes = (int)(l->area_free_list.size / l->list_size);
	if (l->nzones < 1 || l->nzones > 16 || l->norders < 1 ||
	    l->norders > MEMSTAT_FRAG_MAXORDER || l->ntypes < 1 ||
	    l->ntypes > FRAG_MAX_TYPES || l->area_nr_free.size != 8 ||
	    l->list_next.size != 8)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "a zone layout of %d zones, %d orders, %d migrate types",
		    l->nzones, l->norders, l->ntypes));
	return (0);
}
