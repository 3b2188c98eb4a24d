/*
 * test_list.c: memory_type_list semantics: errors and their strings, list
 * order, find, the index, refresh, duplicate names, and failure rules.
 */
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "mtprint.h"
#include "testlib.h"

/* Allocation failure injection, for the NOMEMORY paths (-Wl,--wrap). */
void	*__real_calloc(size_t, size_t);
void	*__real_malloc(size_t);
void	*__real_realloc(void *, size_t);
static int alloc_budget = -1;	/* allocations left before failing; -1: off */

static int
alloc_allowed(void)
{
	if (alloc_budget < 0)
		return (1);
	if (alloc_budget == 0)
		return (0);
	alloc_budget--;
	return (1);
}

void *
__wrap_calloc(size_t n, size_t size)
{
	return (alloc_allowed() ? __real_calloc(n, size) : NULL);
}

void *
__wrap_malloc(size_t size)
{
	return (alloc_allowed() ? __real_malloc(size) : NULL);
}

void *
__wrap_realloc(void *p, size_t size)
{
	return (alloc_allowed() ? __real_realloc(p, size) : NULL);
}

static void
test_strerror(void **state)
{
	(void)state;
	assert_string_equal(memstat_strerror(MEMSTAT_ERROR_UNDEFINED),
	    "Unknown error");
	assert_string_equal(memstat_strerror(MEMSTAT_ERROR_NOMEMORY),
	    "Cannot allocate memory");
	assert_string_equal(memstat_strerror(MEMSTAT_ERROR_VERSION),
	    "Version mismatch");
	assert_string_equal(memstat_strerror(MEMSTAT_ERROR_PERMISSION),
	    "Permission denied");
	assert_string_equal(memstat_strerror(4), "Unknown error");
	assert_string_equal(memstat_strerror(MEMSTAT_ERROR_DATAERROR),
	    "Data format error");
	assert_string_equal(memstat_strerror(MEMSTAT_ERROR_KVM), "KVM error");
	assert_string_equal(memstat_strerror(MEMSTAT_ERROR_KVM_NOSYMBOL),
	    "KVM unable to find symbol");
	assert_string_equal(memstat_strerror(MEMSTAT_ERROR_KVM_SHORTREAD),
	    "KVM short read");
	assert_string_equal(memstat_strerror(-1), "Unknown error");
	assert_string_equal(memstat_strerror(9), "Unknown error");
}

static void
test_constants(void **state)
{
	(void)state;
	assert_int_equal(MEMSTAT_MAXCALLER, 16);
	assert_int_equal(MEMTYPE_MAXNAME, 32);
	assert_int_equal(ALLOCATOR_UNKNOWN, 0);
	assert_int_equal(ALLOCATOR_MALLOC, 1);
	assert_int_equal(ALLOCATOR_UMA, 2);
	assert_int_equal(ALLOCATOR_ANY, 255);
	assert_int_equal(MEMSTAT_ERROR_UNDEFINED, 0);
	assert_int_equal(MEMSTAT_ERROR_NOMEMORY, 1);
	assert_int_equal(MEMSTAT_ERROR_VERSION, 2);
	assert_int_equal(MEMSTAT_ERROR_PERMISSION, 3);
	assert_int_equal(MEMSTAT_ERROR_DATAERROR, 5);
	assert_int_equal(MEMSTAT_ERROR_KVM, 6);
	assert_int_equal(MEMSTAT_ERROR_KVM_NOSYMBOL, 7);
	assert_int_equal(MEMSTAT_ERROR_KVM_SHORTREAD, 8);
}

static void
test_empty_list(void **state)
{
	struct memory_type_list *mtlp = memstat_mtl_alloc();

	(void)state;
	assert_non_null(mtlp);
	assert_null(memstat_mtl_first(mtlp));
	assert_null(memstat_mtl_find(mtlp, ALLOCATOR_ANY, "mbuf"));
	assert_int_equal(memstat_mtl_geterror(mtlp), MEMSTAT_ERROR_UNDEFINED);
	memstat_mtl_free(mtlp);
	memstat_mtl_free(NULL);
}

