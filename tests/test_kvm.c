/*
 * test_kvm.c: the core-image API: memstat_kvm_open/close/geterr and the
 * queries over real (minimized) dumps of a Debian 12 guest, checked
 * against the guest's own /proc/slabinfo; failures change nothing.
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>

#include "fixture.h"
#include "scratch.h"
#include "testlib.h"
#include "kvm/dump/kvm_elf_headers.h"
#include "kvm/dump/kvm_elf_segments.h"
#include "kvm/dump/kvm_file.h"
#include "kvm/dump/kvm_flat.h"
#include "kvm/kernel/kvm_finders.h"
#include "kvm/walk/kvm_buddy_find.h"
#include "kvm/walk/kvm_buddy_layout.h"
#include "kvm/walk/kvm_migratetype_find.h"

#define DIR6	"fixtures/vmcore/debian12-6.1/"
#define DIR510	"fixtures/vmcore/bullseye-5.10/"
#define BAD	"fixtures/bad/vmcore/"

struct row {
	char		name[128];
	unsigned long	active, total, size, slabs;
};

static size_t
guest_rows(struct row *rows, size_t max)
{
	char line[512];
	size_t n = 0;
	FILE *f;

	assert_non_null(f = fopen(DIR6 "slabinfo.guest", "r"));
	while (fgets(line, sizeof(line), f) != NULL && n < max)
		if (sscanf(line, "%127s %lu %lu %lu %*u %*u : tunables %*u "
		    "%*u %*u : slabdata %*u %lu", rows[n].name,
		    &rows[n].active, &rows[n].total, &rows[n].size,
		    &rows[n].slabs) == 5)
			n++;
	fclose(f);
	return (n);
}

static void
assert_matches_guest(struct memory_type_list *list)
{
	static struct row rows[1024];
	struct memory_type *m = memstat_mtl_first(list);
	size_t n = guest_rows(rows, 1024), i;

	assert_true(n > 100);
	for (i = 0; i < n; i++, m = memstat_mtl_next(m)) {
		assert_non_null(m);
		assert_string_equal(memstat_get_name(m), rows[i].name);
		assert_int_equal(memstat_get_count(m), rows[i].active);
		assert_int_equal(memstat_get_count(m) + memstat_get_free(m),
		    rows[i].total);
		assert_int_equal(memstat_get_size(m), rows[i].size);
		assert_int_equal(memstat_get_slabs(m), rows[i].slabs);
		assert_true(memstat_get_unknown(m) & MEMSTAT_UNKNOWN_NUMALLOCS);
		assert_false(memstat_get_unknown(m) & MEMSTAT_UNKNOWN_SLABS);
		/* The CPUs' free objects are counted as active. */
		assert_false(memstat_get_unknown(m) &
		    MEMSTAT_UNKNOWN_ALLOCATED);
		assert_null(memstat_get_damage(m));
		assert_true(memstat_get_allocated(m) <= memstat_get_count(m));
	}
	assert_null(m);
}

static void
test_formats(void **state)
{
	static const char *dumps[] = { DIR6 "vmcore.elf", DIR6 "vmcore.kdump",
	    DIR6 "vmcore.flat" };
	char errbuf[MEMSTAT_KVM_ERRLEN];
	struct memory_type_list *list;
	void *kvm;

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		kvm = memstat_kvm_open(dumps[i], NULL, errbuf);
		assert_non_null(kvm);
		list = memstat_mtl_alloc();
		assert_int_equal(memstat_kvm_uma(list, kvm), 0);
		assert_int_equal(memstat_mtl_geterror(list),
		    MEMSTAT_ERROR_UNDEFINED);
		assert_matches_guest(list);
		/* A refresh from the same dump gives the same list. */
		assert_int_equal(memstat_kvm_uma(list, kvm), 0);
		assert_matches_guest(list);
		memstat_mtl_free(list);
		assert_int_equal(memstat_kvm_close(kvm), 0);
	}
}

static void
test_all(void **state)
{
	char errbuf[MEMSTAT_KVM_ERRLEN];
	struct memory_type_list *list = memstat_mtl_alloc();
	void *kvm = memstat_kvm_open(DIR6 "vmcore.elf", NULL, errbuf);

	(void)state;
	assert_non_null(kvm);
	assert_int_equal(memstat_kvm_all(list, kvm), 0);
	assert_non_null(memstat_mtl_find(list, ALLOCATOR_MALLOC, "kmalloc"));
	assert_non_null(memstat_mtl_find(list, ALLOCATOR_UMA, "kmalloc-64"));
	memstat_mtl_free(list);
	memstat_kvm_close(kvm);
	memstat_malloc_zone_set_sizes(NULL, 0);
}

/* Counts, allocated counts and aliases read, in a list of caches. */
static void
count_extras(struct memory_type_list *list, size_t *n, size_t *known,
    size_t *aliased)
{
	*n = *known = *aliased = 0;
	for (struct memory_type *m = memstat_mtl_first(list); m != NULL;
	    m = memstat_mtl_next(m)) {
		(*n)++;
		if ((memstat_get_unknown(m) & MEMSTAT_UNKNOWN_ALLOCATED) == 0)
			(*known)++;
		if (memstat_get_alias_count(m) > 0)
			(*aliased)++;
	}
}

/*
 * A caller that will not ask for the allocated counts or the aliases
 * says so, and they are not read: the counts stay the guest's.  The
 * same handle then reads them again when asked.
 */
