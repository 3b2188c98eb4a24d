/*
 * kvm_slub_find.h: where the SLUB walks start (kvm_slub_find.c): the
 * symbols they need, by name, else found by the image's structure where
 * kallsyms name the kernel's code only.
 */
#ifndef KVM_SLUB_FIND_H
#define KVM_SLUB_FIND_H

#include "kvm/dump/kvm_handle.h"

/*
 * Found by name, else by the image's structure where kallsyms name the
 * code only (kvm_slub_find.c): slab_caches, the list of every cache (0,
 * or -1 with the error); slab_kset's kset (0; 1 where the kernel has no
 * sysfs; -1); the nodes past the highest online one (0, or -1).
 */
int	_memstat_slub_caches_head(struct memstat_kvm *kvm, uint64_t *head);
int	_memstat_slub_kset(struct memstat_kvm *kvm, uint64_t *kset);
int	_memstat_slub_online_nodes(struct memstat_kvm *kvm, uint64_t *n);

#endif /* !KVM_SLUB_FIND_H */
