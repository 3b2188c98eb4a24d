/*
 * kvm_buddy_find.h: the nodes' pglist_data where no symbol names them
 * (kvm_buddy_find.c).
 */
#ifndef KVM_BUDDY_FIND_H
#define KVM_BUDDY_FIND_H

#include "kvm/walk/kvm_buddy_layout.h"

/*
 * The nodes' pglist_data found from a free block: a free page's list
 * leads to its head in a zone's free_area[], whose zone_pgdat holds it
 * among node_zones[]; that node's fallback zonelist names every node's
 * zones.  Up to max of them into nodes, in node id order, *n of them:
 * 0, or -1 with the error recorded.
 */
int	_memstat_buddy_nodes_find(struct memstat_kvm *kvm,
	    const struct buddy_layout *l, uint64_t *nodes, int max, int *n);

#endif /* !KVM_BUDDY_FIND_H */
