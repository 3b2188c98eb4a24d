/*
 * test_linux.c: the Linux source: /proc/slabinfo rows as zones, merged
 * caches as one entry with aliases, unknowns, SLUB_STATS, kmalloc families
 * and allocinfo sites as malloc types, and bad trees changing nothing.
 */
#include <sys/stat.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scratch.h"
#include "testlib.h"

#define SYNTH		"fixtures/linux/captures/synthetic"
#define DEBIAN		"fixtures/linux/captures/debian12-6.1"
#define ALLOCINFO	"fixtures/linux/captures/allocinfo"

#define HEADER	"slabinfo - version: 2.1\n# name <active_objs> ...\n"
#define ROW(name, active, total, size)					\
	name " " #active " " #total " " #size " 16 1 : tunables 0 0 0 : "	\
	"slabdata 1 1 0\n"

static const uint32_t linux_unknown = MEMSTAT_UNKNOWN_LIMIT |
    MEMSTAT_UNKNOWN_FAILURES | MEMSTAT_UNKNOWN_SLEEPS |
    MEMSTAT_UNKNOWN_XDOMAIN | MEMSTAT_UNKNOWN_MEMALLOCED |
    MEMSTAT_UNKNOWN_ALLOCATED;	/* a tree cannot tell it */

/* A tree with the given proc files (NULL: absent); returns its path. */
static char *
make_tree(const char *slabinfo, const char *allocinfo)
{
	char *dir, path[512];
	FILE *f;

	assert_non_null(dir = scratch_dir("tree"));
	snprintf(path, sizeof(path), "%s/proc", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	if (slabinfo != NULL) {
		snprintf(path, sizeof(path), "%s/proc/slabinfo", dir);
		assert_non_null(f = fopen(path, "w"));
		fputs(slabinfo, f);
		fclose(f);
	}
	if (allocinfo != NULL) {
		snprintf(path, sizeof(path), "%s/proc/allocinfo", dir);
		assert_non_null(f = fopen(path, "w"));
		fputs(allocinfo, f);
		fclose(f);
	}
	return (dir);
}

static void
remove_tree(char *dir)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	free(dir);
}

static struct memory_type_list *
uma(const char *root, int flags)
{
	struct memory_type_list *list = memstat_mtl_alloc();

	assert_non_null(list);
	assert_int_equal(memstat_linux_uma(list, root, flags), 0);
	assert_int_equal(memstat_mtl_geterror(list), MEMSTAT_ERROR_UNDEFINED);
	return (list);
}

static size_t
count(struct memory_type_list *list)
{
	size_t n = 0;

	for (struct memory_type *m = memstat_mtl_first(list); m != NULL;
	    m = memstat_mtl_next(m))
		n++;
	return (n);
}

/* One entry per row, in /proc/slabinfo's order, USED and FREE as it says. */
static void
test_rows(void **state)
{
	struct memory_type_list *list = uma(SYNTH, 0);
	struct memory_type *m;

	(void)state;
	assert_int_equal(count(list), 17);
	m = memstat_mtl_first(list);
	assert_string_equal(memstat_get_name(m),
	    "a_cache_with_a_name_longer_than_31_bytes");
	m = memstat_mtl_next(m);
	assert_string_equal(memstat_get_name(m), "ext4_inode_cache");
	assert_int_equal(memstat_get_allocator(m), ALLOCATOR_UMA);
	assert_int_equal(memstat_get_count(m), 120);
	/* slabinfo counts the CPUs' free objects as active: unknown. */
	assert_true(memstat_get_unknown(m) & MEMSTAT_UNKNOWN_ALLOCATED);
	assert_null(memstat_get_damage(m));
	assert_int_equal(memstat_get_free(m), 15);
	assert_int_equal(memstat_get_size(m), 1184);
	assert_int_equal(memstat_get_rsize(m), 1184);
	assert_int_equal(memstat_get_bytes(m), 120 * 1184);
	assert_int_equal(memstat_get_kegfree(m), 0);
	assert_int_equal(memstat_get_slabs(m), 5);
	m = memstat_mtl_find(list, ALLOCATOR_UMA, "kmalloc-64");
	assert_non_null(m);
	assert_int_equal(memstat_get_count(m), 2902);
	assert_int_equal(memstat_get_free(m), 3136 - 2902);
	assert_int_equal(memstat_get_slabs(m), 49);
	memstat_mtl_free(list);
}

