/*
 * kvm_reader_kdump.c: the memory reader over a dump file, by
 * libkdumpfile: ELF cores (/proc/vmcore, QEMU's dump-guest-memory),
 * kdump-compressed files, and makedumpfile's flattened stream once
 * reassembled (kvm_flat.c).  Headers are checked before libkdumpfile
 * sees them (kvm_headers.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kvm/dump/kvm_diskdump_phys.h"
#include "kvm/dump/kvm_elf_phys.h"
#include "kvm/dump/kvm_file.h"
#include "kvm/dump/kvm_kdumpfile.h"
#include "kvm/dump/kvm_readers.h"

struct kdump_state {
	kdump_ctx_t	*ctx;
	int		 fd;		/* the dump, or its reassembly */
	struct elf_phys	 phys;		/* an ELF dump's, read by pread(2) */
	struct diskdump_phys *dd;	/* a kdump-compressed one's */
};

/* Physical memory read without libkdumpfile, where the dump allows. */
static bool
phys_read(const struct kdump_state *ks, uint64_t paddr, void *buf,
    size_t len)
{
	if (ks->phys.nsegs != 0)
		return (_memstat_elf_phys_read(&ks->phys, ks->fd, paddr, buf,
		    len));
	return (_memstat_diskdump_phys_read(ks->dd, ks->fd, paddr, buf, len));
}

/* Physical memory by our reader, else libkdumpfile's (lzo, snappy, zstd). */
static bool
phys_read_any(void *arg, uint64_t paddr, void *buf, size_t len)
{
	const struct kdump_state *ks = arg;
	size_t got = len;

	if (phys_read(ks, paddr, buf, len))
		return (true);
	return (kdump_read(ks->ctx, KDUMP_KPHYSADDR, paddr, buf, &got) ==
	    KDUMP_OK && got == len);
}

/*
 * Whether the dump left out a page of [paddr, paddr + len) (makedumpfile
 * -d), a read of addr: then the error recorded.
 */
static bool
left_out(struct memstat_kvm *kvm, const struct kdump_state *ks,
    uint64_t addr, uint64_t paddr, size_t len)
{
	uint64_t left;

	if (!_memstat_diskdump_phys_left_out(ks->dd, paddr, len, &left))
		return (false);
	_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM_SHORTREAD, "cannot read %zu "
	    "bytes at 0x%" PRIx64 ": the dump left out the page at 0x%"
	    PRIx64 " (makedumpfile -d)", len, addr, left);
	return (true);
}

/* Physical [paddr, paddr + len), or -1 with why recorded (addr's). */
static int
phys_read_at(struct memstat_kvm *kvm, struct kdump_state *ks, uint64_t addr,
    uint64_t paddr, void *buf, size_t len)
{
	if (phys_read_any(ks, paddr, buf, len))
		return (0);
	if (left_out(kvm, ks, addr, paddr, len))
		return (-1);
	return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM_SHORTREAD,
	    "cannot read %zu bytes at 0x%" PRIx64 ": the dump has no page "
	    "at 0x%" PRIx64, len, addr, paddr));
}

/*
 * A read of the direct map or the kernel image: the physical address by
 * subtraction (the handle's translation), no page-table walk, no
 * libkdumpfile (kvm_elf_phys.h, kvm_diskdump_phys.h).  0: read; -1: a page of it the dump left out, the
 * error recorded (libkdumpfile 0.5.1's page cache can fail on such
 * pages: a NULL buffer after it reuses an entry it had dropped); 1:
 * libkdumpfile's to read.
 */
static int
linear_read(struct memstat_kvm *kvm, const struct kdump_state *ks,
    uint64_t addr, void *buf, size_t len)
{
	uint64_t paddr;

	if (kvm->translation == NULL ||
	    !kvm->translation->linear(kvm, addr, &paddr))
		return (1);
	if (phys_read(ks, paddr, buf, len))
		return (0);
	return (left_out(kvm, ks, addr, paddr, len) ? -1 : 1);
}

/*
 * A read through the image's own page tables, page by page, where the
 * architecture walks them (the handle's translation): 0, -1 with the
 * error recorded, or 1: libkdumpfile's to read.
 */
