/*
 * fuzz_flat.c: makedumpfile's flattened stream, indexed as
 * memstat_kvm_open() does, then read in place and reassembled: the
 * input is the stream.  A stream the index takes must give a file no
 * larger than the limit, and where it is read in place, the same bytes
 * as its reassembly (where one can be made) at its start, middle and
 * end.
 */
#include <sys/mman.h>
#include <sys/stat.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kvm/dump/kvm_flat.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The bytes at off, in place and in the reassembly, alike. */
static void
same_at(const struct kvm_flat *flat, int fd, int whole, uint64_t off)
{
	unsigned char a[64], b[64];
	ssize_t n = _memstat_flat_pread(flat, fd, a, sizeof(a), off);

	if (n < 0 || pread(whole, b, sizeof(b), (off_t)off) != n ||
	    memcmp(a, b, (size_t)n) != 0)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kvm_flat *flat;
	char why[256] = "";
	uint64_t len;
	int fd, whole;

	if ((fd = memfd_create("flat", MFD_CLOEXEC)) == -1)
		abort();
	if (size > 0 && write(fd, data, size) != (ssize_t)size)
		abort();
	if (_memstat_flat_index(fd, &flat, why, sizeof(why)) != 0) {
		if (flat != NULL || why[0] == '\0')
			abort();
	} else if (flat != NULL) {
		if ((len = _memstat_flat_size(flat)) > (1ULL << 48))
			abort();
		/* A reassembly may fail (a file too large): not the index. */
		if ((whole = _memstat_flat_reassemble(flat, fd)) != -1) {
			if (_memstat_flat_in_place(flat)) {
				same_at(flat, fd, whole, 0);
				same_at(flat, fd, whole, len / 2);
				same_at(flat, fd, whole, len > 64 ? len - 64 : 0);
			}
			close(whole);
		}
		_memstat_flat_free(flat);
	}
	close(fd);
	return (0);
}