/* Unknown is said, not 0; SLUB_STATS rows have REQ, the others not. */
static void
test_unknown_and_stats(void **state)
{
	struct memory_type_list *list = uma(SYNTH, 0);
	struct memory_type *m;

	(void)state;
	m = memstat_mtl_find(list, ALLOCATOR_UMA, "ext4_inode_cache");
	assert_int_equal(memstat_get_unknown(m), linux_unknown);
	assert_int_equal(memstat_get_numallocs(m), 5120);
	assert_int_equal(memstat_get_numfrees(m), 5000);
	m = memstat_mtl_find(list, ALLOCATOR_UMA, "anon_vma_chain");
	assert_int_equal(memstat_get_unknown(m), linux_unknown |
	    MEMSTAT_UNKNOWN_NUMALLOCS | MEMSTAT_UNKNOWN_NUMFREES);
	assert_int_equal(memstat_get_numallocs(m), 0);
	memstat_mtl_free(list);

	list = uma(DEBIAN, 0);
	for (m = memstat_mtl_first(list); m != NULL; m = memstat_mtl_next(m))
		assert_true(memstat_get_unknown(m) & MEMSTAT_UNKNOWN_NUMALLOCS);
	memstat_mtl_free(list);
}

/*
 * A merged cache is one entry; its other names are aliases, never entries,
 * and a link to no cache of the tree names nothing.
 */
static void
test_aliases(void **state)
{
	struct memory_type_list *list = uma(SYNTH, MEMSTAT_LINUX_ALIASES);
	struct memory_type *m;
	size_t total = 0;

	(void)state;
	assert_int_equal(count(list), 17);
	m = memstat_mtl_find(list, ALLOCATOR_UMA, "anon_vma_chain");
	assert_int_equal(memstat_get_alias_count(m), 2);
	assert_string_equal(memstat_get_alias(m, 0), "eventpoll_pwq");
	assert_string_equal(memstat_get_alias(m, 1), "fs_cache");
	assert_null(memstat_get_alias(m, 2));
	/* An absolute link target names the same directory. */
	m = memstat_mtl_find(list, ALLOCATOR_UMA, "skbuff_fclone_cache");
	assert_int_equal(memstat_get_alias_count(m), 1);
	assert_string_equal(memstat_get_alias(m, 0), "biovec-32");
	m = memstat_mtl_find(list, ALLOCATOR_UMA, "ext4_inode_cache");
	assert_int_equal(memstat_get_alias_count(m), 1);
	for (m = memstat_mtl_first(list); m != NULL; m = memstat_mtl_next(m))
		total += memstat_get_alias_count(m);
	assert_int_equal(total, 4);
	assert_null(memstat_mtl_find(list, ALLOCATOR_ANY, "eventpoll_pwq"));
	assert_null(memstat_mtl_find(list, ALLOCATOR_ANY,
	    "module_cache_since_unloaded"));

	/* Without the flag no sysfs is read: no aliases. */
	memstat_mtl_free(list);
	list = uma(SYNTH, 0);
	m = memstat_mtl_find(list, ALLOCATOR_UMA, "anon_vma_chain");
	assert_int_equal(memstat_get_alias_count(m), 0);
	memstat_mtl_free(list);
}

/* The Debian 12 guest: 146 caches, and no number counted twice. */
static void
test_debian_no_double_count(void **state)
{
	struct memory_type_list *list = uma(DEBIAN, MEMSTAT_LINUX_ALIASES);
	uint64_t used = 0, objs = 0, want_used = 0, want_objs = 0, a, n;
	struct memory_type *m;
	size_t aliases = 0;
	char line[512], name[128];
	FILE *f;

	(void)state;
	assert_non_null(f = fopen(DEBIAN "/proc/slabinfo", "r"));
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "%127s %lu %lu", name, &a, &n) == 3) {
			want_used += a;
			want_objs += n;
		}
	fclose(f);
	assert_int_equal(count(list), 146);
	for (m = memstat_mtl_first(list); m != NULL; m = memstat_mtl_next(m)) {
		used += memstat_get_count(m);
		objs += memstat_get_count(m) + memstat_get_free(m);
		aliases += memstat_get_alias_count(m);
	}
	assert_int_equal(used, want_used);
	assert_int_equal(objs, want_objs);
	assert_true(aliases > 0);
	memstat_mtl_free(list);
}