static void
test_query_flags(void **state)
{
	char errbuf[MEMSTAT_KVM_ERRLEN];
	struct memory_type_list *list = memstat_mtl_alloc();
	void *kvm = memstat_kvm_open(DIR6 "vmcore.elf", NULL, errbuf);
	size_t n, known, aliased;

	(void)state;
	assert_non_null(kvm);
	memstat_kvm_setflags(kvm, 0);
	assert_int_equal(memstat_kvm_uma(list, kvm), 0);
	count_extras(list, &n, &known, &aliased);
	assert_true(n > 100);
	assert_int_equal(known, 0);
	assert_int_equal(aliased, 0);
	for (struct memory_type *m = memstat_mtl_first(list); m != NULL;
	    m = memstat_mtl_next(m))
		assert_null(memstat_get_damage(m));

	memstat_kvm_setflags(kvm, MEMSTAT_KVM_ALLOCATED);
	assert_int_equal(memstat_kvm_uma(list, kvm), 0);
	assert_matches_guest(list);
	count_extras(list, &n, &known, &aliased);
	assert_int_equal(aliased, 0);

	memstat_kvm_setflags(kvm, MEMSTAT_KVM_ALLOCATED |
	    MEMSTAT_LINUX_ALIASES);
	assert_int_equal(memstat_kvm_uma(list, kvm), 0);
	assert_matches_guest(list);
	count_extras(list, &n, &known, &aliased);
	assert_int_equal(known, n);
	assert_true(aliased > 10);
	memstat_mtl_free(list);
	memstat_kvm_close(kvm);
}

static void
test_open_errors(void **state)
{
	char errbuf[MEMSTAT_KVM_ERRLEN];

	(void)state;
	assert_null(memstat_kvm_open("/nonexistent/vmcore", NULL, errbuf));
	assert_non_null(strstr(errbuf, "No such file or directory"));
	assert_null(memstat_kvm_open(DIR6 "slabinfo.guest", NULL, errbuf));
	assert_true(strlen(errbuf) > 0);
	/*
	 * libkdumpfile 0.5.1 crashed when these failed to open, and
	 * allocated what a kdump header's bitmap size said before reading.
	 */
	assert_null(memstat_kvm_open(BAD "kdump-bad-block-size", NULL, errbuf));
	assert_string_equal(errbuf, "kdump header of no 64-bit kernel "
	    "(block size 20)");
	assert_null(memstat_kvm_open(BAD "kdump-cut", NULL, errbuf));
	assert_string_equal(errbuf, "kdump header's blocks and bitmap do not "
	    "fit in its 8192 bytes");
	assert_null(memstat_kvm_open(BAD "kdump-header-cut", NULL, errbuf));
	assert_string_equal(errbuf, "kdump header cut short");
	/* A short read with no errno once said "Success". */
	assert_null(memstat_kvm_open(BAD "flat-signature-only", NULL, errbuf));
	assert_string_equal(errbuf,
	    "flattened dump header cut short: end of file");
	assert_int_equal(memstat_kvm_close(NULL), 0);
}

/*
 * makedumpfile's flattened stream, made here: records that follow one
 * another, one longer than a block of the reassembly, a gap, an empty
 * record, and (with overlap) one placed back inside what came before
 * (the later wins).  Read in place, a read gives the file's bytes, the
 * gap's as zeros; reassembled, the file holds what writing each record
 * in turn gives; the same stream cut inside a record names that
 * record's byte.
 */
#define FLAT_HDR	4096
#define FLAT_FILE	5242890		/* the file the records make */

static size_t
flat_record(unsigned char *p, uint64_t off, uint64_t size, unsigned char v)
{
	for (int i = 0; i < 8; i++) {
		p[i] = (unsigned char)(off >> (56 - 8 * i));
		p[8 + i] = (unsigned char)(size >> (56 - 8 * i));
	}
	for (uint64_t i = 0; i < size; i++)
		p[16 + i] = (unsigned char)(v + i * 7);
	return (16 + (size_t)size);
}

static const struct { uint64_t off, size; } flat_recs[] = {
	{ 0, 3000 }, { 3000, 2621440 }, { 5242880, 10 }, { 5242890, 0 },
	{ 100, 50 }, { UINT64_MAX, 0 } };

/* The stream, cut at cut bytes; the record at 100 only with overlap. */
static int
flat_stream(const char *path, size_t cut, bool overlap)
{
	unsigned char *p = calloc(1, FLAT_HDR + 3 * 1048576);
	size_t n = FLAT_HDR;
	int fd;

	assert_non_null(p);
	memcpy(p, "makedumpfile", 12);
	p[23] = 1;	/* type 1 */
	p[31] = 1;	/* version 1 */
	for (size_t i = 0; i < sizeof(flat_recs) / sizeof(*flat_recs); i++)
		if (overlap || flat_recs[i].off != 100)
			n += flat_record(p + n, flat_recs[i].off,
			    flat_recs[i].size, (unsigned char)(i * 41 + 1));
	assert_true((fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600)) >= 0);
	assert_int_equal(write(fd, p, cut < n ? cut : n),
	    (ssize_t)(cut < n ? cut : n));
	free(p);
	return (fd);
}

/* What writing each record in turn leaves. */
static unsigned char *
flat_file(bool overlap)
{
	unsigned char *want = calloc(1, FLAT_FILE);
	unsigned char *rec = malloc(16 + 2621440);

	assert_non_null(want);
	assert_non_null(rec);
	for (size_t i = 0; flat_recs[i].off != UINT64_MAX; i++) {
		if (!overlap && flat_recs[i].off == 100)
			continue;
		flat_record(rec, flat_recs[i].off, flat_recs[i].size,
		    (unsigned char)(i * 41 + 1));
		memcpy(want + flat_recs[i].off, rec + 16, flat_recs[i].size);
	}
	free(rec);
	return (want);
}

