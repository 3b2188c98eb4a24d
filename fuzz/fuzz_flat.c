/*
 * fuzz_flat.c: makedumpfile's flattened stream, reassembled as
 * memstat_kvm_open() does before libkdumpfile sees it.  The input is the
 * stream; what comes out must be a file no larger than the limit.
 */
#include <sys/mman.h>
#include <sys/stat.h>

#include <stdlib.h>
#include <unistd.h>

#include "kvm/dump/kvm_file.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct memstat_kvm *kvm;
	struct stat st;
	unsigned char b;
	int fd;

	if ((kvm = calloc(1, sizeof(*kvm))) == NULL ||
	    (fd = memfd_create("flat", MFD_CLOEXEC)) == -1)
		abort();
	if (size > 0 && write(fd, data, size) != (ssize_t)size)
		abort();
	if ((fd = _memstat_kvm_unflatten(kvm, fd)) != -1) {
		if (fstat(fd, &st) != 0 || st.st_size < 0 ||
		    (uint64_t)st.st_size > (1ULL << 48))
			abort();
		if (st.st_size > 0)
			(void)pread(fd, &b, 1, st.st_size - 1);
		close(fd);
	} else if (kvm->err.code == 0 || kvm->err.msg[0] == '\0')
		abort();
	free(kvm);
	return (0);
}
