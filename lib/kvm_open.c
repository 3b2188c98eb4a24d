/*
 * kvm_open.c: opening a kernel core image with libkdumpfile, and reading
 * its kernel virtual memory.  Every failure leaves a code and a message on
 * the handle; nothing is printed.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kvm_internal.h"

int
_memstat_kvm_fail(struct memstat_kvm *kvm, int error, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(kvm->err, sizeof(kvm->err), fmt, ap);
	va_end(ap);
	kvm->error = error;
	return (-1);
}

int
_memstat_kvm_read(struct memstat_kvm *kvm, uint64_t addr, void *buf,
    size_t len)
{
	return (kvm->reader->read(kvm, addr, buf, len));
}

int
_memstat_kvm_vmcoreinfo_symbol(struct memstat_kvm *kvm, const char *name,
    uint64_t *addr)
{
	return (kvm->reader->vmcoreinfo_symbol(kvm, name, addr));
}

static int
kdump_reader_read(struct memstat_kvm *kvm, uint64_t addr, void *buf,
    size_t len)
{
	size_t got = len;
	kdump_status st;

	st = kdump_read(kvm->ctx, KDUMP_KVADDR, addr, buf, &got);
	if (st == KDUMP_OK && got == len)
		return (0);
	/* A page the dump left out (filtered, or past its end). */
	if (st == KDUMP_ERR_NODATA || st == KDUMP_OK)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM_SHORTREAD,
		    "cannot read %zu bytes at 0x%" PRIx64 ": %s", len,
		    addr + got, kdump_get_err(kvm->ctx)));
	return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM,
	    "cannot read 0x%" PRIx64 ": %s", addr + got,
	    kdump_get_err(kvm->ctx)));
}

int
_memstat_kvm_read_u64(struct memstat_kvm *kvm, uint64_t addr, uint64_t *v)
{
	return (_memstat_kvm_read(kvm, addr, v, sizeof(*v)));
}

int
_memstat_kvm_read_u32(struct memstat_kvm *kvm, uint64_t addr, uint32_t *v)
{
	return (_memstat_kvm_read(kvm, addr, v, sizeof(*v)));
}

int
_memstat_kvm_read_string(struct memstat_kvm *kvm, uint64_t addr, char *buf,
    size_t max)
{
	size_t n = 0, chunk;

	/* In small pieces, none crossing a page: the next may be absent. */
	while (n < max - 1) {
		chunk = 4096 - ((addr + n) & 4095);
		if (chunk > max - 1 - n)
			chunk = max - 1 - n;
		if (_memstat_kvm_read(kvm, addr + n, buf + n, chunk) != 0)
			return (-1);
		if (memchr(buf + n, '\0', chunk) != NULL)
			return (0);
		n += chunk;
	}
	buf[max - 1] = '\0';
	return (0);
}

static int
kdump_reader_symbol(struct memstat_kvm *kvm, const char *name, uint64_t *addr)
{
	kdump_addr_t a;

	if (kdump_vmcoreinfo_symbol(kvm->ctx, name, &a) != KDUMP_OK)
		return (-1);
	*addr = a;
	return (0);
}

static const struct kvm_reader kdump_reader = {
	.read = kdump_reader_read,
	.vmcoreinfo_symbol = kdump_reader_symbol,
};

static bool
set_str(kdump_ctx_t *ctx, const char *key, const char *value)
{
	return (kdump_set_string_attr(ctx, key, value) == KDUMP_OK);
}

/* The dump, opened and ready for kernel virtual reads: 0 or -1. */
static int
kvm_attach(struct memstat_kvm *kvm, int fd)
{
	const char *arch;
	bool diskdump;
	char *line;

	if (_memstat_kdumpfile_load(kvm->err, sizeof(kvm->err)) != 0) {
		kvm->error = MEMSTAT_ERROR_KVM;
		return (-1);
	}
	if ((kvm->ctx = kdump_new()) == NULL)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_NOMEMORY, "%s",
		    strerror(ENOMEM)));
	/* read(2), not mmap(2): a dump truncated under us cannot SIGBUS. */
	kdump_set_number_attr(kvm->ctx, KDUMP_ATTR_FILE_MMAP_POLICY,
	    KDUMP_MMAP_NEVER);
	if (_memstat_kvm_check_headers(kvm, fd, &diskdump) != 0)
		return (-1);
	/*
	 * libkdumpfile 0.5.1 (Debian 12) frees a kdump file's format data
	 * when it fails to open one, then again in kdump_free(): a crash.
	 * So a failed open of one leaves its context unfreed (a small leak,
	 * not a crash).
	 */
	if (kdump_open_fd(kvm->ctx, fd) != KDUMP_OK) {
		_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM, "%s",
		    kdump_get_err(kvm->ctx));
		if (diskdump)
			kvm->ctx = NULL;
		return (-1);
	}
	/* QEMU's kdump files name the machine but not the architecture. */
	if (kdump_get_string_attr(kvm->ctx, KDUMP_ATTR_ARCH_NAME, &arch) !=
	    KDUMP_OK && !set_str(kvm->ctx, KDUMP_ATTR_ARCH_NAME, "x86_64"))
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM, "%s",
		    kdump_get_err(kvm->ctx)));
	if (!set_str(kvm->ctx, KDUMP_ATTR_OSTYPE, "linux"))
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM, "%s",
		    kdump_get_err(kvm->ctx)));
	if (kdump_vmcoreinfo_line(kvm->ctx, "OSRELEASE", &line) != KDUMP_OK)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM,
		    "no VMCOREINFO in the dump: not a Linux kernel dump, or "
		    "made without it"));
	free(line);
	if (kdump_vmcoreinfo_line(kvm->ctx, "KERNELOFFSET", &line) ==
	    KDUMP_OK) {
		kvm->kaslr = strtoull(line, NULL, 16);
		free(line);
	}
	return (0);
}

void *
memstat_kvm_open(const char *core, const char *system, char *errbuf)
{
	struct memstat_kvm *kvm;
	int fd;

	if ((kvm = calloc(1, sizeof(*kvm))) == NULL) {
		snprintf(errbuf, MEMSTAT_KVM_ERRLEN, "%s", strerror(ENOMEM));
		return (NULL);
	}
	kvm->fd = -1;
	kvm->reader = &kdump_reader;
	if (system != NULL && (kvm->system = strdup(system)) == NULL)
		_memstat_kvm_fail(kvm, MEMSTAT_ERROR_NOMEMORY, "%s",
		    strerror(ENOMEM));
	else if ((fd = open(core, O_RDONLY | O_CLOEXEC)) == -1)
		_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM, "%s: %s", core,
		    strerror(errno));
	else if ((fd = _memstat_kvm_unflatten(kvm, fd)) != -1) {
		kvm->fd = fd;
		if (kvm_attach(kvm, fd) == 0)
			return (kvm);
	}
	snprintf(errbuf, MEMSTAT_KVM_ERRLEN, "%s", kvm->err);
	memstat_kvm_close(kvm);
	return (NULL);
}

int
memstat_kvm_close(void *kvm_handle)
{
	struct memstat_kvm *kvm = kvm_handle;

	if (kvm == NULL)
		return (0);
	if (kvm->ctx != NULL)
		kdump_free(kvm->ctx);
	if (kvm->fd != -1)
		close(kvm->fd);
	_memstat_kvm_symtab_free(kvm->syms);
	_memstat_kvm_btf_free(kvm);
	free(kvm->system);
	free(kvm);
	return (0);
}

const char *
memstat_kvm_geterr(void *kvm_handle)
{
	return (((struct memstat_kvm *)kvm_handle)->err);
}
