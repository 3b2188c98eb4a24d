/*
 * test_kallsyms_find.c: the kallsyms tables of a kernel before 6.0 found
 * in its dump by their structure, held to the real System.map of the
 * kernel's -dbg package (System.map-part beside the dump: its tables'
 * lines and those of the symbols the reports look up, at link-time
 * addresses).  A memory over the dump that counts what it gives and can
 * change one byte: a marker, a token index, the symbol count or an
 * offset changed is a chain that no longer holds, and no table is taken.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"
#include "kvm/kernel/kvm_finders.h"
#include "kvm/kernel/kvm_kallsyms.h"

#define DIR	"fixtures/vmcore/bullseye-5.10/"

/* The dump's memory, with one byte changed and the bytes read counted. */
static struct {
	struct kallsyms_memory	 inner;
	uint64_t		 poke;		/* 0: none */
	uint64_t		 bytes;
} mem;

static int
poked_read(void *arg, uint64_t addr, void *buf, size_t len)
{
	(void)arg;
	if (mem.inner.read(mem.inner.arg, addr, buf, len) != 0)
		return (-1);
	mem.bytes += len;
	if (mem.poke != 0 && mem.poke >= addr && mem.poke - addr < len)
		((unsigned char *)buf)[mem.poke - addr] ^= 0x01;
	return (0);
}

static struct memstat_kvm *
open_dump(struct kallsyms_memory *m)
{
	char errbuf[MEMSTAT_KVM_ERRLEN];
	struct memstat_kvm *kvm;

	assert_non_null(kvm = memstat_kvm_open(DIR "vmcore.elf", NULL,
	    errbuf));
	assert_int_equal(_memstat_kvm_kallsyms_memory(kvm, &mem.inner), 0);
	*m = mem.inner;
	m->read = poked_read;
	mem.poke = 0;
	mem.bytes = 0;
	return (kvm);
}

/* A symbol's run-time address in the dump, by the -dbg System.map. */
static uint64_t
truth(const struct memstat_kvm *kvm, const char *name)
{
	char line[256], sym[128], type;
	unsigned long long a;
	uint64_t addr = 0;
	FILE *f;

	assert_non_null(f = fopen(DIR "System.map-part", "r"));
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "%llx %c %127s", &a, &type, sym) == 3 &&
		    strcmp(sym, name) == 0)
			addr = a + kvm->kaslr;
	fclose(f);
	assert_true(addr != 0);
	return (addr);
}

static void
test_tables_found_where_system_map_says(void **state)
{
	struct kallsyms_memory m;
	struct kallsyms_tables t;
	struct memstat_kvm *kvm = open_dump(&m);

	(void)state;
	assert_int_equal(_memstat_kvm_kallsyms_find(&m, &t), 0);
	assert_int_equal(t.offsets, truth(kvm, "kallsyms_offsets"));
	assert_int_equal(t.relative_base, truth(kvm, "kallsyms_relative_base"));
	assert_int_equal(t.num_syms, truth(kvm, "kallsyms_num_syms"));
	assert_int_equal(t.names, truth(kvm, "kallsyms_names"));
	assert_int_equal(t.token_table, truth(kvm, "kallsyms_token_table"));
	assert_int_equal(t.token_index, truth(kvm, "kallsyms_token_index"));
	/* Well within 5 % of the 256 MiB the guest had. */
	assert_true(mem.bytes < ((uint64_t)256 << 20) / 20);
	memstat_kvm_close(kvm);
}

static void
test_symbols_as_system_map(void **state)
{
	static const char *const names[] = { "_stext", "init_uts_ns",
	    "slab_caches", "nr_node_ids", "node_data", "__start_BTF",
	    "__stop_BTF", "migratetype_names" };
	char errbuf[MEMSTAT_KVM_ERRLEN];
	struct memstat_kvm *kvm;
	uint64_t addr;

	(void)state;
	assert_non_null(kvm = memstat_kvm_open(DIR "vmcore.elf", NULL,
	    errbuf));
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		assert_int_equal(_memstat_kvm_symbol(kvm, names[i], &addr), 0);
		assert_int_equal(addr, truth(kvm, names[i]));
	}
	memstat_kvm_close(kvm);
}

/* One byte changed at where, as the System.map says plus off: no tables. */
static void
assert_poke_refused(const char *where, uint64_t off)
{
	struct kallsyms_memory m;
	struct kallsyms_tables t;
	struct memstat_kvm *kvm = open_dump(&m);

	mem.poke = truth(kvm, where) + off;
	assert_int_equal(_memstat_kvm_kallsyms_find(&m, &t), -1);
	memstat_kvm_close(kvm);
}

static void
test_marker_changed(void **state)
{
	(void)state;
	assert_poke_refused("kallsyms_markers", 5 * 4);
}

static void
test_token_index_changed(void **state)
{
	(void)state;
	assert_poke_refused("kallsyms_token_index", 100 * 2);
}

static void
test_count_changed(void **state)
{
	(void)state;
	assert_poke_refused("kallsyms_num_syms", 0);
}

static void
test_name_length_changed(void **state)
{
	(void)state;
	assert_poke_refused("kallsyms_names", 0);
}

/* A memory with nothing but unreadable pages: no tables, quickly. */
static int
nothing_read(void *arg, uint64_t addr, void *buf, size_t len)
{
	(void)arg;
	(void)addr;
	(void)buf;
	(void)len;
	mem.bytes++;
	return (-1);
}

static void
test_nothing_there(void **state)
{
	struct kallsyms_memory m = { .read = nothing_read,
	    .stext = 0xffffffff81000000ULL, .data = 0 };
	struct kallsyms_tables t;

	(void)state;
	mem.bytes = 0;
	assert_int_equal(_memstat_kvm_kallsyms_find(&m, &t), -1);
	/* One probe every 64 KiB of the largest image, 1 GiB: bounded. */
	assert_true(mem.bytes <= 16384);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tables_found_where_system_map_says),
		cmocka_unit_test(test_symbols_as_system_map),
		cmocka_unit_test(test_marker_changed),
		cmocka_unit_test(test_token_index_changed),
		cmocka_unit_test(test_count_changed),
		cmocka_unit_test(test_name_length_changed),
		cmocka_unit_test(test_nothing_there),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
