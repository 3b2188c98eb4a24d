/*
 * test_kvm_live.c: the walks over memory that moves, as /proc/kcore's
 * does.  A reader over the guest's dump that says it is the live kernel
 * and changes one chosen word between reads: a count that moves a few
 * times is read again until it holds and the report is the dump's; one
 * that never holds is one error naming its cache, list or zone, after
 * KVM_LIVE_TRIES walks; a dump (not live) is never walked twice.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"
#include "kvm/kernel/kvm_finders.h"

#define ELF	"fixtures/vmcore/debian12-6.1/vmcore.elf"

/* The moving word: reads of it see a different value the first times. */
static struct {
	const struct kvm_reader	*inner;
	void			*inner_arg;
	uint64_t		 addr;
	int			 moves;		/* < 0: forever */
	int			 reads;
} word;

static int
moving_read(struct memstat_kvm *kvm, uint64_t addr, void *buf, size_t len)
{
	const struct kvm_reader *self = kvm->reader;
	void *self_arg = kvm->reader_arg;
	uint64_t v;
	int rc;

	kvm->reader = word.inner;
	kvm->reader_arg = word.inner_arg;
	rc = word.inner->read(kvm, addr, buf, len);
	kvm->reader = self;
	kvm->reader_arg = self_arg;
	if (rc == 0 && addr == word.addr && len == 8 &&
	    (word.moves < 0 || word.reads < word.moves)) {
		memcpy(&v, buf, 8);
		v += (uint64_t)(word.reads % 2 ? 1 : 3);
		memcpy(buf, &v, 8);
	}
	if (addr == word.addr)
		word.reads++;
	return (rc);
}

static int
moving_symbol(struct memstat_kvm *kvm, const char *name, uint64_t *addr)
{
	return (word.inner->vmcoreinfo_symbol(kvm, name, addr));
}

static const struct kvm_reader moving = {
	.name = "moving",
	.read = moving_read,
	.vmcoreinfo_symbol = moving_symbol,
};

static struct memstat_kvm *
open_moving(bool live)
{
	char errbuf[MEMSTAT_KVM_ERRLEN];
	struct memstat_kvm *kvm;

	assert_non_null(kvm = memstat_kvm_open(ELF, NULL, errbuf));
	word.inner = kvm->reader;
	word.inner_arg = kvm->reader_arg;
	word.addr = 0;
	word.reads = 0;
	kvm->reader = &moving;
	kvm->live = live;
	return (kvm);
}

static void
close_moving(struct memstat_kvm *kvm)
{
	kvm->reader = word.inner;
	memstat_kvm_close(kvm);
}

static uint64_t
member_of(struct memstat_kvm *kvm, uint64_t base, const char *type,
    const char *member)
{
	struct kvm_member m;
	uint64_t v;

	assert_int_equal(_memstat_kvm_member(kvm, type, member, &m), 0);
	assert_int_equal(_memstat_kvm_read_u64(kvm, base + m.offset, &v), 0);
	return (v);
}

static uint64_t
offset_of(struct memstat_kvm *kvm, const char *type, const char *member)
{
	struct kvm_member m;

	assert_int_equal(_memstat_kvm_member(kvm, type, member, &m), 0);
	return (m.offset);
}

/* The address of the kmem_cache named name, walking slab_caches. */
static uint64_t
cache_named(struct memstat_kvm *kvm, const char *name)
{
	uint64_t head, e, list = offset_of(kvm, "kmem_cache", "list");
	char buf[64];

	assert_int_equal(_memstat_kvm_symbol(kvm, "slab_caches", &head), 0);
	for (e = member_of(kvm, head, "list_head", "next"); e != head;
	    e = member_of(kvm, e, "list_head", "next")) {
		uint64_t namep = member_of(kvm, e - list, "kmem_cache", "name");

		assert_int_equal(_memstat_kvm_read_string(kvm, namep, buf,
		    sizeof(buf)), 0);
		if (strcmp(buf, name) == 0)
			return (e - list);
	}
	fail_msg("no cache %s", name);
	return (0);
}

/* node[0]->nr_slabs of the cache named name. */
static uint64_t
nr_slabs_of(struct memstat_kvm *kvm, const char *name)
{
	uint64_t cache = cache_named(kvm, name), node;

	assert_int_equal(_memstat_kvm_read_u64(kvm, cache +
	    offset_of(kvm, "kmem_cache", "node"), &node), 0);
	return (node + offset_of(kvm, "kmem_cache_node", "nr_slabs"));
}

static uint64_t
count_of(struct memory_type_list *list, const char *name)
{
	struct memory_type *m = memstat_mtl_find(list, ALLOCATOR_UMA, name);

	assert_non_null(m);
	return (memstat_get_count(m));
}

/* A count that moves three times: the cache is read until it holds. */
static void
test_cache_moves_then_holds(void **state)
{
	struct memory_type_list *want, *got;
	struct memstat_kvm *kvm;

	(void)state;
	assert_non_null(want = memstat_mtl_alloc());
	assert_non_null(got = memstat_mtl_alloc());
	kvm = open_moving(true);
	assert_int_equal(memstat_kvm_uma(want, kvm), 0);
	word.addr = nr_slabs_of(kvm, "kmalloc-64");
	word.moves = 3;
	word.reads = 0;
	assert_int_equal(memstat_kvm_uma(got, kvm), 0);
	assert_true(word.reads > 3);
	assert_int_equal(count_of(got, "kmalloc-64"),
	    count_of(want, "kmalloc-64"));
	close_moving(kvm);
	memstat_mtl_free(want);
	memstat_mtl_free(got);
}

