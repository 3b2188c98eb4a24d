/*
 * test_stream_uma.c: memstat_stream_uma(): FreeBSD's arithmetic, the keg
 * rule, every era and byte order, and every way a stream can be malformed.
 */
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "mtprint.h"
#include "testlib.h"

/*
 * The keg rule.  A secondary zone reports its keg's free items like the
 * primary does; counting them for the secondary too is the 2005 bug that
 * made netstat -m print negative free mbufs.  This test fails if keg free
 * is added for a zone flagged UTH_ZONE_SECONDARY.
 */
static void
test_keg_free_not_added_for_secondary(void **state)
{
	struct test_zone zones[] = {
		{ .name = "mbuf", .size = 256, .keg_free = 1000000,
		  .zone_free = 5, .allocs = 10, .frees = 2,
		  .cpu = { { .cache_free = 3 }, { .cache_free = 4 } } },
		{ .name = "mbuf_packet", .size = 256, .keg_free = 1000000,
		  .zone_free = 7, .flags = 1, .allocs = 10, .frees = 1,
		  .cpu = { { .cache_free = 1 }, { .cache_free = 2 } } },
	};
	struct memory_type_list *mtlp = memstat_mtl_alloc();
	struct memory_type *primary, *secondary;
	struct streambuf sb;

	(void)state;
	build_uma(&sb, false, 2, zones, 2);
	assert_int_equal(memstat_stream_uma(mtlp, sb.data, sb.len), 0);
	primary = memstat_mtl_find(mtlp, ALLOCATOR_UMA, "mbuf");
	secondary = memstat_mtl_find(mtlp, ALLOCATOR_UMA, "mbuf_packet");
	assert_int_equal(memstat_get_kegfree(primary), 1000000);
	assert_int_equal(memstat_get_free(primary), 3 + 4 + 5 + 1000000);
	assert_int_equal(memstat_get_kegfree(secondary), 0);
	assert_int_equal(memstat_get_zonefree(secondary), 7);
	assert_int_equal(memstat_get_free(secondary), 1 + 2 + 7);
	/* FreeBSD keeps everything but a slab count, new or refreshed. */
	for (int pass = 0; pass < 2; pass++) {
		assert_int_equal(memstat_get_unknown(primary),
		    MEMSTAT_UNKNOWN_SLABS);
		assert_int_equal(memstat_get_slabs(primary), 0);
		assert_int_equal(memstat_stream_uma(mtlp, sb.data, sb.len), 0);
	}
	sb_free(&sb);
	memstat_mtl_free(mtlp);
}

/* The worked netstat -m example: what its mbuf lines are computed from. */
static void
test_netstat_example_inputs(void **state)
{
	struct memory_type_list *mtlp;
	struct memory_type *mbuf, *packet, *cluster, *jumbop;

	(void)state;
	mtlp = decode_fixture(memstat_stream_uma,
	    FIXTURE_DIR "fbsd14-mbuf.uma.bin");
	mbuf = memstat_mtl_find(mtlp, ALLOCATOR_UMA, "mbuf");
	packet = memstat_mtl_find(mtlp, ALLOCATOR_UMA, "mbuf_packet");
	cluster = memstat_mtl_find(mtlp, ALLOCATOR_UMA, "mbuf_cluster");
	jumbop = memstat_mtl_find(mtlp, ALLOCATOR_UMA, "mbuf_jumbo_page");
	/* 257/1018/1275 mbufs in use (current/cache/total) */
	assert_int_equal(memstat_get_count(mbuf) + memstat_get_count(packet),
	    257);
	assert_int_equal(memstat_get_free(mbuf) + memstat_get_free(packet),
	    1018);
	/* 256/506/762/109049 mbuf clusters in use */
	assert_int_equal(memstat_get_count(cluster) - memstat_get_free(packet),
	    256);
	assert_int_equal(memstat_get_free(cluster) + memstat_get_free(packet),
	    506);
	assert_int_equal(memstat_get_countlimit(cluster), 109049);
	/* 0/508/508/54524 4k (page size) jumbo clusters */
	assert_int_equal(memstat_get_count(jumbop), 0);
	assert_int_equal(memstat_get_free(jumbop), 508);
	assert_int_equal(memstat_get_countlimit(jumbop), 54524);
	memstat_mtl_free(mtlp);
}

