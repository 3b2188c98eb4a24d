/*
 * kvm_arch.h: what differs between the architectures a core image may be
 * of, behind one interface (kvm_arch_ops.h), one room each
 * (kvm_arch_x86_64.c, kvm_arch_aarch64.c, kvm_arch_s390x.c,
 * kvm_arch_riscv64.c, kvm_arch_ppc64.c), as drgn's arch_*.c and crash's
 * x86_64.c and arm64.c: the direct map and the kernel image's map, the
 * page size, the page-table walk, which link-time addresses
 * KASLR moves, what a return address carries beside the address, and
 * where the struct page array is (kvm_memmap.h).  The readers (through
 * the handle's translation) and the floors above ask here and do not
 * know which architecture they read.  Everything comes from the image
 * itself: its ELF machine or VMCOREINFO, its page tables, its BTF.
 */
#ifndef KVM_ARCH_H
#define KVM_ARCH_H

#include <stddef.h>

#include "kvm/arch/kvm_arch_ops.h"

/*
 * The image's architecture: the one named (libkdumpfile's name, or the
 * ELF header's machine as one), or where none is named the one whose
 * kernel VMCOREINFO is of; its state set up, and KASLR's move
 * (KERNELOFFSET) into kvm->kaslr.  0, or -1 with the error recorded (an
 * architecture not read is named in it).
 */
int	_memstat_kvm_arch_setup(struct memstat_kvm *kvm, const char *name,
	    kvm_vmcoreinfo_fn vmcoreinfo, void *arg);
const struct kvm_arch *_memstat_kvm_arch(const struct memstat_kvm *kvm);
/*
 * Where the architecture named (or, with none named, any) keeps a
 * pointer to the kernel's VMCOREINFO note: for the reader's search of a
 * dump that carries none (kvm_handle.h).  NULL: nowhere.
 */
kvm_vmcoreinfo_at_fn _memstat_kvm_arch_vmcoreinfo_at(const char *name);

/* The kernel's page size in bits. */
unsigned _memstat_kvm_page_shift(const struct memstat_kvm *kvm);
/* Whether addr is in the direct map (arm64's linear map), once known. */
bool	_memstat_kvm_arch_in_direct_map(const struct memstat_kvm *kvm,
	    uint64_t addr);
/*
 * A direct-map or kernel-image address's physical one, by subtraction:
 * true, or false where only the page tables know.
 */
bool	_memstat_kvm_arch_linear(const struct memstat_kvm *kvm,
	    uint64_t vaddr, uint64_t *paddr);
/*
 * A kernel virtual address's physical one by the image's page tables,
 * each page's answer kept: 0; 1 where the architecture leaves the walk
 * to the reader; -1 not mapped (nothing recorded).
 */
int	_memstat_kvm_arch_walk(struct memstat_kvm *kvm, uint64_t vaddr,
	    uint64_t *paddr, kvm_phys_fn read, void *arg);
/*
 * A look at the running kernel begins: the pages walked before are
 * forgotten (its vmalloc mappings change between looks; within one,
 * each page is walked once).
 */
void	_memstat_kvm_arch_look(struct memstat_kvm *kvm);
/* A link-time address (System.map, vmlinux, kallsyms) as it runs. */
uint64_t _memstat_kvm_arch_relocate(const struct memstat_kvm *kvm,
	    uint64_t link_addr);
/* A run-time address's link-time one: _memstat_kvm_arch_relocate undone. */
uint64_t _memstat_kvm_arch_link(const struct memstat_kvm *kvm, uint64_t addr);
/* A return address as the kernel would call it: its signature stripped. */
uint64_t _memstat_kvm_arch_strip(const struct memstat_kvm *kvm,
	    uint64_t addr);

#endif /* !KVM_ARCH_H */
