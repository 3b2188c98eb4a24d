/*
 * kvm_reader_kdump.c: the memory reader over a dump file, by
 * libkdumpfile: ELF cores (/proc/vmcore, QEMU's dump-guest-memory),
 * kdump-compressed files, and makedumpfile's flattened stream.  Headers
 * are checked before libkdumpfile sees them (kvm_headers.c), and the
 * pages it would read slowest are read here (kvm_elf_phys.h,
 * kvm_diskdump_phys.h).  A flattened kdump file is read in place, its
 * VMCOREINFO from its sub-header (kvm_flat.h): libkdumpfile, which
 * cannot open the stream, is given its reassembly only when a read
 * needs it (a page compressed another way, an address the page tables
 * leave to it), which the reports on a zlib dump never do.  So is a
 * kdump file whose header's VMCOREINFO is not one, its note found among
 * the notes: libkdumpfile trusted the header where QEMU 7.2's arm64
 * dumps put zeros, and read no page of them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kvm/dump/kvm_diskdump_phys.h"
#include "kvm/dump/kvm_elf_phys.h"
#include "kvm/dump/kvm_elf_segments.h"
#include "kvm/dump/kvm_file.h"
#include "kvm/dump/kvm_flat.h"
#include "kvm/dump/kvm_kdumpfile.h"
#include "kvm/dump/kvm_readers.h"
#include "kvm/dump/kvm_vmcoreinfo_text.h"

/* struct disk_dump_header's utsname.machine (after release, version). */
#define DH_MACHINE	272
#define UTS_LEN		65
/* The steps in which memory is searched for the kernel's VMCOREINFO. */
#define SCAN_STEP	4096

struct kdump_state {
	struct memstat_kvm *kvm;	/* where libkdumpfile's failure goes */
	kdump_ctx_t	*ctx;		/* NULL until needed, read in place */
	bool		 ctx_failed;	/* opening it failed, and why: */
	struct memstat_err ctx_err;	/* said again at each read it fails */
	struct kvm_dump_file file;	/* the dump, its stream, or its reassembly */
	int		 kfd;		/* libkdumpfile's: file.fd, a reassembly */
	struct elf_phys	 phys;		/* an ELF dump's, read by pread(2) */
	struct diskdump_phys *dd;	/* a kdump-compressed one's */
	bool		 diskdump;	/* a kdump-compressed file */
	/* Read in place: the dump's own VMCOREINFO, machine, architecture. */
	char		*vmcoreinfo;
	char		 machine[UTS_LEN + 1];
	const char	*arch;
	/* None in the dump: the kernel's note, to be found in its memory. */
	bool		 in_ram;
	bool		 from_ram;	/* and found there */
};

static int	ctx_open(struct memstat_kvm *kvm, struct kdump_state *ks);

/*
 * libkdumpfile's context, opened at the first read that needs it: NULL
 * with why recorded when it cannot be.
 */
static kdump_ctx_t *
lib(struct kdump_state *ks)
{
	if (ks->ctx == NULL && !ks->ctx_failed && ctx_open(ks->kvm, ks) != 0) {
		ks->ctx_failed = true;
		ks->ctx_err = ks->kvm->err;
	}
	if (!ks->ctx_failed)
		return (ks->ctx);
	ks->kvm->err = ks->ctx_err;
	return (NULL);
}

/*
 * Whether a read failed for libkdumpfile's failure to open the dump, and
 * that is what to say: not where the dump is read in place by the
 * VMCOREINFO found in its memory, which libkdumpfile never reads (a
 * page that is not there is said so).
 */
static bool
lib_failed(const struct kdump_state *ks)
{
	return (ks->ctx_failed && !ks->from_ram);
}

/* Physical memory read without libkdumpfile, where the dump allows. */
static bool
phys_read(const struct kdump_state *ks, uint64_t paddr, void *buf,
    size_t len)
{
	if (ks->phys.nsegs != 0)
		return (_memstat_elf_phys_read(&ks->phys, ks->file.fd, paddr,
		    buf, len));
	return (_memstat_diskdump_phys_read(ks->dd, &ks->file, paddr, buf,
	    len));
}

