/*
 * test_kvm_qemu_notes.c: QEMU ELF dumps whose notes are not the length
 * their headers say (kvm_elf_qemu.h), made here from the arm64 fixture
 * as QEMU 7.2 writes one: its headers reserve the first CPU's notes for
 * every CPU, so where a CPU's SVE note is shorter (a 16-byte vector
 * length against the first's 64: 1632 bytes less) the notes are claimed
 * longer than they are, and where it is longer, shorter; every offset
 * after them is claimed that much off, and the section names, written
 * last, end the file.  Each such dump reads as the fixture does; one
 * whose names do not prove the shift is refused, never misread.  Its
 * kdump-compressed dumps place VMCOREINFO by the same reckoning, where
 * the notes would have ended: there the header's VMCOREINFO is not one,
 * and the note is found among the notes.
 */
#include <sys/stat.h>

#include <elf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testlib.h"
#include "scratch.h"
#include "kvm/dump/kvm_bytes.h"

#define ARM64	"fixtures/vmcore/bookworm-6.1-arm64/vmcore.elf"
#define ARM64_FLAT	"fixtures/vmcore/bookworm-6.1-arm64/vmcore.flat"
/* The kdump sub-header's offset_vmcoreinfo and offset_note. */
#define SUB_HEADER	65536
#define SUB_INFO_OFF	32
/* Bytes of the reassembled file no record writes (between two). */
#define HOLE		100000
/* What a 16-byte vector length's SVE note is short of a 64-byte one's. */
#define SVE_16_64	(0x8b0 - 0x250)

static const char names_ok[] = "\0.shstrtab";	/* 11 bytes with its NUL */
static const char names_bad[] = "\0.shstrtaX";

static unsigned char *
slurp(const char *path, size_t *size)
{
	struct stat st;
	unsigned char *b;
	FILE *f;

	assert_non_null(f = fopen(path, "rb"));
	assert_int_equal(fstat(fileno(f), &st), 0);
	*size = (size_t)st.st_size;
	assert_non_null(b = malloc(*size + 2 * sizeof(Elf64_Shdr) +
	    sizeof(names_ok)));
	assert_int_equal(fread(b, 1, *size, f), *size);
	fclose(f);
	return (b);
}

/* The fixture's little-endian fields, read (put_le() writes them). */
#define LE(p, n)	_memstat_uint_in((p), (n), false)

/*
 * The fixture as QEMU writes a dump whose notes are `more` bytes longer
 * in its headers than in the file (less, where negative), the section
 * names (NAMES, 11 bytes) last: into a scratch file, its path in path.
 * The fixture is little-endian: its fields are read as such on a
 * machine of either order (ELF64's offsets: e_phoff 32, e_shoff 40,
 * e_phnum 56, e_shentsize 58; p_type 0, p_offset 8, p_filesz 32).
 */
static void
qemu_variant(char *path, size_t pathlen, long more, const char *names)
{
	size_t size, phnum;
	unsigned char *b = slurp(ARM64, &size), *ph, sh[2 * 64];
	uint64_t phoff, notes_end;
	int fd;

	/* A little-endian core whose notes QEMU writes first. */
	assert_int_equal(b[EI_DATA], ELFDATA2LSB);
	phoff = LE(b + 32, 8);
	phnum = (size_t)LE(b + 56, 2);
	assert_true(phoff + phnum * 56 <= size);
	ph = b + phoff;
	assert_int_equal(LE(ph, 4), PT_NOTE);
	notes_end = LE(ph + 8, 8) + LE(ph + 32, 8);
	put_le(ph + 32, LE(ph + 32, 8) + (uint64_t)more, 8);
	for (size_t i = 1; i < phnum; i++) {
		assert_true(LE(ph + 56 * i + 8, 8) >= notes_end);
		put_le(ph + 56 * i + 8,
		    LE(ph + 56 * i + 8, 8) + (uint64_t)more, 8);
	}
	memset(sh, 0, sizeof(sh));
	put_le(sh + 64 + 0, 1, 4);			/* sh_name */
	put_le(sh + 64 + 4, SHT_STRTAB, 4);		/* sh_type */
	put_le(sh + 64 + 24, size + sizeof(sh) + (uint64_t)more, 8);
	put_le(sh + 64 + 32, sizeof(names_ok), 8);	/* sh_size */
	put_le(b + 40, size, 8);			/* e_shoff */
	put_le(b + 58, 64, 2);				/* e_shentsize */
	put_le(b + 60, 2, 2);				/* e_shnum */
	put_le(b + 62, 1, 2);				/* e_shstrndx */
	memcpy(b + size, sh, sizeof(sh));
	memcpy(b + size + sizeof(sh), names, sizeof(names_ok));
	assert_true((fd = scratch_file(path, pathlen, "qemu-notes")) >= 0);
	assert_int_equal(write(fd, b, size + sizeof(sh) + sizeof(names_ok)),
	    (ssize_t)(size + sizeof(sh) + sizeof(names_ok)));
	close(fd);
	free(b);
}

static struct memory_type_list *
zones(const char *dump)
{
	char errbuf[MEMSTAT_KVM_ERRLEN];
	struct memory_type_list *list;
	void *kvm;

	if ((kvm = memstat_kvm_open(dump, NULL, errbuf)) == NULL)
		return (NULL);
	list = memstat_mtl_alloc();
	if (memstat_kvm_uma(list, kvm) != 0) {
		memstat_mtl_free(list);
		list = NULL;
	}
	memstat_kvm_close(kvm);
	return (list);
}