static void
test_flat(void **state)
{
	char path[4096], why[256];
	unsigned char *want, *got = malloc(FLAT_FILE + 1);
	struct kvm_flat *flat;
	int fd, tmp;

	(void)state;
	assert_non_null(got);
	assert_true((tmp = scratch_file(path, sizeof(path), "flat")) >= 0);
	close(tmp);

	/* In place: reads within a record, across records and the gap. */
	want = flat_file(false);
	fd = flat_stream(path, SIZE_MAX, false);
	assert_int_equal(_memstat_flat_index(fd, &flat, why, sizeof(why)), 0);
	assert_non_null(flat);
	assert_true(_memstat_flat_in_place(flat));
	assert_int_equal(_memstat_flat_size(flat), FLAT_FILE);
	assert_int_equal(_memstat_flat_pread(flat, fd, got, FLAT_FILE + 1, 0),
	    FLAT_FILE);
	assert_memory_equal(got, want, FLAT_FILE);
	assert_int_equal(_memstat_flat_pread(flat, fd, got, 100, 2950), 100);
	assert_memory_equal(got, want + 2950, 100);
	assert_int_equal(_memstat_flat_pread(flat, fd, got, 20, 5242875), 15);
	assert_memory_equal(got, want + 5242875, 15);
	assert_int_equal(_memstat_flat_pread(flat, fd, got, 10, FLAT_FILE), 0);
	/* The stream cut under us: an error, not the gap's zeros. */
	assert_int_equal(ftruncate(fd, FLAT_HDR + 16 + 3000 + 16 + 1000), 0);
	assert_int_equal(_memstat_flat_pread(flat, fd, got, 10, 3000 + 999),
	    -1);
	_memstat_flat_free(flat);
	close(fd);
	free(want);

	/* Overlapping records: only a reassembly reads them. */
	want = flat_file(true);
	fd = flat_stream(path, SIZE_MAX, true);
	assert_int_equal(_memstat_flat_index(fd, &flat, why, sizeof(why)), 0);
	assert_false(_memstat_flat_in_place(flat));
	assert_true((tmp = _memstat_flat_reassemble(flat, fd)) >= 0);
	assert_int_equal(pread(tmp, got, FLAT_FILE + 1, 0), FLAT_FILE);
	assert_memory_equal(got, want, FLAT_FILE);
	close(tmp);
	_memstat_flat_free(flat);
	close(fd);

	/* Cut inside the long record: its head's byte is named. */
	fd = flat_stream(path, FLAT_HDR + 16 + 3000 + 100000, true);
	assert_int_equal(_memstat_flat_index(fd, &flat, why, sizeof(why)), -1);
	assert_null(flat);
	assert_string_equal(why, "flattened dump cut short or corrupt at "
	    "byte 7112 (Input/output error)");
	close(fd);
	unlink(path);
	free(want);
	free(got);
}

/* A dump cut short: the query fails, and the list keeps what it had. */
static void
test_truncated(void **state)
{
	char errbuf[MEMSTAT_KVM_ERRLEN], path[4096];
	struct memory_type_list *list = memstat_mtl_alloc();
	static char buf[3000000];
	void *kvm;
	int in, out;

	(void)state;
	kvm = memstat_kvm_open(DIR6 "vmcore.elf", NULL, errbuf);
	assert_int_equal(memstat_kvm_uma(list, kvm), 0);
	memstat_kvm_close(kvm);

	assert_true((in = open(DIR6 "vmcore.elf", O_RDONLY)) >= 0);
	assert_true((out = scratch_file(path, sizeof(path), "cut")) >= 0);
	assert_int_equal(read(in, buf, sizeof(buf)), (ssize_t)sizeof(buf));
	assert_int_equal(write(out, buf, sizeof(buf)), (ssize_t)sizeof(buf));
	close(in);
	close(out);
	kvm = memstat_kvm_open(path, NULL, errbuf);
	assert_non_null(kvm);
	assert_int_equal(memstat_kvm_uma(list, kvm), -1);
	assert_true(memstat_mtl_geterror(list) == MEMSTAT_ERROR_KVM ||
	    memstat_mtl_geterror(list) == MEMSTAT_ERROR_KVM_SHORTREAD);
	assert_non_null(strstr(memstat_kvm_geterr(kvm), "0x"));
	assert_matches_guest(list);
	memstat_kvm_close(kvm);
	unlink(path);
	memstat_mtl_free(list);
}

/*
 * Physical address paddr's offset in an ELF core of either byte order
 * (its PT_LOADs), or -1.
 */
static off_t
elf_offset_of(int fd, uint64_t paddr)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;

	assert_int_equal(pread(fd, &eh, sizeof(eh), 0), (ssize_t)sizeof(eh));
	assert_true(_memstat_elf_ehdr(&eh));
	for (unsigned i = 0; i < eh.e_phnum; i++) {
		assert_int_equal(pread(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff +
		    i * sizeof(ph))), (ssize_t)sizeof(ph));
		_memstat_elf_phdrs(&ph, 1, _memstat_elf_big(&eh));
		if (ph.p_type == PT_LOAD && paddr >= ph.p_paddr &&
		    paddr - ph.p_paddr < ph.p_filesz)
			return ((off_t)(ph.p_offset + (paddr - ph.p_paddr)));
	}
	return (-1);
}

/*
 * QEMU's s390x dumps carry no VMCOREINFO: the kernel's note is found in
 * memory, by the lowcore's pointer to it, else page by page; with the
 * note gone, the open fails in one line and the reports' caches are the
 * guest's either way.
 */
static void
test_vmcoreinfo_in_ram(void **state)
{
	char errbuf[MEMSTAT_KVM_ERRLEN], path[4096];
	static const unsigned char zero[16];
	struct memory_type_list *list = memstat_mtl_alloc();
	unsigned char ptr[8];
	uint64_t note = 0;
	void *kvm, *dump;
	size_t len;
	off_t at;
	int fd;

	(void)state;
	assert_non_null(dump = fixture_load("fixtures/vmcore/sid-7.2-s390x/"
	    "vmcore.elf", &len));
	assert_true((fd = scratch_file(path, sizeof(path), "s390")) >= 0);
	assert_int_equal(write(fd, dump, len), (ssize_t)len);
	free(dump);
	/* lowcore.vmcore_info, big-endian, and the note it points at. */
	assert_true((at = elf_offset_of(fd, 0xe0c)) > 0);
	assert_int_equal(pread(fd, ptr, sizeof(ptr), at), (ssize_t)8);
	for (int i = 0; i < 8; i++)
		note = note << 8 | ptr[i];
	assert_int_equal(note & 0xfff, 0);
	assert_int_equal(pwrite(fd, zero, 8, at), 8);
	assert_non_null(kvm = memstat_kvm_open(path, NULL, errbuf));
	assert_int_equal(memstat_kvm_uma(list, kvm), 0);
	assert_true(memstat_mtl_first(list) != NULL);
	/* A page the cut left out is said so, not libkdumpfile's refusal. */
	assert_int_equal(_memstat_kvm_read(kvm, 0x3ffff451000ULL, ptr, 8),
	    -1);
	assert_non_null(strstr(memstat_kvm_geterr(kvm), "the dump has no "
	    "page at 0x1a51000"));
	memstat_kvm_close(kvm);
	/* No note anywhere: one line, nothing opened. */
	assert_true((at = elf_offset_of(fd, note)) > 0);
	assert_int_equal(pwrite(fd, zero, sizeof(zero), at), 16);
	assert_null(memstat_kvm_open(path, NULL, errbuf));
	assert_non_null(strstr(errbuf, "VMCOREINFO"));
	assert_null(strchr(errbuf, '\n'));
	close(fd);
	unlink(path);
	memstat_mtl_free(list);
}