/* Physical memory by our reader, else libkdumpfile's (lzo, snappy, zstd). */
static bool
phys_read_any(void *arg, uint64_t paddr, void *buf, size_t len)
{
	struct kdump_state *ks = arg;
	kdump_ctx_t *ctx;
	uint64_t left;
	size_t got = len;

	if (phys_read(ks, paddr, buf, len))
		return (true);
	/* What the dump left out, libkdumpfile cannot read either. */
	if (_memstat_diskdump_phys_left_out(ks->dd, paddr, len, &left) ||
	    (ctx = lib(ks)) == NULL)
		return (false);
	return (kdump_read(ctx, KDUMP_KPHYSADDR, paddr, buf, &got) ==
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
	if (lib_failed(ks) || left_out(kvm, ks, addr, paddr, len))
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
 * The walk's reads of page-table entries: the first the dump has no page
 * for is kept, to name it (a dump without the tables cannot say whether
 * they map the address).
 */
struct table_reads {
	struct kdump_state *ks;
	bool		 missed;
	uint64_t	 at;
};

static bool
table_read(void *arg, uint64_t paddr, void *buf, size_t len)
{
	struct table_reads *tr = arg;

	if (phys_read_any(tr->ks, paddr, buf, len))
		return (true);
	if (!tr->missed)
		tr->at = paddr;
	tr->missed = true;
	return (false);
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
	struct table_reads tr = { .ks = ks };
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
		tr.missed = false;
		if ((rc = t->walk(kvm, addr, &paddr, table_read, &tr)) == 1)
			return (1);
		if (rc != 0 && lib_failed(ks))
			return (-1);
		if (rc != 0 && tr.missed)
			return (_memstat_kvm_fail(kvm,
			    MEMSTAT_ERROR_KVM_SHORTREAD, "cannot read %zu "
			    "bytes at 0x%" PRIx64 ": the dump has no page for "
			    "its page-table entry at 0x%" PRIx64, len, addr,
			    tr.at));
		if (rc != 0)
			return (_memstat_kvm_fail(kvm,
			    MEMSTAT_ERROR_KVM_SHORTREAD, "cannot read %zu "
			    "bytes at 0x%" PRIx64 ": the page tables map no "
			    "page there", len, addr));
		if (phys_read_at(kvm, ks, addr, paddr, buf, n) != 0)
			return (-1);
		buf = (char *)buf + n;
		addr += n;
		len -= n;
	}
	return (0);
}

static int
kdump_reader_read(struct memstat_kvm *kvm, uint64_t addr, void *buf,
    size_t len)
{
	struct kdump_state *ks = kvm->reader_arg;
	kdump_ctx_t *ctx;
	size_t got = len;
	kdump_status st;
	int rc;

	if ((rc = linear_read(kvm, ks, addr, buf, len)) != 1 ||
	    (rc = walked_read(kvm, ks, addr, buf, len)) != 1)
		return (rc);
	if ((ctx = lib(ks)) == NULL)
		return (-1);
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
	const struct kdump_state *ks = kvm->reader_arg;
	kdump_addr_t a;

	if (ks->vmcoreinfo != NULL)
		return (_memstat_vmcoreinfo_symbol(ks->vmcoreinfo, name, addr));
	if (ks->ctx == NULL || ks->ctx_failed ||
	    kdump_vmcoreinfo_symbol(ks->ctx, name, &a) != KDUMP_OK)
		return (-1);
	*addr = a;
	return (0);
}

/* kvm_vmcoreinfo_fn over the dump's VMCOREINFO lines. */
static int
kdump_reader_vmcoreinfo(void *arg, const char *key, char *buf, size_t len)
{
	const struct kdump_state *ks = arg;
	char *line;
	int rc = -1;

	if (ks->vmcoreinfo != NULL)
		return (_memstat_vmcoreinfo_line(ks->vmcoreinfo, key, buf,
		    len));
	if (ks->ctx == NULL || ks->ctx_failed ||
	    kdump_vmcoreinfo_line(ks->ctx, key, &line) != KDUMP_OK)
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
 * The reassembly of a flattened stream for libkdumpfile, into ks->kfd:
 * 0, or -1 with the error recorded.
 */
static int
reassemble(struct memstat_kvm *kvm, struct kdump_state *ks)
{
	if ((ks->kfd = _memstat_flat_reassemble(ks->file.flat,
	    ks->file.fd)) == -1)
		return (_memstat_kvm_fail(kvm, errno == ENOMEM ?
		    MEMSTAT_ERROR_NOMEMORY : MEMSTAT_ERROR_KVM,
		    "flattened dump: reassembly in a temporary file: %s",
		    strerror(errno)));
	return (0);
}

/*
 * A flattened stream read through its reassembly alone: by libkdumpfile,
 * and by this reader where it reads the file.  0, or -1 recorded.
 */
static int
reassemble_all(struct memstat_kvm *kvm, struct kdump_state *ks)
{
	if (reassemble(kvm, ks) != 0)
		return (-1);
	close(ks->file.fd);
	_memstat_flat_free(ks->file.flat);
	ks->file = (struct kvm_dump_file){ .fd = ks->kfd };
	return (0);
}

/*
 * The architecture chosen, given to libkdumpfile: it takes effect when
 * the OS type is set anew, and libkdumpfile reads the kernel's page
 * tables then, so a dump it cannot read is refused here, not at the
 * first read.  QEMU's kdump files name the machine but not the
 * architecture ("Unknown" on arm64).
 */
static int
ctx_arch(struct memstat_kvm *kvm, kdump_ctx_t *ctx, const char *name)
{
	const char *arch;

	if (kdump_get_string_attr(ctx, KDUMP_ATTR_ARCH_NAME, &arch) !=
	    KDUMP_OK && (!set_str(ctx, KDUMP_ATTR_ARCH_NAME, name) ||
	    kdump_clear_attr(ctx, KDUMP_ATTR_OSTYPE) != KDUMP_OK ||
	    !set_str(ctx, KDUMP_ATTR_OSTYPE, "linux")))
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM, "%s",
		    kdump_get_err(ctx)));
	return (0);
}

