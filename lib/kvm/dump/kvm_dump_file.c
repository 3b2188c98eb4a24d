/*
 * kvm_dump_file.c: a dump file's bytes, from its file or through its
 * flattened stream's index (see kvm_dump_file.h).
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdint.h>
#include <unistd.h>

#include "kvm/dump/kvm_dump_file.h"
#include "kvm/dump/kvm_flat.h"

ssize_t
_memstat_dump_pread(const struct kvm_dump_file *f, void *buf, size_t len,
    uint64_t off)
{
	ssize_t n;

	if (f->flat != NULL)
		return (_memstat_flat_pread(f->flat, f->fd, buf, len, off));
	if (off > (uint64_t)INT64_MAX) {
		errno = EOVERFLOW;
		return (-1);
	}
	while ((n = pread(f->fd, buf, len, (off_t)off)) < 0 && errno == EINTR)
		;
	return (n);
}

int
_memstat_dump_pread_all(const struct kvm_dump_file *f, void *buf, size_t len,
    uint64_t off)
{
	ssize_t n;

	for (size_t done = 0; done < len; done += (size_t)n) {
		if ((n = _memstat_dump_pread(f, (char *)buf + done,
		    len - done, off + done)) <= 0) {
			if (n == 0)
				errno = 0;
			return (-1);
		}
	}
	return (0);
}

int
_memstat_dump_size(const struct kvm_dump_file *f, uint64_t *size)
{
	struct stat st;

	if (f->flat != NULL) {
		*size = _memstat_flat_size(f->flat);
		return (0);
	}
	if (fstat(f->fd, &st) != 0)
		return (-1);
	*size = (uint64_t)st.st_size;
	return (0);
}