/* A refresh reuses the entries and keeps caller slots. */
static void
test_refresh(void **state)
{
	struct memory_type_list *list = uma(SYNTH, MEMSTAT_LINUX_ALIASES);
	struct memory_type *m;

	(void)state;
	m = memstat_mtl_find(list, ALLOCATOR_UMA, "anon_vma_chain");
	memstat_set_caller_uint64(m, 3, 42);
	assert_int_equal(memstat_linux_uma(list, SYNTH, 0), 0);
	assert_int_equal(count(list), 17);
	assert_ptr_equal(memstat_mtl_find(list, ALLOCATOR_UMA,
	    "anon_vma_chain"), m);
	assert_int_equal(memstat_get_caller_uint64(m, 3), 42);
	assert_int_equal(memstat_get_alias_count(m), 0);
	assert_int_equal(memstat_linux_uma(list, SYNTH, MEMSTAT_LINUX_ALIASES),
	    0);
	assert_int_equal(memstat_get_alias_count(m), 2);
	memstat_mtl_free(list);
}

/* kmalloc families: sums over their size classes, the classes in use. */
static void
test_kmalloc_families(void **state)
{
	struct memory_type_list *list = memstat_mtl_alloc();
	static const int classes[] = { 8, 64, 96, 1024, 8192 };
	struct memory_type *m;
	size_t i;

	(void)state;
	assert_int_equal(memstat_linux_malloc(list, SYNTH, 0), 0);
	assert_int_equal(memstat_malloc_zone_get_count(), 5);
	for (i = 0; i < 5; i++)
		assert_int_equal(memstat_malloc_zone_get_size(i), classes[i]);
	assert_int_equal(count(list), 5);
	m = memstat_mtl_first(list);
	assert_string_equal(memstat_get_name(m), "kmalloc");
	assert_int_equal(memstat_get_allocator(m), ALLOCATOR_MALLOC);
	assert_int_equal(memstat_get_count(m), 4000 + 2902 + 30 + 12);
	assert_int_equal(memstat_get_bytes(m),
	    4000 * 8 + 2902 * 64 + 30 * 1024 + 12 * 8192);
	assert_int_equal(memstat_get_sizemask(m), 0x1b);	/* 8,64,1k,8k */
	/* kmalloc-64 has SLUB_STATS, kmalloc-8 not: the sum is unknown. */
	assert_true(memstat_get_unknown(m) & MEMSTAT_UNKNOWN_NUMALLOCS);
	m = memstat_mtl_next(m);
	assert_string_equal(memstat_get_name(m), "kmalloc-cg");
	assert_int_equal(memstat_get_count(m), 142);
	assert_int_equal(memstat_get_sizemask(m), 0x6);	/* 64, 96 */
	m = memstat_mtl_next(m);
	assert_string_equal(memstat_get_name(m), "dma-kmalloc");
	assert_int_equal(memstat_get_count(m), 0);
	assert_int_equal(memstat_get_sizemask(m), 0);
	m = memstat_mtl_next(m);
	assert_string_equal(memstat_get_name(m), "kmalloc-rnd-01");
	m = memstat_mtl_next(m);
	assert_string_equal(memstat_get_name(m), "kmalloc-rnd-02");
	assert_int_equal(memstat_get_sizemask(m), 0x8);	/* 1024 */
	/* Caches that only look alike are no family. */
	assert_null(memstat_mtl_find(list, ALLOCATOR_ANY, "kmalloc_buckets"));
	memstat_mtl_free(list);
	memstat_malloc_zone_set_sizes(NULL, 0);
}