/*
 * A read the page tables cannot place says which: no mapping there, or
 * (a cut dump's) no page for the table entry that would tell.
 */
static void
test_walk_says_which(void **state)
{
	char errbuf[MEMSTAT_KVM_ERRLEN];
	unsigned char b[8];
	void *kvm;

	(void)state;
	assert_non_null(kvm = memstat_kvm_open(DIR6 "vmcore.elf", NULL,
	    errbuf));
	assert_int_equal(_memstat_kvm_read(kvm, 0xffffc90000000000ULL, b,
	    sizeof(b)), -1);
	assert_string_equal(memstat_kvm_geterr(kvm), "cannot read 8 bytes at "
	    "0xffffc90000000000: the page tables map no page there");
	/* The struct pages of 1 GiB on: their PUD page was not cut. */
	assert_int_equal(_memstat_kvm_read(kvm, 0xffffea0040000000ULL, b,
	    sizeof(b)), -1);
	assert_string_equal(memstat_kvm_geterr(kvm), "cannot read 8 bytes at "
	    "0xffffea0040000000: the dump has no page for its page-table "
	    "entry at 0x1031008");
	memstat_kvm_close(kvm);
}

/* -N: a System.map that is not one, or another kernel's types. */
static void
test_wrong_system(void **state)
{
	char errbuf[MEMSTAT_KVM_ERRLEN];
	struct memory_type_list *list = memstat_mtl_alloc();
	void *kvm;

	(void)state;
	kvm = memstat_kvm_open(DIR6 "vmcore.elf", DIR6 "slabinfo.guest",
	    errbuf);
	assert_non_null(kvm);
	assert_int_equal(memstat_kvm_uma(list, kvm), -1);
	assert_int_equal(memstat_mtl_geterror(list), MEMSTAT_ERROR_DATAERROR);
	assert_non_null(strstr(memstat_kvm_geterr(kvm), "not a System.map"));
	memstat_kvm_close(kvm);
	memstat_mtl_free(list);
}

/*
 * A System.map that goes bad after its first line: the names gathered so
 * far must be freed (LeakSanitizer, under SANITIZE=1, sees them if not).
 */
static void
test_system_map_bad_later(void **state)
{
	char errbuf[MEMSTAT_KVM_ERRLEN], map[4096];
	struct memory_type_list *list = memstat_mtl_alloc();
	static const char text[] = "ffffffff81000000 T _stext\n"
	    "ffffffff81000010 T slab_caches\nnot a symbol line\n";
	void *kvm;
	int fd;

	(void)state;
	assert_true((fd = scratch_file(map, sizeof(map), "map")) != -1);
	assert_int_equal(write(fd, text, sizeof(text) - 1), sizeof(text) - 1);
	close(fd);
	assert_non_null(kvm = memstat_kvm_open(DIR6 "vmcore.elf", map,
	    errbuf));
	assert_int_equal(memstat_kvm_uma(list, kvm), -1);
	assert_int_equal(memstat_mtl_geterror(list), MEMSTAT_ERROR_DATAERROR);
	assert_non_null(strstr(memstat_kvm_geterr(kvm), "not a System.map"));
	/* The list says it too, with its code. */
	assert_non_null(strstr(memstat_mtl_geterrmsg(list),
	    "not a System.map"));
	memstat_kvm_close(kvm);
	memstat_mtl_free(list);
	unlink(map);
}

/*
 * Running out of memory for a vmlinux's symbol table is NOMEMORY, not a
 * data error.  The -N vmlinux is this test's own executable (its .symtab
 * has a few thousand symbols); the table's calloc fails.
 */
static bool fail_symbol_table;

void	*__real_calloc(size_t n, size_t size);
void	*__wrap_calloc(size_t n, size_t size);

void *
__wrap_calloc(size_t n, size_t size)
{
	/* struct kvm_sym: a name pointer and an address. */
	if (fail_symbol_table && size == 2 * sizeof(void *) && n > 100)
		return (NULL);
	return (__real_calloc(n, size));
}

static void
test_symbol_table_nomem(void **state)
{
	char errbuf[MEMSTAT_KVM_ERRLEN];
	struct memory_type_list *list = memstat_mtl_alloc();
	void *kvm;

	(void)state;
	assert_non_null(kvm = memstat_kvm_open(DIR6 "vmcore.elf",
	    "/proc/self/exe", errbuf));
	fail_symbol_table = true;
	assert_int_equal(memstat_kvm_uma(list, kvm), -1);
	fail_symbol_table = false;
	assert_int_equal(memstat_mtl_geterror(list), MEMSTAT_ERROR_NOMEMORY);
	memstat_kvm_close(kvm);
	memstat_mtl_free(list);
}

