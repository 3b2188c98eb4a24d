/*
 * kvm_headers.c: what libkdumpfile is not trusted with.  It believes the
 * sizes a dump's headers give and allocates them before it reads: a
 * 600-byte file can ask for 170 GB of page bitmap, and a kdump header cut
 * short makes 0.5.1 crash when its context is freed.  So the tables a
 * header points at must lie within the file before libkdumpfile sees it.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "kvm/dump/kvm_bytes.h"
#include "kvm/dump/kvm_elf_qemu.h"
#include "kvm/dump/kvm_file.h"

/* struct disk_dump_header, through nr_cpus, of a 64-bit kernel. */
#define DISKDUMP_HEADER_SIZE	464
/* Where block_size, sub_hdr_size and bitmap_blocks are: 64- and 32-bit. */
#define DD64_BLOCK_SIZE		428
#define DD32_BLOCK_SIZE		416
/* header_version, after the signature: 1 to 6 in the dumps of today. */
#define DD_VERSION		8
#define DD_VERSION_MAX		0xffff

bool
_memstat_kvm_is_core(const unsigned char *m, size_t n)
{
	return ((n >= 18 && memcmp(m, "\177ELF", 4) == 0 &&
	    ((m[16] == 4 && m[17] == 0) || (m[16] == 0 && m[17] == 4))) ||
	    (n >= 8 && (memcmp(m, "KDUMP   ", 8) == 0 ||
	    memcmp(m, "DISKDUMP", 8) == 0)) ||
	    (n >= 13 && memcmp(m, "makedumpfile\0", 13) == 0));
}

/* A header's field of n bytes at p. */
static uint64_t
get(const unsigned char *p, int n, bool big)
{
	return (_memstat_uint_in(p, (size_t)n, big));
}

/*
 * The header's layout at off (block_size, sub_hdr_size, bitmap_blocks):
 * whether its block size is one libkdumpfile would take, and if so
 * whether the header blocks and bitmap end within size bytes.
 */
static bool
diskdump_layout_fits(const unsigned char *h, size_t off, bool big,
    uint64_t size, bool *plausible)
{
	uint64_t block = get(h + off, 4, big);
	uint64_t sub = get(h + off + 4, 4, big);
	uint64_t bitmap = get(h + off + 8, 4, big);

	*plausible = block >= 512 && block <= (1u << 24) &&
	    (block & (block - 1)) == 0;
	/* Each factor is below 2^32 and block below 2^25: no overflow. */
	return (!*plausible || (1 + sub + bitmap) * block <= size);
}

/*
 * A kdump header, in the dumped machine's byte order, whose block size
 * is one libkdumpfile would take (a power of two from 512).
 */
static int
check_diskdump(struct memstat_kvm *kvm, const unsigned char *h, ssize_t n,
    uint64_t size, bool *big)
{
	bool fits64, p64, p32;

	if (n < DISKDUMP_HEADER_SIZE)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM,
		    "kdump header cut short"));
	/*
	 * The order in which the header's version is a small number: a
	 * block size alone can mislead, as QEMU's big-endian s390x header's
	 * 4096 read little-endian is 1 MiB, a power of two too.
	 */
	*big = get(h + DD_VERSION, 4, false) > DD_VERSION_MAX;
	fits64 = diskdump_layout_fits(h, DD64_BLOCK_SIZE, *big, size, &p64);
	if (!p64 || get(h + DD_VERSION, 4, *big) > DD_VERSION_MAX)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM,
		    "kdump header of no 64-bit kernel (block size %" PRIu64
		    ")", get(h + DD64_BLOCK_SIZE, 4, *big)));
	if (!fits64 || !diskdump_layout_fits(h, DD32_BLOCK_SIZE, *big, size,
	    &p32))
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM,
		    "kdump header's blocks and bitmap do not fit in its %"
		    PRIu64 " bytes", size));
	return (0);
}


/* A PT_NOTE's notes, each with a name, each within the segment. */
static int
check_notes(struct memstat_kvm *kvm, const struct kvm_dump_file *f, bool big,
    uint64_t off, uint64_t len, uint64_t seg)
{
	unsigned char nh[12];
	uint64_t at = 0, namesz, descsz, step;

	while (len - at >= sizeof(nh)) {
		if (_memstat_dump_pread(f, nh, sizeof(nh), off + at) !=
		    (ssize_t)sizeof(nh))
			return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM,
			    "ELF note segment %" PRIu64 ": %s", seg,
			    strerror(errno ? errno : EIO)));
		namesz = get(nh, 4, big);
		descsz = get(nh + 4, 4, big);
		step = sizeof(nh) + ((namesz + 3) & ~3ULL) +
		    ((descsz + 3) & ~3ULL);
		if (namesz == 0 || step > len - at)
			return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM,
			    "ELF note segment %" PRIu64 " holds a note %s",
			    seg, namesz == 0 ? "without a name" :
			    "running past its end"));
		at += step;
	}
	return (0);
}

/*
 * Each PT_NOTE within the file and its notes well formed, and some memory
 * (a PT_LOAD cut short is a dump cut short: what it holds is read):
 * libkdumpfile 0.5.1 crashed on a core whose notes were zeros and whose
 * one PT_LOAD was empty.
 */
