/*
 * test_kvm_diskdump.c: the kdump-compressed page reader
 * (kvm_diskdump_phys.c) against libkdumpfile, the reader it stands in
 * for, page by page over the whole of a real (minimized) dump: on the
 * dump as it is, each reads the same pages and the same bytes; on a copy
 * with a byte changed every 4 KiB or so (in descriptors, compressed pages
 * and checksums), whatever it reads libkdumpfile reads the same,
 * and the rest is left to libkdumpfile.  And the same dump flattened as
 * makedumpfile -F writes it, read in place; with its pages recompressed
 * by zstd, which only libkdumpfile reads, given it reassembled when a
 * read first needs it; with records that overlap, reassembled at once:
 * the same zones each time.
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libdeflate.h>
#include <zstd.h>

#include "scratch.h"
#include "testlib.h"
#include "mtprint.h"
#include "kvm/dump/kvm_diskdump_phys.h"
#include "kvm/dump/kvm_kdumpfile.h"

#define DUMP	"fixtures/vmcore/debian12-6.1/vmcore.kdump"
#define PAGE	4096
/* The guest's 256 MiB, and some past its end. */
#define PFNS	(65536 + 64)
#define RUN	18		/* pages in one read: more than a run of the reader's */
#define FLIP_STEP 4099		/* a prime: every kind of byte is hit */

struct readers {
	int		 fd;
	struct kvm_dump_file file;	/* fd, read as the dump's reader does */
	kdump_ctx_t	*ctx;
	struct diskdump_phys *dd;
};

static void
open_readers(struct readers *r, const char *path)
{
	char err[256];

	assert_int_equal(_memstat_kdumpfile_load(err, sizeof(err)), 0);
	assert_true((r->fd = open(path, O_RDONLY)) != -1);
	r->file = (struct kvm_dump_file){ .fd = r->fd };
	assert_int_equal(_memstat_diskdump_phys_load(&r->dd, &r->file, false),
	    0);
	assert_non_null(r->dd);
	assert_non_null(r->ctx = kdump_new());
	kdump_set_number_attr(r->ctx, KDUMP_ATTR_FILE_MMAP_POLICY,
	    KDUMP_MMAP_NEVER);
	assert_int_equal(kdump_open_fd(r->ctx, r->fd), KDUMP_OK);
	/*
	 * As the dump's reader does: QEMU's kdump files name no arch.  On
	 * the damaged copy either may fail (they read the kernel's page
	 * tables); its physical pages are still read.
	 */
	(void)kdump_set_string_attr(r->ctx, KDUMP_ATTR_ARCH_NAME, "x86_64");
	(void)kdump_set_string_attr(r->ctx, KDUMP_ATTR_OSTYPE, "linux");
}

static void
close_readers(struct readers *r)
{
	_memstat_diskdump_phys_free(r->dd);
	kdump_free(r->ctx);
	close(r->fd);
}

/* libkdumpfile's read of n pages at pfn, whole or not at all. */
static bool
theirs(struct readers *r, uint64_t pfn, unsigned char *buf, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t got = PAGE;

		if (kdump_read(r->ctx, KDUMP_KPHYSADDR, (pfn + i) * PAGE,
		    buf + i * PAGE, &got) != KDUMP_OK || got != PAGE)
			return (false);
	}
	return (true);
}

/*
 * Every page alone, then every run of RUN pages (from the middle of one
 * page to the middle of another).  exact: each reads what the other
 * does; else only what libkdumpfile reads too.  How many pages read.
 */
static size_t
compare(struct readers *r, bool exact)
{
	static unsigned char a[RUN * PAGE], b[RUN * PAGE];
	size_t ours_read = 0;

	for (uint64_t pfn = 0; pfn < PFNS; pfn++) {
		bool ok = _memstat_diskdump_phys_read(r->dd, &r->file, pfn * PAGE,
		    b, PAGE);

		if (exact)
			assert_int_equal(ok, theirs(r, pfn, a, 1));
		else if (ok)
			assert_true(theirs(r, pfn, a, 1));
		if (ok)
			assert_memory_equal(a, b, PAGE);
		ours_read += ok;
	}
	for (uint64_t pfn = 0; pfn + RUN < PFNS; pfn += RUN) {
		bool ok = _memstat_diskdump_phys_read(r->dd, &r->file, pfn * PAGE +
		    PAGE / 2, b, (RUN - 1) * PAGE);

		if (exact)
			assert_int_equal(ok, theirs(r, pfn, a, RUN));
		else if (ok)
			assert_true(theirs(r, pfn, a, RUN));
		if (ok)
			assert_memory_equal(a + PAGE / 2, b, (RUN - 1) * PAGE);
	}
	return (ours_read);
}

