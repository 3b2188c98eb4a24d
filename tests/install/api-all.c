/*
 * api-all: a user's program, built against an installed libmemstat with
 * nothing but "pkg-config --cflags --libs libmemstat".  It calls every
 * function memstat.h declares (tests/install-check holds it to that) on a
 * stream, a saved Linux tree and a core image, and prints a line per
 * source, so that a link that is short of a library fails here.
 *
 *	api-all STREAM LINUX-TREE CORE
 */
#include <stdio.h>
#include <stdlib.h>

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
		    memstat_get_kegfree(mtp) + memstat_get_unknown(mtp) +
		    memstat_get_percpu_memalloced(mtp, 0) +
		    memstat_get_percpu_memfreed(mtp, 0) +
		    memstat_get_percpu_numallocs(mtp, 0) +
		    memstat_get_percpu_numfrees(mtp, 0) +
		    memstat_get_percpu_sizemask(mtp, 0) +
		    memstat_get_percpu_free(mtp, 0) +
		    (uint64_t)(memstat_get_name(mtp)[0] != '\0');
		for (i = 0; i < memstat_get_alias_count(mtp); i++)
			sum += memstat_get_alias(mtp, i)[0] != '\0';
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

int
main(int argc, char *argv[])
{
	const int sizes[] = { 16, 32, 64, 128 };
	char errbuf[MEMSTAT_KVM_ERRLEN];
	struct memory_type_list *list;
	struct memstat_probe probe;
	void *buf, *kvm;
	size_t len, i;

	if (argc != 4) {
		fprintf(stderr, "usage: api-all STREAM LINUX-TREE CORE\n");
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
	if (memstat_kvm_all(list, kvm) != 0 && memstat_kvm_uma(list, kvm) != 0)
		return (fprintf(stderr, "%s\n", memstat_kvm_geterr(kvm)), 1);
	(void)memstat_kvm_malloc(list, kvm);
	printf("core: sum %llu\n", (unsigned long long)walk(list));
	memstat_kvm_close(kvm);

	/* The live kernel: refused or not, the calls link and return. */
	(void)memstat_sysctl_all(list, 0);
	(void)memstat_sysctl_uma(list, 0);
	(void)memstat_sysctl_malloc(list, 0);
	memstat_mtl_free(list);
	return (0);
}
