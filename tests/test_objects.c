/*
 * test_objects.c: memstat_kvm_objects() and its accessors on the dumps of
 * guests booted with slub_debug=U while kmemload held 20 pipes (bookworm's
 * 6.1: stacks in the stack depot; bullseye's 5.10: inline), on a dump
 * that kept no owners, and on the hostile copies of the 6.1 dump.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"
#include "memstat.h"
#include "model/memstat_internal.h"

#define OWN61	"fixtures/vmcore/bookworm-6.1-owners/"
#define OWN510	"fixtures/vmcore/bullseye-5.10-owners/"
#define BAD	"fixtures/bad/vmcore/"

struct hold {
	int	 pid;
	double	 held, dump;
	char	 cache[64];
};

static void
hold_of(const char *dir, struct hold *h)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%shold.guest", dir);
	assert_non_null(f = fopen(path, "r"));
	assert_int_equal(fscanf(f, "pid %d held %lf dump %lf", &h->pid,
	    &h->held, &h->dump), 3);
	fclose(f);
	snprintf(path, sizeof(path), "%scache", dir);
	assert_non_null(f = fopen(path, "r"));
	assert_int_equal(fscanf(f, "%63s", h->cache), 1);
	fclose(f);
}

/* The objects of the cache names[0] in the dump: ol filled, 0. */
static struct memstat_objects *
objects_of(const char *core, const char *cache, void **kvmp)
{
	char errbuf[MEMSTAT_KVM_ERRLEN];
	struct memstat_objects *ol;
	const char *names[] = { cache };

	assert_non_null(*kvmp = memstat_kvm_open(core, NULL, errbuf));
	assert_non_null(ol = memstat_objects_alloc());
	assert_int_equal(memstat_kvm_objects(ol, *kvmp, names,
	    cache != NULL), 0);
	return (ol);
}

/* The image's symbols, by address, for naming frames. */
struct sym {
	uint64_t	 addr;
	char		 name[64];
};
static struct sym *syms;
static size_t nsyms, asyms;

static void
add_sym(const char *name, uint64_t addr, void *arg)
{
	(void)arg;
	if (nsyms == asyms) {
		asyms = asyms ? asyms * 2 : 65536;
		assert_non_null(syms = realloc(syms, asyms * sizeof(*syms)));
	}
	syms[nsyms].addr = addr;
	snprintf(syms[nsyms++].name, sizeof(syms->name), "%s", name);
}

static int
cmp_sym(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	return (x->addr < y->addr ? -1 : x->addr > y->addr);
}

static void
load_syms(void *kvm)
{
	nsyms = 0;
	assert_int_equal(memstat_kvm_symbols(kvm, add_sym, NULL), 0);
	assert_true(nsyms > 10000);
	qsort(syms, nsyms, sizeof(*syms), cmp_sym);
}

/* The function holding addr: the last symbol at or below it. */
static const char *
function_of(uint64_t addr)
{
	size_t lo = 0, hi = nsyms;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	return (nsyms > 0 && syms[lo].addr <= addr ? syms[lo].name : "");
}

/* Whether a frame of the stack is in a function whose name has pipe2. */
static bool
has_pipe2(const uint64_t *frames, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strstr(function_of(frames[i]), "pipe2") != NULL)
			return (true);
	return (false);
}