/* DUMP with -N FILE (n bytes): the uma query's error message. */
static void
assert_refused_with(const char *dump, const void *file, size_t n,
    const char *why)
{
	char errbuf[MEMSTAT_KVM_ERRLEN], path[4096];
	struct memory_type_list *list = memstat_mtl_alloc();
	void *kvm;
	int fd;

	assert_true((fd = scratch_file(path, sizeof(path), "N")) != -1);
	assert_int_equal(write(fd, file, n), (ssize_t)n);
	close(fd);
	assert_non_null(kvm = memstat_kvm_open(dump, path, errbuf));
	assert_int_equal(memstat_kvm_uma(list, kvm), -1);
	if (strstr(memstat_mtl_geterrmsg(list), why) == NULL)
		fail_msg("%s", memstat_mtl_geterrmsg(list));
	assert_null(memstat_mtl_first(list));
	memstat_kvm_close(kvm);
	memstat_mtl_free(list);
	unlink(path);
}

static void
assert_system_refused(const void *file, size_t n, const char *why)
{
	assert_refused_with(DIR6 "vmcore.elf", file, n, why);
}

/* Debian's /boot/System.map-* is a placeholder of one line. */
static void
test_debian_placeholder(void **state)
{
	static const char stub[] = "ffffffffffffffff B The real System.map "
	    "is in the linux-image-<version>-dbg package\n";

	(void)state;
	assert_system_refused(stub, sizeof(stub) - 1,
	    "Debian's placeholder, no System.map");
}

/*
 * A vmlinuz whose setup header puts its payload past its end, for a dump
 * whose VMCOREINFO names no kallsyms tables (5.10): the image is read.
 */
static void
test_vmlinuz_payload_outside(void **state)
{
	static unsigned char bz[4096];

	(void)state;
	bz[0] = 'M';
	bz[1] = 'Z';
	memcpy(bz + 0x202, "HdrS", 4);
	bz[0x1f1] = 4;				/* setup_sects */
	bz[0x248] = 0xf0;			/* payload_offset */
	bz[0x24a] = 0x10;
	bz[0x24c] = 0x40;			/* payload_length */
	assert_refused_with(DIR510 "vmcore.elf", bz, sizeof(bz),
	    "a bzImage whose payload is not within it");
	/* Within, but not a compressed stream the library reads. */
	bz[0x248] = 0x10;
	bz[0x24a] = 0;
	assert_refused_with(DIR510 "vmcore.elf", bz, sizeof(bz),
	    "compressed other than with");
}

/*
 * An arm64 or riscv64 Image (their boot header's magic at 56) named by
 * -N for a dump whose VMCOREINFO names no kallsyms tables: said in one
 * line, not taken for a System.map.
 */
static void
test_boot_image(void **state)
{
	static unsigned char image[4096];

	(void)state;
	image[0] = 'M';
	image[1] = 'Z';
	memcpy(image + 56, "ARM\x64", 4);
	assert_refused_with(DIR510 "vmcore.elf", image, sizeof(image),
	    "a kernel Image (arm64's boot format), whose kallsyms");
	memcpy(image + 56, "RSC\x05", 4);
	assert_refused_with(DIR510 "vmcore.elf", image, sizeof(image),
	    "a kernel Image (riscv64's boot format), whose kallsyms");
}

/*
 * Types of a kernel outside what memstat reads, as -N's raw BTF (made
 * here by libbpf's writer): a kmem_cache with no oo (SLAB's), or SLUB's
 * with a kmem_cache_node that counts no objects (no CONFIG_SLUB_DEBUG);
 * with other_order, written in the other byte order (a big-endian
 * kernel's BTF read on a little-endian machine, or the reverse).
 */
static void
assert_types_refused(bool slub, bool other_order, const char *why)
{
	struct btf *btf = btf__new_empty();
	const void *raw;
	uint32_t n;
	int u32;

	assert_non_null(btf);
	u32 = btf__add_int(btf, "unsigned int", 4, 0);
	assert_true(u32 > 0);
	assert_true(btf__add_struct(btf, "kmem_cache", 8) > 0);
	assert_int_equal(btf__add_field(btf, slub ? "oo" : "num", u32, 0, 0),
	    0);
	assert_int_equal(btf__add_field(btf, "size", u32, 32, 0), 0);
	assert_true(btf__add_struct(btf, "kmem_cache_node", 4) > 0);
	assert_int_equal(btf__add_field(btf, "nr_partial", u32, 0, 0), 0);
	if (other_order)
		assert_int_equal(btf__set_endianness(btf,
		    btf__endianness(btf) == BTF_LITTLE_ENDIAN ?
		    BTF_BIG_ENDIAN : BTF_LITTLE_ENDIAN), 0);
	assert_non_null(raw = btf__raw_data(btf, &n));
	assert_system_refused(raw, n, why);
	btf__free(btf);
}

static void
test_not_slub(void **state)
{
	(void)state;
	assert_types_refused(false, false, "the kernel's caches are not "
	    "SLUB's");
	assert_types_refused(true, false, "built without CONFIG_SLUB_DEBUG");
	assert_types_refused(false, true, "the kernel's caches are not "
	    "SLUB's");
}

/* Symbols with no __start_BTF: one line naming what -N can give. */
/* A System.map of the dump's own symbols named: its length. */
static size_t
map_of(const char *const *names, size_t count, char *map, size_t size)
{
	char errbuf[MEMSTAT_KVM_ERRLEN];
	size_t n = 0;
	void *kvm;

	assert_non_null(kvm = memstat_kvm_open(DIR6 "vmcore.elf", NULL,
	    errbuf));
	for (size_t i = 0; i < count; i++) {
		uint64_t a;

		assert_int_equal(_memstat_kvm_symbol(kvm, names[i], &a), 0);
		n += (size_t)snprintf(map + n, size - n, "%016llx T %s\n",
		    (unsigned long long)(a - ((struct memstat_kvm *)kvm)->kaslr),
		    names[i]);
	}
	memstat_kvm_close(kvm);
	return (n);
}

/*
 * Symbols with no __start_BTF, and nothing to say where to look for it:
 * no claim that the kernel has none (this one has).
 */