/* Every cache as the fixture reads, count for count. */
static void
assert_reads_as_fixture(const char *dump)
{
	struct memory_type_list *want = zones(ARM64), *got = zones(dump);
	struct memory_type *w, *g;
	size_t n = 0;

	assert_non_null(want);
	assert_non_null(got);
	for (w = memstat_mtl_first(want), g = memstat_mtl_first(got);
	    w != NULL; w = memstat_mtl_next(w), g = memstat_mtl_next(g)) {
		assert_non_null(g);
		assert_string_equal(memstat_get_name(g), memstat_get_name(w));
		assert_int_equal(memstat_get_count(g), memstat_get_count(w));
		assert_int_equal(memstat_get_free(g), memstat_get_free(w));
		assert_int_equal(memstat_get_size(g), memstat_get_size(w));
		assert_int_equal(memstat_get_slabs(g), memstat_get_slabs(w));
		n++;
	}
	assert_null(g);
	assert_true(n > 100);
	memstat_mtl_free(want);
	memstat_mtl_free(got);
}

/* The first CPU's vector length the longest: notes claimed longer. */
static void
test_claimed_longer(void **state)
{
	char path[256];

	(void)state;
	qemu_variant(path, sizeof(path), SVE_16_64, names_ok);
	assert_reads_as_fixture(path);
	unlink(path);
}

/* The first CPU's the shortest: notes claimed shorter, cut mid-note. */
static void
test_claimed_shorter(void **state)
{
	char path[256];

	(void)state;
	qemu_variant(path, sizeof(path), -SVE_16_64, names_ok);
	assert_reads_as_fixture(path);
	unlink(path);
}

/* Claimed as they are, with QEMU's names last: read as ever. */
static void
test_not_moved(void **state)
{
	char path[256];

	(void)state;
	qemu_variant(path, sizeof(path), 0, names_ok);
	assert_reads_as_fixture(path);
	unlink(path);
}

/*
 * Moved, but nothing proves by how much: the file's last bytes are not
 * QEMU's names.  The headers are believed, so the notes run into what
 * follows them: refused in one line, never read from the wrong place.
 */
static void
test_unproven(void **state)
{
	char path[256], errbuf[MEMSTAT_KVM_ERRLEN];
	long more[] = { SVE_16_64, -SVE_16_64 };

	(void)state;
	for (size_t i = 0; i < sizeof(more) / sizeof(more[0]); i++) {
		qemu_variant(path, sizeof(path), more[i], names_bad);
		errbuf[0] = '\0';
		assert_null(memstat_kvm_open(path, NULL, errbuf));
		assert_non_null(strstr(errbuf, "ELF note"));
		assert_null(strchr(errbuf, '\n'));
		unlink(path);
	}
}

/*
 * The kdump-compressed file of the arm64 fixture's flattened stream
 * (makedumpfile -R's way: each record's bytes at its offset), into a
 * scratch file: its descriptor, its path in path.
 */
static int
reassembled(char *path, size_t pathlen)
{
	size_t size, at = 4096;
	unsigned char *b = slurp(ARM64_FLAT, &size);
	uint64_t off, len;
	int fd;

	assert_int_equal(memcmp(b, "makedumpfile", 12), 0);
	assert_true((fd = scratch_file(path, pathlen, "qemu-kdump")) >= 0);
	while (size - at >= 16) {
		off = _memstat_uint_in(b + at, 8, true);
		len = _memstat_uint_in(b + at + 8, 8, true);
		if (off == UINT64_MAX)		/* the end mark */
			break;
		assert_true(len <= size - at - 16);
		assert_int_equal(pwrite(fd, b + at + 16, len, (off_t)off),
		    (ssize_t)len);
		at += 16 + len;
	}
	free(b);
	return (fd);
}

/*
 * The kdump-compressed dump whose header places VMCOREINFO in zeros, as
 * QEMU's of a guest whose CPUs' SVE notes differ: read as the fixture
 * is.  libkdumpfile, given it, finds no VMCOREINFO, takes the dump's
 * block size (64 KiB) for the kernel's page size, and cannot read a
 * page table of it.
 */
static void
test_kdump_vmcoreinfo_misplaced(void **state)
{
	char path[256];
	unsigned char at[8], info[8], zeros[4096];
	int fd;

	(void)state;
	fd = reassembled(path, sizeof(path));
	assert_int_equal(pread(fd, info, 8, SUB_HEADER + SUB_INFO_OFF), 8);
	/* Zeros: a hole no record of the stream wrote. */
	assert_int_equal(pread(fd, zeros, sizeof(zeros), HOLE), sizeof(zeros));
	for (size_t i = 0; i < sizeof(zeros); i++)
		assert_int_equal(zeros[i], 0);
	put_le(at, HOLE, 8);
	assert_int_not_equal(memcmp(at, info, 8), 0);
	assert_int_equal(pwrite(fd, at, 8, SUB_HEADER + SUB_INFO_OFF), 8);
	close(fd);
	assert_reads_as_fixture(path);
	unlink(path);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_claimed_longer),
		cmocka_unit_test(test_claimed_shorter),
		cmocka_unit_test(test_not_moved),
		cmocka_unit_test(test_unproven),
		cmocka_unit_test(test_kdump_vmcoreinfo_misplaced),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