/* allocinfo: one type per site, repeated sites kept apart. */
static void
test_allocinfo(void **state)
{
	struct memory_type_list *list = memstat_mtl_alloc();
	struct memory_type *m;

	(void)state;
	assert_int_equal(memstat_linux_malloc(list, ALLOCINFO, 0), 0);
	assert_int_equal(count(list), 19);
	m = memstat_mtl_first(list);
	assert_string_equal(memstat_get_name(m),
	    "init/main.c:1314 func:do_initcalls");
	m = memstat_mtl_find(list, ALLOCATOR_MALLOC,
	    "mm/memory.c:4770 func:alloc_anon_folio");
	assert_non_null(m);
	assert_int_equal(memstat_get_count(m), 3584);
	assert_int_equal(memstat_get_bytes(m), 14680064);
	assert_int_equal(memstat_get_sizemask(m), 0);
	assert_int_equal(memstat_get_unknown(m), linux_unknown |
	    MEMSTAT_UNKNOWN_NUMALLOCS | MEMSTAT_UNKNOWN_NUMFREES |
	    MEMSTAT_UNKNOWN_SLABS);
	m = memstat_mtl_find(list, ALLOCATOR_MALLOC,
	    "fs/xfs/xfs_mount.c:87 [xfs] func:xfs_uuid_mount");
	assert_non_null(m);
	memstat_mtl_free(list);

	/* Version 2.0 marks inexact counters with '*'; negative bytes read 0. */
	char *dir = make_tree(HEADER ROW("kmalloc-8", 1, 2, 8),
	    "allocinfo - version: 2.0\n#     <size>  <calls> <tag info>\n"
	    "        512*       1* a.c:1 func:f \n"
	    "         -64        1 b.c:2 [mod] func:g \n");
	list = memstat_mtl_alloc();
	assert_int_equal(memstat_linux_malloc(list, dir, 0), 0);
	m = memstat_mtl_find(list, ALLOCATOR_MALLOC, "a.c:1 func:f");
	assert_non_null(m);
	assert_int_equal(memstat_get_bytes(m), 512);
	m = memstat_mtl_find(list, ALLOCATOR_MALLOC, "b.c:2 [mod] func:g");
	assert_non_null(m);
	assert_int_equal(memstat_get_bytes(m), 0);
	memstat_mtl_free(list);
	remove_tree(dir);
}

/* A bad tree is an error, and the list keeps what it had. */
static void
assert_tree_rejected(const char *slabinfo, const char *allocinfo, int error)
{
	struct memory_type_list *list = uma(SYNTH, MEMSTAT_LINUX_ALIASES);
	char *dir = make_tree(slabinfo, allocinfo);

	if (allocinfo == NULL)
		assert_int_equal(memstat_linux_uma(list, dir, 0), -1);
	else
		assert_int_equal(memstat_linux_malloc(list, dir, 0), -1);
	assert_int_equal(memstat_mtl_geterror(list), error);
	assert_int_equal(count(list), 17);
	assert_int_equal(memstat_get_alias_count(memstat_mtl_find(list,
	    ALLOCATOR_UMA, "anon_vma_chain")), 2);
	memstat_mtl_free(list);
	remove_tree(dir);
}

/* A cache's four per-node files in dir's sys/kernel/slab/name. */
static void
node_files(const char *dir, const char *name, const char *const files[4])
{
	static const char *const which[4] = {
	    "objects", "total_objects", "slabs", "partial" };
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/sys/kernel/slab/%s", dir, name);
	snprintf(path, sizeof(path), "mkdir -p '%s/sys/kernel/slab/%s'", dir,
	    name);
	assert_int_equal(system(path), 0);
	for (int i = 0; i < 4; i++) {
		if (files[i] == NULL)
			continue;
		snprintf(path, sizeof(path), "%s/sys/kernel/slab/%s/%s", dir,
		    name, which[i]);
		assert_non_null(f = fopen(path, "w"));
		fputs(files[i], f);
		fclose(f);
	}
}

/*
 * Each cache's share per node, by node id, as sysfs says it: a node it
 * leaves out (none there) reads 0, every cache has as many nodes as the
 * tree's widest, and a kernel without NUMA (the total alone) has node 0.
 */
