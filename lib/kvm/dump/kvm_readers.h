/*
 * kvm_readers.h: the memory readers memstat_kvm_open() may choose, in the
 * order it offers them a file.  A new reader is one more line here and
 * its own file; the walk above does not change.
 */
#ifndef KVM_READERS_H
#define KVM_READERS_H

#include "kvm/dump/kvm_handle.h"

/*
 * ELF cores with kernel virtual addresses (/proc/kcore, QEMU's dumps with
 * paging), by pread(2); it declines the others.
 */
extern const struct kvm_reader _memstat_kvm_elf_reader;
/* libkdumpfile: ELF cores, kdump-compressed and flattened dumps. */
extern const struct kvm_reader _memstat_kvm_kdump_reader;

#endif /* !KVM_READERS_H */