static void
test_no_btf(void **state)
{
	static const char *const names[] = { "_stext", "slab_caches",
	    "nr_node_ids" };
	static char map[1 << 16];

	(void)state;
	assert_system_refused(map, map_of(names, 3, map, sizeof(map)),
	    "neither __start_BTF nor _etext and _edata (or _sinittext) are "
	    "among the kernel's symbols: name its types with -N");
}

/*
 * No __start_BTF among the symbols (as in some arm64 kernels' kallsyms):
 * the blob is found by its header between _etext and _edata, where the
 * dump's own symbols put it, and the walk reads every row.
 */
static void
test_btf_found(void **state)
{
	static const char *const names[] = { "_stext", "slab_caches",
	    "nr_node_ids", "_etext", "_edata" };
	static char map[1 << 16];
	char errbuf[MEMSTAT_KVM_ERRLEN], path[4096];
	struct row rows[512];
	struct memory_type_list *list = memstat_mtl_alloc();
	uint64_t start, stop, want_start, want_stop;
	size_t n = map_of(names, 5, map, sizeof(map)), nrows;
	void *kvm;
	int fd;

	(void)state;
	assert_non_null(kvm = memstat_kvm_open(DIR6 "vmcore.elf", NULL,
	    errbuf));
	assert_int_equal(_memstat_kvm_symbol(kvm, "__start_BTF",
	    &want_start), 0);
	assert_int_equal(_memstat_kvm_symbol(kvm, "__stop_BTF", &want_stop),
	    0);
	assert_int_equal(_memstat_kvm_btf_find(kvm, 64 << 20, &start, &stop),
	    0);
	assert_int_equal(start, want_start);
	assert_int_equal(stop, want_stop);
	memstat_kvm_close(kvm);

	assert_true((fd = scratch_file(path, sizeof(path), "N")) != -1);
	assert_int_equal(write(fd, map, n), (ssize_t)n);
	close(fd);
	assert_non_null(kvm = memstat_kvm_open(DIR6 "vmcore.elf", path,
	    errbuf));
	assert_int_equal(memstat_kvm_uma(list, kvm), 0);
	nrows = guest_rows(rows, 512);
	for (size_t i = 0; i < nrows; i++) {
		struct memory_type *m = memstat_mtl_find(list, ALLOCATOR_UMA,
		    rows[i].name);

		assert_non_null(m);
		assert_int_equal(memstat_get_count(m), rows[i].active);
	}
	memstat_kvm_close(kvm);
	memstat_mtl_free(list);
	unlink(path);
}

/*
 * arm64's /proc/kcore: the kernel image's segment inside vmalloc's.  Each
 * address is read from the smallest segment holding it; pieces of one
 * segment that meet again are one.
 */
static void
test_segments_nest(void **state)
{
	struct elf_segment segs[8] = {
		{ 0x200000, 0x100000, 0x300000 },	/* the linear map */
		{ 0x1000, 0xff000, 0 },			/* vmalloc */
		{ 0x20000, 0x10000, 0x200000 },		/* the image */
		{ 0x40000, 0x1000, 0x3f000 },		/* vmalloc's again */
	};
	size_t n = 4;
	const struct elf_segment *s;

	(void)state;
	assert_non_null(_memstat_elf_segments_sort(segs, n));
	assert_int_equal(_memstat_elf_segments_nest(segs, &n), 0);
	assert_int_equal(n, 4);
	assert_null(_memstat_elf_segments_sort(segs, n));
	assert_non_null(s = _memstat_elf_segment_of(segs, n, 0x25000));
	assert_int_equal(s->offset + (0x25000 - s->addr), 0x205000);
	assert_non_null(s = _memstat_elf_segment_of(segs, n, 0x1fff8));
	assert_int_equal(s->offset + (0x1fff8 - s->addr), 0x1eff8);
	assert_non_null(s = _memstat_elf_segment_of(segs, n, 0x40800));
	assert_int_equal(s->offset + (0x40800 - s->addr), 0x3f800);
	assert_non_null(s = _memstat_elf_segment_of(segs, n, 0x2ffff8));
	assert_int_equal(s->offset + (0x2ffff8 - s->addr), 0x3ffff8);
	assert_null(_memstat_elf_segment_of(segs, n, 0x100000));
	n = KCORE_SEGS + 1;
	assert_int_equal(_memstat_elf_segments_nest(segs, &n), -1);
}

/* Every symbol of a table, as _memstat_kvm_symbols_each() gives them. */
struct sym_list {
	const char	**name;
	uint64_t	 *addr;
	size_t		  n, cap;
};

static void
collect_symbol(const char *name, uint64_t addr, void *arg)
{
	struct sym_list *l = arg;

	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 65536;
		assert_non_null(l->name = reallocarray(l->name, l->cap,
		    sizeof(*l->name)));
		assert_non_null(l->addr = reallocarray(l->addr, l->cap,
		    sizeof(*l->addr)));
	}
	l->name[l->n] = name;
	l->addr[l->n++] = addr;
}

static const struct sym_list *sorting;

/* By name, then by place in the table: a name's first comes first. */
static int
cmp_symbol(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	int c = strcmp(sorting->name[i], sorting->name[j]);

	return (c != 0 ? c : (i > j) - (i < j));
}

/*
 * A look-up finds the first symbol of the name, as the whole table read
 * in order has it: names past the first mark of 256, names sharing a
 * hash or a name, on the three encodings of the addresses (5.10's tables
 * found by their structure, 6.1's base-relative offsets, 7.2's
 * slot-relative ones).  The names each() gave stay the handle's.
 */
