/*
 * vmstat-m: FreeBSD's "vmstat -m", the malloc(9) type report, of the live
 * kernel or of saved data.  Text and JSON are FreeBSD's newest formats.
 * On Linux a type is an allocation site of /proc/allocinfo or, without
 * allocation profiling, a kmalloc family; Linux counts no requests, so
 * that column is "-" (JSON null).
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memstat.h"
#include "memstat_tool.h"

static void __attribute__((noreturn))
usage(void)
{
	fprintf(stderr, "usage: vmstat-m [--libxo json[,pretty]] "
	    "[--zone-sizes pow2|N,N,...]\n"
	    "                [-M core [-N system]]\n");
	exit(1);
}

/*
 * --zone-sizes: "pow2" for the tables of FreeBSD 12 and before (bit i is
 * 1 << (i + 4), as far as an int holds it), or the sizes themselves,
 * comma-separated.
 */
static void
zone_sizes_option(const char *arg)
{
	int sizes[MEMSTAT_MALLOC_ZONE_MAX];
	size_t n = 0;
	const char *p = arg;
	char *end;
	long v;

	if (strcmp(arg, "pow2") == 0) {
		for (n = 0; n + 4 < 31; n++)
			sizes[n] = 1 << (n + 4);
	} else {
		do {
			errno = 0;
			v = strtol(p, &end, 10);
			if (end == p || errno != 0 || v < 0 || v > INT_MAX ||
			    (*end != ',' && *end != '\0') ||
			    n == MEMSTAT_MALLOC_ZONE_MAX)
				errx(1, "--zone-sizes: expected pow2 or up to "
				    "%d sizes N,N,...: %s",
				    MEMSTAT_MALLOC_ZONE_MAX, arg);
			sizes[n++] = (int)v;
			p = end + 1;
		} while (*end == ',');
	}
	if (memstat_malloc_zone_set_sizes(sizes, n) != 0)
		err(1, "--zone-sizes");
}

/* A capture's vm.malloc.zone_sizes, when it has one. */
static void
capture_zone_sizes(struct tool_source *src)
{
	uint64_t raw[MEMSTAT_MALLOC_ZONE_MAX];
	int sizes[MEMSTAT_MALLOC_ZONE_MAX];
	char errbuf[512];
	size_t n;
	int rc;

	rc = tool_source_ints(src, "vm.malloc.zone_sizes", 4, raw,
	    MEMSTAT_MALLOC_ZONE_MAX, &n, errbuf, sizeof(errbuf));
	if (rc == TOOL_ABSENT)
		return;
	if (rc != 0)
		errx(1, "memstat_malloc_zone_init: %s", errbuf);
	for (size_t i = 0; i < n; i++)
		sizes[i] = (int)(int32_t)raw[i];
	if (memstat_malloc_zone_set_sizes(sizes, n) != 0)
		errx(1, "memstat_malloc_zone_init: %s/vm.malloc.zone_sizes: "
		    "negative size", tool_source_path(src));
}

/* FreeBSD skips the types that were never used. */
static bool
shown(const struct memory_type *mtp)
{
	return (memstat_get_numallocs(mtp) != 0 || memstat_get_count(mtp) != 0);
}

static bool
requests_known(const struct memory_type *mtp)
{
	return ((memstat_get_unknown(mtp) & MEMSTAT_UNKNOWN_NUMALLOCS) == 0);
}

static uint64_t
memuse_kib(const struct memory_type *mtp)
{
	return ((memstat_get_bytes(mtp) + 1023) / 1024);
}

