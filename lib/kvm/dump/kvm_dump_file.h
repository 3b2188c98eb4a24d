/*
 * kvm_dump_file.h: a dump file's bytes, as its own file holds them or as
 * makedumpfile's flattened stream places them (kvm_flat.h), for the
 * readers that read a dump's headers and pages themselves.
 */
#ifndef KVM_DUMP_FILE_H
#define KVM_DUMP_FILE_H

#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>

struct kvm_flat;

struct kvm_dump_file {
	int		 fd;
	struct kvm_flat	*flat;		/* NULL: fd is the dump itself */
};

/* As pread(2) of the dump: short only at its end; -1 with errno. */
ssize_t	_memstat_dump_pread(const struct kvm_dump_file *f, void *buf,
	    size_t len, uint64_t off);
/*
 * All of [off, off + len) of the dump: 0, or -1 with errno (0 when the
 * dump ends first).
 */
int	_memstat_dump_pread_all(const struct kvm_dump_file *f, void *buf,
	    size_t len, uint64_t off);
/* The dump's size: 0, or -1 with errno. */
int	_memstat_dump_size(const struct kvm_dump_file *f, uint64_t *size);

#endif /* !KVM_DUMP_FILE_H */