static void
test_symbol_lookups(void **state)
{
	static const char *const cores[] = { DIR510 "vmcore.elf",
	    DIR6 "vmcore.elf", "fixtures/vmcore/sid-7.2/vmcore.elf" };
	char errbuf[MEMSTAT_KVM_ERRLEN];
	struct memstat_kvm *kvm;
	size_t *order, checked;
	uint64_t a;

	(void)state;
	for (size_t c = 0; c < 3; c++) {
		struct sym_list l = { 0 };

		assert_non_null(kvm = memstat_kvm_open(cores[c], NULL,
		    errbuf));
		assert_int_equal(_memstat_kvm_symbols_each(kvm,
		    collect_symbol, &l), 0);
		assert_true(l.n > 90000);
		assert_non_null(order = calloc(l.n, sizeof(*order)));
		for (size_t i = 0; i < l.n; i++)
			order[i] = i;
		sorting = &l;
		qsort(order, l.n, sizeof(*order), cmp_symbol);
		checked = 0;
		for (size_t k = 0; k < l.n; k++) {
			size_t i = order[k];

			if (k > 0 && strcmp(l.name[order[k - 1]],
			    l.name[i]) == 0)
				continue;
			if (i % 97 != 0 && (k + 1 == l.n ||
			    strcmp(l.name[order[k + 1]], l.name[i]) != 0))
				continue;
			assert_int_equal(_memstat_kvm_symbol(kvm, l.name[i],
			    &a), 0);
			assert_true(a == l.addr[i]);
			checked++;
		}
		assert_true(checked > 1000);
		/* Asked again (each look of -w asks): the same answers. */
		for (int again = 0; again < 2; again++) {
			assert_int_equal(_memstat_kvm_symbol(kvm,
			    "no_such_symbol_x", &a), -1);
			assert_int_equal(kvm->err.code,
			    MEMSTAT_ERROR_KVM_NOSYMBOL);
		}
		for (size_t k = 0; k < l.n; k += l.n / 50) {
			size_t first = k;

			/* The name's first symbol, which a look-up gives. */
			while (first > 0 && strcmp(l.name[order[first - 1]],
			    l.name[order[k]]) == 0)
				first--;
			assert_int_equal(_memstat_kvm_symbol(kvm,
			    l.name[order[first]], &a), 0);
			assert_true(a == l.addr[order[first]]);
		}
		free(order);
		free(l.name);
		free(l.addr);
		memstat_kvm_close(kvm);
	}
}

/*
 * The list walks' loop guard: a list that loops without coming back to
 * its head (entries 1 -> 2 -> ... -> 100 -> 40 -> ...) is caught within
 * twice its length, whatever count the dump claims; a list without a
 * loop is never taken for one.
 */
static void
test_loop_guard(void **state)
{
	struct kvm_loop loop = KVM_LOOP_INIT, line = KVM_LOOP_INIT;
	uint64_t p = 1, steps = 0;

	(void)state;
	while (!_memstat_kvm_loops(&loop, p)) {
		p = p == 100 ? 40 : p + 1;
		assert_true(++steps < 400);
	}
	assert_true(steps > 60);
	for (p = 1; p <= 100000; p++)
		assert_false(_memstat_kvm_loops(&line, p));
}

/* The cgroup at path, or fail. */
static size_t
cgroup_at(const struct memstat_cgroups *cg, const char *path)
{
	for (size_t i = 0; i < memstat_cgroups_count(cg); i++)
		if (strcmp(memstat_cgroup_path(cg, i), path) == 0)
			return (i);
	fail_msg("no cgroup %s", path);
	return (SIZE_MAX);
}

/*
 * What the CPUs hold back from memory.stat, read by each kernel's kind:
 * 7.2's object stocks (the obj_cgroup cached[index] of several), 6.1's
 * (cached_objcg), both as the guests' memory.stat says (SLAB less these;
 * fixtures/tools/cgroups-match holds every cgroup to it).
 */
static void
test_cgroup_stocks(void **state)
{
	static const struct {
		const char *dump;
		int64_t root, a;
	} dumps[] = {
		{ "fixtures/vmcore/sid-7.2-cgroups/vmcore.elf", 680, 0 },
		{ "fixtures/vmcore/bookworm-6.1-cgroups/vmcore.elf", -448, 0 },
	};
	struct memstat_cgroups *cg;
	void *kvm;

	(void)state;
	for (size_t i = 0; i < sizeof(dumps) / sizeof(dumps[0]); i++) {
		assert_non_null(cg = memstat_cgroups_alloc());
		assert_non_null(kvm = memstat_kvm_open(dumps[i].dump, NULL,
		    NULL));
		assert_int_equal(memstat_cgroups_kvm(cg, kvm), 0);
		assert_null(memstat_cgroups_stocked_unknown(cg));
		assert_null(memstat_cgroups_left_out(cg));
		assert_int_equal(memstat_cgroup_stocked(cg, cgroup_at(cg,
		    "/")), dumps[i].root);
		assert_int_equal(memstat_cgroup_stocked(cg, cgroup_at(cg,
		    "/a")), dumps[i].a);
		assert_true(memstat_cgroup_stocked(cg, 99) == INT64_MIN);
		memstat_kvm_close(kvm);
		memstat_cgroups_free(cg);
	}
}

/* dir's file name (dir ends in '/') in buf, or NULL for no name. */
static const char *
in_dir(char *buf, size_t size, const char *dir, const char *name)
{
	if (name == NULL)
		return (NULL);
	snprintf(buf, size, "%s%s", dir, name);
	return (buf);
}

/*
 * Where the kallsyms name the kernel's code only (Debian's arm64 5.10
 * and 6.1), the nodes found from a free block and migratetype_names[]
 * found by its strings and BTF's enum migratetype are those the -dbg
 * System.map names; a System.map that names neither has them found
 * too, and enough room for fewer nodes than found is said.  Two nodes
 * of Debian's amd64 7.2, whose kernel takes 1024 (a zonelist of 5121
 * entries), are found in node order: the same as its kallsyms'
 * node_data[] (its cut holds the image's text only where the reports
 * read it, so not the type names' search).
 */
