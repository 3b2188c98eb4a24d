/*
 * kvm_flat.h: makedumpfile's flattened stream (-F), which Debian's
 * kdump-tools writes over ssh, QEMU to a pipe and libvirt's
 * `virsh dump --format kdump-*`: a dump file cut into records, each
 * saying where in the file its bytes go.  Read in place through an
 * index of its records, or reassembled into a file for libkdumpfile
 * (0.5.1 cannot open the stream).
 */
#ifndef KVM_FLAT_H
#define KVM_FLAT_H

#include <sys/types.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct kvm_flat;

/*
 * The records of the stream on fd, indexed into *flat (NULL when fd is
 * not a flattened stream): 0, or -1 with why in why[len] (errno says
 * whether memory ran out: ENOMEM).
 */
int	_memstat_flat_index(int fd, struct kvm_flat **flat, char *why,
	    size_t len);
/*
 * Whether every byte of the dump comes from one record: else only a
 * reassembly, the records written in their order, reads it right.
 */
bool	_memstat_flat_in_place(const struct kvm_flat *flat);
/* The size of the file the stream flattens. */
uint64_t _memstat_flat_size(const struct kvm_flat *flat);
/*
 * Up to len bytes of that file at off, from the stream on fd, as
 * pread(2) would give them from the file: bytes no record holds read as
 * zeros, and the count is short only at the file's end.  -1 with errno
 * when the stream cannot be read (EIO: cut short under us).  The index
 * must be in place.
 */
ssize_t	_memstat_flat_pread(const struct kvm_flat *flat, int fd, void *buf,
	    size_t len, uint64_t off);
/*
 * The file, reassembled from the stream on fd into an unlinked temporary
 * file under $TMPDIR (else /tmp): its descriptor, or -1 with errno.
 */
int	_memstat_flat_reassemble(struct kvm_flat *flat, int fd);
void	_memstat_flat_free(struct kvm_flat *flat);

#endif /* !KVM_FLAT_H */
