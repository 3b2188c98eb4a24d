/*
 * test_frag.c: the fragmentation model: the three indices against the
 * kernels' own numbers (shared/spec's vectors), /proc/buddyinfo and
 * /proc/pagetypeinfo, FreeBSD's vm.phys_free and vm.phys_frag_idx texts,
 * and bad texts leaving an empty model and one error.
 */
#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scratch.h"
#include "testlib.h"

/* A Normal zone measured on 6.18 (spec §3.3), with the kernel's answers. */
static const uint64_t normal[11] = { 4248, 2732, 1943, 894, 1452, 1157, 591,
    369, 158, 89, 237 };
static const int normal_unusable[11] = { 0, 8, 19, 35, 49, 95, 170, 246,
    340, 421, 513 };
static const int64_t normal_fmfi[11] = { -34951, -16975, -7987, -3493,
    -1246, -123, 439, 720, 860, 930, 965 };

static void
test_indices(void **state)
{
	uint64_t only_small[11] = { 10 }, none[11] = { 0 };

	(void)state;
	for (int o = 0; o < 11; o++) {
		assert_int_equal(memstat_frag_unusable(normal, 11, o),
		    normal_unusable[o]);
		assert_int_equal(memstat_frag_fmfi(normal, 11, o),
		    normal_fmfi[o]);
		/* A block of every order is free: allocations succeed. */
		assert_int_equal(memstat_frag_extfrag(normal, 11, o), -1000);
	}
	/* Ten free pages, no pair: order 1 fails for fragmentation. */
	assert_int_equal(memstat_frag_extfrag(only_small, 11, 1),
	    1000 - (1000 + 10 * 1000 / 2) / 10);
	assert_int_equal(memstat_frag_unusable(only_small, 11, 1), 1000);
	assert_int_equal(memstat_frag_unusable(only_small, 11, 0), 0);
	/* Nothing free. */
	assert_int_equal(memstat_frag_unusable(none, 11, 3), 1000);
	assert_int_equal(memstat_frag_extfrag(none, 11, 3), 0);
	assert_int_equal(memstat_frag_fmfi(none, 11, 3), 0);
	/* Out of range: 0, never a read past the array. */
	assert_int_equal(memstat_frag_fmfi(normal, 11, 40), 0);
	assert_int_equal(memstat_frag_unusable(normal, 40, 1), 0);
}