struct zone_row {
	const char	*name;
	uint64_t	 size, limit, used, free, req, fail, sleep, xdomain;
};

static void
assert_rows(struct memory_type_list *mtlp, const struct zone_row *rows,
    size_t n)
{
	struct memory_type *mtp = memstat_mtl_first(mtlp);

	for (size_t i = 0; i < n; i++, mtp = memstat_mtl_next(mtp)) {
		assert_non_null(mtp);
		assert_string_equal(memstat_get_name(mtp), rows[i].name);
		assert_int_equal(memstat_get_size(mtp), rows[i].size);
		assert_int_equal(memstat_get_countlimit(mtp), rows[i].limit);
		assert_int_equal(memstat_get_count(mtp), rows[i].used);
		/* FreeBSD counts the CPUs' cached items as free. */
		assert_int_equal(memstat_get_allocated(mtp), rows[i].used);
		assert_false(memstat_get_unknown(mtp) &
		    MEMSTAT_UNKNOWN_ALLOCATED);
		assert_int_equal(memstat_get_free(mtp), rows[i].free);
		assert_int_equal(memstat_get_numallocs(mtp), rows[i].req);
		assert_int_equal(memstat_get_failures(mtp), rows[i].fail);
		assert_int_equal(memstat_get_sleeps(mtp), rows[i].sleep);
		assert_int_equal(memstat_get_xdomain(mtp), rows[i].xdomain);
	}
	assert_null(mtp);
}

/* The 6.x/7.x layout: the rows a FreeBSD developer posted in 2008. */
static void
test_fbsd7_rows(void **state)
{
	static const struct zone_row rows[] = {
		{ "mbuf_packet", 256, 0, 262, 222, 202448978, 0, 0, 0 },
		{ "mbuf", 256, 0, 9, 527, 686757049, 0, 0, 0 },
		{ "mbuf_cluster", 2048, 25600, 484, 304, 4017957, 0, 0, 0 },
		{ "mbuf_jumbo_pagesize", 4096, 12800, 7, 298, 18924376, 0, 0, 0 },
		{ "mbuf_jumbo_9k", 9216, 6400, 0, 0, 0, 0, 0, 0 },
		{ "mbuf_jumbo_16k", 16384, 3200, 0, 0, 0, 0, 0, 0 },
		{ "mbuf_ext_refcnt", 4, 0, 0, 406, 8873247, 0, 0, 0 },
	};
	struct memory_type_list *mtlp;

	(void)state;
	mtlp = decode_fixture(memstat_stream_uma,
	    FIXTURE_DIR "fbsd7-mbuf.uma.bin");
	assert_rows(mtlp, rows, sizeof(rows) / sizeof(rows[0]));
	memstat_mtl_free(mtlp);
}

/* The 9.x-12.x layout: sleeps filled, xdomain still reserved. */
static void
test_fbsd9_rows(void **state)
{
	static const struct zone_row rows[] = {
		{ "UMA Kegs", 208, 0, 97, 13, 97, 0, 0, 0 },
		{ "128 Bucket", 1024, 0, 120, 9, 5100, 0, 0, 0 },
		{ "mbuf_packet", 256, 0, 2010, 256, 91000500, 0, 0, 0 },
		{ "mbuf", 256, 0, 10002, 1190 + 256 + 125, 510000113, 0, 0, 0 },
		{ "mbuf_cluster", 2048, 25600, 25600, 3, 77000064, 10295, 1183,
		  0 },
		{ "mbuf_jumbo_page", 4096, 12800, 13010, 3 + 18, 9120610, 412,
		  37, 0 },
	};
	struct memory_type_list *mtlp;

	(void)state;
	mtlp = decode_fixture(memstat_stream_uma,
	    FIXTURE_DIR "fbsd9-sleeps.uma.bin");
	assert_rows(mtlp, rows, sizeof(rows) / sizeof(rows[0]));
	memstat_mtl_free(mtlp);
}

