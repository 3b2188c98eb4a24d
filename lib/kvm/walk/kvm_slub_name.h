/*
 * kvm_slub_name.h: a cache's name, as far as the dump holds it
 * (kvm_slub_name.c).
 */
#ifndef KVM_SLUB_NAME_H
#define KVM_SLUB_NAME_H

#include "kvm/kernel/kvm_finders.h"

/*
 * The cache's name (kvm_slub_name.c), read by the member name of
 * kmem_cache, into buf.  Where a dump left its page out, the name the
 * cache's kobject was given; failing that "kmem_cache@ADDRESS", with why
 * saying what was missing (else why is empty).  0, or -1 with the error
 * recorded.
 */
int	_memstat_slub_cache_name(struct memstat_kvm *kvm,
	    const struct kvm_member *name, uint64_t cache, char *buf,
	    size_t size, char *why, size_t whylen);

#endif /* !KVM_SLUB_NAME_H */