/* A count that never holds: one error naming the cache. */
static void
test_cache_never_holds(void **state)
{
	struct memory_type_list *list;
	struct memstat_kvm *kvm;

	(void)state;
	assert_non_null(list = memstat_mtl_alloc());
	kvm = open_moving(true);
	word.addr = nr_slabs_of(kvm, "kmalloc-64");
	word.moves = -1;
	word.reads = 0;
	assert_int_equal(memstat_kvm_uma(list, kvm), -1);
	assert_int_equal(memstat_mtl_geterror(list), MEMSTAT_ERROR_DATAERROR);
	assert_non_null(strstr(memstat_mtl_geterrmsg(list),
	    "cache kmalloc-64 did not hold still for 8 walks in a row"));
	/* Two reads a walk (the row, then the check): eight walks. */
	assert_int_equal(word.reads, 2 * KVM_LIVE_TRIES);
	close_moving(kvm);
	memstat_mtl_free(list);
}

/* A dump does not move: read once, whatever it says. */
static void
test_dump_walked_once(void **state)
{
	struct memory_type_list *list;
	struct memstat_kvm *kvm;

	(void)state;
	assert_non_null(list = memstat_mtl_alloc());
	kvm = open_moving(false);
	word.addr = nr_slabs_of(kvm, "kmalloc-64");
	word.moves = -1;
	word.reads = 0;
	assert_int_equal(memstat_kvm_uma(list, kvm), 0);
	assert_int_equal(word.reads, 1);
	close_moving(kvm);
	memstat_mtl_free(list);
}

/* slab_caches relinked under the walk: walked again from its head. */
static void
test_list_moves(void **state)
{
	struct memory_type_list *list;
	struct memstat_kvm *kvm;
	uint64_t cache;

	(void)state;
	assert_non_null(list = memstat_mtl_alloc());
	kvm = open_moving(true);
	cache = cache_named(kvm, "dentry");
	/* dentry's list.prev, which the walk checks on its way. */
	word.addr = cache + offset_of(kvm, "kmem_cache", "list") +
	    offset_of(kvm, "list_head", "prev");
	word.moves = 2;
	word.reads = 0;
	assert_int_equal(memstat_kvm_uma(list, kvm), 0);
	assert_int_equal(word.reads, 3);
	assert_true(count_of(list, "dentry") > 0);
	word.moves = -1;
	word.reads = 0;
	assert_int_equal(memstat_kvm_uma(list, kvm), -1);
	assert_non_null(strstr(memstat_mtl_geterrmsg(list),
	    "slab_caches changed under 8 walks in a row"));
	close_moving(kvm);
	memstat_mtl_free(list);
}

/* A free list's nr_free that moves, then never holds. */
static void
test_zone_moves(void **state)
{
	struct memstat_frag *want, *got;
	struct memstat_kvm *kvm;
	uint64_t nodes, pgdat;

	(void)state;
	assert_non_null(want = memstat_frag_alloc());
	assert_non_null(got = memstat_frag_alloc());
	kvm = open_moving(true);
	assert_int_equal(memstat_frag_kvm(want, kvm, MEMSTAT_FRAG_TYPES), 0);
	/* Node 0's first zone's order-0 nr_free. */
	assert_int_equal(_memstat_kvm_symbol(kvm, "node_data", &nodes), 0);
	assert_int_equal(_memstat_kvm_read_u64(kvm, nodes, &pgdat), 0);
	word.addr = pgdat + offset_of(kvm, "pglist_data", "node_zones") +
	    offset_of(kvm, "zone", "free_area") +
	    offset_of(kvm, "free_area", "nr_free");
	word.moves = 2;
	word.reads = 0;
	assert_int_equal(memstat_frag_kvm(got, kvm, MEMSTAT_FRAG_TYPES), 0);
	assert_int_equal(memstat_frag_zones(got), memstat_frag_zones(want));
	for (size_t z = 0; z < memstat_frag_zones(got); z++)
		for (int o = 0; o < memstat_frag_orders(got, z); o++)
			assert_int_equal(memstat_frag_blocks(got, z, o),
			    memstat_frag_blocks(want, z, o));
	word.moves = -1;
	word.reads = 0;
	assert_int_equal(memstat_frag_kvm(got, kvm, MEMSTAT_FRAG_TYPES), -1);
	assert_non_null(strstr(memstat_frag_geterrmsg(got),
	    "did not hold still for 8 walks in a row"));
	assert_int_equal(memstat_frag_zones(got), 0);
	close_moving(kvm);
	memstat_frag_free(want);
	memstat_frag_free(got);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cache_moves_then_holds),
		cmocka_unit_test(test_cache_never_holds),
		cmocka_unit_test(test_dump_walked_once),
		cmocka_unit_test(test_list_moves),
		cmocka_unit_test(test_zone_moves),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
