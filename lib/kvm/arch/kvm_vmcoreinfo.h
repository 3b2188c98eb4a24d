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

#endif /* !KVM_VMCOREINFO_H */