static int
check_segments(struct memstat_kvm *kvm, const struct kvm_dump_file *f,
    bool is64, bool big,
    uint64_t phoff, uint64_t count, uint64_t size)
{
	unsigned char tab[PHDR_BATCH * 56], *ph;
	uint64_t type, off, len, notes = 0, memory = 0, batch;
	size_t entsize = is64 ? 56 : 32;

	for (uint64_t i = 0; i < count; i++) {
		if (i % PHDR_BATCH == 0) {
			batch = count - i < PHDR_BATCH ? count - i : PHDR_BATCH;
			if (_memstat_dump_pread(f, tab, batch * entsize,
			    phoff + i * entsize) !=
			    (ssize_t)(batch * entsize))
				return (_memstat_kvm_fail(kvm,
				    MEMSTAT_ERROR_KVM, "ELF program header %"
				    PRIu64 " cut short", i));
		}
		ph = tab + (i % PHDR_BATCH) * entsize;
		type = get(ph, 4, big);
		off = is64 ? get(ph + 8, 8, big) : get(ph + 4, 4, big);
		len = is64 ? get(ph + 32, 8, big) : get(ph + 16, 4, big);
		/* A dump cut short keeps its memory up to the cut. */
		if (type == 1) {		/* PT_LOAD */
			memory += len != 0;
			continue;
		}
		if (type != 4)			/* PT_NOTE */
			continue;
		if (off > size || len > size - off)
			return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM,
			    "ELF note segment %" PRIu64 " lies past the end of "
			    "the file", i));
		if (len > MAX_NOTES - notes)
			return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM,
			    "ELF notes of more than %u bytes", MAX_NOTES));
		notes += len;
		/* QEMU's arm64 notes of another length than it said. */
		len += (uint64_t)_memstat_elf_qemu_shift(f, size, off, len);
		if (check_notes(kvm, f, big, off, len, i) != 0)
			return (-1);
	}
	if (memory == 0)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM,
		    "ELF core without memory: no PT_LOAD holds any"));
	return (0);
}

/*
 * The program header table, PN_XNUM's count included, and the section
 * header table, within the file, each entry of its ELF size.
 */
static int
check_elf(struct memstat_kvm *kvm, const struct kvm_dump_file *f,
    const unsigned char *h, ssize_t n,
    uint64_t size)
{
	bool is64 = h[4] == 2, big = h[5] == 2;
	uint64_t phoff, shoff, entsize, count, shentsize, shnum, end;
	unsigned char sh[64];

	if (n < (is64 ? 64 : 52))
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM,
		    "ELF header cut short"));
	phoff = is64 ? get(h + 32, 8, big) : get(h + 28, 4, big);
	shoff = is64 ? get(h + 40, 8, big) : get(h + 32, 4, big);
	entsize = get(h + (is64 ? 54 : 42), 2, big);
	count = get(h + (is64 ? 56 : 44), 2, big);
	shentsize = get(h + (is64 ? 58 : 46), 2, big);
	shnum = get(h + (is64 ? 60 : 48), 2, big);
	/*
	 * libkdumpfile 0.5.1 trusts the table entry sizes and offsets: a
	 * core whose section headers are 0 bytes each crashed it, and so did
	 * one whose section 0 (where a count too large for the header goes)
	 * lay past the end of the file.
	 */
	if (entsize != (is64 ? 56 : 32) || count == 0)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM,
		    "ELF program headers of %" PRIu64 " bytes, %" PRIu64
		    " of them: not a core's", entsize, count));
	/* No count but an offset: the count is in section 0 (ELF's rule). */
	if (shnum == 0 && shoff != 0)
		shnum = 1;
	if (shnum != 0 && (shentsize != (is64 ? 64 : 40) ||
	    shnum * shentsize > size || shoff > size - shnum * shentsize))
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM,
		    "ELF section headers (%" PRIu64 " of %" PRIu64 " bytes) "
		    "do not fit in the file's %" PRIu64 " bytes", shnum,
		    shentsize, size));
	if (count == 0xffff) {		/* PN_XNUM: sh_info of section 0 */
		if (_memstat_dump_pread(f, sh, sizeof(sh), shoff) !=
		    (ssize_t)sizeof(sh) || shoff > size)
			return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM,
			    "ELF section 0 (program header count) past the "
			    "end of the file"));
		count = get(sh + (is64 ? 44 : 28), 4, big);
	}
	if (__builtin_mul_overflow(count, entsize, &end) ||
	    __builtin_add_overflow(end, phoff, &end) || end > size)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM,
		    "ELF program headers (%" PRIu64 " of %" PRIu64 " bytes) "
		    "do not fit in the file's %" PRIu64 " bytes", count,
		    entsize, size));
	if (count > MAX_PHDRS)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM,
		    "%" PRIu64 " ELF program headers: more than any dump has",
		    count));
	return (check_segments(kvm, f, is64, big, phoff, count, size));
}

int
_memstat_kvm_check_headers(struct memstat_kvm *kvm,
    const struct kvm_dump_file *f, bool *diskdump, bool *big)
{
	unsigned char h[DISKDUMP_HEADER_SIZE];
	uint64_t size;
	ssize_t n;

	*diskdump = *big = false;
	if (_memstat_dump_size(f, &size) != 0 ||
	    (n = _memstat_dump_pread(f, h, sizeof(h), 0)) < 0)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM, "%s",
		    strerror(errno)));
	*diskdump = n >= 8 && (memcmp(h, "KDUMP   ", 8) == 0 ||
	    memcmp(h, "DISKDUMP", 8) == 0);
	if (*diskdump)
		return (check_diskdump(kvm, h, n, size, big));
	if (n >= 6 && memcmp(h, "\177ELF", 4) == 0 &&
	    (h[4] == 1 || h[4] == 2)) {
		*big = h[5] == 2;
		return (check_elf(kvm, f, h, n, size));
	}
	return (0);
}
