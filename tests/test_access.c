/*
 * test_access.c: every accessor, on known data, and the bounds rules: an
 * out-of-range cpu or slot reads 0 and is never written.
 */
#include <limits.h>
#include <stdlib.h>

#include "testlib.h"

static struct memory_type_list *
mbuf_list(void)
{
	return (decode_fixture(memstat_stream_uma,
	    FIXTURE_DIR "fbsd14-mbuf.uma.bin"));
}

static void
test_uma_accessors(void **state)
{
	struct memory_type_list *mtlp = mbuf_list();
	struct memory_type *mtp;

	(void)state;
	mtp = memstat_mtl_find(mtlp, ALLOCATOR_UMA, "mbuf");
	assert_string_equal(memstat_get_name(mtp), "mbuf");
	assert_int_equal(memstat_get_allocator(mtp), ALLOCATOR_UMA);
	assert_int_equal(memstat_get_size(mtp), 256);
	assert_int_equal(memstat_get_rsize(mtp), 256);
	assert_int_equal(memstat_get_countlimit(mtp), 1744816);
	assert_int_equal(memstat_get_byteslimit(mtp), 1744816ULL * 256);
	assert_int_equal(memstat_get_sizemask(mtp), 0);
	assert_int_equal(memstat_get_numallocs(mtp), 5000 + 300);
	assert_int_equal(memstat_get_numfrees(mtp), 4000 + 1299);
	assert_int_equal(memstat_get_count(mtp), 1);
	assert_int_equal(memstat_get_memalloced(mtp), 5300 * 256);
	assert_int_equal(memstat_get_memfreed(mtp), 5299 * 256);
	assert_int_equal(memstat_get_bytes(mtp), 256);
	assert_int_equal(memstat_get_free(mtp), 80 + 70 + 62 + 300);
	assert_int_equal(memstat_get_zonefree(mtp), 62);
	assert_int_equal(memstat_get_kegfree(mtp), 300);
	assert_int_equal(memstat_get_failures(mtp), 0);
	assert_int_equal(memstat_get_sleeps(mtp), 0);
	assert_int_equal(memstat_get_xdomain(mtp), 0);
	assert_int_equal(memstat_get_percpu_free(mtp, 0), 80);
	assert_int_equal(memstat_get_percpu_free(mtp, 1), 70);
	/* FreeBSD's UMA path fills no per-CPU alloc numbers. */
	assert_int_equal(memstat_get_percpu_numallocs(mtp, 0), 0);
	assert_int_equal(memstat_get_percpu_numfrees(mtp, 0), 0);
	assert_int_equal(memstat_get_percpu_memalloced(mtp, 0), 0);
	assert_int_equal(memstat_get_percpu_memfreed(mtp, 0), 0);
	assert_int_equal(memstat_get_percpu_sizemask(mtp, 0), 0);

	mtp = memstat_mtl_find(mtlp, ALLOCATOR_UMA, "vm pgcache");
	assert_int_equal(memstat_get_xdomain(mtp), 31);
	assert_int_equal(memstat_get_rsize(mtp), 0);
	mtp = memstat_mtl_find(mtlp, ALLOCATOR_UMA, "socket");
	assert_int_equal(memstat_get_xdomain(mtp), 7);
	memstat_mtl_free(mtlp);
}

static void
test_malloc_accessors(void **state)
{
	struct memory_type_list *mtlp;
	struct memory_type *mtp;

	(void)state;
	mtlp = decode_fixture(memstat_stream_malloc,
	    FIXTURE_DIR "fbsd14.malloc.bin");
	mtp = memstat_mtl_find(mtlp, ALLOCATOR_MALLOC, "devbuf");
	assert_int_equal(memstat_get_allocator(mtp), ALLOCATOR_MALLOC);
	assert_int_equal(memstat_get_memalloced(mtp), 27017216 + 65536 + 384);
	assert_int_equal(memstat_get_memfreed(mtp), 2113536);
	assert_int_equal(memstat_get_numallocs(mtp), 9002);
	assert_int_equal(memstat_get_numfrees(mtp), 3000);
	assert_int_equal(memstat_get_count(mtp), 6002);
	assert_int_equal(memstat_get_bytes(mtp),
	    27017216 + 65536 + 384 - 2113536);
	assert_int_equal(memstat_get_sizemask(mtp), 0x3fff);
	assert_int_equal(memstat_get_size(mtp), 0);
	assert_int_equal(memstat_get_rsize(mtp), 0);
	assert_int_equal(memstat_get_countlimit(mtp), 0);
	assert_int_equal(memstat_get_byteslimit(mtp), 0);
	assert_int_equal(memstat_get_free(mtp), 0);
	assert_int_equal(memstat_get_zonefree(mtp), 0);
	assert_int_equal(memstat_get_kegfree(mtp), 0);
	assert_int_equal(memstat_get_failures(mtp), 0);
	assert_int_equal(memstat_get_percpu_memalloced(mtp, 1), 65536);
	assert_int_equal(memstat_get_percpu_numallocs(mtp, 1), 1);
	assert_int_equal(memstat_get_percpu_sizemask(mtp, 1), 0x2000);
	assert_int_equal(memstat_get_percpu_memalloced(mtp, 1023), 384);
	assert_int_equal(memstat_get_percpu_sizemask(mtp, 1023), 0x20);
	assert_int_equal(memstat_get_percpu_memfreed(mtp, 0), 2113536);
	assert_int_equal(memstat_get_percpu_numfrees(mtp, 0), 3000);
	assert_int_equal(memstat_get_percpu_free(mtp, 0), 0);
	assert_int_equal(memstat_get_percpu_numallocs(mtp, 1024), 0);

	/* No clamp for malloc types, as in FreeBSD: the count wraps. */
	mtp = memstat_mtl_find(mtlp, ALLOCATOR_MALLOC, "temp");
	assert_int_equal(memstat_get_count(mtp), UINT64_MAX);
	assert_int_equal(memstat_get_bytes(mtp), UINT64_MAX);
	memstat_mtl_free(mtlp);
}