/*
 * libkdumpfile's context on ks->kfd (a flattened stream's reassembly made
 * first), its VMCOREINFO found, the architecture given if chosen already:
 * 0 or -1.
 */
static int
ctx_open(struct memstat_kvm *kvm, struct kdump_state *ks)
{
	char *line;

	if (ks->kfd == -1 && (ks->file.flat == NULL ? (ks->kfd = ks->file.fd,
	    0) : reassemble(kvm, ks)) != 0)
		return (-1);
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
	 *
	 * libkdumpfile 0.5.1 (Debian 12) frees a kdump file's format data
	 * when it fails to open one, then again in kdump_free(): a crash.
	 * So a failed open of one leaves its context unfreed (a small leak,
	 * not a crash).
	 */
	if (kdump_open_fd(ks->ctx, ks->kfd) != KDUMP_OK) {
		_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM, "%s",
		    kdump_get_err(ks->ctx));
		if (ks->diskdump)
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
	return (ks->arch != NULL ? ctx_arch(kvm, ks->ctx, ks->arch) : 0);
}

/*
 * The machine a kdump file's header names, as libkdumpfile names
 * architectures, or "" where it names none (QEMU's "Unknown").
 */
static void
header_machine(struct kdump_state *ks)
{
	char m[UTS_LEN];

	if (_memstat_dump_pread_all(&ks->file, m, sizeof(m), DH_MACHINE) !=
	    0 || memchr(m, '\0', sizeof(m)) == NULL ||
	    strcmp(m, "Unknown") == 0)
		return;
	memcpy(ks->machine, m, sizeof(m));
}

/* The machine an ELF dump's header or a kdump file's names. */
static void
dump_machine(struct kdump_state *ks)
{
	if (ks->phys.nsegs != 0 &&
	    _memstat_elf_machine_name(ks->phys.machine) != NULL)
		snprintf(ks->machine, sizeof(ks->machine), "%s",
		    _memstat_elf_machine_name(ks->phys.machine));
	else if (ks->dd != NULL)
		header_machine(ks);
}

/*
 * VMCOREINFO from QEMU's notes where they are not where the headers say
 * (kvm_elf_qemu.h), which libkdumpfile would read: 0 (found or not), or
 * -1 when memory runs out.
 */
