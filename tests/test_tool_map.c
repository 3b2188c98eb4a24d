/*
 * test_tool_map: a stream mapped by the tool layer (tool/tool_map.c).  A
 * file cut while mapped reads as zeros past its new end, never SIGBUS, and
 * the blob says it changed; a file left alone does not.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "sigbus_probe.h"
#include "tool_source.h"
#include "tool_source_kinds.h"

#define PAGES	8

static int
make_file(size_t len)
{
	char path[] = "/tmp/memstat-map-XXXXXX";
	unsigned char *buf;
	int fd;

	assert_true((fd = mkstemp(path)) >= 0);
	unlink(path);
	assert_non_null(buf = malloc(len));
	memset(buf, 0xa5, len);
	assert_int_equal(write(fd, buf, len), (ssize_t)len);
	free(buf);
	return (fd);
}

static void
test_unchanged(void **state)
{
	size_t len = (size_t)PAGES * (size_t)sysconf(_SC_PAGESIZE) - 100;
	struct tool_blob b;
	int fd = make_file(len);

	(void)state;
	assert_int_equal(tool_blob_map(fd, &b), 0);
	assert_true(b.mapped);
	assert_int_equal(b.len, len);
	assert_int_equal(b.data[len - 1], 0xa5);
	assert_false(tool_blob_changed(&b));
	tool_blob_free(&b);
	assert_false(b.mapped);
}

/* Cut to one page, then read where the file was: zeros, and "changed". */
static void
test_cut_while_mapped(void **state)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t len = PAGES * page;
	volatile unsigned sum = 0;
	struct tool_blob b;
	int fd = make_file(len);

	(void)state;
	if (!sigbus_says_where()) {
		print_message("this machine's SIGBUS does not say where a cut "
		    "map was read (qemu-user): skipped\n");
		close(fd);
		skip();
	}
	assert_int_equal(tool_blob_map(fd, &b), 0);
	assert_int_equal(b.data[0], 0xa5);
	assert_int_equal(ftruncate(fd, (off_t)page), 0);
	for (size_t i = 0; i < len; i += 512)
		sum += b.data[i];
	assert_int_equal(b.data[len - 1], 0);
	assert_int_equal(b.data[page - 1], 0xa5);
	assert_true(sum > 0);
	assert_true(tool_blob_changed(&b));
	tool_blob_free(&b);
}

/* A cut inside the last page raises no signal: the size still tells. */
static void
test_cut_in_last_page(void **state)
{
	size_t len = (size_t)sysconf(_SC_PAGESIZE) - 10;
	struct tool_blob b;
	int fd = make_file(len);

	(void)state;
	assert_int_equal(tool_blob_map(fd, &b), 0);
	assert_int_equal(ftruncate(fd, (off_t)len - 100), 0);
	assert_true(tool_blob_changed(&b));
	tool_blob_free(&b);
}

/* What cannot be mapped is refused, to be read instead. */
static void
test_refused(void **state)
{
	struct tool_blob b, b2;
	int p[2], fd = make_file(0), fd2 = make_file(100), fd3 = make_file(100);

	(void)state;
	assert_int_equal(tool_blob_map(fd, &b), ENOTSUP);	/* empty */
	assert_int_equal(pipe(p), 0);
	assert_int_equal(tool_blob_map(p[0], &b), ENOTSUP);	/* a pipe */
	close(p[0]);
	close(p[1]);
	close(fd);
	/* One map at a time. */
	assert_int_equal(tool_blob_map(fd2, &b), 0);
	assert_int_equal(tool_blob_map(fd3, &b2), ENOTSUP);
	close(fd3);
	tool_blob_free(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unchanged),
		cmocka_unit_test(test_cut_while_mapped),
		cmocka_unit_test(test_cut_in_last_page),
		cmocka_unit_test(test_refused),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
