/*
 * kvm_percpu.h: the kernel's CPUs as its per-CPU data sees them
 * (kvm_percpu.c): how many it may have, and where each one's copy of a
 * per-CPU variable is.
 */
#ifndef KVM_PERCPU_H
#define KVM_PERCPU_H

#include "kvm/dump/kvm_handle.h"

/* nr_cpu_ids (1 without SMP): 0, or -1 with DATAERROR recorded. */
int	_memstat_kvm_nr_cpus(struct memstat_kvm *kvm, uint32_t *n);
/*
 * __per_cpu_offset[] for every possible CPU, malloc'ed in *offsets (its
 * length in *n): CPU c's copy of a per-CPU variable at addr is at addr +
 * (*offsets)[c].  0, or -1 with the error recorded (kallsyms that name
 * the code only say so, -N named as the way out).
 */
int	_memstat_kvm_cpu_offsets(struct memstat_kvm *kvm, uint64_t **offsets,
	    uint32_t *n);

#endif /* !KVM_PERCPU_H */