static void
check_pipes(const char *dir)
{
	struct memstat_objects *ol;
	struct hold h;
	char core[256];
	void *kvm;
	size_t mine = 0, n;
	double hold, up;

	hold_of(dir, &h);
	hold = h.dump - h.held;
	snprintf(core, sizeof(core), "%svmcore.elf", dir);
	ol = objects_of(core, h.cache, &kvm);
	load_syms(kvm);
	assert_int_equal(memstat_objects_hz(ol), 250);
	/*
	 * The image's own clock (its timekeeper's, whole seconds and
	 * nanoseconds): after the guest's last look at /proc/uptime (10 ms
	 * steps), which came before the dump.
	 */
	assert_int_equal(memstat_kvm_uptime(kvm, &up), 0);
	assert_true(up >= h.dump - 0.01 && up < h.dump + 5);
	assert_int_equal(memstat_objects_caches(ol), 1);
	assert_string_equal(memstat_objects_cache_name(ol, 0), h.cache);
	assert_true(memstat_objects_cache_owners(ol, 0));
	assert_null(memstat_objects_cache_damage(ol, 0));
	assert_int_equal(memstat_objects_cache_size(ol, 0), 1024);
	for (size_t i = 0; i < memstat_objects_count(ol); i++) {
		const uint64_t *f;
		double age;

		assert_int_equal(memstat_object_cache(ol, i), 0);
		assert_int_equal(memstat_object_damage(ol, i), 0);
		if (i > 0)
			assert_true(memstat_object_address(ol, i) >
			    memstat_object_address(ol, i - 1));
		if (memstat_object_pid(ol, i) != h.pid)
			continue;
		mine++;
		age = (double)memstat_object_age_ns(ol, i) / 1e9;
		assert_true(age >= hold - 0.02 && age <= hold + 0.5);
		/* By the image's clock: made just before "held" was read. */
		assert_true(up - age <= h.held + 0.02 &&
		    up - age >= h.held - 0.2);
		assert_true(memstat_object_cpu(ol, i) >= 0 &&
		    memstat_object_cpu(ol, i) < 2);
		assert_non_null(f = memstat_object_stack(ol, i, &n));
		assert_true(n >= 5 && n <= 64);
		assert_true(has_pipe2(f, n));
		/* The same stack for all 20: one id, the same frames. */
		assert_ptr_equal(memstat_objects_stack(ol,
		    memstat_object_stack_id(ol, i), &n), f);
		/* The allocator's caller: one of the first frames (5.10's
		 * stack starts in __slab_alloc, 6.1's in __kmalloc). */
		assert_true(memstat_object_callsite(ol, i) == f[0] ||
		    memstat_object_callsite(ol, i) == f[1] ||
		    memstat_object_callsite(ol, i) == f[2]);
		assert_non_null(strstr(function_of(
		    memstat_object_callsite(ol, i)), "alloc_pipe_info"));
	}
	assert_int_equal(mine, 20);
	/* The owners' commands, from the image's whole task list. */
	assert_int_equal(memstat_objects_tasks(ol), MEMSTAT_TASKS_ALL);
	assert_string_equal(memstat_objects_command(ol, h.pid), "kmemload");
	assert_string_equal(memstat_objects_command(ol, 0), "swapper/0");
	assert_string_equal(memstat_objects_command(ol, 1), "init");
	assert_string_equal(memstat_objects_command(ol, 2), "kthreadd");
	assert_null(memstat_objects_command(ol, 99999));
	memstat_objects_free(ol);
	memstat_kvm_close(kvm);
}

static void
test_depot_stacks(void **state)
{
	(void)state;
	check_pipes(OWN61);
}

static void
test_inline_stacks(void **state)
{
	(void)state;
	check_pipes(OWN510);
}

/* A dump of a kernel that kept no owners: every cache, no object. */
static void
test_no_owners(void **state)
{
	struct memstat_objects *ol;
	size_t n;
	void *kvm;

	(void)state;
	ol = objects_of("fixtures/vmcore/bookworm-6.1/vmcore.elf", NULL, &kvm);
	assert_int_equal(memstat_objects_caches(ol), 146);
	assert_int_equal(memstat_objects_count(ol), 0);
	for (size_t c = 0; c < memstat_objects_caches(ol); c++) {
		assert_false(memstat_objects_cache_owners(ol, c));
		assert_null(memstat_objects_cache_damage(ol, c));
	}
	/* Out of range: 0, "", none, unknown. */
	assert_string_equal(memstat_objects_cache_name(ol, 146), "");
	assert_int_equal(memstat_object_address(ol, 0), 0);
	assert_int_equal(memstat_object_age_ns(ol, 0), UINT64_MAX);
	assert_null(memstat_object_stack(ol, 0, &n));
	assert_int_equal(n, 0);
	assert_int_equal(memstat_object_stack_id(ol, 0), SIZE_MAX);
	/* No owner, no task list read. */
	assert_int_equal(memstat_objects_tasks(ol), MEMSTAT_TASKS_NONE);
	assert_null(memstat_objects_command(ol, 1));
	memstat_objects_free(ol);
	memstat_kvm_close(kvm);
}

/*
 * Debian 12's arm64 kernel names only its code in kallsyms: HZ is not
 * found, and the line says to give the System.map with -N; with -N
 * naming a map without the timekeeper (the fixture's part), the line
 * names the map.
 */
static void
test_clock_why(void **state)
{
	char errbuf[MEMSTAT_KVM_ERRLEN];
	struct memstat_objects *ol;
	const char *names[] = { "kmalloc-128" };
	void *kvm;

	(void)state;
	ol = objects_of("fixtures/vmcore/bookworm-6.1-arm64/vmcore.elf",
	    "kmalloc-128", &kvm);
	assert_int_equal(memstat_objects_hz(ol), 0);
	assert_non_null(memstat_objects_hz_why(ol));
	assert_non_null(strstr(memstat_objects_hz_why(ol), "tk_core"));
	assert_non_null(strstr(memstat_objects_hz_why(ol),
	    "name its System.map with -N"));
	/* No cache kept owners: the task list was not wanted. */
	assert_null(memstat_objects_tasks_why(ol));
	memstat_kvm_close(kvm);

	assert_non_null(kvm = memstat_kvm_open(
	    "fixtures/vmcore/bookworm-6.1-arm64/vmcore.elf",
	    "fixtures/vmcore/bookworm-6.1-arm64/System.map-part", errbuf));
	assert_int_equal(memstat_kvm_objects(ol, kvm, names, 1), 0);
	assert_int_equal(memstat_objects_hz(ol), 0);
	assert_non_null(strstr(memstat_objects_hz_why(ol), "no symbol "));
	assert_non_null(strstr(memstat_objects_hz_why(ol),
	    " in the fixtures/vmcore/bookworm-6.1-arm64/System.map-part"));
	memstat_objects_free(ol);
	memstat_kvm_close(kvm);
}