static int
moved_notes_vmcoreinfo(struct kdump_state *ks, bool big)
{
	unsigned char *notes;
	int rc = 0;

	if ((notes = malloc(ks->phys.notes_size)) == NULL)
		return (-1);
	if (_memstat_dump_pread_all(&ks->file, notes, ks->phys.notes_size,
	    ks->phys.notes_offset) == 0)
		rc = _memstat_vmcoreinfo_in_notes(notes, ks->phys.notes_size,
		    big, &ks->vmcoreinfo);
	free(notes);
	return (rc);
}

/*
 * The dump's headers checked and its pages indexed, read in place where
 * it is a flattened kdump file this reads (its VMCOREINFO found here),
 * else through libkdumpfile, opened now: 0 or -1.  A flattened stream
 * whose records overlap, of an ELF core, or of a kdump file this does
 * not read is reassembled for both.
 */
static int
kdump_attach(struct memstat_kvm *kvm, struct kdump_state *ks)
{
	bool in_notes = false;

	if (ks->file.flat != NULL && !_memstat_flat_in_place(ks->file.flat) &&
	    reassemble_all(kvm, ks) != 0)
		return (-1);
	if (_memstat_kvm_check_headers(kvm, &ks->file, &ks->diskdump,
	    &kvm->arch.big_endian) != 0)
		return (-1);
	if (ks->file.flat != NULL && !ks->diskdump &&
	    reassemble_all(kvm, ks) != 0)
		return (-1);
	if ((ks->diskdump ? _memstat_diskdump_phys_load(&ks->dd, &ks->file,
	    kvm->arch.big_endian) :
	    _memstat_elf_phys_load(&ks->phys, ks->file.fd)) != 0)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_NOMEMORY, "%s",
		    strerror(ENOMEM)));
	if (ks->dd != NULL &&
	    _memstat_diskdump_phys_vmcoreinfo(ks->dd, &ks->file,
	    &ks->vmcoreinfo, &in_notes) != 0)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_NOMEMORY, "%s",
		    strerror(ENOMEM)));
	/*
	 * A kdump file libkdumpfile can open is given to it, but not one
	 * whose header's VMCOREINFO is not one: it would trust it.
	 */
	if (ks->file.flat == NULL && !in_notes) {
		free(ks->vmcoreinfo);
		ks->vmcoreinfo = NULL;
	}
	if (ks->phys.shift != 0 &&
	    moved_notes_vmcoreinfo(ks, kvm->arch.big_endian) != 0)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_NOMEMORY, "%s",
		    strerror(ENOMEM)));
	if (ks->vmcoreinfo != NULL &&
	    _memstat_vmcoreinfo_value(ks->vmcoreinfo, "OSRELEASE",
	    &(size_t){ 0 }) != NULL) {
		dump_machine(ks);
		return (0);
	}
	free(ks->vmcoreinfo);
	ks->vmcoreinfo = NULL;
	/* A flattened dump with none: its memory, before any reassembly. */
	if (ks->file.flat != NULL && ks->dd != NULL) {
		header_machine(ks);
		ks->in_ram = true;
		return (0);
	}
	if (ks->file.flat != NULL && reassemble_all(kvm, ks) != 0)
		return (-1);
	if (ctx_open(kvm, ks) == 0)
		return (0);
	/*
	 * libkdumpfile cannot open it or finds no VMCOREINFO in it (QEMU
	 * 7.2's s390x ELF dumps: both).  Where its memory is read here, the
	 * kernel's own note is looked for there; libkdumpfile's reason is
	 * said if it is not found, and at any read that needs it.
	 */
	if (ks->phys.nsegs == 0 && ks->dd == NULL)
		return (-1);
	ks->ctx_failed = true;
	ks->ctx_err = kvm->err;
	dump_machine(ks);
	ks->in_ram = true;
	return (0);
}

/* The kernel's note at paddr, if there: 0 found, 1 not, -1 no memory. */
static int
note_at(struct memstat_kvm *kvm, struct kdump_state *ks, uint64_t paddr)
{
	int rc;

	/*
	 * The kernel's own note says its byte order where the dump's
	 * header is wrong (QEMU 7.2's of a little-endian ppc64 guest).
	 */
	rc = _memstat_vmcoreinfo_note_at(phys_read_any, ks, paddr,
	    &kvm->arch.big_endian, &ks->vmcoreinfo);
	if (rc < 0)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_NOMEMORY, "%s",
		    strerror(ENOMEM)));
	return (rc);
}