/* The list reads in reverse stream order: the kernel's last zone first. */
static void
test_reverse_stream_order(void **state)
{
	static const char *want[] = { "vm pgcache", "UMA Kegs", "UMA Zones",
	    "socket", "mbuf_packet", "mbuf", "mbuf_cluster",
	    "mbuf_jumbo_page", "mbuf_jumbo_9k", "mbuf_jumbo_16k" };
	struct memory_type_list *mtlp;
	struct memory_type *mtp;
	size_t i = 0;

	(void)state;
	mtlp = decode_fixture(memstat_stream_uma,
	    FIXTURE_DIR "fbsd14-mbuf.uma.bin");
	for (mtp = memstat_mtl_first(mtlp); mtp != NULL;
	    mtp = memstat_mtl_next(mtp), i++) {
		assert_true(i < sizeof(want) / sizeof(want[0]));
		assert_string_equal(memstat_get_name(mtp), want[i]);
	}
	assert_int_equal(i, sizeof(want) / sizeof(want[0]));
	memstat_mtl_free(mtlp);
}

static void
test_find(void **state)
{
	struct memory_type_list *mtlp;
	struct memory_type *mtp;

	(void)state;
	mtlp = decode_fixture(memstat_stream_uma,
	    FIXTURE_DIR "fbsd14-mbuf.uma.bin");
	mtp = memstat_mtl_find(mtlp, ALLOCATOR_UMA, "mbuf_cluster");
	assert_non_null(mtp);
	assert_string_equal(memstat_get_name(mtp), "mbuf_cluster");
	assert_int_equal(memstat_get_allocator(mtp), ALLOCATOR_UMA);
	assert_ptr_equal(memstat_mtl_find(mtlp, ALLOCATOR_ANY, "mbuf_cluster"),
	    mtp);
	assert_null(memstat_mtl_find(mtlp, ALLOCATOR_MALLOC, "mbuf_cluster"));
	assert_null(memstat_mtl_find(mtlp, ALLOCATOR_UMA, "mbuf_clust"));
	assert_null(memstat_mtl_find(mtlp, ALLOCATOR_UMA, "mbuf_clusterx"));
	assert_null(memstat_mtl_find(mtlp, ALLOCATOR_UMA, ""));
	memstat_mtl_free(mtlp);
}

/*
 * ALLOCATOR_ANY finds what a scan from the head would: the entry created
 * last, whichever allocator it belongs to.
 */
static void
test_find_any_newest(void **state)
{
	struct memory_type_list *mtlp = memstat_mtl_alloc();
	struct test_zone z = { .name = "devbuf", .size = 64, .allocs = 3 };
	struct streambuf uma, mal;
	struct sb_stream_header h = { 1, 1, 1, 0 };
	struct sb_malloc_type_header t = { "devbuf" };
	struct sb_malloc_type_stats s = { .numallocs = 9 };
	struct memory_type *mtp;

	(void)state;
	build_uma(&uma, false, 1, &z, 1);
	sb_init(&mal, false);
	sb_header(&mal, &h);
	sb_malloc_type(&mal, &t);
	sb_malloc_cpu(&mal, &s);

	assert_int_equal(memstat_stream_uma(mtlp, uma.data, uma.len), 0);
	assert_int_equal(memstat_stream_malloc(mtlp, mal.data, mal.len), 0);
	mtp = memstat_mtl_find(mtlp, ALLOCATOR_ANY, "devbuf");
	assert_int_equal(memstat_get_allocator(mtp), ALLOCATOR_MALLOC);
	assert_ptr_equal(mtp, memstat_mtl_first(mtlp));
	mtp = memstat_mtl_find(mtlp, ALLOCATOR_UMA, "devbuf");
	assert_int_equal(memstat_get_numallocs(mtp), 3);
	memstat_mtl_free(mtlp);

	/* The other way round. */
	mtlp = memstat_mtl_alloc();
	assert_int_equal(memstat_stream_malloc(mtlp, mal.data, mal.len), 0);
	assert_int_equal(memstat_stream_uma(mtlp, uma.data, uma.len), 0);
	mtp = memstat_mtl_find(mtlp, ALLOCATOR_ANY, "devbuf");
	assert_int_equal(memstat_get_allocator(mtp), ALLOCATOR_UMA);
	memstat_mtl_free(mtlp);
	sb_free(&uma);
	sb_free(&mal);
}

/* A refresh from the same bytes leaves exactly what a fresh decode gives. */
static void
assert_refresh_idempotent(decoder_fn decode, const char *path)
{
	struct memory_type_list *mtlp;
	char *fresh, *again;
	void *buf;
	size_t len;

	mtlp = decode_fixture(decode, path);
	fresh = mtl_snapshot(mtlp);
	buf = fixture_load(path, &len);
	assert_int_equal(decode(mtlp, buf, len), 0);
	again = mtl_snapshot(mtlp);
	assert_string_equal(fresh, again);
	free(fresh);
	free(again);
	free(buf);
	memstat_mtl_free(mtlp);
}

