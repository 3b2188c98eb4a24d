/*
 * api-all: a user's program, built against an installed libmemstat with
 * nothing but "pkg-config --cflags --libs libmemstat".  It calls every
 * function memstat.h declares (tests/install-check holds it to that) on a
 * stream, a saved Linux tree, a core image and the free lists of a tree
 * and a FreeBSD capture, and prints a line per
 * source, so that a link that is short of a library fails here.
 *
 *	api-all STREAM LINUX-TREE CORE FRAG-TREE FRAG-CAPTURE
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <memstat.h>

static void *
load(const char *path, size_t *len)
{
	char *buf = NULL;
	long n;
	FILE *f;

	if ((f = fopen(path, "rb")) == NULL || fseek(f, 0, SEEK_END) != 0 ||
	    (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0 ||
	    (buf = malloc((size_t)n + 1)) == NULL ||
	    fread(buf, 1, (size_t)n, f) != (size_t)n) {
		perror(path);
		exit(1);
	}
	fclose(f);
	*len = (size_t)n;
	return (buf);
}

/* Every accessor of every entry: a sum, so none is optimized away. */
static uint64_t
walk(struct memory_type_list *list)
{
	struct memory_type *mtp;
	uint64_t sum = 0;
	size_t i;

	for (mtp = memstat_mtl_first(list); mtp != NULL;
	    mtp = memstat_mtl_next(mtp)) {
		sum += (uint64_t)memstat_get_allocator(mtp) +
		    memstat_get_countlimit(mtp) + memstat_get_byteslimit(mtp) +
		    memstat_get_sizemask(mtp) + memstat_get_size(mtp) +
		    memstat_get_rsize(mtp) + memstat_get_memalloced(mtp) +
		    memstat_get_memfreed(mtp) + memstat_get_numallocs(mtp) +
		    memstat_get_numfrees(mtp) + memstat_get_bytes(mtp) +
		    memstat_get_count(mtp) + memstat_get_free(mtp) +
		    memstat_get_failures(mtp) + memstat_get_sleeps(mtp) +
		    memstat_get_xdomain(mtp) + memstat_get_zonefree(mtp) +
		    memstat_get_kegfree(mtp) + memstat_get_slabs(mtp) +
		    memstat_get_unknown(mtp) + memstat_get_allocated(mtp) +
		    (uint64_t)(memstat_get_damage(mtp) != NULL) +
		    memstat_get_percpu_memalloced(mtp, 0) +
		    memstat_get_percpu_memfreed(mtp, 0) +
		    memstat_get_percpu_numallocs(mtp, 0) +
		    memstat_get_percpu_numfrees(mtp, 0) +
		    memstat_get_percpu_sizemask(mtp, 0) +
		    memstat_get_percpu_free(mtp, 0) +
		    (uint64_t)(memstat_get_name(mtp)[0] != '\0');
		for (i = 0; i < memstat_get_alias_count(mtp); i++)
			sum += memstat_get_alias(mtp, i)[0] != '\0';
		for (uint32_t n = 0; n < memstat_get_nodes(mtp); n++)
			sum += memstat_get_node_count(mtp, n) +
			    memstat_get_node_free(mtp, n) +
			    memstat_get_node_slabs(mtp, n) +
			    memstat_get_node_partial(mtp, n);
		for (i = 0; i < memstat_malloc_zone_get_count(); i++)
			sum += (uint64_t)memstat_malloc_zone_used(mtp, i);
		memstat_set_caller_pointer(mtp, 0, mtp);
		memstat_set_caller_uint64(mtp, 1, 7);
		/* Per CPU: only where the source has CPUs (streams). */
		memstat_set_percpu_caller_pointer(mtp, 0, 0, mtp);
		memstat_set_percpu_caller_uint64(mtp, 0, 1, 7);
		sum += memstat_get_percpu_caller_uint64(mtp, 0, 1) +
		    (memstat_get_percpu_caller_pointer(mtp, 0, 0) == mtp);
		if (memstat_get_caller_pointer(mtp, 0) != mtp ||
		    memstat_get_caller_uint64(mtp, 1) != 7) {
			fprintf(stderr, "caller slots lost\n");
			exit(1);
		}
	}
	return (sum);
}

