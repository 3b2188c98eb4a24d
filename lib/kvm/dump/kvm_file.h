/*
 * kvm_file.h: what the dump-file reader does to a file before
 * libkdumpfile sees it: check its headers' tables against the file, and
 * reassemble makedumpfile's flattened stream.
 */
#ifndef KVM_FILE_H
#define KVM_FILE_H

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
 * The tables a kdump or ELF header points at lie within fd's file (so
 * libkdumpfile allocates nothing the file does not hold): 0, or -1 with
 * the error recorded.  *diskdump says whether fd is a kdump file.
 */
int	_memstat_kvm_check_headers(struct memstat_kvm *kvm, int fd,
	    bool *diskdump);

/*
 * The descriptor to read the dump open on fd through: fd itself, or, for
 * makedumpfile's flattened stream, an unlinked temporary file holding its
 * reassembly (fd is closed).  -1, fd closed, with the error recorded.
 */
int	_memstat_kvm_unflatten(struct memstat_kvm *kvm, int fd);

#endif /* !KVM_FILE_H */
