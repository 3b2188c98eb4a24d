/*
 * fuzz_elfcore.c: an ELF core of kernel virtual addresses, as the ELF
 * segment reader takes /proc/kcore: the input is the file.  Opened (by
 * that reader, or left to libkdumpfile), walked for the zones and the
 * free lists, once as a dump and once as the live kernel (each part then
 * walked again until it holds: the walks must still end).  A failure
 * leaves a code and a message; nothing may crash or read out of bounds.
 */
#include <sys/mman.h>

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "kvm/dump/kvm_handle.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char errbuf[MEMSTAT_KVM_ERRLEN], path[64];
	struct memory_type_list *list;
	struct memstat_frag *frag;
	struct memstat_kvm *kvm;
	int fd;

	if ((fd = memfd_create("elfcore", MFD_CLOEXEC)) == -1)
		abort();
	if (size > 0 && write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	for (int live = 0; live <= 1; live++) {
		if ((kvm = memstat_kvm_open(path, NULL, errbuf)) == NULL) {
			if (errbuf[0] == '\0')
				abort();
			break;
		}
		kvm->live = live;
		if ((list = memstat_mtl_alloc()) == NULL ||
		    (frag = memstat_frag_alloc()) == NULL)
			abort();
		if (memstat_kvm_all(list, kvm) != 0 &&
		    (memstat_mtl_geterror(list) == 0 ||
		    memstat_mtl_first(list) != NULL))
			abort();
		if (memstat_frag_kvm(frag, kvm, MEMSTAT_FRAG_TYPES) != 0 &&
		    memstat_frag_zones(frag) != 0)
			abort();
		memstat_frag_free(frag);
		memstat_mtl_free(list);
		memstat_kvm_close(kvm);
	}
	close(fd);
	return (0);
}
