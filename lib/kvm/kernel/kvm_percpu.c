/*
 * kvm_percpu.c: the kernel's CPUs, for the walks that read per-CPU data
 * (SLUB's CPU slabs and sheaves, the memory cgroups' per-CPU stocks).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kvm/kernel/kvm_finders.h"
#include "kvm/kernel/kvm_percpu.h"

#define MAX_CPUS	8192		/* NR_CPUS of the biggest configs */

int
_memstat_kvm_nr_cpus(struct memstat_kvm *kvm, uint32_t *n)
{
	uint64_t addr;

	*n = 1;
	/* Without SMP the kernel has no nr_cpu_ids: one CPU. */
	if (_memstat_kvm_symbol(kvm, "nr_cpu_ids", &addr) == 0 &&
	    _memstat_kvm_read_u32(kvm, addr, n) != 0)
		return (-1);
	if (*n == 0 || *n > MAX_CPUS)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "nr_cpu_ids is %" PRIu32, *n));
	return (0);
}

int
_memstat_kvm_cpu_offsets(struct memstat_kvm *kvm, uint64_t **offsets,
    uint32_t *n)
{
	uint64_t addr;

	*offsets = NULL;
	if (_memstat_kvm_nr_cpus(kvm, n) != 0)
		return (-1);
	if ((*offsets = calloc(*n, sizeof(uint64_t))) == NULL)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_NOMEMORY, "%s",
		    strerror(ENOMEM)));
	/*
	 * A kernel without SMP has no per-CPU offsets: all are 0.  Nor do
	 * kallsyms of the code only name them (or nr_cpu_ids): unknown.
	 */
	if (_memstat_kvm_symbol(kvm, "__per_cpu_offset", &addr) == 0) {
		if (_memstat_kvm_read(kvm, addr, *offsets,
		    *n * sizeof(uint64_t)) == 0) {
			for (uint32_t i = 0; i < *n; i++)
				(*offsets)[i] = _memstat_kvm_u64(kvm,
				    &(*offsets)[i]);
			return (0);
		}
	} else if (!_memstat_kvm_code_only(kvm, "__per_cpu_offset") &&
	    *n == 1)
		return (0);
	free(*offsets);
	*offsets = NULL;
	return (-1);
}