static void
test_refresh_same_data(void **state)
{
	(void)state;
	assert_refresh_idempotent(memstat_stream_uma,
	    FIXTURE_DIR "fbsd14-mbuf.uma.bin");
	assert_refresh_idempotent(memstat_stream_uma,
	    FIXTURE_DIR "fbsd14-numa.uma.bin");
	assert_refresh_idempotent(memstat_stream_malloc,
	    FIXTURE_DIR "fbsd14.malloc.bin");
}

/*
 * Duplicate names: every "malloc-128" record keeps its own entry, on a
 * fresh decode and on a refresh (upstream folds them into the first).
 */
static void
test_duplicate_names(void **state)
{
	struct memory_type_list *mtlp;
	struct memory_type *mtp;
	uint64_t fails[3];
	int n = 0;

	(void)state;
	mtlp = decode_fixture(memstat_stream_uma,
	    FIXTURE_DIR "fbsd14-numa.uma.bin");
	for (int pass = 0; pass < 2; pass++) {
		n = 0;
		for (mtp = memstat_mtl_first(mtlp); mtp != NULL;
		    mtp = memstat_mtl_next(mtp))
			if (strcmp(memstat_get_name(mtp), "malloc-128") == 0) {
				assert_true(n < 3);
				fails[n++] = memstat_get_failures(mtp);
			}
		assert_int_equal(n, 3);
		assert_int_equal(fails[0], 0);
		assert_int_equal(fails[1], 123456);
		assert_int_equal(fails[2], 0);
		/* find() gives the first in list order. */
		mtp = memstat_mtl_find(mtlp, ALLOCATOR_UMA, "malloc-128");
		assert_int_equal(memstat_get_numallocs(mtp), 600);
		memstat_mtl_free(mtlp);
		mtlp = decode_fixture(memstat_stream_uma,
		    FIXTURE_DIR "fbsd14-numa.uma.bin");
	}
	memstat_mtl_free(mtlp);
}

/*
 * A refresh resets and refills found entries, keeps their caller slots,
 * adds new ones at the head, and never removes the ones the data lacks.
 */
static void
test_refresh_keeps_callers_and_entries(void **state)
{
	struct test_zone before[] = {
		{ .name = "gone", .size = 8, .allocs = 5 },
		{ .name = "kept", .size = 16, .allocs = 10, .frees = 4 },
	};
	struct test_zone after[] = {
		{ .name = "kept", .size = 16, .allocs = 20, .frees = 1 },
		{ .name = "new", .size = 32, .allocs = 1 },
	};
	struct memory_type_list *mtlp = memstat_mtl_alloc();
	struct memory_type *kept, *gone;
	struct streambuf sb;
	int marker;

	(void)state;
	build_uma(&sb, false, 2, before, 2);
	assert_int_equal(memstat_stream_uma(mtlp, sb.data, sb.len), 0);
	sb_free(&sb);
	kept = memstat_mtl_find(mtlp, ALLOCATOR_UMA, "kept");
	gone = memstat_mtl_find(mtlp, ALLOCATOR_UMA, "gone");
	memstat_set_caller_pointer(kept, 0, &marker);
	memstat_set_caller_uint64(kept, 15, 77);
	memstat_set_percpu_caller_pointer(kept, 1, 3, &marker);
	memstat_set_percpu_caller_uint64(kept, 0, 2, 88);

	build_uma(&sb, false, 2, after, 2);
	assert_int_equal(memstat_stream_uma(mtlp, sb.data, sb.len), 0);
	sb_free(&sb);
	assert_ptr_equal(memstat_mtl_find(mtlp, ALLOCATOR_UMA, "kept"), kept);
	assert_int_equal(memstat_get_numallocs(kept), 20);
	assert_int_equal(memstat_get_count(kept), 19);
	assert_ptr_equal(memstat_get_caller_pointer(kept, 0), &marker);
	assert_int_equal(memstat_get_caller_uint64(kept, 15), 77);
	assert_ptr_equal(memstat_get_percpu_caller_pointer(kept, 1, 3),
	    &marker);
	assert_int_equal(memstat_get_percpu_caller_uint64(kept, 0, 2), 88);
	/* Not in the new data: still there, with the old numbers. */
	assert_ptr_equal(memstat_mtl_find(mtlp, ALLOCATOR_UMA, "gone"), gone);
	assert_int_equal(memstat_get_numallocs(gone), 5);
	assert_string_equal(memstat_get_name(memstat_mtl_first(mtlp)), "new");
	memstat_mtl_free(mtlp);
}

