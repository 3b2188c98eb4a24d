/*
 * kvm_buddy_layout.h: the free lists' layout from BTF (kvm_buddy_layout.c),
 * read by the walk of the free lists (kvm_buddy.c) and by what finds the
 * nodes where no symbol names them (kvm_buddy_find.c).
 */
#ifndef KVM_BUDDY_LAYOUT_H
#define KVM_BUDDY_LAYOUT_H

#include "kvm/kernel/kvm_finders.h"

struct buddy_layout {
	struct kvm_member node_zones, zone_name, zone_present, zone_free_area,
	    area_free_list, area_nr_free, list_next;
	uint32_t	 zone_size, area_size, list_size;
	int		 nzones, norders, ntypes;
};

/* The layout, from BTF: 0, or -1 with the error recorded. */
int	_memstat_buddy_layout(struct memstat_kvm *kvm, struct buddy_layout *l);

#endif /* !KVM_BUDDY_LAYOUT_H */
