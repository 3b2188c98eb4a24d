/*
 * test_kvm_diskdump.c: the kdump-compressed page reader
 * (kvm_diskdump_phys.c) against libkdumpfile, the reader it stands in
 * for, page by page over the whole of a real (minimized) dump: on the
 * dump as it is, each reads the same pages and the same bytes; on a copy
 * with a byte changed every 4 KiB or so (in descriptors, compressed pages
 * and checksums), whatever it reads libkdumpfile reads the same,
 * and the rest is left to libkdumpfile.
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testlib.h"
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
	kdump_ctx_t	*ctx;
	struct diskdump_phys *dd;
};

static void
open_readers(struct readers *r, const char *path)
{
	char err[256];

	assert_int_equal(_memstat_kdumpfile_load(err, sizeof(err)), 0);
	assert_true((r->fd = open(path, O_RDONLY)) != -1);
	assert_int_equal(_memstat_diskdump_phys_load(&r->dd, r->fd), 0);
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
		bool ok = _memstat_diskdump_phys_read(r->dd, r->fd, pfn * PAGE,
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
		bool ok = _memstat_diskdump_phys_read(r->dd, r->fd, pfn * PAGE +
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

/*
 * Where the page descriptors begin: after the header block, the
 * sub-header's blocks (block_size, sub_hdr_size and bitmap_blocks are
 * 32-bit little-endian at 428 of a 64-bit kernel's header) and the bitmap.
 */
static off_t
descriptors_at(int fd)
{
	unsigned char h[440];
	uint32_t block, sub, bitmap;

	assert_int_equal(pread(fd, h, sizeof(h), 0), sizeof(h));
	memcpy(&block, h + 428, 4);
	memcpy(&sub, h + 432, 4);
	memcpy(&bitmap, h + 436, 4);
	return ((off_t)(1 + sub + bitmap) * block);
}

/*
 * A copy of the dump with every FLIP_STEP-th byte of its descriptors and
 * pages changed: libkdumpfile still opens it.
 */
static void
damaged_copy(char *path)
{
	static unsigned char buf[1 << 16];
	int in, out;
	ssize_t n;
	off_t at = 0, from;

	assert_true((in = open(DUMP, O_RDONLY)) != -1);
	assert_true((out = mkstemp(path)) != -1);
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
	char path[] = "/tmp/memstat-test-kdump-XXXXXX";
	struct readers r;
	size_t clean;

	(void)state;
	open_readers(&r, DUMP);
	clean = compare(&r, true);
	close_readers(&r);
	damaged_copy(path);
	open_readers(&r, path);
	unlink(path);
	/* Some of its pages are damaged: they are left to libkdumpfile. */
	assert_true(compare(&r, false) < clean);
	close_readers(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_pages),
		cmocka_unit_test(test_damaged_pages),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
