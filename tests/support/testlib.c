/* testlib.c: helpers shared by the cmocka tests. */
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "testlib.h"

struct memory_type_list *
decode_fixture(decoder_fn decode, const char *path)
{
	struct memory_type_list *mtlp;
	void *buf;
	size_t len;

	buf = fixture_load(path, &len);
	mtlp = memstat_mtl_alloc();
	assert_non_null(mtlp);
	assert_int_equal(decode(mtlp, buf, len), 0);
	free(buf);
	return (mtlp);
}

void
build_uma(struct streambuf *sb, bool big, uint32_t ncpus,
    const struct test_zone *zones, size_t n)
{
	struct sb_stream_header h = { 1, ncpus, (uint32_t)n, 0 };
	struct sb_uma_type_header t;
	size_t i, j;

	assert_true(ncpus <= 4);
	sb_init(sb, big);
	sb_header(sb, &h);
	for (i = 0; i < n; i++) {
		memset(&t, 0, sizeof(t));
		memcpy(t.name, zones[i].name,
		    strnlen(zones[i].name, sizeof(t.name)));
		t.size = t.rsize = zones[i].size;
		t.limit = zones[i].limit;
		t.keg_free = zones[i].keg_free;
		t.zone_free = zones[i].zone_free;
		t.zone_flags = zones[i].flags;
		t.allocs = zones[i].allocs;
		t.frees = zones[i].frees;
		t.fails = zones[i].fails;
		t.sleeps = zones[i].sleeps;
		t.xdomain = zones[i].xdomain;
		sb_uma_type(sb, &t);
		for (j = 0; j < ncpus; j++)
			sb_uma_cpu(sb, &zones[i].cpu[j]);
	}
}

void
assert_stream_rejected(decoder_fn decode, const void *buf, size_t len,
    int error)
{
	struct memory_type_list *mtlp = memstat_mtl_alloc();

	assert_non_null(mtlp);
	assert_int_equal(decode(mtlp, buf, len), -1);
	assert_int_equal(memstat_mtl_geterror(mtlp), error);
	assert_null(memstat_mtl_first(mtlp));
	memstat_mtl_free(mtlp);
}

void
assert_truncations_rejected(decoder_fn decode, const char *path)
{
	unsigned char *buf, *copy;
	size_t len, cut;

	buf = fixture_load(path, &len);
	for (cut = 1; cut < len; cut++) {
		copy = malloc(cut);
		assert_non_null(copy);
		memcpy(copy, buf, cut);
		assert_stream_rejected(decode, copy, cut,
		    MEMSTAT_ERROR_DATAERROR);
		free(copy);
	}
	free(buf);
}

void
put_le(unsigned char *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++, v >>= 8)
		p[i] = (unsigned char)v;
}
