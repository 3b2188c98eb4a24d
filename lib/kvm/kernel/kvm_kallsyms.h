/*
 * kvm_kallsyms.h: the symbols kvm_kallsyms.c reads out of a kernel's
 * kallsyms tables, where VMCOREINFO names them (6.0 and later) or where
 * kvm_kallsyms_find.h finds them (before 6.0).
 */
#ifndef KVM_KALLSYMS_H
#define KVM_KALLSYMS_H

#include "kvm/kernel/kvm_kallsyms_find.h"

/*
 * A kernel's symbols, from the tables in the dump or in the image of the
 * vmlinuz -N names (vmlinuz): 0, or -1 with the error recorded.
 */
struct kallsyms;
int	_memstat_kallsyms_open(struct memstat_kvm *kvm, bool vmlinuz,
	    struct kallsyms **ks);
/* The first symbol named name: 0, 1 if none is, or -1 with the error. */
int	_memstat_kallsyms_lookup(struct kallsyms *ks, const char *name,
	    uint64_t *addr);
/* Every named symbol, in the table's order: 0, or -1 with the error. */
int	_memstat_kallsyms_each(struct kallsyms *ks,
	    void (*fn)(const char *name, uint64_t addr, void *arg), void *arg);
void	_memstat_kallsyms_free(struct kallsyms *ks);

#endif /* !KVM_KALLSYMS_H */