static void
test_same_pages(void **state)
{
	struct readers r;

	(void)state;
	open_readers(&r, DUMP);
	/* The walks' pages: the minimized dump keeps some thousands. */
	assert_true(compare(&r, true) > 1000);
	close_readers(&r);
}

static uint64_t
get_le(const unsigned char *p, int n)
{
	uint64_t v = 0;

	while (n-- > 0)
		v = v << 8 | p[n];
	return (v);
}

/*
 * Where the page descriptors begin: after the header block, the
 * sub-header's blocks (block_size, sub_hdr_size and bitmap_blocks are
 * 32-bit little-endian at 428 of a 64-bit kernel's header) and the bitmap.
 */
static uint64_t
descriptors_at_mem(const unsigned char *h)
{
	return ((1 + get_le(h + 432, 4) + get_le(h + 436, 4)) *
	    get_le(h + 428, 4));
}

static off_t
descriptors_at(int fd)
{
	unsigned char h[440];

	assert_int_equal(pread(fd, h, sizeof(h), 0), sizeof(h));
	return ((off_t)descriptors_at_mem(h));
}

/*
 * A copy of the dump with every FLIP_STEP-th byte of its descriptors and
 * pages changed: libkdumpfile still opens it.
 */
static void
damaged_copy(char *path, size_t size)
{
	static unsigned char buf[1 << 16];
	int in, out;
	ssize_t n;
	off_t at = 0, from;

	assert_true((in = open(DUMP, O_RDONLY)) != -1);
	assert_true((out = scratch_file(path, size, "kdump")) != -1);
	from = descriptors_at(in);
	while ((n = read(in, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < n; i++)
			if (at + i >= from && (at + i) % FLIP_STEP == 0)
				buf[i] ^= 0x5a;
		assert_int_equal(write(out, buf, (size_t)n), n);
		at += n;
	}
	close(in);
	close(out);
}

static void
test_damaged_pages(void **state)
{
	char path[4096];
	struct readers r;
	size_t clean;

	(void)state;
	open_readers(&r, DUMP);
	clean = compare(&r, true);
	close_readers(&r);
	damaged_copy(path, sizeof(path));
	open_readers(&r, path);
	unlink(path);
	/* Some of its pages are damaged: they are left to libkdumpfile. */
	assert_true(compare(&r, false) < clean);
	close_readers(&r);
}


/* The whole of a file into memory: its bytes, *len of them. */
static unsigned char *
slurp(const char *path, size_t *len)
{
	unsigned char *p;
	off_t n;
	int fd;

	assert_true((fd = open(path, O_RDONLY)) != -1);
	assert_true((n = lseek(fd, 0, SEEK_END)) > 0);
	assert_non_null(p = malloc((size_t)n));
	assert_int_equal(pread(fd, p, (size_t)n, 0), n);
	close(fd);
	*len = (size_t)n;
	return (p);
}

/*
 * The dump with every page kept compressed by zstd (libkdumpfile reads
 * it; this reader does not): the descriptors rewritten, the pages after
 * them anew.  A descriptor the minimized dump left zero stays zero.
 */
static unsigned char *
zstd_copy(const unsigned char *d, size_t len, size_t *out_len)
{
	struct libdeflate_decompressor *z = libdeflate_alloc_decompressor();
	size_t at, descs = (size_t)descriptors_at_mem(d), data = len, n = 0;
	unsigned char page[PAGE], *out;

	assert_non_null(z);
	/*
	 * The descriptors end where the first page's bytes begin (a
	 * descriptor the minimizer cut may point anywhere: it is kept).
	 */
	for (at = descs; at + 24 <= data; at += 24, n++)
		if (get_le(d + at + 8, 4) != 0 && get_le(d + at, 8) >
		    at && get_le(d + at, 8) < data)
			data = (size_t)get_le(d + at, 8);
	assert_non_null(out = malloc(data + n * ZSTD_compressBound(PAGE)));
	memcpy(out, d, data);
	*out_len = data;
	for (size_t i = 0; i < n; i++) {
		unsigned char *e = out + descs + i * 24;
		uint64_t off = get_le(e, 8), size = get_le(e + 8, 4);
		uint32_t flags = (uint32_t)get_le(e + 12, 4);
		size_t z_len;

		if (size == 0 || off < data || off > len || size > len - off)
			continue;
		/* A page the minimizer left out: a descriptor of nothing. */
		if (flags == 0)
			memcpy(page, d + off, PAGE);
		else if (libdeflate_zlib_decompress(z, d + off, size, page,
		    PAGE, NULL) != LIBDEFLATE_SUCCESS) {
			memset(e, 0, 24);
			continue;
		}
		z_len = ZSTD_compress(out + *out_len,
		    ZSTD_compressBound(PAGE), page, PAGE, 1);
		assert_false(ZSTD_isError(z_len));
		put_le(e, *out_len, 8);
		put_le(e + 8, z_len, 4);
		put_le(e + 12, 0x20, 4);	/* DUMP_DH_COMPRESSED_ZSTD */
		*out_len += z_len;
	}
	libdeflate_free_decompressor(z);
	return (out);
}

#define FLAT_RECORD	16384

static void
flat_record(FILE *f, uint64_t off, const unsigned char *p, size_t n)
{
	unsigned char head[16];

	for (int i = 0; i < 8; i++) {
		head[i] = (unsigned char)(off >> (56 - 8 * i));
		head[8 + i] = (unsigned char)((uint64_t)n >> (56 - 8 * i));
	}
	assert_int_equal(fwrite(head, 1, 16, f), 16);
	assert_int_equal(fwrite(p, 1, n, f), n);
}

/*
 * The file flattened into path as makedumpfile -F writes it: its
 * records at most 16 KiB, those of its second half first (a stream need
 * not follow the file); with overlap, its header block placed again at
 * the end.
 */
static void
flatten(const char *path, const unsigned char *d, size_t len, bool overlap)
{
	unsigned char hdr[4096] = "makedumpfile";
	size_t half = len / 2 / FLAT_RECORD * FLAT_RECORD;
	FILE *f;

	assert_non_null(f = fopen(path, "w"));
	hdr[23] = 1;	/* type 1 */
	hdr[31] = 1;	/* version 1 */
	assert_int_equal(fwrite(hdr, 1, sizeof(hdr), f), sizeof(hdr));
	for (size_t at = half; at < len; at += FLAT_RECORD)
		flat_record(f, at, d + at, len - at < FLAT_RECORD ?
		    len - at : FLAT_RECORD);
	for (size_t at = 0; at < half; at += FLAT_RECORD)
		flat_record(f, at, d + at, FLAT_RECORD);
	if (overlap)
		flat_record(f, 0, d, 4096);
	memset(hdr, 0xff, 8);		/* the end: offset -1 */
	memset(hdr + 8, 0, 8);
	assert_int_equal(fwrite(hdr, 1, 16, f), 16);
	assert_int_equal(fclose(f), 0);
}

/* The zone report of a dump as text, or NULL with why in err. */
static char *
zones_of(const char *path, char *err)
{
	struct memory_type_list *list;
	char *text = NULL;
	void *kvm;

	if ((kvm = memstat_kvm_open(path, NULL, err)) == NULL)
		return (NULL);
	assert_non_null(list = memstat_mtl_alloc());
	if (memstat_kvm_uma(list, kvm) == 0)
		text = mtl_snapshot(list);
	else
		snprintf(err, MEMSTAT_KVM_ERRLEN, "%s",
		    memstat_mtl_geterrmsg(list));
	memstat_mtl_free(list);
	memstat_kvm_close(kvm);
	return (text);
}

static void
test_flattened(void **state)
{
	char path[4096], *tmpdir;
	char err[MEMSTAT_KVM_ERRLEN] = "", *want, *got;
	unsigned char *dump, *zstd;
	size_t len, zlen;
	int fd;

	(void)state;
	dump = slurp(DUMP, &len);
	zstd = zstd_copy(dump, len, &zlen);
	assert_true((fd = scratch_file(path, sizeof(path), "flat")) != -1);
	close(fd);
	assert_non_null(tmpdir = scratch_dir("tmpdir"));
	assert_non_null(want = zones_of(DUMP, err));

	/* In place: no temporary file can be made, and none is needed. */
	scratch_tmpdir("/nonexistent");
	flatten(path, dump, len, false);
	assert_non_null(got = zones_of(path, err));
	assert_string_equal(got, want);
	free(got);
	/* Pages only libkdumpfile reads: a reassembly it cannot make. */
	flatten(path, zstd, zlen, false);
	assert_null(zones_of(path, err));
	assert_non_null(strstr(err, "flattened dump: reassembly in a "
	    "temporary file: "));
	/* Made when a read first needs it; at once when records overlap. */
	scratch_tmpdir(tmpdir);
	assert_non_null(got = zones_of(path, err));
	assert_string_equal(got, want);
	free(got);
	flatten(path, dump, len, true);
	assert_non_null(got = zones_of(path, err));
	assert_string_equal(got, want);
	free(got);
	scratch_tmpdir(NULL);

	unlink(path);
	assert_int_equal(rmdir(tmpdir), 0);
	free(tmpdir);
	free(want);
	free(dump);
	free(zstd);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_pages),
		cmocka_unit_test(test_damaged_pages),
		cmocka_unit_test(test_flattened),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