static void
report_text(FILE *f, struct memory_type_list *mtlp)
{
	struct memory_type *mtp;
	size_t i, zones = memstat_malloc_zone_get_count();
	char requests[TOOL_STAT_LEN];
	bool first;

	fprintf(f, "%13s %5s %6s %8s  %s\n", "Type", "InUse", "MemUse",
	    "Requests", "Size(s)");
	for (mtp = memstat_mtl_first(mtlp); mtp != NULL;
	    mtp = memstat_mtl_next(mtp)) {
		if (!shown(mtp))
			continue;
		fprintf(f, "%13s %5" PRIu64 " %5" PRIu64 "K %8s  ",
		    memstat_get_name(mtp), memstat_get_count(mtp),
		    memuse_kib(mtp), tool_stat_text(requests,
		    memstat_get_numallocs(mtp), requests_known(mtp)));
		first = true;
		for (i = 0; i < zones; i++) {
			if (!memstat_malloc_zone_used(mtp, i))
				continue;
			fprintf(f, "%s%d", first ? "" : ",",
			    (int)memstat_malloc_zone_get_size(i));
			first = false;
		}
		fputc('\n', f);
	}
}

static void
report_json(struct json_object *root, struct memory_type_list *mtlp)
{
	struct json_object *types, *t, *sizes;
	struct memory_type *mtp;
	size_t i, zones = memstat_malloc_zone_get_count();

	tool_json_set(root, "__version", json_object_new_string("1"));
	types = tool_json_set(tool_json_set(root, "malloc-statistics",
	    tool_json_new(json_type_object)), "memory",
	    tool_json_new(json_type_array));
	for (mtp = memstat_mtl_first(mtlp); mtp != NULL;
	    mtp = memstat_mtl_next(mtp)) {
		if (!shown(mtp))
			continue;
		t = tool_json_set(types, NULL, tool_json_new(json_type_object));
		tool_json_set(t, "type",
		    json_object_new_string(memstat_get_name(mtp)));
		tool_json_set(t, "in-use", tool_json_uint(memstat_get_count(mtp)));
		tool_json_set(t, "memory-use", tool_json_uint(memuse_kib(mtp)));
		tool_json_stat(t, "requests", memstat_get_numallocs(mtp),
		    requests_known(mtp));
		sizes = NULL;
		for (i = 0; i < zones; i++) {
			if (!memstat_malloc_zone_used(mtp, i))
				continue;
			if (sizes == NULL)
				sizes = tool_json_set(t, "size",
				    tool_json_new(json_type_array));
			tool_json_set(sizes, NULL, json_object_new_int(
			    (int)memstat_malloc_zone_get_size(i)));
		}
	}
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "zone-sizes", required_argument, NULL, 'Z' },
		{ NULL, 0, NULL, 0 }
	};
	struct memory_type_list *mtlp;
	struct tool_source *src;
	struct tool_out out;
	enum tool_style style;
	const char *memf = NULL, *nlistf = NULL, *zone_sizes = NULL;
	char errbuf[512];
	int ch, rc;

	if ((argc = tool_parse_libxo(argc, argv, &style)) < 0)
		usage();
	while ((ch = getopt_long(argc, argv, "hM:N:", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'M':
			memf = optarg;
			break;
		case 'N':
			nlistf = optarg;
			break;
		case 'Z':
			zone_sizes = optarg;
			break;
		case 'h':
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();

	src = tool_open_core(memf, nlistf);
	/* Linux's size classes come with its data, from the cache names. */
	if (tool_source_linux(src))
		;
	else if (zone_sizes != NULL)
		zone_sizes_option(zone_sizes);
	else
		capture_zone_sizes(src);
	if ((mtlp = memstat_mtl_alloc()) == NULL)
		err(1, "memstat_mtl_alloc");
	rc = tool_source_malloc(src, mtlp, 0, errbuf, sizeof(errbuf));
	if (rc == TOOL_ABSENT)
		errx(1, "memstat_kvm_malloc: %s holds no malloc statistics",
		    memf);
	if (rc != 0)
		tool_query_failed(src, "malloc", errbuf);

	tool_out_init(&out, style);
	if (style == STYLE_TEXT)
		report_text(out.text, mtlp);
	else
		report_json(out.json, mtlp);
	tool_out_finish(&out);
	memstat_mtl_free(mtlp);
	tool_source_close(src);
	return (0);
}
