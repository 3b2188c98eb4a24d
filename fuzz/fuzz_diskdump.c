/*
 * fuzz_diskdump.c: a kdump-compressed file's physical pages, read as
 * kvm_diskdump_phys.c reads them for memstat_kvm_open()'s reader: the
 * input is the file, whose headers are checked first as the reader
 * checks them (kvm_headers.c).  Then the first page frames are read one
 * by one and in runs straddling pages.  Nothing may crash, read out of
 * bounds or loop without end; a read either fills its buffer or fails.
 */
#include <sys/mman.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kvm/dump/kvm_diskdump_phys.h"
#include "kvm/dump/kvm_file.h"

#define PAGE	4096
#define PFNS	2048		/* the first 8 MiB */
#define RUN	18		/* pages in one read, more than the reader's run */

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static unsigned char buf[RUN * PAGE];
	struct diskdump_phys *dd;
	struct memstat_kvm *kvm;
	struct kvm_dump_file file;
	bool diskdump, big;
	int fd;

	if ((kvm = calloc(1, sizeof(*kvm))) == NULL ||
	    (fd = memfd_create("diskdump", MFD_CLOEXEC)) == -1)
		abort();
	if (size > 0 && write(fd, data, size) != (ssize_t)size)
		abort();
	file = (struct kvm_dump_file){ .fd = fd };
	if (_memstat_kvm_check_headers(kvm, &file, &diskdump, &big) == 0 &&
	    diskdump) {
		if (_memstat_diskdump_phys_load(&dd, &file, big) != 0)
			abort();
		for (uint64_t pfn = 0; dd != NULL && pfn < PFNS; pfn++) {
			memset(buf, 0, PAGE);
			(void)_memstat_diskdump_phys_read(dd, &file, pfn * PAGE,
			    buf, PAGE);
			(void)_memstat_diskdump_phys_read(dd, &file, pfn * PAGE +
			    PAGE / 3, buf, RUN * PAGE - PAGE / 3);
		}
		_memstat_diskdump_phys_free(dd);
	}
	close(fd);
	free(kvm);
	return (0);
}