/* A refresh with a different CPU count resizes the per-CPU data. */
static void
test_refresh_cpu_count_changes(void **state)
{
	struct test_zone z = { .name = "z", .size = 8,
	    .cpu = { { .cache_free = 1 }, { .cache_free = 2 },
		     { .cache_free = 3 }, { .cache_free = 4 } } };
	struct memory_type_list *mtlp = memstat_mtl_alloc();
	struct memory_type *mtp;
	struct streambuf sb;

	(void)state;
	build_uma(&sb, false, 4, &z, 1);
	assert_int_equal(memstat_stream_uma(mtlp, sb.data, sb.len), 0);
	sb_free(&sb);
	mtp = memstat_mtl_first(mtlp);
	assert_int_equal(memstat_get_percpu_free(mtp, 3), 4);
	memstat_set_percpu_caller_uint64(mtp, 3, 0, 33);

	build_uma(&sb, false, 2, &z, 1);
	assert_int_equal(memstat_stream_uma(mtlp, sb.data, sb.len), 0);
	sb_free(&sb);
	assert_int_equal(memstat_get_free(mtp), 3);
	assert_int_equal(memstat_get_percpu_free(mtp, 1), 2);
	assert_int_equal(memstat_get_percpu_free(mtp, 3), 0);
	assert_int_equal(memstat_get_percpu_caller_uint64(mtp, 3, 0), 33);

	build_uma(&sb, false, 0, &z, 1);
	assert_int_equal(memstat_stream_uma(mtlp, sb.data, sb.len), 0);
	sb_free(&sb);
	assert_int_equal(memstat_get_free(mtp), 0);
	assert_int_equal(memstat_get_percpu_free(mtp, 0), 0);

	memstat_mtl_free(mtlp);

	/* More CPUs than the entry has seen: its per-CPU array grows. */
	mtlp = memstat_mtl_alloc();
	build_uma(&sb, false, 2, &z, 1);
	assert_int_equal(memstat_stream_uma(mtlp, sb.data, sb.len), 0);
	sb_free(&sb);
	mtp = memstat_mtl_first(mtlp);
	assert_int_equal(memstat_get_percpu_free(mtp, 3), 0);
	build_uma(&sb, false, 4, &z, 1);
	assert_int_equal(memstat_stream_uma(mtlp, sb.data, sb.len), 0);
	sb_free(&sb);
	assert_int_equal(memstat_get_free(mtp), 1 + 2 + 3 + 4);
	assert_int_equal(memstat_get_percpu_free(mtp, 3), 4);
	memstat_mtl_free(mtlp);
}

/* The index: every one of many names is found, and only it. */
static void
test_index_many(void **state)
{
	enum { N = 5000 };
	struct memory_type_list *mtlp = memstat_mtl_alloc();
	struct sb_stream_header h = { 1, 0, N, 0 };
	struct sb_uma_type_header t;
	struct memory_type *mtp;
	struct streambuf sb;
	char name[32];
	int i;

	(void)state;
	sb_init(&sb, false);
	sb_header(&sb, &h);
	for (i = 0; i < N; i++) {
		memset(&t, 0, sizeof(t));
		snprintf(t.name, sizeof(t.name), "zone-%d", i);
		t.allocs = (uint64_t)i;
		sb_uma_type(&sb, &t);
	}
	for (int pass = 0; pass < 2; pass++) {
		assert_int_equal(memstat_stream_uma(mtlp, sb.data, sb.len), 0);
		for (i = 0; i < N; i++) {
			snprintf(name, sizeof(name), "zone-%d", i);
			mtp = memstat_mtl_find(mtlp, ALLOCATOR_UMA, name);
			assert_non_null(mtp);
			assert_int_equal(memstat_get_numallocs(mtp), i);
		}
		i = 0;
		for (mtp = memstat_mtl_first(mtlp); mtp != NULL;
		    mtp = memstat_mtl_next(mtp))
			i++;
		assert_int_equal(i, N);
	}
	assert_null(memstat_mtl_find(mtlp, ALLOCATOR_UMA, "zone-5000"));
	sb_free(&sb);

	/* As many new names: the index grows past its hint, all are found. */
	sb_init(&sb, false);
	sb_header(&sb, &h);
	for (i = 0; i < N; i++) {
		memset(&t, 0, sizeof(t));
		snprintf(t.name, sizeof(t.name), "other-%d", i);
		t.allocs = (uint64_t)i + 1;
		sb_uma_type(&sb, &t);
	}
	assert_int_equal(memstat_stream_uma(mtlp, sb.data, sb.len), 0);
	for (i = 0; i < N; i++) {
		snprintf(name, sizeof(name), "other-%d", i);
		mtp = memstat_mtl_find(mtlp, ALLOCATOR_UMA, name);
		assert_non_null(mtp);
		assert_int_equal(memstat_get_numallocs(mtp), i + 1);
		snprintf(name, sizeof(name), "zone-%d", i);
		assert_non_null(memstat_mtl_find(mtlp, ALLOCATOR_UMA, name));
	}
	sb_free(&sb);
	memstat_mtl_free(mtlp);
}