static void
test_nodes(void **state)
{
	char *dir = make_tree(HEADER ROW("a", 10, 16, 64) ROW("b", 3, 8, 64)
	    ROW("c", 1, 4, 64) ROW("d", 1, 4, 64), NULL);
	struct memory_type_list *list;
	struct memory_type *m;

	(void)state;
	node_files(dir, "a", (const char *const[4]){ "10 N0=4 N2=6\n",
	    "16 N0=8 N2=8\n", "4 N0=2 N2=2\n", "1 N2=1\n" });
	node_files(dir, "b", (const char *const[4]){ "3\n", "8\n", "1\n",
	    "0\n" });
	/* c has none: a tree saved before they were. */
	list = uma(dir, 0);
	assert_int_equal(memstat_get_nodes(memstat_mtl_find(list,
	    ALLOCATOR_UMA, "a")), 0);
	assert_int_equal(memstat_linux_uma(list, dir, MEMSTAT_LINUX_NODES), 0);
	m = memstat_mtl_find(list, ALLOCATOR_UMA, "a");
	assert_int_equal(memstat_get_nodes(m), 3);
	assert_int_equal(memstat_get_node_count(m, 0), 4);
	assert_int_equal(memstat_get_node_free(m, 0), 4);
	assert_int_equal(memstat_get_node_count(m, 1), 0);
	assert_int_equal(memstat_get_node_count(m, 2), 6);
	assert_int_equal(memstat_get_node_free(m, 2), 2);
	assert_int_equal(memstat_get_node_slabs(m, 2), 2);
	assert_int_equal(memstat_get_node_partial(m, 0), 0);
	assert_int_equal(memstat_get_node_partial(m, 2), 1);
	assert_int_equal(memstat_get_node_count(m, 3), 0);	/* past them */
	m = memstat_mtl_find(list, ALLOCATOR_UMA, "b");
	assert_int_equal(memstat_get_nodes(m), 3);
	assert_int_equal(memstat_get_node_count(m, 0), 3);
	assert_int_equal(memstat_get_node_free(m, 0), 5);
	assert_int_equal(memstat_get_node_slabs(m, 0), 1);
	assert_int_equal(memstat_get_nodes(memstat_mtl_find(list,
	    ALLOCATOR_UMA, "c")), 0);
	memstat_mtl_free(list);
	remove_tree(dir);
}

/* A per-node file not as the kernel writes it: an error, nothing changed. */
static void
assert_nodes_rejected(const char *const files[4])
{
	struct memory_type_list *list = uma(SYNTH, MEMSTAT_LINUX_ALIASES);
	char *dir = make_tree(HEADER ROW("a", 10, 16, 64), NULL);

	node_files(dir, "a", files);
	assert_int_equal(memstat_linux_uma(list, dir, MEMSTAT_LINUX_NODES),
	    -1);
	assert_int_equal(memstat_mtl_geterror(list), MEMSTAT_ERROR_DATAERROR);
	assert_non_null(strstr(memstat_mtl_geterrmsg(list),
	    "sys/kernel/slab/a/"));
	assert_int_equal(count(list), 17);
	memstat_mtl_free(list);
	remove_tree(dir);
}

static void
test_bad_nodes(void **state)
{
	(void)state;
	/* Nodes that do not add up to the total. */
	assert_nodes_rejected((const char *const[4]){ "10 N0=4 N1=5\n",
	    "16\n", "4\n", "1\n" });
	/* A node named twice, a node id past any kernel's, no '='. */
	assert_nodes_rejected((const char *const[4]){ "10 N0=5 N0=5\n",
	    "16\n", "4\n", "1\n" });
	assert_nodes_rejected((const char *const[4]){ "10 N4096=10\n",
	    "16\n", "4\n", "1\n" });
	assert_nodes_rejected((const char *const[4]){ "10 N0 10\n",
	    "16\n", "4\n", "1\n" });
	/* Overflow, trailing bytes, a second line, an empty file. */
	assert_nodes_rejected((const char *const[4]){ "10\n",
	    "99999999999999999999\n", "4\n", "1\n" });
	assert_nodes_rejected((const char *const[4]){ "10 N0=10x\n",
	    "16\n", "4\n", "1\n" });
	assert_nodes_rejected((const char *const[4]){ "10\n9\n",
	    "16\n", "4\n", "1\n" });
	assert_nodes_rejected((const char *const[4]){ "", "16\n", "4\n",
	    "1\n" });
	/* One of the four missing: the tree is not whole. */
	assert_nodes_rejected((const char *const[4]){ "10\n", "16\n", NULL,
	    "1\n" });
}

