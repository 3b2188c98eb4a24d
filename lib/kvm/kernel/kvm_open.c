/*
 * kvm_open.c: FreeBSD's kvm-style handle on a kernel core image.  Opening
 * chooses the memory reader (kvm_readers.h) by content, then the
 * architecture (kvm_arch.h) by what the file says of itself; closing
 * gives back what the reader and the finders loaded.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kvm/arch/kvm_arch.h"
#include "kvm/dump/kvm_readers.h"
#include "kvm/kernel/kvm_finders.h"

static const struct kvm_reader *const readers[] = {
	&_memstat_kvm_elf_reader,
	&_memstat_kvm_kdump_reader,
};

/*
 * The image's architecture, from what the reader's file says (its
 * machine, its VMCOREINFO), then told to the reader: 0, or -1 with the
 * error recorded.
 */
static int
kvm_choose_arch(struct memstat_kvm *kvm)
{
	const struct kvm_reader *r = kvm->reader;

	if (r->vmcoreinfo_in_ram != NULL && r->vmcoreinfo_in_ram(kvm,
	    _memstat_kvm_arch_vmcoreinfo_at(r->arch_name(kvm))) != 0)
		return (-1);
	if (_memstat_kvm_arch_setup(kvm, r->arch_name(kvm), r->vmcoreinfo,
	    kvm->reader_arg) != 0)
		return (-1);
	if (r->arch_found == NULL)
		return (0);
	return (r->arch_found(kvm, _memstat_kvm_arch(kvm)->name));
}

/*
 * Offer the file to each reader in turn, and set up the architecture of
 * the one that takes it: 0, or -1 with the error (no reader left open).
 */
static int
kvm_choose_reader(struct memstat_kvm *kvm, const char *core)
{
	int fd, rc;

	for (size_t i = 0; i < sizeof(readers) / sizeof(readers[0]); i++) {
		if ((fd = open(core, O_RDONLY | O_CLOEXEC)) == -1)
			return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM,
			    "%s: %s", core, strerror(errno)));
		kvm->reader = readers[i];
		if ((rc = readers[i]->open(kvm, fd)) == KVM_READER_NOT_MINE) {
			close(fd);
			continue;
		}
		if (rc == 0 && kvm_choose_arch(kvm) != 0) {
			if (readers[i]->close != NULL)
				readers[i]->close(kvm);
			rc = -1;
		}
		return (rc);
	}
	kvm->reader = NULL;
	return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM,
	    "%s: no reader takes this core image", core));
}

void *
memstat_kvm_open(const char *core, const char *system, char *errbuf)
{
	struct memstat_kvm *kvm;

	if ((kvm = calloc(1, sizeof(*kvm))) == NULL) {
		snprintf(errbuf, MEMSTAT_KVM_ERRLEN, "%s", strerror(ENOMEM));
		return (NULL);
	}
	kvm->flags = MEMSTAT_KVM_ALLOCATED | MEMSTAT_LINUX_ALIASES;
	if (system != NULL && (kvm->system = strdup(system)) == NULL)
		_memstat_kvm_fail(kvm, MEMSTAT_ERROR_NOMEMORY, "%s",
		    strerror(ENOMEM));
	else if (kvm_choose_reader(kvm, core) == 0)
		return (kvm);
	/* A reader whose open failed has given back what it took. */
	kvm->reader = NULL;
	snprintf(errbuf, MEMSTAT_KVM_ERRLEN, "%s", kvm->err.msg);
	memstat_kvm_close(kvm);
	return (NULL);
}

int
memstat_kvm_close(void *kvm_handle)
{
	struct memstat_kvm *kvm = kvm_handle;

	if (kvm == NULL)
		return (0);
	if (kvm->reader != NULL && kvm->reader->close != NULL)
		kvm->reader->close(kvm);
	_memstat_kvm_symtab_free(kvm->syms);
	_memstat_kvm_btf_free(kvm);
	free(kvm->system);
	free(kvm);
	return (0);
}

void
memstat_kvm_setflags(void *kvm_handle, int flags)
{
	((struct memstat_kvm *)kvm_handle)->flags = flags &
	    (MEMSTAT_KVM_ALLOCATED | MEMSTAT_LINUX_ALIASES);
}

int
memstat_kvm_live(void *kvm_handle)
{
	return (((struct memstat_kvm *)kvm_handle)->live ? 1 : 0);
}

const char *
memstat_kvm_geterr(void *kvm_handle)
{
	return (((struct memstat_kvm *)kvm_handle)->err.msg);
}
