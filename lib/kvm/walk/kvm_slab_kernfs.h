/*
 * kvm_slab_kernfs.h: the aliases of merged caches, from the image's
 * kernfs tree (kvm_slab_kernfs.c).
 */
#ifndef KVM_SLAB_KERNFS_H
#define KVM_SLAB_KERNFS_H

#include "kvm/dump/kvm_handle.h"

/*
 * The links of /sys/kernel/slab, from the kernfs tree in the image, into
 * sa (kvm_slab_kernfs.c): 0 (none where the kernel has no slab_kset), or
 * -1 with the error recorded.
 */
struct slab_aliases;
int	_memstat_kvm_slab_links(struct memstat_kvm *kvm,
	    struct slab_aliases *sa);

#endif /* !KVM_SLAB_KERNFS_H */