/* A slab that cannot be read is its cache's damage; the rest is read. */
static void
check_damaged_slab(const char *core, const char *why)
{
	struct memstat_objects *ol;
	struct hold h;
	void *kvm;

	hold_of(OWN61, &h);
	ol = objects_of(core, h.cache, &kvm);
	assert_non_null(memstat_objects_cache_damage(ol, 0));
	assert_non_null(strstr(memstat_objects_cache_damage(ol, 0), why));
	assert_true(memstat_objects_count(ol) > 0);
	memstat_objects_free(ol);
	memstat_kvm_close(kvm);
}

/* What memstat_kvm_objects_each() handed over, to hold to the list's. */
struct handed {
	struct memstat_objects *ol;	/* the list's, a second query's */
	size_t		 n, stop_at;	/* stop_at: fn fails there */
	bool		 tasks_before;
};

static int
hand_one(const struct memstat_objects *ol, void *arg)
{
	struct handed *h = arg;
	const struct memstat_objects *l = h->ol;
	size_t i = h->n++, fa, fb;
	const uint64_t *a, *b;

	if (i == h->stop_at)
		return (-1);
	assert_int_equal(memstat_objects_count(ol), 1);
	assert_true(i < memstat_objects_count(l));
	/* Its cache, and those before, are listed. */
	assert_true(memstat_object_cache(ol, 0) < memstat_objects_caches(ol));
	assert_string_equal(memstat_objects_cache_name(ol,
	    memstat_object_cache(ol, 0)), memstat_objects_cache_name(l,
	    memstat_object_cache(l, i)));
	assert_int_equal(memstat_object_address(ol, 0),
	    memstat_object_address(l, i));
	assert_int_equal(memstat_object_pid(ol, 0), memstat_object_pid(l, i));
	assert_int_equal(memstat_object_cpu(ol, 0), memstat_object_cpu(l, i));
	assert_int_equal(memstat_object_age_ns(ol, 0),
	    memstat_object_age_ns(l, i));
	assert_int_equal(memstat_object_callsite(ol, 0),
	    memstat_object_callsite(l, i));
	assert_int_equal(memstat_object_damage(ol, 0),
	    memstat_object_damage(l, i));
	a = memstat_object_stack(ol, 0, &fa);
	b = memstat_object_stack(l, i, &fb);
	assert_int_equal(fa, fb);
	assert_true(fa == 0 || memcmp(a, b, fa * sizeof(*a)) == 0);
	/* One past it is none. */
	assert_int_equal(memstat_object_address(ol, 1), 0);
	h->tasks_before |= memstat_objects_tasks(ol) != MEMSTAT_TASKS_NONE;
	return (0);
}

/*
 * The walk that keeps no object hands over the list's objects, in its
 * order, with the same owners; a cache's damage is the same; fn failing
 * stops it with MEMSTAT_ERROR_NOMEMORY and leaves ol empty.
 */
static void
check_each(const char *core)
{
	struct memstat_objects *each;
	struct handed h = { .stop_at = SIZE_MAX };
	void *kvm;

	h.ol = objects_of(core, NULL, &kvm);
	assert_true(memstat_objects_count(h.ol) > 20);
	assert_non_null(each = memstat_objects_alloc());
	assert_int_equal(memstat_kvm_objects_each(each, kvm, NULL, 0,
	    hand_one, &h), 0);
	assert_int_equal(h.n, memstat_objects_count(h.ol));
	assert_int_equal(memstat_objects_count(each), 0);
	assert_false(h.tasks_before);
	assert_int_equal(memstat_objects_tasks(each),
	    memstat_objects_tasks(h.ol));
	assert_int_equal(memstat_objects_hz(each), memstat_objects_hz(h.ol));
	assert_int_equal(memstat_objects_caches(each),
	    memstat_objects_caches(h.ol));
	for (size_t c = 0; c < memstat_objects_caches(each); c++) {
		const char *x = memstat_objects_cache_damage(each, c);
		const char *y = memstat_objects_cache_damage(h.ol, c);

		assert_int_equal(x == NULL, y == NULL);
		if (x != NULL)
			assert_string_equal(x, y);
	}
	h.n = 0;
	h.stop_at = 7;
	assert_int_equal(memstat_kvm_objects_each(each, kvm, NULL, 0,
	    hand_one, &h), -1);
	assert_int_equal(h.n, 8);
	assert_int_equal(memstat_objects_geterror(each),
	    MEMSTAT_ERROR_NOMEMORY);
	assert_int_equal(memstat_objects_caches(each), 0);
	memstat_objects_free(each);
	memstat_objects_free(h.ol);
	memstat_kvm_close(kvm);
}

