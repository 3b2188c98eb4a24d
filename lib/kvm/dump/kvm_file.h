/*
 * kvm_file.h: what the dump-file reader does to a file before it or
 * libkdumpfile reads it: check its headers' tables against the file.
 */
#ifndef KVM_FILE_H
#define KVM_FILE_H

#include "kvm/dump/kvm_dump_file.h"
#include "kvm/dump/kvm_handle.h"

/*
 * Whether the first n bytes of a file (20 suffice) begin a kernel core
 * image: an ELF core (/proc/vmcore, QEMU's dump-guest-memory), a
 * kdump-compressed file, or makedumpfile's flattened stream.  Each magic
 * on its own: a cut dump is still a dump, and says so when opened.
 */
#define KVM_MAGIC_LEN	20
bool	_memstat_kvm_is_core(const unsigned char *m, size_t n);

/*
 * The tables a kdump or ELF header points at lie within the dump (so
 * libkdumpfile allocates nothing the file does not hold): 0, or -1 with
 * the error recorded.  *diskdump says whether it is a kdump file, *big
 * whether its headers are big-endian (the dumped machine's order).
 */
int	_memstat_kvm_check_headers(struct memstat_kvm *kvm,
	    const struct kvm_dump_file *f, bool *diskdump, bool *big);

#endif /* !KVM_FILE_H */