/* An error found before parsing leaves the list as it was. */
static void
test_error_before_parse_keeps_list(void **state)
{
	struct memory_type_list *mtlp;
	char *before, *after;
	void *bad;
	size_t len;

	(void)state;
	mtlp = decode_fixture(memstat_stream_uma,
	    FIXTURE_DIR "fbsd14-mbuf.uma.bin");
	before = mtl_snapshot(mtlp);
	bad = fixture_load(BAD_DIR "uma-version2.uma.bin", &len);
	assert_int_equal(memstat_stream_uma(mtlp, bad, len), -1);
	assert_int_equal(memstat_mtl_geterror(mtlp), MEMSTAT_ERROR_VERSION);
	free(bad);
	bad = fixture_load(BAD_DIR "uma-mid-record.uma.bin", &len);
	assert_int_equal(memstat_stream_uma(mtlp, bad, len), -1);
	assert_int_equal(memstat_mtl_geterror(mtlp), MEMSTAT_ERROR_DATAERROR);
	after = mtl_snapshot(mtlp);
	assert_string_equal(before, after);
	/* A later success clears the error. */
	assert_int_equal(memstat_stream_uma(mtlp, "", 0), 0);
	assert_int_equal(memstat_mtl_geterror(mtlp), MEMSTAT_ERROR_UNDEFINED);
	free(bad);
	free(before);
	free(after);
	memstat_mtl_free(mtlp);
}

/*
 * Running out of memory after parsing began empties the list and says
 * NOMEMORY, at whatever allocation it happens.
 */
static void
test_nomemory_mid_decode_empties_list(void **state)
{
	struct memory_type_list *mtlp;
	void *buf;
	size_t len;
	int budget, failed = 0, succeeded = 0;

	(void)state;
	buf = fixture_load(FIXTURE_DIR "fbsd14-numa.uma.bin", &len);
	for (budget = 0; budget < 40; budget++) {
		mtlp = decode_fixture(memstat_stream_uma,
		    FIXTURE_DIR "fbsd14-mbuf.uma.bin");
		alloc_budget = budget;
		if (memstat_stream_uma(mtlp, buf, len) == -1) {
			alloc_budget = -1;
			failed++;
			assert_int_equal(memstat_mtl_geterror(mtlp),
			    MEMSTAT_ERROR_NOMEMORY);
			assert_null(memstat_mtl_first(mtlp));
			assert_null(memstat_mtl_find(mtlp, ALLOCATOR_UMA,
			    "mbuf"));
			/* The emptied list is usable again. */
			assert_int_equal(memstat_stream_uma(mtlp, buf, len), 0);
			assert_non_null(memstat_mtl_find(mtlp, ALLOCATOR_UMA,
			    "malloc-64"));
		} else {
			/* Enough allocations once means enough from then on. */
			succeeded++;
			assert_int_equal(failed, budget - succeeded + 1);
		}
		alloc_budget = -1;
		memstat_mtl_free(mtlp);
	}
	assert_true(failed > 0);
	assert_true(succeeded > 0);
	free(buf);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strerror),
		cmocka_unit_test(test_constants),
		cmocka_unit_test(test_empty_list),
		cmocka_unit_test(test_reverse_stream_order),
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_find_any_newest),
		cmocka_unit_test(test_refresh_same_data),
		cmocka_unit_test(test_duplicate_names),
		cmocka_unit_test(test_refresh_keeps_callers_and_entries),
		cmocka_unit_test(test_refresh_cpu_count_changes),
		cmocka_unit_test(test_index_many),
		cmocka_unit_test(test_error_before_parse_keeps_list),
		cmocka_unit_test(test_nomemory_mid_decode_empties_list),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