static char *
make_dir(void)
{
	char *dir = scratch_dir("frag"), path[600];

	assert_non_null(dir);
	snprintf(path, sizeof(path), "%s/proc", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	return (dir);
}

static void
put(const char *dir, const char *name, const char *text)
{
	char path[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_non_null(f = fopen(path, "w"));
	fputs(text, f);
	fclose(f);
}

static void
remove_dir(char *dir)
{
	char cmd[700];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	free(dir);
}

#define BUDDYINFO							\
	"Node 0, zone      DMA      0      0      0      0      0      0      0      0      1      1      3 \n" \
	"Node 0, zone   Normal   4248   2732   1943    894   1452   1157    591    369    158     89    237 \n"

#define PAGETYPEINFO							\
	"Page block order: 9\nPages per block:  512\n\n"		\
	"Free pages count per migrate type at order       0      1      2      3      4      5      6      7      8      9     10 \n" \
	"Node    0, zone      DMA, type    Unmovable      0      0      0      0      0      0      0      0      1      1      0 \n" \
	"Node    0, zone      DMA, type      Movable      0      0      0      0      0      0      0      0      0      0      3 \n" \
	"Node    0, zone   Normal, type    Unmovable >100000    120     31      9      1      0      0      0      0      0      0 \n" \
	"Node    0, zone   Normal, type      Movable   4000   2600   1900    885   1451   1157    591    369    158     89    237 \n" \
	"\nNumber of blocks type     Unmovable      Movable \n"	\
	"Node 0, zone      DMA            1            7 \n"

static void
test_linux(void **state)
{
	struct memstat_frag *f = memstat_frag_alloc();
	char *dir = make_dir();
	int floor;

	(void)state;
	put(dir, "proc/buddyinfo", BUDDYINFO);
	put(dir, "proc/pagetypeinfo", PAGETYPEINFO);
	assert_int_equal(memstat_frag_linux(f, dir, 0), 0);
	assert_int_equal(memstat_frag_zones(f), 2);
	assert_string_equal(memstat_frag_zone_name(f, 1), "Normal");
	assert_int_equal(memstat_frag_node(f, 1), 0);
	assert_int_equal(memstat_frag_orders(f, 1), 11);
	assert_true(memstat_frag_has_blocks(f, 1));
	for (int o = 0; o < 11; o++) {
		assert_int_equal(memstat_frag_blocks(f, 1, o), normal[o]);
		assert_int_equal(memstat_frag_zone_fmfi(f, 1, o),
		    normal_fmfi[o]);
	}
	assert_int_equal(memstat_frag_types(f, 1), 0);

	assert_int_equal(memstat_frag_linux(f, dir, MEMSTAT_FRAG_TYPES), 0);
	assert_int_equal(memstat_frag_types(f, 0), 2);
	assert_int_equal(memstat_frag_types(f, 1), 2);
	assert_string_equal(memstat_frag_type_name(f, 1, 0), "Unmovable");
	assert_int_equal(memstat_frag_type_blocks(f, 1, 0, 0, &floor), 100000);
	assert_int_equal(floor, 1);
	assert_int_equal(memstat_frag_type_blocks(f, 1, 0, 1, &floor), 120);
	assert_int_equal(floor, 0);
	assert_int_equal(memstat_frag_type_blocks(f, 1, 1, 10, &floor), 237);
	memstat_frag_free(f);
	remove_dir(dir);
}

static void
test_linux_bad(void **state)
{
	static const struct {
		const char *buddyinfo, *pagetypeinfo, *why;
	} cases[] = {
		{ "Node 0, zone Normal\n", NULL, "not 1 to 32 counts" },
		{ "Node x, zone Normal 1 2\n", NULL, "not \"Node N" },
		{ "Node 0, zone Normal 1 2\nNode 0, zone DMA 1\n", NULL,
		    "another number of orders" },
		{ "Node 0, zone Normal 1 2\nNode 0, zone Normal 1 2\n", NULL,
		    "a zone seen before" },
		{ "Node 0, zone Normal 1 2 x\n", NULL, "not 1 to 32 counts" },
		{ "Node 0, zone Normal 18446744073709551615 1\n", NULL,
		    "more free pages" },
		{ "", NULL, "no zones" },
		{ "Node 0, zone Normal 1 2\n", "Free pages count per migrate "
		    "type at order 0 1\nNode 0, zone DMA, type Movable 1 2\n",
		    "a zone buddyinfo has not" },
		{ "Node 0, zone Normal 1 2\n", "Free pages count per migrate "
		    "type at order 0 1\nNode 0, zone Normal, type Movable 1\n",
		    "not as many counts" },
		{ "Node 0, zone Normal 1 2\n", "nothing here\n",
		    "no \"Free pages count" },
	};
	struct memstat_frag *f = memstat_frag_alloc();

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		char *dir = make_dir();

		put(dir, "proc/buddyinfo", cases[i].buddyinfo);
		if (cases[i].pagetypeinfo != NULL)
			put(dir, "proc/pagetypeinfo", cases[i].pagetypeinfo);
		assert_int_equal(memstat_frag_linux(f, dir,
		    MEMSTAT_FRAG_TYPES), -1);
		assert_int_equal(memstat_frag_geterror(f),
		    MEMSTAT_ERROR_DATAERROR);
		if (strstr(memstat_frag_geterrmsg(f), cases[i].why) == NULL)
			fail_msg("case %zu: %s", i, memstat_frag_geterrmsg(f));
		assert_int_equal(memstat_frag_zones(f), 0);
		remove_dir(dir);
	}
	memstat_frag_free(f);
}

/* Two domains, two free lists, two pools; a count wider than its column. */
#define PHYS_FREE							\
	"\nDOMAIN 0:\n\nFREE LIST 0:\n\n  ORDER (SIZE)  |  NUMBER\n"	\
	"              " "  |  POOL 0" "  |  POOL 1" "\n--            "	\
	"-- --      " "-- --      " "--\n"					\
	"   2 (    16K)  |       1  |       2\n"				\
	"   1 (     8K)  |       3  |       4\n"				\
	"   0 (     4K)  |  12345678  |       6\n"			\
	"\nFREE LIST 1:\n\n  ORDER (SIZE)  |  NUMBER\n"			\
	"                |  POOL 0  |  POOL 1\n--\n"			\
	"   2 (    16K)  |      10  |       0\n"				\
	"   1 (     8K)  |       0  |       0\n"				\
	"   0 (     4K)  |       0  |       1\n"				\
	"\nDOMAIN 1:\n\nFREE LIST 0:\n\n  ORDER (SIZE)  |  NUMBER\n"	\
	"                |  POOL 0  |  POOL 1\n--\n"			\
	"   2 (    16K)  |       0  |       0\n"				\
	"   1 (     8K)  |       0  |       0\n"				\
	"   0 (     4K)  |       7  |       0\n"

static void
test_freebsd(void **state)
{
	struct memstat_frag *f = memstat_frag_alloc();
	char *dir = make_dir(), path[600];
	uint64_t d0[3] = { 12345678 + 6 + 1, 3 + 4, 1 + 2 + 10 };

	(void)state;
	put(dir, "vm.phys_free", PHYS_FREE);
	assert_int_equal(memstat_frag_freebsd(f, dir, MEMSTAT_FRAG_TYPES), 0);
	assert_int_equal(memstat_frag_zones(f), 2);
	assert_int_equal(memstat_frag_node(f, 1), 1);
	assert_string_equal(memstat_frag_zone_name(f, 0), "");
	assert_int_equal(memstat_frag_orders(f, 0), 3);
	for (int o = 0; o < 3; o++) {
		assert_int_equal(memstat_frag_blocks(f, 0, o), d0[o]);
		assert_int_equal(memstat_frag_zone_fmfi(f, 0, o),
		    memstat_frag_fmfi(d0, 3, o));
	}
	assert_int_equal(memstat_frag_blocks(f, 1, 0), 7);
	assert_int_equal(memstat_frag_types(f, 0), 4);
	assert_string_equal(memstat_frag_type_name(f, 0, 3), "list 1 pool 1");
	assert_int_equal(memstat_frag_type_blocks(f, 0, 2, 2, NULL), 10);

	/* A patched kernel's FMFI text: the numbers as given. */
	snprintf(path, sizeof(path), "%s/vm.phys_free", dir);
	assert_int_equal(unlink(path), 0);
	put(dir, "vm.phys_frag_idx", "vm.phys_frag_idx: \n--\n\nDOMAIN 0\n\n"
	    "  ORDER (SIZE) |  FMFI\n--\n   1 (     8K) |  991 \n"
	    "   0 (     4K) |  -36018 \n");
	assert_int_equal(memstat_frag_freebsd(f, dir, 0), 0);
	assert_int_equal(memstat_frag_zones(f), 1);
	assert_false(memstat_frag_has_blocks(f, 0));
	assert_int_equal(memstat_frag_zone_fmfi(f, 0, 0), -36018);
	assert_int_equal(memstat_frag_zone_fmfi(f, 0, 1), 991);
	memstat_frag_free(f);
	remove_dir(dir);
}

static void
test_freebsd_bad(void **state)
{
	static const struct {
		const char *file, *text, *why;
	} cases[] = {
		{ "vm.phys_free", "FREE LIST 0:\n   1 (     8K)  |  1\n",
		    "order 0 is missing" },
		{ "vm.phys_free", "   1 (     8K)  |  1\n   0 (     8K)  |  1\n",
		    "not twice the size" },
		{ "vm.phys_free", "  |  POOL 0  |  POOL 1\n   0 (4K)  |  1\n",
		    "not one count per pool" },
		{ "vm.phys_free", "   0 (     4K)  |  x\n", "a count that" },
		{ "vm.phys_free", "   0 (     4K)  |  -3\n", "a count that" },
		{ "vm.phys_free", "   40 (     4K)  |  3\n", "not \"ORDER" },
		{ "vm.phys_free", "DOMAIN 300:\n   0 (4K) | 1\n", "not \"DOMAIN" },
		{ "vm.phys_free", "hello\n", "not \"ORDER" },
		{ "vm.phys_free", "", "no free lists" },
		{ "vm.phys_free", "   0 (4K) | 1125899906842625\n",
		    "more free blocks" },
		{ "vm.phys_frag_idx", "DOMAIN 0\n   0 (4K) |  1001\n",
		    "an FMFI that is no number up to 1000" },
		{ "other", "", "holds neither" },
	};
	struct memstat_frag *f = memstat_frag_alloc();

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		char *dir = make_dir();

		put(dir, cases[i].file, cases[i].text);
		assert_int_equal(memstat_frag_freebsd(f, dir, 0), -1);
		if (strstr(memstat_frag_geterrmsg(f), cases[i].why) == NULL)
			fail_msg("case %zu: %s", i, memstat_frag_geterrmsg(f));
		assert_int_equal(memstat_frag_zones(f), 0);
		remove_dir(dir);
	}
	memstat_frag_free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_indices),
		cmocka_unit_test(test_linux),
		cmocka_unit_test(test_linux_bad),
		cmocka_unit_test(test_freebsd),
		cmocka_unit_test(test_freebsd_bad),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
