/*
 * vmstat-z: FreeBSD's "vmstat -z", the UMA zone report, of the live kernel
 * (Linux's slab caches) or of saved data.  For FreeBSD data, text and JSON
 * are FreeBSD's newest formats, byte for byte; Linux fills the same
 * columns, with "-" (JSON null) for what Linux does not count.
 */
#include <err.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "memstat.h"
#include "tool_columns.h"
#include "tool_options.h"
#include "tool_output.h"
#include "tool_rows.h"
#include "tool_table.h"
#include "tool_source.h"

static const struct tool_column columns[] = {
	{ .kind = COLUMN_NAME, .key = "name", .heading = "ITEM",
	  .heading_sep = "", .heading_width = -20, .sep = "", .width = -20,
	  .suffix = ":" },
	{ .kind = COLUMN_COUNT, .key = "size", .heading = "SIZE",
	  .heading_sep = " ", .heading_width = 6, .sep = " ", .width = 6,
	  .suffix = "", .value = memstat_get_size, .bytes = memstat_get_size,
	  .metric = "size_bytes", .help = "Size of an item" },
	{ .kind = COLUMN_COUNT, .key = "limit", .heading = "LIMIT",
	  .heading_sep = " ", .heading_width = 6, .sep = ", ", .width = 6,
	  .suffix = "", .value = memstat_get_countlimit,
	  .unknown = MEMSTAT_UNKNOWN_LIMIT,
	  .metric = "limit_items", .help = "Most items the zone may hold" },
	{ .kind = COLUMN_COUNT, .key = "used", .heading = "USED",
	  .heading_sep = " ", .heading_width = 8, .sep = ",", .width = 8,
	  .suffix = "", .total = true, .value = memstat_get_count,
	  .metric = "used_items", .help = "Items allocated" },
	{ .kind = COLUMN_COUNT, .key = "free", .heading = "FREE",
	  .heading_sep = " ", .heading_width = 8, .sep = ",", .width = 8,
	  .suffix = "", .total = true, .value = memstat_get_free,
	  .metric = "free_items", .help = "Items free in caches and slabs" },
	{ .kind = COLUMN_COUNT, .key = "requests", .heading = "REQ",
	  .heading_sep = " ", .heading_width = 8, .sep = ",", .width = 8,
	  .suffix = "", .total = true, .value = memstat_get_numallocs,
	  .unknown = MEMSTAT_UNKNOWN_NUMALLOCS,
	  .metric = "requests_total", .help = "Allocation requests" },
	{ .kind = COLUMN_COUNT, .key = "fail", .heading = "FAIL",
	  .heading_sep = " ", .heading_width = 8, .sep = ",", .width = 4,
	  .suffix = "", .total = true, .value = memstat_get_failures,
	  .unknown = MEMSTAT_UNKNOWN_FAILURES,
	  .metric = "failures_total", .help = "Allocations that failed" },
	{ .kind = COLUMN_COUNT, .key = "sleep", .heading = "SLEEP",
	  .heading_sep = " ", .heading_width = 4, .sep = ",", .width = 4,
	  .suffix = "", .total = true, .value = memstat_get_sleeps,
	  .unknown = MEMSTAT_UNKNOWN_SLEEPS,
	  .metric = "sleeps_total", .help = "Allocations that slept" },
	{ .kind = COLUMN_COUNT, .key = "xdomain", .heading = "XDOMAIN",
	  .heading_sep = " ", .heading_width = 4, .sep = ",", .width = 4,
	  .suffix = "", .total = true, .value = memstat_get_xdomain,
	  .unknown = MEMSTAT_UNKNOWN_XDOMAIN,
	  .metric = "xdomain_frees_total",
	  .help = "Frees to another NUMA domain" },
	/* Last: written only when asked for (-a, or Linux JSON). */
	{ .kind = COLUMN_NAMES, .key = "aliases", .heading = "ALIASES",
	  .heading_sep = " ", .heading_width = 0, .sep = " ", .width = 0,
	  .suffix = "", .names = memstat_get_alias },
};
#define NCOLUMNS	(sizeof(columns) / sizeof(columns[0]))

static const struct tool_help help = {
	"vmstat-z [--libxo json[,pretty]] [-aht] [-n name] [-s key]\n"
	"                [-M core [-N system]]",
	"  -a           also each merged cache's other names (aliases)\n"
	"  -h           sizes in human-readable form (4.0K, 1.5M)\n"
	"  -n name      only zones whose name or an alias matches the glob\n"
	"               name (repeatable: any of them)\n"
	"  -s key       sort by name, size, used, free, bytes (in use) or\n"
	"               requests; numbers largest first\n"
	"  -t           a TOTAL row summing the counts\n"
	"  -M core      read saved data or a core image, not the live kernel\n"
	"               (- is standard input)\n"
	"  -N system    the core image's kernel: System.map, vmlinux or BTF\n"
	"  --libxo json[,pretty]  JSON instead of text\n"
	"  --help, --version\n",
};

static const struct tool_sort_key sort_keys[] = {
	{ "name", NULL },
	{ "size", memstat_get_size },
	{ "used", memstat_get_count },
	{ "free", memstat_get_free },
	{ "bytes", memstat_get_bytes },
	{ "requests", memstat_get_numallocs },
	{ NULL, NULL },
};

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		TOOL_LONG_OPTIONS,
		{ NULL, 0, NULL, 0 }
	};
	struct tool_options opts = { 0 };
	struct memory_type_list *mtlp;
	struct tool_source *src;
	struct tool_table table;
	struct tool_rows rows;
	struct tool_error e;
	struct tool_out out;
	bool aflag = false, show_aliases;
	size_t ncols;
	int ch, rc;

	argc = tool_parse_libxo(argc, argv, &opts.style);
	opterr = 0;
	while ((ch = getopt_long(argc, argv, TOOL_COMMON_OPTS TOOL_ROW_OPTS
	    "a", longopts, NULL)) != -1) {
		if (tool_common_option(&opts, ch, optarg, argv, &help))
			continue;
		switch (ch) {
		case 'a':
			aflag = true;
			break;
		}
	}
	tool_options_done(&opts, argc, argv);
	tool_rows_check_sort(&opts, sort_keys);

	src = tool_open_core(opts.memf, opts.nlistf);
	if ((mtlp = memstat_mtl_alloc()) == NULL)
		err(1, "memstat_mtl_alloc");
	/*
	 * Aliases cost a walk of /sys/kernel/slab, so text has them only
	 * with -a; Linux JSON always lists them (FreeBSD's has no such key),
	 * and -n matches them too.
	 */
	show_aliases = aflag ||
	    (opts.style != STYLE_TEXT && tool_source_linux(src));
	ncols = show_aliases ? NCOLUMNS : NCOLUMNS - 1;
	rc = tool_source_uma(src, mtlp, show_aliases || opts.nnames > 0 ?
	    MEMSTAT_LINUX_ALIASES : 0, &e);
	if (rc != 0)
		memstat_mtl_free(mtlp);
	if (rc == TOOL_ABSENT)
		tool_source_absent(src, "uma", "zone statistics");
	if (rc != 0)
		tool_query_failed(src, "uma", &e);

	tool_rows_select(&rows, mtlp, &opts, sort_keys, NULL);
	table = (struct tool_table){ columns, ncols,
	    "memory-zone-statistics", "zone" };
	tool_out_init(&out, opts.style);
	tool_table_write(&out, &table, &rows, &opts);
	tool_out_finish(&out);
	tool_rows_free(&rows);
	memstat_mtl_free(mtlp);
	tool_source_close(src);
	return (0);
}
