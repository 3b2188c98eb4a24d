/*
 * kvm_vmcoreinfo.h: VMCOREINFO's numbers, read by the architectures'
 * rooms as they set up, below them all.
 */
#ifndef KVM_VMCOREINFO_H
#define KVM_VMCOREINFO_H

#include "kvm/dump/kvm_handle.h"

/*
 * A VMCOREINFO number ("0x..." hexadecimal, else decimal, a "-" taken
 * modulo 2^64; base 16 for KERNELOFFSET's bare hex): 0, or -1 when
 * absent or not a number.
 */
int	_memstat_kvm_vmcoreinfo_number(kvm_vmcoreinfo_fn vmcoreinfo, void *arg,
	    const char *key, int base, uint64_t *v);
/*
 * The same, for a number an image of machine ("arm64", "s390x") cannot
 * be translated without: 0, or -1 with the error recorded, naming it.
 */
int	_memstat_kvm_vmcoreinfo_need(struct memstat_kvm *kvm,
	    const char *machine, kvm_vmcoreinfo_fn vmcoreinfo, void *arg,
	    const char *key, int base, uint64_t *v);

#endif /* !KVM_VMCOREINFO_H */