static int
walked_read(struct memstat_kvm *kvm, struct kdump_state *ks, uint64_t addr,
    void *buf, size_t len)
{
	const struct kvm_translation *t = kvm->translation;
	uint64_t page, paddr;
	size_t n;
	int rc;

	if (t == NULL)
		return (1);
	page = 1ULL << t->page_shift(kvm);
	while (len > 0) {
		n = page - (addr & (page - 1));
		if (n > len)
			n = len;
		if ((rc = t->walk(kvm, addr, &paddr, phys_read_any, ks)) == 1)
			return (1);
		if (rc != 0)
			return (_memstat_kvm_fail(kvm,
			    MEMSTAT_ERROR_KVM_SHORTREAD, "cannot read %zu "
			    "bytes at 0x%" PRIx64 ": the page tables map no "
			    "page there, or the dump left theirs out", len,
			    addr));
		if (phys_read_at(kvm, ks, addr, paddr, buf, n) != 0)
			return (-1);
		buf = (char *)buf + n;
		addr += n;
		len -= n;
	}
	return (0);
}

static kdump_ctx_t *
ctx_of(struct memstat_kvm *kvm)
{
	return (((struct kdump_state *)kvm->reader_arg)->ctx);
}

static int
kdump_reader_read(struct memstat_kvm *kvm, uint64_t addr, void *buf,
    size_t len)
{
	struct kdump_state *ks = kvm->reader_arg;
	kdump_ctx_t *ctx = ks->ctx;
	size_t got = len;
	kdump_status st;
	int rc;

	if ((rc = linear_read(kvm, ks, addr, buf, len)) != 1 ||
	    (rc = walked_read(kvm, ks, addr, buf, len)) != 1)
		return (rc);
	st = kdump_read(ctx, KDUMP_KVADDR, addr, buf, &got);
	if (st == KDUMP_OK && got == len)
		return (0);
	/* A page the dump left out (filtered, or past its end). */
	if (st == KDUMP_ERR_NODATA || st == KDUMP_OK)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM_SHORTREAD,
		    "cannot read %zu bytes at 0x%" PRIx64 ": %s", len,
		    addr + got, kdump_get_err(ctx)));
	return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM,
	    "cannot read 0x%" PRIx64 ": %s", addr + got, kdump_get_err(ctx)));
}

static int
kdump_reader_symbol(struct memstat_kvm *kvm, const char *name, uint64_t *addr)
{
	kdump_addr_t a;

	if (kdump_vmcoreinfo_symbol(ctx_of(kvm), name, &a) != KDUMP_OK)
		return (-1);
	*addr = a;
	return (0);
}

/* kvm_vmcoreinfo_fn over libkdumpfile's VMCOREINFO lines. */
static int
kdump_reader_vmcoreinfo(void *arg, const char *key, char *buf, size_t len)
{
	const struct kdump_state *ks = arg;
	char *line;
	int rc = -1;

	if (kdump_vmcoreinfo_line(ks->ctx, key, &line) != KDUMP_OK)
		return (-1);
	if (strlen(line) < len) {
		memcpy(buf, line, strlen(line) + 1);
		rc = 0;
	}
	free(line);
	return (rc);
}

static bool
set_str(kdump_ctx_t *ctx, const char *key, const char *value)
{
	return (kdump_set_string_attr(ctx, key, value) == KDUMP_OK);
}

/*
 * The dump, opened, its VMCOREINFO found: 0 or -1.  Kernel virtual reads
 * wait for its architecture (kdump_reader_arch_found()).
 */