static void
test_out_of_range_reads_zero(void **state)
{
	struct memory_type_list *mtlp = mbuf_list();
	struct memory_type *mtp = memstat_mtl_find(mtlp, ALLOCATOR_UMA, "mbuf");
	static const int bad_cpu[] = { -1, 2, 1024, INT_MAX, INT_MIN };
	static const int bad_index[] = { -1, MEMSTAT_MAXCALLER, INT_MAX,
	    INT_MIN };
	int marker;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad_cpu) / sizeof(bad_cpu[0]); i++) {
		int c = bad_cpu[i];

		assert_int_equal(memstat_get_percpu_free(mtp, c), 0);
		assert_int_equal(memstat_get_percpu_numallocs(mtp, c), 0);
		assert_int_equal(memstat_get_percpu_numfrees(mtp, c), 0);
		assert_int_equal(memstat_get_percpu_memalloced(mtp, c), 0);
		assert_int_equal(memstat_get_percpu_memfreed(mtp, c), 0);
		assert_int_equal(memstat_get_percpu_sizemask(mtp, c), 0);
		memstat_set_percpu_caller_pointer(mtp, c, 0, &marker);
		memstat_set_percpu_caller_uint64(mtp, c, 0, 1);
		assert_null(memstat_get_percpu_caller_pointer(mtp, c, 0));
		assert_int_equal(memstat_get_percpu_caller_uint64(mtp, c, 0),
		    0);
	}
	for (i = 0; i < sizeof(bad_index) / sizeof(bad_index[0]); i++) {
		int x = bad_index[i];

		memstat_set_caller_pointer(mtp, x, &marker);
		memstat_set_caller_uint64(mtp, x, 5);
		assert_null(memstat_get_caller_pointer(mtp, x));
		assert_int_equal(memstat_get_caller_uint64(mtp, x), 0);
		memstat_set_percpu_caller_pointer(mtp, 0, x, &marker);
		memstat_set_percpu_caller_uint64(mtp, 0, x, 5);
		assert_null(memstat_get_percpu_caller_pointer(mtp, 0, x));
		assert_int_equal(memstat_get_percpu_caller_uint64(mtp, 0, x),
		    0);
	}
	/* No slot was written by any of that. */
	for (i = 0; i < MEMSTAT_MAXCALLER; i++) {
		assert_null(memstat_get_caller_pointer(mtp, (int)i));
		assert_int_equal(memstat_get_caller_uint64(mtp, (int)i), 0);
		assert_null(memstat_get_percpu_caller_pointer(mtp, 1, (int)i));
	}
	memstat_mtl_free(mtlp);
}

static void
test_caller_slots(void **state)
{
	struct memory_type_list *mtlp = mbuf_list();
	struct memory_type *mtp = memstat_mtl_find(mtlp, ALLOCATOR_UMA, "mbuf");
	struct memory_type *other = memstat_mtl_find(mtlp, ALLOCATOR_UMA,
	    "mbuf_packet");
	int a, b;

	(void)state;
	for (int i = 0; i < MEMSTAT_MAXCALLER; i++) {
		memstat_set_caller_pointer(mtp, i, i % 2 ? &a : &b);
		memstat_set_caller_uint64(mtp, i, 1000 + (uint64_t)i);
	}
	for (int i = 0; i < MEMSTAT_MAXCALLER; i++) {
		assert_ptr_equal(memstat_get_caller_pointer(mtp, i),
		    i % 2 ? &a : &b);
		assert_int_equal(memstat_get_caller_uint64(mtp, i), 1000 + i);
	}
	/* Per-CPU slots: absent until set, then per CPU and per slot. */
	assert_null(memstat_get_percpu_caller_pointer(mtp, 1, 0));
	memstat_set_percpu_caller_pointer(mtp, 1, 15, &a);
	memstat_set_percpu_caller_uint64(mtp, 0, 0, 42);
	assert_ptr_equal(memstat_get_percpu_caller_pointer(mtp, 1, 15), &a);
	assert_null(memstat_get_percpu_caller_pointer(mtp, 0, 15));
	assert_int_equal(memstat_get_percpu_caller_uint64(mtp, 0, 0), 42);
	assert_int_equal(memstat_get_percpu_caller_uint64(mtp, 1, 0), 0);
	/* Another entry's slots are its own. */
	assert_null(memstat_get_caller_pointer(other, 0));
	assert_int_equal(memstat_get_percpu_caller_uint64(other, 0, 0), 0);
	memstat_mtl_free(mtlp);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uma_accessors),
		cmocka_unit_test(test_malloc_accessors),
		cmocka_unit_test(test_out_of_range_reads_zero),
		cmocka_unit_test(test_caller_slots),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