/* A file of a tree, its directories made. */
static void
tree_file(const char *dir, const char *path, const char *text)
{
	char buf[1024], *slash;
	FILE *f;

	snprintf(buf, sizeof(buf), "%s/%s", dir, path);
	slash = strrchr(buf, '/');
	*slash = '\0';
	{
		char cmd[1100];

		snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", buf);
		assert_int_equal(system(cmd), 0);
	}
	*slash = '/';
	assert_non_null(f = fopen(buf, "w"));
	fputs(text, f);
	fclose(f);
}

#define STAT(r, u)	"anon 0\nslab_reclaimable " #r \
			"\nslab_unreclaimable " #u "\nslab 0\n"
#define CGSTAT(d)	"nr_descendants 1\nnr_dying_descendants " #d "\n"

/* A cgroup v2 hierarchy: parents first, each as its files say. */
static void
test_cgroups_tree(void **state)
{
	char *dir = make_tree(HEADER ROW("a", 10, 16, 64), NULL);
	struct memstat_cgroups *cg = memstat_cgroups_alloc();
	size_t a, x, b;

	(void)state;
	tree_file(dir, "sys/fs/cgroup/cgroup.controllers", "cpu memory pids\n");
	tree_file(dir, "sys/fs/cgroup/memory.stat", STAT(100, 50));
	tree_file(dir, "sys/fs/cgroup/cgroup.stat", CGSTAT(2));
	tree_file(dir, "sys/fs/cgroup/a/memory.current", "8192\n");
	tree_file(dir, "sys/fs/cgroup/a/memory.stat", STAT(10, 20));
	tree_file(dir, "sys/fs/cgroup/a/cgroup.stat", CGSTAT(1));
	tree_file(dir, "sys/fs/cgroup/a/x/memory.current", "4096\n");
	tree_file(dir, "sys/fs/cgroup/a/x/memory.stat", STAT(1, 2));
	tree_file(dir, "sys/fs/cgroup/a/x/cgroup.stat", CGSTAT(0));
	tree_file(dir, "sys/fs/cgroup/b/cgroup.stat", CGSTAT(0));
	assert_int_equal(memstat_cgroups_linux(cg, dir), 0);
	assert_int_equal(memstat_cgroups_walked(cg), 0);
	assert_int_equal(memstat_cgroups_count(cg), 4);
	assert_string_equal(memstat_cgroup_path(cg, 0), "/");
	assert_true(memstat_cgroup_parent(cg, 0) == SIZE_MAX);
	assert_true(memstat_cgroup_memory(cg, 0) == UINT64_MAX);
	assert_int_equal(memstat_cgroup_stat_slab(cg, 0), 150);
	assert_int_equal(memstat_cgroup_dying_below(cg, 0), 2);
	a = x = b = SIZE_MAX;
	for (size_t i = 1; i < 4; i++) {
		const char *p = memstat_cgroup_path(cg, i);

		if (strcmp(p, "/a") == 0)
			a = i;
		else if (strcmp(p, "/a/x") == 0)
			x = i;
		else if (strcmp(p, "/b") == 0)
			b = i;
	}
	assert_true(a < x && x != SIZE_MAX && b != SIZE_MAX);
	assert_int_equal(memstat_cgroup_parent(cg, x), a);
	assert_int_equal(memstat_cgroup_parent(cg, a), 0);
	assert_int_equal(memstat_cgroup_memory(cg, a), 8192);
	assert_int_equal(memstat_cgroup_stat_slab(cg, x), 3);
	assert_int_equal(memstat_cgroup_dying(cg, a), 0);
	assert_int_equal(memstat_cgroup_caches(cg, a), 0);
	/* b has no memory files: unknown, not 0. */
	assert_true(memstat_cgroup_memory(cg, b) == UINT64_MAX);
	assert_true(memstat_cgroup_stat_slab(cg, b) == UINT64_MAX);
	/* memory.stat's own totals: no CPU's stock, and why said. */
	assert_true(memstat_cgroup_stocked(cg, a) == INT64_MIN);
	assert_non_null(memstat_cgroups_stocked_unknown(cg));
	/* Out of range: nothing. */
	assert_string_equal(memstat_cgroup_path(cg, 9), "");
	assert_int_equal(memstat_cgroup_cache_objects(cg, 0, 0), 0);
	memstat_cgroups_free(cg);
	remove_tree(dir);
}

