/*
 * vmstat-z: FreeBSD's "vmstat -z", the UMA zone report, of the live kernel
 * (Linux's slab caches) or of saved data.  For FreeBSD data, text and JSON
 * are FreeBSD's newest formats, byte for byte; Linux fills the same
 * columns, with "-" (JSON null) for what Linux does not count.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "memstat.h"
#include "tool_columns.h"
#include "tool_options.h"
#include "tool_output.h"
#include "tool_source.h"

static const struct tool_column columns[] = {
	{ .kind = COLUMN_NAME, .key = "name", .heading = "ITEM",
	  .heading_sep = "", .heading_width = -20, .sep = "", .width = -20,
	  .suffix = ":" },
	{ .kind = COLUMN_COUNT, .key = "size", .heading = "SIZE",
	  .heading_sep = " ", .heading_width = 6, .sep = " ", .width = 6,
	  .suffix = "", .value = memstat_get_size,
	  .metric = "size_bytes", .help = "Size of an item" },
	{ .kind = COLUMN_COUNT, .key = "limit", .heading = "LIMIT",
	  .heading_sep = " ", .heading_width = 6, .sep = ", ", .width = 6,
	  .suffix = "", .value = memstat_get_countlimit,
	  .unknown = MEMSTAT_UNKNOWN_LIMIT,
	  .metric = "limit_items", .help = "Most items the zone may hold" },
	{ .kind = COLUMN_COUNT, .key = "used", .heading = "USED",
	  .heading_sep = " ", .heading_width = 8, .sep = ",", .width = 8,
	  .suffix = "", .value = memstat_get_count,
	  .metric = "used_items", .help = "Items allocated" },
	{ .kind = COLUMN_COUNT, .key = "free", .heading = "FREE",
	  .heading_sep = " ", .heading_width = 8, .sep = ",", .width = 8,
	  .suffix = "", .value = memstat_get_free,
	  .metric = "free_items", .help = "Items free in caches and slabs" },
	{ .kind = COLUMN_COUNT, .key = "requests", .heading = "REQ",
	  .heading_sep = " ", .heading_width = 8, .sep = ",", .width = 8,
	  .suffix = "", .value = memstat_get_numallocs,
	  .unknown = MEMSTAT_UNKNOWN_NUMALLOCS,
	  .metric = "requests_total", .help = "Allocation requests" },
	{ .kind = COLUMN_COUNT, .key = "fail", .heading = "FAIL",
	  .heading_sep = " ", .heading_width = 8, .sep = ",", .width = 4,
	  .suffix = "", .value = memstat_get_failures,
	  .unknown = MEMSTAT_UNKNOWN_FAILURES,
	  .metric = "failures_total", .help = "Allocations that failed" },
	{ .kind = COLUMN_COUNT, .key = "sleep", .heading = "SLEEP",
	  .heading_sep = " ", .heading_width = 4, .sep = ",", .width = 4,
	  .suffix = "", .value = memstat_get_sleeps,
	  .unknown = MEMSTAT_UNKNOWN_SLEEPS,
	  .metric = "sleeps_total", .help = "Allocations that slept" },
	{ .kind = COLUMN_COUNT, .key = "xdomain", .heading = "XDOMAIN",
	  .heading_sep = " ", .heading_width = 4, .sep = ",", .width = 4,
	  .suffix = "", .value = memstat_get_xdomain,
	  .unknown = MEMSTAT_UNKNOWN_XDOMAIN,
	  .metric = "xdomain_frees_total",
	  .help = "Frees to another NUMA domain" },
	/* Last: written only when asked for (-a, or Linux JSON). */
	{ .kind = COLUMN_NAMES, .key = "aliases", .heading = "ALIASES",
	  .heading_sep = " ", .heading_width = 0, .sep = " ", .width = 0,
	  .suffix = "", .names = memstat_get_alias },
};
#define NCOLUMNS	(sizeof(columns) / sizeof(columns[0]))

static void __attribute__((noreturn))
usage(void)
{
	fprintf(stderr, "usage: vmstat-z [--libxo json[,pretty]] [-a] "
	    "[-M core [-N system]]\n");
	exit(1);
}

static void
report_text(FILE *f, struct memory_type_list *mtlp, size_t ncols)
{
	struct memory_type *mtp;

	tool_columns_heading(f, columns, ncols);
	for (mtp = memstat_mtl_first(mtlp); mtp != NULL;
	    mtp = memstat_mtl_next(mtp))
		tool_columns_text(f, columns, ncols, mtp);
}

static void
report_json(struct json_object *root, struct memory_type_list *mtlp,
    size_t ncols)
{
	struct json_object *zones;
	struct memory_type *mtp;

	tool_json_set(root, "__version", json_object_new_string("1"));
	zones = tool_json_set(tool_json_set(root, "memory-zone-statistics",
	    tool_json_new(json_type_object)), "zone",
	    tool_json_new(json_type_array));
	for (mtp = memstat_mtl_first(mtlp); mtp != NULL;
	    mtp = memstat_mtl_next(mtp))
		tool_columns_json(tool_json_set(zones, NULL,
		    tool_json_new(json_type_object)), columns, ncols, mtp);
}

int
main(int argc, char *argv[])
{
	struct tool_options opts = { 0 };
	struct memory_type_list *mtlp;
	struct tool_source *src;
	struct tool_error e;
	struct tool_out out;
	bool aflag = false, aliases;
	size_t ncols;
	int ch, rc;

	if ((argc = tool_parse_libxo(argc, argv, &opts.style)) < 0)
		usage();
	while ((ch = getopt(argc, argv, "a" TOOL_COMMON_OPTS)) != -1) {
		if (tool_common_option(&opts, ch, optarg))
			continue;
		switch (ch) {
		case 'a':
			aflag = true;
			break;
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();

	src = tool_open_core(opts.memf, opts.nlistf);
	if ((mtlp = memstat_mtl_alloc()) == NULL)
		err(1, "memstat_mtl_alloc");
	/*
	 * Aliases cost a walk of /sys/kernel/slab, so text has them only
	 * with -a; Linux JSON always lists them (FreeBSD's has no such key).
	 */
	aliases = aflag || (opts.style != STYLE_TEXT && tool_source_linux(src));
	ncols = aliases ? NCOLUMNS : NCOLUMNS - 1;
	rc = tool_source_uma(src, mtlp, aliases ? MEMSTAT_LINUX_ALIASES : 0,
	    &e);
	if (rc != 0)
		memstat_mtl_free(mtlp);
	if (rc == TOOL_ABSENT)
		tool_source_absent(src, "uma", "zone statistics");
	if (rc != 0)
		tool_query_failed(src, "uma", &e);

	tool_out_init(&out, opts.style);
	if (opts.style == STYLE_TEXT)
		report_text(out.text, mtlp, ncols);
	else
		report_json(out.json, mtlp, ncols);
	tool_out_finish(&out);
	memstat_mtl_free(mtlp);
	tool_source_close(src);
	return (0);
}