static void
fail(const char *what, struct memory_type_list *list)
{
	fprintf(stderr, "%s: %s (%s)\n", what, memstat_mtl_geterrmsg(list),
	    memstat_strerror(memstat_mtl_geterror(list)));
	exit(1);
}

static void
count_symbol(const char *name, uint64_t addr, void *arg)
{
	*(size_t *)arg += name[0] != '\0' && addr != 0;
}

static int
count_object(const struct memstat_objects *ol, void *arg)
{
	*(size_t *)arg += memstat_objects_count(ol);
	return (0);
}

int
main(int argc, char *argv[])
{
	const int sizes[] = { 16, 32, 64, 128 };
	char errbuf[MEMSTAT_KVM_ERRLEN];
	struct memory_type_list *list;
	struct memstat_probe probe;
	struct memstat_frag *frag;
	void *buf, *kvm;
	struct memstat_objects *ol;
	uint64_t osum;
	size_t nsyms = 0, kept, handed = 0;
	size_t len, i;
	int64_t fsum = 0;

	if (argc != 6) {
		fprintf(stderr, "usage: api-all STREAM LINUX-TREE CORE "
		    "FRAG-TREE FRAG-CAPTURE\n");
		return (2);
	}
	if ((list = memstat_mtl_alloc()) == NULL)
		return (1);

	if (memstat_probe(argv[1], &probe) != 0 ||
	    probe.kind != MEMSTAT_SOURCE_FREEBSD_STREAM)
		return (fprintf(stderr, "%s: not a stream\n", argv[1]), 1);
	buf = load(argv[1], &len);
	if (memstat_stream_uma(list, buf, len) != 0)
		fail("memstat_stream_uma", list);
	printf("stream: %s found, sum %llu\n",
	    memstat_mtl_find(list, ALLOCATOR_ANY, "mbuf") != NULL ? "mbuf" :
	    "no mbuf", (unsigned long long)walk(list));
	if (memstat_stream_malloc(list, buf, len) == 0)
		return (fprintf(stderr, "a zone stream read as malloc\n"), 1);
	free(buf);

	if (memstat_malloc_zone_set_sizes(sizes, 4) != 0)
		return (1);
	for (i = 0; i < memstat_malloc_zone_get_count(); i++)
		len += memstat_malloc_zone_get_size(i);
	if (memstat_linux_uma(list, argv[2], MEMSTAT_LINUX_ALIASES) != 0)
		fail("memstat_linux_uma", list);
	if (memstat_linux_malloc(list, argv[2], 0) != 0)
		fail("memstat_linux_malloc", list);
	printf("tree: sum %llu\n", (unsigned long long)walk(list));

	if ((kvm = memstat_kvm_open(argv[3], NULL, errbuf)) == NULL)
		return (fprintf(stderr, "%s\n", errbuf), 1);
	/* Everything read, as by default. */
	memstat_kvm_setflags(kvm, MEMSTAT_KVM_ALLOCATED | MEMSTAT_LINUX_ALIASES);
	if (memstat_kvm_all(list, kvm) != 0 && memstat_kvm_uma(list, kvm) != 0)
		return (fprintf(stderr, "%s\n", memstat_kvm_geterr(kvm)), 1);
	(void)memstat_kvm_malloc(list, kvm);
	/* A dump is no running kernel. */
	if (memstat_kvm_live(kvm) != 0)
		return (fprintf(stderr, "%s: read as live\n", argv[3]), 1);
	{
		double up;

		/* The dump's clock (a cut fixture may lack its page). */
		if (memstat_kvm_uptime(kvm, &up) == 0 && !(up >= 0))
			return (fprintf(stderr, "%s: uptime %g\n", argv[3],
			    up), 1);
	}
	printf("core: sum %llu\n", (unsigned long long)walk(list));
	memstat_kvm_close(kvm);

	/* The free lists: a Linux tree, then a FreeBSD capture's. */
	if ((frag = memstat_frag_alloc()) == NULL)
		return (1);
	if (memstat_frag_linux(frag, argv[4], MEMSTAT_FRAG_TYPES) != 0 ||
	    memstat_frag_zones(frag) == 0)
		return (fprintf(stderr, "%s: %d %s\n", argv[4],
		    memstat_frag_geterror(frag),
		    memstat_frag_geterrmsg(frag)), 1);
	for (size_t z = 0; z < memstat_frag_zones(frag); z++) {
		uint64_t blocks[MEMSTAT_FRAG_MAXORDER];
		int n = memstat_frag_orders(frag, z), at_least;

		for (int o = 0; o < n; o++)
			blocks[o] = memstat_frag_blocks(frag, z, o);
		fsum += (int64_t)memstat_frag_has_blocks(frag, z) +
		    memstat_frag_node(frag, z) +
		    (int64_t)strlen(memstat_frag_zone_name(frag, z)) +
		    memstat_frag_zone_fmfi(frag, z, 0) +
		    memstat_frag_fmfi(blocks, n, 1) +
		    memstat_frag_unusable(blocks, n, 1) +
		    memstat_frag_extfrag(blocks, n, 1);
		for (size_t t = 0; t < memstat_frag_types(frag, z); t++)
			fsum += (int64_t)strlen(memstat_frag_type_name(frag,
			    z, t)) + (int64_t)memstat_frag_type_blocks(frag, z,
			    t, 0, &at_least) + at_least;
	}
	if (memstat_frag_freebsd(frag, argv[5], 0) != 0)
		return (fprintf(stderr, "%s: %s\n", argv[5],
		    memstat_frag_geterrmsg(frag)), 1);
	fsum += (int64_t)memstat_frag_zones(frag);
	if ((kvm = memstat_kvm_open(argv[3], NULL, errbuf)) == NULL)
		return (fprintf(stderr, "%s\n", errbuf), 1);
	if (memstat_frag_kvm(frag, kvm, MEMSTAT_FRAG_TYPES) != 0)
		return (fprintf(stderr, "%s: %s\n", argv[3],
		    memstat_frag_geterrmsg(frag)), 1);
	fsum += (int64_t)memstat_frag_blocks(frag, 0, 0);
	memstat_kvm_close(kvm);
	printf("frag: sum %lld\n", (long long)fsum);

	/* Memory cgroups: the dump's walk, then a tree's refusal (no v2). */
	{
		struct memstat_cgroups *cg = memstat_cgroups_alloc();
		uint64_t csum = 0;

		if (cg == NULL || (kvm = memstat_kvm_open(argv[3], NULL,
		    errbuf)) == NULL)
			return (1);
		if (memstat_cgroups_kvm(cg, kvm) != 0)
			csum += (uint64_t)memstat_cgroups_geterror(cg) +
			    strlen(memstat_cgroups_geterrmsg(cg));
		memstat_kvm_close(kvm);
		for (size_t i = 0; i < memstat_cgroups_count(cg); i++) {
			csum += strlen(memstat_cgroup_path(cg, i)) +
			    (uint64_t)memstat_cgroup_dying(cg, i) +
			    memstat_cgroup_memory(cg, i) +
			    memstat_cgroup_stat_slab(cg, i) +
			    memstat_cgroup_dying_below(cg, i) +
			    (uint64_t)memstat_cgroup_stocked(cg, i) +
			    (memstat_cgroups_stocked_unknown(cg) == NULL) +
			    (memstat_cgroup_parent(cg, i) == SIZE_MAX);
			for (size_t j = 0; j < memstat_cgroup_caches(cg, i);
			    j++)
				csum += strlen(memstat_cgroup_cache_name(cg, i,
				    j)) + memstat_cgroup_cache_objects(cg, i, j) +
				    memstat_cgroup_cache_bytes(cg, i, j) +
				    memstat_cgroup_cache_inherited(cg, i, j);
		}
		csum += (uint64_t)memstat_cgroups_walked(cg) +
		    (memstat_cgroups_left_out(cg) == NULL);
		if (memstat_cgroups_linux(cg, argv[2]) == 0)
			csum += memstat_cgroups_count(cg);
		printf("cgroups: sum %llu\n", (unsigned long long)csum);
		memstat_cgroups_free(cg);
	}
	memstat_frag_free(frag);

	/* Objects: a dump without owners has its caches and no objects. */
	if ((kvm = memstat_kvm_open(argv[3], NULL, errbuf)) == NULL)
		return (fprintf(stderr, "%s\n", errbuf), 1);
	if ((ol = memstat_objects_alloc()) == NULL)
		return (1);
	if (memstat_kvm_objects(ol, kvm, NULL, 0) != 0)
		return (fprintf(stderr, "%s: %d %s\n", argv[3],
		    memstat_objects_geterror(ol),
		    memstat_objects_geterrmsg(ol)), 1);
	osum = memstat_objects_hz(ol) + (memstat_objects_hz(ol) == 0 &&
	    memstat_objects_hz_why(ol) == NULL);
	for (size_t c = 0; c < memstat_objects_caches(ol); c++)
		osum += strlen(memstat_objects_cache_name(ol, c)) +
		    memstat_objects_cache_size(ol, c) +
		    (uint64_t)memstat_objects_cache_owners(ol, c) +
		    (memstat_objects_cache_damage(ol, c) != NULL);
	/* No cache kept owners: no task list read, no command. */
	osum += (uint64_t)memstat_objects_tasks(ol) +
	    (memstat_objects_command(ol, 1) != NULL) +
	    (memstat_objects_tasks_why(ol) != NULL);
	/* Past the last object: 0, none, unknown. */
	for (size_t i = 0; i <= memstat_objects_count(ol); i++) {
		size_t n;

		osum += memstat_object_cache(ol, i) +
		    memstat_object_address(ol, i) +
		    (uint64_t)memstat_object_pid(ol, i) +
		    (uint64_t)memstat_object_cpu(ol, i) +
		    memstat_object_age_ns(ol, i) +
		    memstat_object_callsite(ol, i) +
		    memstat_object_damage(ol, i) +
		    (memstat_object_stack(ol, i, &n) != NULL) + n +
		    (memstat_objects_stack(ol, memstat_object_stack_id(ol, i),
		    &n) != NULL);
	}
	/* The walk that keeps none hands over as many. */
	kept = memstat_objects_count(ol);
	if (memstat_kvm_objects_each(ol, kvm, NULL, 0, count_object,
	    &handed) != 0 || handed != kept)
		return (fprintf(stderr, "%s: %zu objects handed, %zu kept\n",
		    argv[3], handed, kept), 1);
	if (memstat_kvm_symbols(kvm, count_symbol, &nsyms) != 0)
		return (fprintf(stderr, "%s\n", memstat_kvm_geterr(kvm)), 1);
	printf("objects: %zu caches, %zu objects, %zu symbols, sum %llu\n",
	    memstat_objects_caches(ol), kept, nsyms,
	    (unsigned long long)osum);
	memstat_objects_free(ol);
	memstat_kvm_close(kvm);

	/* The live kernel: refused or not, the calls link and return. */
	(void)memstat_sysctl_all(list, 0);
	(void)memstat_sysctl_uma(list, 0);
	(void)memstat_sysctl_malloc(list, 0);
	memstat_mtl_free(list);
	return (0);
}
