/*
 * test_probe.c: memstat_probe() tells every kind of input a tool's -M may
 * name by its content, and says why; what it cannot read is an error with
 * a code and a message.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testlib.h"

static void
assert_kind(const char *path, int kind)
{
	struct memstat_probe p;

	assert_int_equal(memstat_probe(path, &p), 0);
	if (p.kind != kind)
		fail_msg("%s: kind %d, not %d (%s)", path, p.kind, kind, p.why);
	assert_non_null(strstr(p.why, path));
}

static void
test_kinds(void **state)
{
	(void)state;
	assert_kind(FIXTURE_DIR "fbsd14-mbuf.uma.bin",
	    MEMSTAT_SOURCE_FREEBSD_STREAM);
	assert_kind(FIXTURE_DIR "fbsd14.malloc.bin",
	    MEMSTAT_SOURCE_FREEBSD_STREAM);
	assert_kind("fixtures/freebsd/captures/fbsd14-amd64",
	    MEMSTAT_SOURCE_FREEBSD_CAPTURE);
	assert_kind("fixtures/linux/captures/debian12-6.1",
	    MEMSTAT_SOURCE_LINUX_TREE);
	assert_kind("fixtures/vmcore/debian12-6.1/vmcore.elf",
	    MEMSTAT_SOURCE_CORE);
	assert_kind("fixtures/vmcore/debian12-6.1/vmcore.kdump",
	    MEMSTAT_SOURCE_CORE);
	assert_kind("fixtures/vmcore/debian12-6.1/vmcore.flat",
	    MEMSTAT_SOURCE_CORE);
	/* A cut dump is still a dump: opening it says what is wrong. */
	assert_kind("fixtures/bad/vmcore/kdump-header-cut",
	    MEMSTAT_SOURCE_CORE);
	assert_kind("fixtures/bad/vmcore/flat-signature-only",
	    MEMSTAT_SOURCE_CORE);
	assert_kind("/dev/zero", MEMSTAT_SOURCE_UNKNOWN);
}

/*
 * A file is a stream when its header says so: version 1 in either byte
 * order, or a length its counts make (whatever its version: that is then
 * the stream's error).  Anything else is none of the kinds, not a stream
 * with a "version mismatch".
 */
static void
test_streams_and_other_files(void **state)
{
	(void)state;
	assert_kind("fixtures/bad/stream/uma-version-garbage.uma.bin",
	    MEMSTAT_SOURCE_FREEBSD_STREAM);
	assert_kind("fixtures/bad/stream/uma-version2.uma.bin",
	    MEMSTAT_SOURCE_FREEBSD_STREAM);
	assert_kind("fixtures/bad/stream/malloc-version2.malloc.bin",
	    MEMSTAT_SOURCE_FREEBSD_STREAM);
	assert_kind("fixtures/bad/stream/uma-short-header.uma.bin",
	    MEMSTAT_SOURCE_FREEBSD_STREAM);
	assert_kind(FIXTURE_DIR "fbsd14-mbuf-be.uma.bin",
	    MEMSTAT_SOURCE_FREEBSD_STREAM);
	assert_kind("/dev/null", MEMSTAT_SOURCE_UNKNOWN);	/* a device */
	assert_kind("tests/golden/cases", MEMSTAT_SOURCE_UNKNOWN);
	assert_kind("Makefile", MEMSTAT_SOURCE_UNKNOWN);
}

/* A capture's byte order is its streams'. */
static void
test_byte_order(void **state)
{
	struct memstat_probe p;

	(void)state;
	assert_int_equal(memstat_probe("fixtures/freebsd/captures/fbsd14-amd64",
	    &p), 0);
	assert_int_equal(p.byte_order, 1234);
	assert_int_equal(memstat_probe(
	    "fixtures/freebsd/captures/fbsd12-powerpc", &p), 0);
	assert_int_equal(p.byte_order, 4321);
}

/* A pipe is not read (that would consume it): a stream, unread. */
static void
test_pipe(void **state)
{
	struct memstat_probe p;
	char path[64];
	int fds[2];

	(void)state;
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(write(fds[1], "x", 1), 1);
	snprintf(path, sizeof(path), "/dev/fd/%d", fds[0]);
	assert_int_equal(memstat_probe(path, &p), 0);
	assert_int_equal(p.kind, MEMSTAT_SOURCE_FREEBSD_STREAM);
	close(fds[1]);
	char c;
	assert_int_equal(read(fds[0], &c, 1), 1);
	close(fds[0]);
}

static void
test_unreadable(void **state)
{
	struct memstat_probe p;

	(void)state;
	assert_int_equal(memstat_probe("/nonexistent/vm.zone_stats", &p), -1);
	assert_int_equal(p.error, MEMSTAT_ERROR_KVM);
	assert_string_equal(p.why,
	    "/nonexistent/vm.zone_stats: No such file or directory");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_streams_and_other_files),
		cmocka_unit_test(test_byte_order),
		cmocka_unit_test(test_pipe),
		cmocka_unit_test(test_unreadable),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