static void
test_each(void **state)
{
	(void)state;
	check_each(OWN61 "vmcore.elf");
	check_each(OWN510 "vmcore.elf");
	check_each(BAD "owners-loop");
}

static void
test_freelist_loops(void **state)
{
	(void)state;
	check_damaged_slab(BAD "owners-loop", "loops");
}

static void
test_freelist_leaves(void **state)
{
	(void)state;
	check_damaged_slab(BAD "owners-out", "is not an object of slab");
}

/* A bad owner marks its object alone. */
static void
check_bad_owner(const char *core, uint32_t damage)
{
	struct memstat_objects *ol;
	size_t marked = 0, n;
	struct hold h;
	void *kvm;

	hold_of(OWN61, &h);
	ol = objects_of(core, h.cache, &kvm);
	assert_null(memstat_objects_cache_damage(ol, 0));
	for (size_t i = 0; i < memstat_objects_count(ol); i++) {
		if (memstat_object_damage(ol, i) == 0)
			continue;
		assert_int_equal(memstat_object_damage(ol, i), damage);
		if (damage == MEMSTAT_OBJECT_BAD_PID)
			assert_int_equal(memstat_object_pid(ol, i), -1);
		if (damage == MEMSTAT_OBJECT_BAD_STACK)
			assert_null(memstat_object_stack(ol, i, &n));
		marked++;
	}
	assert_int_equal(marked, 1);
	memstat_objects_free(ol);
	memstat_kvm_close(kvm);
}

static void
test_bad_pid(void **state)
{
	(void)state;
	check_bad_owner(BAD "owners-pid", MEMSTAT_OBJECT_BAD_PID);
}

static void
test_bad_handle(void **state)
{
	(void)state;
	check_bad_owner(BAD "owners-handle", MEMSTAT_OBJECT_BAD_STACK);
}

/* A dump with no memory: the error, and an empty ol. */
static void
test_unreadable(void **state)
{
	char errbuf[MEMSTAT_KVM_ERRLEN];
	struct memstat_objects *ol;
	void *kvm;

	(void)state;
	assert_non_null(kvm = memstat_kvm_open(BAD "elf-no-memory", NULL,
	    errbuf));
	assert_non_null(ol = memstat_objects_alloc());
	assert_int_equal(memstat_kvm_objects(ol, kvm, NULL, 0), -1);
	assert_int_equal(memstat_objects_geterror(ol),
	    MEMSTAT_ERROR_KVM_SHORTREAD);
	assert_non_null(strstr(memstat_objects_geterrmsg(ol), "cannot read"));
	assert_int_equal(memstat_objects_caches(ol), 0);
	assert_int_equal(memstat_objects_count(ol), 0);
	memstat_objects_free(ol);
	memstat_kvm_close(kvm);
}

/*
 * The object array past 2 MiB, where it moves into huge pages: every
 * element kept across each move, room always for the next, and a size
 * that would overflow refused with the array as it was.
 */
static void
test_huge_array(void **state)
{
	uint64_t *a = NULL;
	size_t cap = 0, n, big = 3u << 20;

	(void)state;
	for (n = 0; n < big; n++) {
		assert_int_equal(_memstat_huge_array_grow((void **)&a, n, &cap,
		    sizeof(*a)), 0);
		assert_true(n < cap);
		a[n] = n * 0x9e3779b97f4a7c15ULL;
	}
	for (n = 0; n < big; n++)
		assert_true(a[n] == n * 0x9e3779b97f4a7c15ULL);
	assert_int_equal(_memstat_huge_array_grow((void **)&a, cap, &cap,
	    SIZE_MAX / 4), -1);
	assert_true(a[big - 1] == (big - 1) * 0x9e3779b97f4a7c15ULL);
	_memstat_huge_array_free(a, cap, sizeof(*a));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_depot_stacks),
		cmocka_unit_test(test_inline_stacks),
		cmocka_unit_test(test_no_owners),
		cmocka_unit_test(test_clock_why),
		cmocka_unit_test(test_each),
		cmocka_unit_test(test_freelist_loops),
		cmocka_unit_test(test_freelist_leaves),
		cmocka_unit_test(test_bad_pid),
		cmocka_unit_test(test_bad_handle),
		cmocka_unit_test(test_unreadable),
		cmocka_unit_test(test_huge_array),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);

	free(syms);
	return (rc);
}
