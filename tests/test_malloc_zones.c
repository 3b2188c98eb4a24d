/* test_malloc_zones.c: the malloc zone-size table and its helpers. */
#include "testlib.h"

static void
test_default_table(void **state)
{
	static const size_t want[] = { 16, 32, 64, 128, 256, 384, 512, 1024,
	    2048, 4096, 8192, 16384, 32768, 65536, 0 };

	(void)state;
	assert_int_equal(memstat_malloc_zone_get_count(), 15);
	for (size_t i = 0; i < 15; i++)
		assert_int_equal(memstat_malloc_zone_get_size(i), want[i]);
	assert_int_equal(memstat_malloc_zone_get_size(15), 0);
	assert_int_equal(memstat_malloc_zone_get_size(31), 0);
	assert_int_equal(memstat_malloc_zone_get_size(32), (size_t)-1);
	assert_int_equal(memstat_malloc_zone_get_size((size_t)-1), (size_t)-1);
}

static void
test_set_sizes(void **state)
{
	int pow2[9], bad[1] = { -16 }, many[33] = { 0 };

	(void)state;
	for (int i = 0; i < 9; i++)
		pow2[i] = 1 << (i + 4);
	assert_int_equal(memstat_malloc_zone_set_sizes(pow2, 9), 0);
	assert_int_equal(memstat_malloc_zone_get_count(), 9);
	assert_int_equal(memstat_malloc_zone_get_size(5), 512);
	assert_int_equal(memstat_malloc_zone_get_size(9), 0);
	/* Refused tables leave the current one alone. */
	assert_int_equal(memstat_malloc_zone_set_sizes(many, 33), -1);
	assert_int_equal(memstat_malloc_zone_set_sizes(bad, 1), -1);
	assert_int_equal(memstat_malloc_zone_get_count(), 9);
	assert_int_equal(memstat_malloc_zone_set_sizes(NULL, 0), 0);
	assert_int_equal(memstat_malloc_zone_get_count(), 15);
	assert_int_equal(memstat_malloc_zone_get_size(5), 384);
}

static void
test_zone_used(void **state)
{
	struct memory_type_list *mtlp;
	struct memory_type *mtp;

	(void)state;
	mtlp = decode_fixture(memstat_stream_malloc,
	    FIXTURE_DIR "fbsd14.malloc.bin");
	mtp = memstat_mtl_find(mtlp, ALLOCATOR_MALLOC, "pcb");
	/* 0x60: zones 5 (384) and 6 (512). */
	for (size_t n = 0; n < 64; n++)
		assert_int_equal(memstat_malloc_zone_used(mtp, n),
		    n == 5 || n == 6);
	assert_int_equal(memstat_malloc_zone_used(mtp, 64), 0);
	assert_int_equal(memstat_malloc_zone_used(mtp, (size_t)-1), 0);
	memstat_mtl_free(mtlp);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_table),
		cmocka_unit_test(test_set_sizes),
		cmocka_unit_test(test_zone_used),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