/*
 * Each page's start in [start, end), for the note: 0 found, 1 not, -1.
 * The kernel allocates it a page of its own (alloc_pages_exact); 4 KiB
 * steps meet the start of a page of any size.
 */
static int
note_in(struct memstat_kvm *kvm, struct kdump_state *ks, uint64_t start,
    uint64_t end)
{
	int rc;

	for (uint64_t p = (start + SCAN_STEP - 1) & ~(uint64_t)(SCAN_STEP - 1);
	    p < end && p >= start; p += SCAN_STEP)
		if ((rc = note_at(kvm, ks, p)) != 1)
			return (rc);
	return (1);
}

static int
kdump_reader_vmcoreinfo_in_ram(struct memstat_kvm *kvm,
    kvm_vmcoreinfo_at_fn at)
{
	struct kdump_state *ks = kvm->reader_arg;
	uint64_t paddr;
	int rc = 1;

	if (!ks->in_ram)
		return (0);
	if (at != NULL && at(phys_read_any, ks, kvm->arch.big_endian,
	    &paddr) == 0)
		rc = note_at(kvm, ks, paddr);
	for (size_t i = 0; rc == 1 && i < ks->phys.nsegs; i++)
		rc = note_in(kvm, ks, ks->phys.segs[i].addr,
		    ks->phys.segs[i].addr + ks->phys.segs[i].size);
	if (rc == 1 && ks->phys.nsegs == 0)
		rc = note_in(kvm, ks, 0, _memstat_diskdump_phys_end(ks->dd));
	if (rc < 0)
		return (-1);
	if (rc == 0) {
		ks->in_ram = false;
		ks->from_ram = true;
		return (0);
	}
	if (ks->ctx_failed) {
		kvm->err = ks->ctx_err;
		return (-1);
	}
	return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM, "no VMCOREINFO in "
	    "the dump, nor the kernel's note in its memory: not a Linux "
	    "kernel dump"));
}

static const char *
kdump_reader_arch_name(struct memstat_kvm *kvm)
{
	struct kdump_state *ks = kvm->reader_arg;
	const char *arch;

	if (ks->vmcoreinfo != NULL || ks->in_ram)
		return (ks->machine[0] != '\0' ? ks->machine : NULL);
	if (kdump_get_string_attr(ks->ctx, KDUMP_ATTR_ARCH_NAME, &arch) !=
	    KDUMP_OK)
		return (NULL);
	return (arch);
}

/* Read in place, the architecture waits for libkdumpfile to be needed. */
static int
kdump_reader_arch_found(struct memstat_kvm *kvm, const char *name)
{
	struct kdump_state *ks = kvm->reader_arg;

	ks->arch = name;
	if (ks->ctx == NULL || ks->ctx_failed)
		return (0);
	return (ctx_arch(kvm, ks->ctx, name));
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
	if (ks->kfd != -1 && ks->kfd != ks->file.fd)
		close(ks->kfd);
	if (ks->file.fd != -1)
		close(ks->file.fd);
	_memstat_flat_free(ks->file.flat);
	free(ks->vmcoreinfo);
	free(ks);
	kvm->reader_arg = NULL;
}

/* Every file the probe calls a core image is this reader's to try. */
static int
kdump_reader_open(struct memstat_kvm *kvm, int fd)
{
	struct kdump_state *ks;

	if ((ks = calloc(1, sizeof(*ks))) == NULL) {
		close(fd);
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_NOMEMORY, "%s",
		    strerror(ENOMEM)));
	}
	ks->kvm = kvm;
	ks->kfd = -1;
	ks->file.fd = fd;
	kvm->reader_arg = ks;
	if (_memstat_flat_index(fd, &ks->file.flat, kvm->err.msg,
	    sizeof(kvm->err.msg)) != 0) {
		kvm->err.code = errno == ENOMEM ? MEMSTAT_ERROR_NOMEMORY :
		    MEMSTAT_ERROR_KVM;
		kdump_reader_close(kvm);
		return (-1);
	}
	if (kdump_attach(kvm, ks) != 0) {
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
	.vmcoreinfo_in_ram = kdump_reader_vmcoreinfo_in_ram,
	.arch_found = kdump_reader_arch_found,
};
