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
#include "tool_rows.h"
#include "tool_report.h"
#include "tool_source.h"
#include "tool_table.h"

static const struct tool_help help = {
	"vmstat-m [--libxo json[,pretty]] [-ht] [-n name] [-s key]\n"
	"                [--zone-sizes pow2|N,N,...] [-w wait [-c count]]\n"
	"                [--prometheus file]\n"
	"                [-M core [-N system] | --replay tree tree ...]",
	"  -h           memory in human-readable form (4.0K, 1.5M)\n"
	"  -n name      only types whose name matches the glob name\n"
	"               (repeatable: any of them)\n"
	"  -s key       sort by name, used (InUse), bytes (MemUse) or\n"
	"               requests; numbers largest first\n"
	"  -t           a TOTAL row summing the counts\n"
	"  -w wait      then every wait seconds the types that changed: their\n"
	"               changes and rates (the live kernel)\n"
	"  -c count     that many looks (default: until SIGINT)\n"
	"  --prometheus file  the numbers in Prometheus's text format, for\n"
	"               node_exporter's textfile collector (- is stdout)\n"
	"  --replay     the saved trees and core images of one machine named,\n"
	"               one look each, timed by their proc/uptime or the\n"
	"               image's clock\n"
	"  --zone-sizes pow2|N,N,...  FreeBSD's malloc zone sizes, for Size(s)\n"
	"  -M core      read saved data or a core image, not the live kernel\n"
	"               (- is standard input)\n"
	"  -N system    the core image's kernel: System.map, vmlinux or BTF\n"
	"  --libxo json[,pretty]  JSON instead of text\n"
	"  --help, --version\n",
};

struct zone_sizes {
	int	 v[MEMSTAT_MALLOC_ZONE_MAX];
	size_t	 n;
};

/*
 * --zone-sizes: "pow2" for the tables of FreeBSD 12 and before (bit i is
 * 1 << (i + 4), as far as an int holds it), or the sizes themselves,
 * comma-separated, each larger than the one before.  Checked when given,
 * whatever the source.
 */
static void
zone_sizes_parse(const char *arg, struct zone_sizes *zs)
{
	const char *p = arg;
	char *end;
	long v;

	zs->n = 0;
	if (strcmp(arg, "pow2") == 0) {
		for (; zs->n + 4 < 31; zs->n++)
			zs->v[zs->n] = 1 << (zs->n + 4);
		return;
	}
	do {
		errno = 0;
		v = strtol(p, &end, 10);
		if (end == p || errno != 0 || v <= 0 || v > INT_MAX ||
		    (*end != ',' && *end != '\0') ||
		    zs->n == MEMSTAT_MALLOC_ZONE_MAX ||
		    (zs->n > 0 && v <= zs->v[zs->n - 1]))
			tool_usage_error("--zone-sizes %s: expected pow2 or up "
			    "to %d sizes N,N,..., each larger than the one "
			    "before", arg, MEMSTAT_MALLOC_ZONE_MAX);
		zs->v[zs->n++] = (int)v;
		p = end + 1;
	} while (*end == ',');
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
	  .suffix = "", .value = memstat_get_count, .total = true,
	  .metric = "in_use_allocations", .help = "Allocations in use" },
	{ .kind = COLUMN_COUNT, .key = "memory-use", .heading = "MemUse",
	  .heading_sep = " ", .heading_width = 6, .sep = " ", .width = 6,
	  .suffix = "K", .value = memuse_kib, .bytes = memstat_get_bytes,
	  .total = true,
	  .metric = "memory_use_bytes", .help = "Memory in use" },
	{ .kind = COLUMN_COUNT, .key = "requests", .heading = "Requests",
	  .heading_sep = " ", .heading_width = 8, .sep = " ", .width = 8,
	  .suffix = "", .value = memstat_get_numallocs, .total = true,
	  .unknown = MEMSTAT_UNKNOWN_NUMALLOCS,
	  .metric = "requests_total", .help = "Allocation requests" },
	{ .kind = COLUMN_LIST, .key = "size", .heading = "Size(s)",
	  .heading_sep = "  ", .heading_width = 0, .sep = "  ", .width = 0,
	  .suffix = "", .sep_if_empty = true, .json_omit_empty = true,
	  .list = zone_size },
};
#define NCOLUMNS	(sizeof(columns) / sizeof(columns[0]))

static const struct tool_table table = {
	columns, NCOLUMNS, "malloc-statistics", "memory"
};

static const struct tool_sort_key sort_keys[] = {
	{ "name", NULL },
	{ "used", memstat_get_count },
	{ "bytes", memstat_get_bytes },
	{ "requests", memstat_get_numallocs },
	{ NULL, NULL },
};

/* What changes from look to look: levels, and requests as a rate. */
static const struct tool_stat stats[] = {
	{ .key = "in-use", .heading = "InUse", .value = memstat_get_count,
	  .rate = true },
	{ .key = "bytes", .heading = "Bytes", .value = memstat_get_bytes,
	  .rate = true },
	{ .key = "requests", .heading = "Requests",
	  .value = memstat_get_numallocs,
	  .unknown = MEMSTAT_UNKNOWN_NUMALLOCS, .counter = true },
};

static const struct tool_interval interval = {
	stats, sizeof(stats) / sizeof(stats[0]), "Type", 13, "",
	"malloc-changes", "memory", NULL, 0
};

struct types {
	struct zone_sizes sizes;
	bool	 sizes_given;
};

static void
query(struct tool_source *src, struct memory_type_list *list, void *arg)
{
	struct types *t = arg;
	struct tool_error e;
	int rc;

	/* Linux's size classes come with its data, from the cache names. */
	if (tool_source_linux(src))
		;
	else if (t->sizes_given) {
		if (memstat_malloc_zone_set_sizes(t->sizes.v,
		    t->sizes.n) != 0)
			err(1, "--zone-sizes");
	} else
		capture_zone_sizes(src);
	rc = tool_source_malloc(src, list, 0, &e);
	if (rc != 0)
		memstat_mtl_free(list);
	if (rc == TOOL_ABSENT)
		tool_source_absent(src, "malloc", "malloc statistics");
	if (rc != 0)
		tool_query_failed(src, "malloc", &e);
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		TOOL_LONG_OPTIONS,
		{ "zone-sizes", required_argument, NULL, 'Z' },
		{ NULL, 0, NULL, 0 }
	};
	struct tool_options opts = { 0 };
	struct types t = { .sizes = { .n = 0 } };
	struct tool_list_report r = { &table, &interval, sort_keys, shown,
	    "memstat_malloc", "type", NULL, 0, query, &t };
	int ch;

	argc = tool_parse_libxo(argc, argv, &opts.style);
	opterr = 0;
	while ((ch = getopt_long(argc, argv, TOOL_COMMON_OPTS TOOL_ROW_OPTS,
	    longopts, NULL)) != -1) {
		if (tool_common_option(&opts, ch, optarg, argv, &help))
			continue;
		if (ch == 'Z') {
			zone_sizes_parse(optarg, &t.sizes);
			t.sizes_given = true;
		}
	}
	tool_options_done(&opts, argc, argv);
	tool_rows_check_sort(&opts, sort_keys);
	return (tool_list_report_run(&r, &opts));
}