static void
test_clamp_and_wide_values(void **state)
{
	struct memory_type_list *mtlp;
	struct memory_type *mtp;

	(void)state;
	mtlp = decode_fixture(memstat_stream_uma,
	    FIXTURE_DIR "fbsd14-mbuf.uma.bin");
	/* counter(9) skew: 1000 allocs, 1002 frees; numallocs := numfrees. */
	mtp = memstat_mtl_find(mtlp, ALLOCATOR_UMA, "socket");
	assert_int_equal(memstat_get_numallocs(mtp), 1002);
	assert_int_equal(memstat_get_numfrees(mtp), 1002);
	assert_int_equal(memstat_get_count(mtp), 0);
	assert_int_equal(memstat_get_bytes(mtp), 0);
	memstat_mtl_free(mtlp);

	mtlp = decode_fixture(memstat_stream_uma,
	    FIXTURE_DIR "fbsd14-numa.uma.bin");
	/* A 32-byte name with no NUL reads as its first 31 bytes. */
	mtp = memstat_mtl_find(mtlp, ALLOCATOR_UMA,
	    "a zone name of thirty-two bytes");
	assert_non_null(mtp);
	/* limit x size in 64 bits: (2^32 - 1) x 16. */
	assert_int_equal(memstat_get_byteslimit(mtp), 4294967295ULL * 16);
	assert_non_null(memstat_mtl_find(mtlp, ALLOCATOR_UMA,
	    "a zone name of 31 characters!!!"));
	/* CPUs across the whole 1024. */
	mtp = memstat_mtl_find(mtlp, ALLOCATOR_UMA, "malloc-64");
	assert_int_equal(memstat_get_percpu_free(mtp, 0), 1);
	assert_int_equal(memstat_get_percpu_free(mtp, 1023), 8);
	memstat_mtl_free(mtlp);
}

/* A big-endian stream decodes to exactly what its little-endian twin does. */
static void
test_byte_orders_agree(void **state)
{
	struct memory_type_list *le, *be;
	char *a, *b;

	(void)state;
	le = decode_fixture(memstat_stream_uma,
	    FIXTURE_DIR "fbsd14-mbuf.uma.bin");
	be = decode_fixture(memstat_stream_uma,
	    FIXTURE_DIR "fbsd14-mbuf-be.uma.bin");
	a = mtl_snapshot(le);
	b = mtl_snapshot(be);
	assert_string_equal(a, b);
	free(a);
	free(b);
	memstat_mtl_free(le);
	memstat_mtl_free(be);
}

static void
test_empty_streams(void **state)
{
	struct memory_type_list *mtlp = memstat_mtl_alloc();
	void *buf;
	size_t len;

	(void)state;
	assert_int_equal(memstat_stream_uma(mtlp, NULL, 0), 0);
	assert_null(memstat_mtl_first(mtlp));
	buf = fixture_load(FIXTURE_DIR "uma-empty-count0.uma.bin", &len);
	assert_int_equal(len, 16);
	assert_int_equal(memstat_stream_uma(mtlp, buf, len), 0);
	assert_null(memstat_mtl_first(mtlp));
	free(buf);
	memstat_mtl_free(mtlp);

	/* maxcpus 0: bare type headers. */
	mtlp = decode_fixture(memstat_stream_uma,
	    FIXTURE_DIR "uma-maxcpus0.uma.bin");
	assert_int_equal(memstat_get_free(memstat_mtl_find(mtlp,
	    ALLOCATOR_UMA, "mbuf")), 5);
	assert_int_equal(memstat_get_free(memstat_mtl_find(mtlp,
	    ALLOCATOR_UMA, "mbuf_packet")), 1);
	memstat_mtl_free(mtlp);
}