/* What is not a v2 hierarchy with memory, or is damaged: one error. */
static void
assert_cgroups_rejected(const char *path, const char *text, int error,
    const char *says)
{
	char *dir = make_tree(HEADER ROW("a", 10, 16, 64), NULL);
	struct memstat_cgroups *cg = memstat_cgroups_alloc();

	tree_file(dir, "sys/fs/cgroup/cgroup.controllers", "memory\n");
	tree_file(dir, "sys/fs/cgroup/a/cgroup.stat", CGSTAT(0));
	if (path != NULL)
		tree_file(dir, path, text);
	assert_int_equal(memstat_cgroups_linux(cg, dir), -1);
	assert_int_equal(memstat_cgroups_geterror(cg), error);
	assert_non_null(strstr(memstat_cgroups_geterrmsg(cg), says));
	assert_int_equal(memstat_cgroups_count(cg), 0);
	memstat_cgroups_free(cg);
	remove_tree(dir);
}

static void
test_cgroups_bad(void **state)
{
	(void)state;
	assert_cgroups_rejected("sys/fs/cgroup/cgroup.controllers", "cpu io\n",
	    MEMSTAT_ERROR_VERSION, "memory controller is not");
	assert_cgroups_rejected("sys/fs/cgroup/a/memory.current", "lots\n",
	    MEMSTAT_ERROR_DATAERROR, "/a/memory.current");
	assert_cgroups_rejected("sys/fs/cgroup/a/memory.current",
	    "99999999999999999999\n", MEMSTAT_ERROR_DATAERROR,
	    "/a/memory.current");
	assert_cgroups_rejected("sys/fs/cgroup/a/cgroup.stat", "nr_descendants",
	    MEMSTAT_ERROR_DATAERROR, "/a/cgroup.stat");
	assert_cgroups_rejected("sys/fs/cgroup/a/memory.stat",
	    "slab_reclaimable 1\nslab_unreclaimable x\n",
	    MEMSTAT_ERROR_DATAERROR, "/a/memory.stat");
	assert_cgroups_rejected("sys/fs/cgroup/a/memory.stat",
	    "slab_reclaimable 1\n", MEMSTAT_ERROR_DATAERROR, "/a/memory.stat");
	{
		struct memstat_cgroups *cg = memstat_cgroups_alloc();

		/* A tree with no cgroup v2 at all. */
		assert_int_equal(memstat_cgroups_linux(cg, SYNTH), -1);
		assert_int_equal(memstat_cgroups_geterror(cg),
		    MEMSTAT_ERROR_VERSION);
		memstat_cgroups_free(cg);
	}
}

static void
test_bad_trees(void **state)
{
	(void)state;
	assert_tree_rejected(HEADER ROW("a", 1, 2, 8) "b 1 2 8 16", NULL,
	    MEMSTAT_ERROR_DATAERROR);		/* cut mid-row */
	assert_tree_rejected(HEADER ROW("a", 1, 2, 8) "b 1", NULL,
	    MEMSTAT_ERROR_DATAERROR);
	assert_tree_rejected("slabinfo - version: 3.0\n", NULL,
	    MEMSTAT_ERROR_VERSION);
	assert_tree_rejected("slabinfo - version: 1.1\n", NULL,
	    MEMSTAT_ERROR_VERSION);
	assert_tree_rejected("slabinfo - version: two\n", NULL,
	    MEMSTAT_ERROR_DATAERROR);
	assert_tree_rejected("", NULL, MEMSTAT_ERROR_DATAERROR);
	assert_tree_rejected(HEADER ROW("a", 3, 2, 8), NULL,
	    MEMSTAT_ERROR_DATAERROR);		/* active > total */
	assert_tree_rejected(HEADER ROW("a", 1, 99999999999999999999, 8),
	    NULL, MEMSTAT_ERROR_DATAERROR);	/* 2^64 and more */
	assert_tree_rejected(HEADER "a 1 2 8 16 1 : tunables 0 0 0\n", NULL,
	    MEMSTAT_ERROR_DATAERROR);
	assert_tree_rejected(HEADER ROW("a", 1, 2, 8) "\n", NULL,
	    MEMSTAT_ERROR_DATAERROR);		/* empty line */
	assert_tree_rejected(HEADER "a 1 2 8 16 1 : tunables 0 0 0 : "
	    "slabdata 1 1 0 junk\n", NULL, MEMSTAT_ERROR_DATAERROR);
	assert_tree_rejected(HEADER ROW("a", 1, 2, 8),
	    "allocinfo - version: 1.0\n 12 x a.c:1 func:f\n",
	    MEMSTAT_ERROR_DATAERROR);
	assert_tree_rejected(HEADER ROW("a", 1, 2, 8),
	    "allocinfo - version: 1.0\n 12 1\n", MEMSTAT_ERROR_DATAERROR);
	assert_tree_rejected(HEADER ROW("a", 1, 2, 8),
	    "allocinfo - version: 3.0\n", MEMSTAT_ERROR_VERSION);
	assert_tree_rejected(HEADER ROW("a", 1, 2, 8),
	    "allocinfo - version: 1.0\n 12 1 a.c:1 func:f", /* no '\n' */
	    MEMSTAT_ERROR_DATAERROR);

	/* No such tree, or no slabinfo in it. */
	struct memory_type_list *list = memstat_mtl_alloc();
	assert_int_equal(memstat_linux_uma(list, "/nonexistent", 0), -1);
	assert_int_equal(memstat_mtl_geterror(list), MEMSTAT_ERROR_DATAERROR);
	assert_int_equal(memstat_linux_uma(list, "fixtures", 0), -1);
	assert_int_equal(memstat_mtl_geterror(list), MEMSTAT_ERROR_DATAERROR);
	memstat_mtl_free(list);
}

