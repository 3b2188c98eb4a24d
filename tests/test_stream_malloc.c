/*
 * test_stream_malloc.c: memstat_stream_malloc(): per-CPU sums, size masks,
 * 1024-CPU streams, and malformed streams.
 */
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "testlib.h"

static void
test_fbsd12_cam_xpt(void **state)
{
	struct memory_type_list *mtlp;
	struct memory_type *mtp;

	(void)state;
	mtlp = decode_fixture(memstat_stream_malloc,
	    FIXTURE_DIR "fbsd12.malloc.bin");
	/* "CAM XPT   450    42K       -  4173986  16,32,64,...,65536" */
	mtp = memstat_mtl_find(mtlp, ALLOCATOR_MALLOC, "CAM XPT");
	assert_int_equal(memstat_get_count(mtp), 450);
	assert_int_equal((memstat_get_bytes(mtp) + 1023) / 1024, 42);
	assert_int_equal(memstat_get_numallocs(mtp), 4173986);
	assert_int_equal(memstat_get_sizemask(mtp), 0x12bf);
	assert_int_equal(memstat_get_percpu_sizemask(mtp, 1), 0x1000);
	/* List order: the stream's last type first. */
	assert_string_equal(memstat_get_name(memstat_mtl_first(mtlp)), "acl");
	memstat_mtl_free(mtlp);
}

static void
test_fbsd14_wide(void **state)
{
	struct memory_type_list *mtlp;
	struct memory_type *mtp;
	int n = 0;

	(void)state;
	mtlp = decode_fixture(memstat_stream_malloc,
	    FIXTURE_DIR "fbsd14.malloc.bin");
	for (mtp = memstat_mtl_first(mtlp); mtp != NULL;
	    mtp = memstat_mtl_next(mtp))
		n++;
	assert_int_equal(n, 6);
	mtp = memstat_mtl_find(mtlp, ALLOCATOR_ANY, "mbuf_tag");
	assert_int_equal(memstat_get_bytes(mtp), 0);
	assert_int_equal(memstat_get_numallocs(mtp), 42);
	mtp = memstat_mtl_find(mtlp, ALLOCATOR_MALLOC, "acpitask");
	assert_int_equal(memstat_get_numallocs(mtp), 0);
	assert_int_equal(memstat_get_count(mtp), 0);
	assert_int_equal(memstat_get_sizemask(mtp), 0);
	memstat_mtl_free(mtlp);
}

static void
test_maxcpus0(void **state)
{
	struct memory_type_list *mtlp;
	struct memory_type *mtp;

	(void)state;
	mtlp = decode_fixture(memstat_stream_malloc,
	    FIXTURE_DIR "malloc-maxcpus0.malloc.bin");
	mtp = memstat_mtl_first(mtlp);
	assert_string_equal(memstat_get_name(mtp), "devbuf");
	assert_int_equal(memstat_get_numallocs(mtp), 0);
	assert_int_equal(memstat_get_percpu_numallocs(mtp, 0), 0);
	memstat_mtl_free(mtlp);
}

static void
assert_rejected(const void *buf, size_t len, int error)
{
	assert_stream_rejected(memstat_stream_malloc, buf, len, error);
}

static void
test_truncated_everywhere(void **state)
{
	(void)state;
	assert_truncations_rejected(memstat_stream_malloc,
	    FIXTURE_DIR "fbsd12.malloc.bin");
}

static void
test_bad_headers(void **state)
{
	static const char *paths[] = {
		BAD_DIR "malloc-version2.malloc.bin",
		BAD_DIR "malloc-count-max.malloc.bin",
		BAD_DIR "malloc-maxcpus-max.malloc.bin",
		BAD_DIR "malloc-truncated.malloc.bin",
	};
	static const int errors[] = { MEMSTAT_ERROR_VERSION,
	    MEMSTAT_ERROR_DATAERROR, MEMSTAT_ERROR_DATAERROR,
	    MEMSTAT_ERROR_DATAERROR };
	void *buf;
	size_t len;

	(void)state;
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		buf = fixture_load(paths[i], &len);
		assert_rejected(buf, len, errors[i]);
		free(buf);
	}
}

/* A UMA stream is not a malloc stream: its length cannot fit. */
static void
test_uma_stream_is_not_malloc(void **state)
{
	void *buf;
	size_t len;

	(void)state;
	buf = fixture_load(FIXTURE_DIR "fbsd14-mbuf.uma.bin", &len);
	assert_rejected(buf, len, MEMSTAT_ERROR_DATAERROR);
	free(buf);
}

/* Big-endian malloc records decode to the same sums. */
static void
test_big_endian(void **state)
{
	struct sb_stream_header h = { 1, 2, 1, 0 };
	struct sb_malloc_type_header t = { "devbuf" };
	struct sb_malloc_type_stats s[2] = {
		{ .memalloced = 0x0102030405060708ULL, .numallocs = 3,
		  .sizemask = 0x20 },
		{ .memfreed = 8, .numfrees = 1, .sizemask = 0x4000 } };
	struct memory_type_list *mtlp = memstat_mtl_alloc();
	struct memory_type *mtp;
	struct streambuf sb;

	(void)state;
	sb_init(&sb, true);
	sb_header(&sb, &h);
	sb_malloc_type(&sb, &t);
	sb_malloc_cpu(&sb, &s[0]);
	sb_malloc_cpu(&sb, &s[1]);
	assert_int_equal(memstat_stream_malloc(mtlp, sb.data, sb.len), 0);
	mtp = memstat_mtl_first(mtlp);
	assert_int_equal(memstat_get_memalloced(mtp), 0x0102030405060708ULL);
	assert_int_equal(memstat_get_bytes(mtp), 0x0102030405060700ULL);
	assert_int_equal(memstat_get_count(mtp), 2);
	assert_int_equal(memstat_get_sizemask(mtp), 0x4020);
	sb_free(&sb);
	memstat_mtl_free(mtlp);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fbsd12_cam_xpt),
		cmocka_unit_test(test_fbsd14_wide),
		cmocka_unit_test(test_maxcpus0),
		cmocka_unit_test(test_truncated_everywhere),
		cmocka_unit_test(test_bad_headers),
		cmocka_unit_test(test_uma_stream_is_not_malloc),
		cmocka_unit_test(test_big_endian),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