static int
kdump_attach(struct memstat_kvm *kvm, struct kdump_state *ks)
{
	bool diskdump;
	char *line;

	if (_memstat_kdumpfile_load(kvm->err.msg, sizeof(kvm->err.msg)) != 0) {
		kvm->err.code = MEMSTAT_ERROR_KVM;
		return (-1);
	}
	if ((ks->ctx = kdump_new()) == NULL)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_NOMEMORY, "%s",
		    strerror(ENOMEM)));
	/* read(2), not mmap(2): a dump truncated under us cannot SIGBUS. */
	kdump_set_number_attr(ks->ctx, KDUMP_ATTR_FILE_MMAP_POLICY,
	    KDUMP_MMAP_NEVER);
	/*
	 * libkdumpfile's page cache keeps its default size: 0.5.1's (Debian
	 * 12's) hands out a NULL buffer when it reuses an entry it had
	 * dropped (fixed upstream in "cache: Get data buffer before adjusting
	 * ghost partition size"), which a small cache met on a filtered
	 * dump of 7.2 (a write to address 0 in kdump_read()).  The direct
	 * map and the kernel image are read without it (kvm_diskdump_phys.h).
	 */
	if (_memstat_kvm_check_headers(kvm, ks->fd, &diskdump) != 0)
		return (-1);
	if ((diskdump ? _memstat_diskdump_phys_load(&ks->dd, ks->fd) :
	    _memstat_elf_phys_load(&ks->phys, ks->fd)) != 0)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_NOMEMORY, "%s",
		    strerror(ENOMEM)));
	/*
	 * libkdumpfile 0.5.1 (Debian 12) frees a kdump file's format data
	 * when it fails to open one, then again in kdump_free(): a crash.
	 * So a failed open of one leaves its context unfreed (a small leak,
	 * not a crash).
	 */
	if (kdump_open_fd(ks->ctx, ks->fd) != KDUMP_OK) {
		_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM, "%s",
		    kdump_get_err(ks->ctx));
		if (diskdump)
			ks->ctx = NULL;
		return (-1);
	}
	if (!set_str(ks->ctx, KDUMP_ATTR_OSTYPE, "linux"))
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM, "%s",
		    kdump_get_err(ks->ctx)));
	if (kdump_vmcoreinfo_line(ks->ctx, "OSRELEASE", &line) != KDUMP_OK)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM,
		    "no VMCOREINFO in the dump: not a Linux kernel dump, or "
		    "made without it"));
	free(line);
	return (0);
}

/*
 * QEMU's kdump files name the machine but not the architecture
 * ("Unknown" on arm64): VMCOREINFO's own keys tell it then.
 */
static const char *
kdump_reader_arch_name(struct memstat_kvm *kvm)
{
	const char *arch;

	if (kdump_get_string_attr(ctx_of(kvm), KDUMP_ATTR_ARCH_NAME, &arch) !=
	    KDUMP_OK)
		return (NULL);
	return (arch);
}

/*
 * Named now, the architecture takes effect when the OS type is set anew:
 * libkdumpfile reads the kernel's page tables then, and a dump it cannot
 * read is refused here, not at the first read.
 */
static int
kdump_reader_arch_found(struct memstat_kvm *kvm, const char *name)
{
	kdump_ctx_t *ctx = ctx_of(kvm);

	if (kdump_reader_arch_name(kvm) == NULL && (!set_str(ctx,
	    KDUMP_ATTR_ARCH_NAME, name) ||
	    kdump_clear_attr(ctx, KDUMP_ATTR_OSTYPE) != KDUMP_OK ||
	    !set_str(ctx, KDUMP_ATTR_OSTYPE, "linux")))
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM, "%s",
		    kdump_get_err(ctx)));
	return (0);
}

static void
kdump_reader_close(struct memstat_kvm *kvm)
{
	struct kdump_state *ks = kvm->reader_arg;

	if (ks == NULL)
		return;
	if (ks->ctx != NULL)
		kdump_free(ks->ctx);
	_memstat_elf_phys_free(&ks->phys);
	_memstat_diskdump_phys_free(ks->dd);
	if (ks->fd != -1)
		close(ks->fd);
	free(ks);
	kvm->reader_arg = NULL;
}

/* Every file the probe calls a core image is libkdumpfile's to try. */
static int
kdump_reader_open(struct memstat_kvm *kvm, int fd)
{
	struct kdump_state *ks;

	if ((ks = calloc(1, sizeof(*ks))) == NULL) {
		close(fd);
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_NOMEMORY, "%s",
		    strerror(ENOMEM)));
	}
	kvm->reader_arg = ks;
	if ((ks->fd = _memstat_kvm_unflatten(kvm, fd)) == -1 ||
	    kdump_attach(kvm, ks) != 0) {
		kdump_reader_close(kvm);
		return (-1);
	}
	return (0);
}

const struct kvm_reader _memstat_kvm_kdump_reader = {
	.name = "libkdumpfile",
	.open = kdump_reader_open,
	.read = kdump_reader_read,
	.vmcoreinfo_symbol = kdump_reader_symbol,
	.close = kdump_reader_close,
	.arch_name = kdump_reader_arch_name,
	.vmcoreinfo = kdump_reader_vmcoreinfo,
	.arch_found = kdump_reader_arch_found,
};