/*
 * A saved tree is someone else's: a FIFO where slabinfo should be must not
 * block the query, nor a device stand in for it.
 */
static void
test_not_regular_files(void **state)
{
	struct memory_type_list *list = uma(SYNTH, 0);
	char *dir = make_tree(NULL, NULL), path[512];

	(void)state;
	snprintf(path, sizeof(path), "%s/proc/slabinfo", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(memstat_linux_uma(list, dir, 0), -1);
	assert_int_equal(memstat_mtl_geterror(list), MEMSTAT_ERROR_DATAERROR);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(symlink("/dev/zero", path), 0);
	assert_int_equal(memstat_linux_uma(list, dir, 0), -1);
	assert_int_equal(memstat_mtl_geterror(list), MEMSTAT_ERROR_DATAERROR);
	assert_int_equal(count(list), 17);
	memstat_mtl_free(list);
	remove_tree(dir);
}

/* Every cut of a real slabinfo short of its end is an error. */
static void
test_truncations(void **state)
{
	struct memory_type_list *list;
	char *buf, *dir, path[600];
	size_t len, cut;
	FILE *f;
	int fd;

	(void)state;
	assert_non_null(f = fopen(SYNTH "/proc/slabinfo", "r"));
	buf = malloc(65536);
	len = fread(buf, 1, 65536, f);
	fclose(f);
	dir = make_tree("", NULL);
	snprintf(path, sizeof(path), "%s/proc/slabinfo", dir);
	list = memstat_mtl_alloc();
	for (cut = 0; cut < len; cut++) {
		assert_true((fd = open(path, O_WRONLY | O_TRUNC)) >= 0);
		assert_int_equal(write(fd, buf, cut), (ssize_t)cut);
		close(fd);
		/* A cut at a line's end is a shorter, whole file. */
		if (cut > 0 && buf[cut - 1] == '\n')
			continue;
		assert_int_equal(memstat_linux_uma(list, dir, 0), -1);
		assert_int_equal(count(list), 0);
	}
	memstat_mtl_free(list);
	free(buf);
	remove_tree(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_unknown_and_stats),
		cmocka_unit_test(test_aliases),
		cmocka_unit_test(test_debian_no_double_count),
		cmocka_unit_test(test_refresh),
		cmocka_unit_test(test_kmalloc_families),
		cmocka_unit_test(test_allocinfo),
		cmocka_unit_test(test_nodes),
		cmocka_unit_test(test_bad_nodes),
		cmocka_unit_test(test_cgroups_tree),
		cmocka_unit_test(test_cgroups_bad),
		cmocka_unit_test(test_bad_trees),
		cmocka_unit_test(test_not_regular_files),
		cmocka_unit_test(test_truncations),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