static void
test_buddy_by_structure(void **state)
{
	static const struct {
		const char	*dir, *dump;
		const char	*nameless;	/* a map naming no node_data */
		const char	*named;		/* and one that does */
		int		 nodes;
		bool		 types;		/* the names' search too */
	} cases[] = {
		{ "fixtures/vmcore/bookworm-6.1-arm64/", "vmcore.elf", NULL,
		    "System.map-part", 1, true },
		{ "fixtures/vmcore/bullseye-5.10-arm64-kdump/", "vmcore.c-d31",
		    NULL, "System.map-part", 1, true },
		{ "fixtures/vmcore/sid-7.2-numa-by-structure/", "vmcore.elf",
		    "System.map-part", NULL, 2, false },
	};
	char dump[256], nameless[256], named_map[256];
	struct buddy_layout l;
	struct memstat_kvm *kvm, *named;
	uint64_t found[8], node_data, p, names, named_names;
	int n;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		in_dir(dump, sizeof(dump), cases[i].dir, cases[i].dump);
		assert_non_null(kvm = memstat_kvm_open(dump, in_dir(nameless,
		    sizeof(nameless), cases[i].dir, cases[i].nameless), NULL));
		assert_non_null(named = memstat_kvm_open(dump, in_dir(named_map,
		    sizeof(named_map), cases[i].dir, cases[i].named), NULL));
		assert_int_equal(_memstat_kvm_symbol(kvm, "node_data", &p), -1);
		assert_int_equal(_memstat_buddy_layout(kvm, &l), 0);
		assert_int_equal(_memstat_buddy_nodes_find(kvm, &l, found, 8,
		    &n), 0);
		assert_int_equal(n, cases[i].nodes);
		assert_int_equal(_memstat_kvm_symbol(named, "node_data",
		    &node_data), 0);
		for (int node = 0; node < n; node++) {
			assert_int_equal(_memstat_kvm_read_u64(named,
			    node_data + (uint64_t)node * 8, &p), 0);
			assert_true(found[node] == p);
		}
		assert_int_equal(_memstat_buddy_nodes_find(kvm, &l, found,
		    n - 1, &n), -1);
		assert_non_null(strstr(kvm->err.msg, "more than"));
		if (cases[i].types) {
			assert_int_equal(_memstat_buddy_type_names_find(kvm,
			    l.ntypes, &names), 0);
			assert_int_equal(_memstat_kvm_symbol(named,
			    "migratetype_names", &named_names), 0);
			assert_true(names == named_names);
			/* More types than the enum names: no such array. */
			assert_int_equal(_memstat_buddy_type_names_find(kvm,
			    l.ntypes + 1, &names), -1);
		}
		memstat_kvm_close(named);
		memstat_kvm_close(kvm);
	}
}

/* The cgroups walked on the dump at path, which must say what it left out. */
static struct memstat_cgroups *
cgroups_left_out(const char *path, const char **why)
{
	struct memstat_cgroups *cg;
	void *kvm;

	assert_non_null(cg = memstat_cgroups_alloc());
	assert_non_null(kvm = memstat_kvm_open(path, NULL, NULL));
	assert_int_equal(memstat_cgroups_kvm(cg, kvm), 0);
	memstat_kvm_close(kvm);
	assert_non_null(*why = memstat_cgroups_left_out(cg));
	return (cg);
}

/*
 * A capture kernel's -c -d 31 dump whose filter left out slabs' owner
 * vectors (Debian 12's makedumpfile on 7.2): their objects are said,
 * not counted in a cgroup nor silently dropped.
 */
static void
test_cgroup_owners_left_out(void **state)
{
	struct memstat_cgroups *cg;
	const char *why;

	(void)state;
	cg = cgroups_left_out(
	    "fixtures/vmcore/sid-7.2-kdump-cgroups/vmcore.c-d31", &why);
	assert_non_null(strstr(why, "the owners of 1414 objects in 92 slabs "
	    "are in pages the dump left out"));
	memstat_cgroups_free(cg);
}

/*
 * Sid's own makedumpfile 1.7.8 at -d 31 on 7.2 leaves out the root
 * mem_cgroup's page (in one run; its per-node obj_cgroup pointers in
 * another): the walk goes on, the root "/" with its memory unknown, the
 * objects of each cgroup whose own obj_cgroups are lost counted in it as
 * inherited, and each said.
 */
static void
test_cgroup_memcg_pages_left_out(void **state)
{
	struct memstat_cgroups *cg;
	const char *why;

	(void)state;
	cg = cgroups_left_out("fixtures/vmcore/sid-7.2-kdump-own/vmcore.c-d31",
	    &why);
	assert_non_null(strstr(why, "a memory cgroup's own obj_cgroups are "
	    "in a page the dump left out"));
	assert_non_null(strstr(why, "the root memory cgroup is in a page the "
	    "dump left out: its memory is unknown"));
	assert_int_equal(memstat_cgroups_count(cg), 3);
	assert_string_equal(memstat_cgroup_path(cg, 0), "/");
	assert_true(memstat_cgroup_memory(cg, 0) == UINT64_MAX);
	memstat_cgroups_free(cg);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_all),
		cmocka_unit_test(test_query_flags),
		cmocka_unit_test(test_open_errors),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_flat),
		cmocka_unit_test(test_wrong_system),
		cmocka_unit_test(test_system_map_bad_later),
		cmocka_unit_test(test_symbol_table_nomem),
		cmocka_unit_test(test_debian_placeholder),
		cmocka_unit_test(test_vmlinuz_payload_outside),
		cmocka_unit_test(test_boot_image),
		cmocka_unit_test(test_not_slub),
		cmocka_unit_test(test_no_btf),
		cmocka_unit_test(test_btf_found),
		cmocka_unit_test(test_segments_nest),
		cmocka_unit_test(test_symbol_lookups),
		cmocka_unit_test(test_loop_guard),
		cmocka_unit_test(test_cgroup_stocks),
		cmocka_unit_test(test_buddy_by_structure),
		cmocka_unit_test(test_cgroup_owners_left_out),
		cmocka_unit_test(test_cgroup_memcg_pages_left_out),
		cmocka_unit_test(test_vmcoreinfo_in_ram),
		cmocka_unit_test(test_walk_says_which),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