static void
assert_rejected(const void *buf, size_t len, int error)
{
	assert_stream_rejected(memstat_stream_uma, buf, len, error);
}

static void
test_truncated_everywhere(void **state)
{
	(void)state;
	assert_truncations_rejected(memstat_stream_uma,
	    FIXTURE_DIR "fbsd14-mbuf.uma.bin");
	assert_truncations_rejected(memstat_stream_uma,
	    FIXTURE_DIR "fbsd14-mbuf-be.uma.bin");
	assert_truncations_rejected(memstat_stream_uma,
	    FIXTURE_DIR "fbsd7-mbuf.uma.bin");
}

static void
put32(unsigned char *p, uint32_t v, bool big)
{
	if (big != sb_host_big())
		v = __builtin_bswap32(v);
	memcpy(p, &v, 4);
}

static void
test_header_fields(void **state)
{
	static const uint32_t bad_versions[] = { 0, 2, 0x01000002,
	    0xffffffff };
	unsigned char *buf;
	size_t len;

	(void)state;
	buf = fixture_load(FIXTURE_DIR "fbsd14-mbuf.uma.bin", &len);
	for (size_t i = 0; i < 4; i++) {
		put32(buf, bad_versions[i], false);
		assert_rejected(buf, len, MEMSTAT_ERROR_VERSION);
	}
	put32(buf, 1, false);
	/* maxcpus and count: 0 and 2^32 - 1 do not fit this length. */
	put32(buf + 4, 0, false);
	assert_rejected(buf, len, MEMSTAT_ERROR_DATAERROR);
	put32(buf + 4, 0xffffffff, false);
	assert_rejected(buf, len, MEMSTAT_ERROR_DATAERROR);
	put32(buf + 4, 2, false);
	put32(buf + 8, 0, false);
	assert_rejected(buf, len, MEMSTAT_ERROR_DATAERROR);
	put32(buf + 8, 0xffffffff, false);
	assert_rejected(buf, len, MEMSTAT_ERROR_DATAERROR);
	/* One zone fewer than the data holds, or one more. */
	put32(buf + 8, 9, false);
	assert_rejected(buf, len, MEMSTAT_ERROR_DATAERROR);
	put32(buf + 8, 11, false);
	assert_rejected(buf, len, MEMSTAT_ERROR_DATAERROR);
	/* Both at their maximum: the product must not wrap to a match. */
	put32(buf + 4, 0xffffffff, false);
	put32(buf + 8, 0xffffffff, false);
	assert_rejected(buf, len, MEMSTAT_ERROR_DATAERROR);
	free(buf);
}

/* Count and maxcpus whose product overflows 64 bits. */
static void
test_length_overflow(void **state)
{
	unsigned char buf[16 + 120];
	struct memory_type_list *mtlp = memstat_mtl_alloc();

	(void)state;
	memset(buf, 0, sizeof(buf));
	put32(buf, 1, false);
	/* record = 120 + 64 * (2^32 - 1), times 2^31: past 2^64. */
	put32(buf + 4, 0xffffffff, false);
	put32(buf + 8, 0x80000000, false);
	assert_int_equal(memstat_stream_uma(mtlp, buf, sizeof(buf)), -1);
	assert_int_equal(memstat_mtl_geterror(mtlp), MEMSTAT_ERROR_DATAERROR);
	memstat_mtl_free(mtlp);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keg_free_not_added_for_secondary),
		cmocka_unit_test(test_netstat_example_inputs),
		cmocka_unit_test(test_fbsd7_rows),
		cmocka_unit_test(test_fbsd9_rows),
		cmocka_unit_test(test_clamp_and_wide_values),
		cmocka_unit_test(test_byte_orders_agree),
		cmocka_unit_test(test_empty_streams),
		cmocka_unit_test(test_truncated_everywhere),
		cmocka_unit_test(test_header_fields),
		cmocka_unit_test(test_length_overflow),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
