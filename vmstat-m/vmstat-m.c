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
#include "tool_columns.h"
#include "tool_options.h"
#include "tool_output.h"
#include "tool_source.h"

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
	struct tool_error e;
	size_t n;
	int rc;

	rc = tool_source_ints(src, "vm.malloc.zone_sizes", 4, raw,
	    MEMSTAT_MALLOC_ZONE_MAX, &n, &e);
	if (rc == TOOL_ABSENT)
		return;
	if (rc != 0)
		errx(1, "memstat_malloc_zone_init: %s", e.msg);
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

static uint64_t
memuse_kib(const struct memory_type *mtp)
{
	return ((memstat_get_bytes(mtp) + 1023) / 1024);
}

/* The n-th malloc zone size the type used. */
static bool
zone_size(const struct memory_type *mtp, size_t n, uint64_t *v)
{
	size_t zones = memstat_malloc_zone_get_count();

	for (size_t i = 0; i < zones; i++)
		if (memstat_malloc_zone_used(mtp, i) && n-- == 0) {
			*v = (uint64_t)(int)memstat_malloc_zone_get_size(i);
			return (true);
		}
	return (false);
}

static const struct tool_column columns[] = {
	{ .kind = COLUMN_NAME, .key = "type", .heading = "Type",
	  .heading_sep = "", .heading_width = 13, .sep = "", .width = 13,
	  .suffix = "" },
	{ .kind = COLUMN_COUNT, .key = "in-use", .heading = "InUse",
	  .heading_sep = " ", .heading_width = 5, .sep = " ", .width = 5,
	  .suffix = "", .value = memstat_get_count,
	  .metric = "in_use_allocations", .help = "Allocations in use" },
	{ .kind = COLUMN_COUNT, .key = "memory-use", .heading = "MemUse",
	  .heading_sep = " ", .heading_width = 6, .sep = " ", .width = 6,
	  .suffix = "K", .value = memuse_kib,
	  .metric = "memory_use_kibibytes", .help = "Memory in use" },
	{ .kind = COLUMN_COUNT, .key = "requests", .heading = "Requests",
	  .heading_sep = " ", .heading_width = 8, .sep = " ", .width = 8,
	  .suffix = "", .value = memstat_get_numallocs,
	  .unknown = MEMSTAT_UNKNOWN_NUMALLOCS,
	  .metric = "requests_total", .help = "Allocation requests" },
	{ .kind = COLUMN_LIST, .key = "size", .heading = "Size(s)",
	  .heading_sep = "  ", .heading_width = 0, .sep = "  ", .width = 0,
	  .suffix = "", .sep_if_empty = true, .json_omit_empty = true,
	  .list = zone_size },
};
#define NCOLUMNS	(sizeof(columns) / sizeof(columns[0]))

static void
report_text(FILE *f, struct memory_type_list *mtlp)
{
	struct memory_type *mtp;

	tool_columns_heading(f, columns, NCOLUMNS);
	for (mtp = memstat_mtl_first(mtlp); mtp != NULL;
	    mtp = memstat_mtl_next(mtp))
		if (shown(mtp))
			tool_columns_text(f, columns, NCOLUMNS, mtp);
}

static void
report_json(struct json_object *root, struct memory_type_list *mtlp)
{
	struct json_object *types;
	struct memory_type *mtp;

	tool_json_set(root, "__version", json_object_new_string("1"));
	types = tool_json_set(tool_json_set(root, "malloc-statistics",
	    tool_json_new(json_type_object)), "memory",
	    tool_json_new(json_type_array));
	for (mtp = memstat_mtl_first(mtlp); mtp != NULL;
	    mtp = memstat_mtl_next(mtp))
		if (shown(mtp))
			tool_columns_json(tool_json_set(types, NULL,
			    tool_json_new(json_type_object)), columns,
			    NCOLUMNS, mtp);
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "zone-sizes", required_argument, NULL, 'Z' },
		{ NULL, 0, NULL, 0 }
	};
	struct tool_options opts = { 0 };
	struct memory_type_list *mtlp;
	struct tool_source *src;
	struct tool_error e;
	struct tool_out out;
	const char *zone_sizes = NULL;
	int ch, rc;

	if ((argc = tool_parse_libxo(argc, argv, &opts.style)) < 0)
		usage();
	while ((ch = getopt_long(argc, argv, TOOL_COMMON_OPTS, longopts,
	    NULL)) != -1) {
		if (tool_common_option(&opts, ch, optarg))
			continue;
		switch (ch) {
		case 'Z':
			zone_sizes = optarg;
			break;
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();

	src = tool_open_core(opts.memf, opts.nlistf);
	/* Linux's size classes come with its data, from the cache names. */
	if (tool_source_linux(src))
		;
	else if (zone_sizes != NULL)
		zone_sizes_option(zone_sizes);
	else
		capture_zone_sizes(src);
	if ((mtlp = memstat_mtl_alloc()) == NULL)
		err(1, "memstat_mtl_alloc");
	rc = tool_source_malloc(src, mtlp, 0, &e);
	if (rc != 0)
		memstat_mtl_free(mtlp);
	if (rc == TOOL_ABSENT)
		tool_source_absent(src, "malloc", "malloc statistics");
	if (rc != 0)
		tool_query_failed(src, "malloc", &e);

	tool_out_init(&out, opts.style);
	if (opts.style == STYLE_TEXT)
		report_text(out.text, mtlp);
	else
		report_json(out.json, mtlp);
	tool_out_finish(&out);
	memstat_mtl_free(mtlp);
	tool_source_close(src);
	return (0);
}
