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
#include <string.h>

#include "memstat.h"
#include "tool_columns.h"
#include "tool_options.h"
#include "tool_output.h"
#include "tool_rows.h"
#include "tool_report.h"
#include "tool_source.h"
#include "tool_table.h"
#include "zone_cgroups.h"

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
};
#define NCOLUMNS	(sizeof(columns) / sizeof(columns[0]))

/* Written only when asked for: -A and -a, or Linux JSON. */
static const struct tool_column allocated_column = {
	.kind = COLUMN_COUNT, .key = "allocated", .heading = "ALLOCATED",
	.heading_sep = " ", .heading_width = 9, .sep = ",", .width = 9,
	.suffix = "", .total = true, .value = memstat_get_allocated,
	.unknown = MEMSTAT_UNKNOWN_ALLOCATED,
	.metric = "allocated_items",
	.help = "Items allocated, less those the CPUs hold free"
};
static const struct tool_column aliases_column = {
	.kind = COLUMN_NAMES, .key = "aliases", .heading = "ALIASES",
	.heading_sep = " ", .heading_width = 0, .sep = " ", .width = 0,
	.suffix = "", .names = memstat_get_alias
};

/*
 * -d: each NUMA node's share, a list indexed by node id (the sources
 * that do not say have none).
 */
#define NODE_LIST(field)						\
static bool								\
node_##field(const struct memory_type *mtp, size_t n, uint64_t *v)	\
{									\
	if (n >= memstat_get_nodes(mtp))				\
		return (false);						\
	*v = memstat_get_node_##field(mtp, (uint32_t)n);		\
	return (true);							\
}
NODE_LIST(count)
NODE_LIST(free)
NODE_LIST(slabs)
NODE_LIST(partial)

#define NODE_COLUMN(k, h, f, m, hl)					\
	{ .kind = COLUMN_LIST, .key = k, .heading = h,			\
	  .heading_sep = "  ", .heading_width = 0, .sep = "  ",	\
	  .width = 0, .suffix = "", .sep_if_empty = true,		\
	  .list = node_##f, .metric = m, .help = hl, .list_label = "node" }
static const struct tool_column node_columns[] = {
	NODE_COLUMN("node_used", "NODE-USED", count, "node_used_items",
	    "Items allocated on a NUMA node"),
	NODE_COLUMN("node_free", "NODE-FREE", free, "node_free_items",
	    "Items free in a NUMA node's slabs"),
	NODE_COLUMN("node_slabs", "NODE-SLABS", slabs, "node_slabs",
	    "Slabs of the cache on a NUMA node"),
	NODE_COLUMN("node_partial", "NODE-PARTIAL", partial,
	    "node_partial_slabs",
	    "Slabs on a NUMA node's partial list"),
};
#define NNODE_COLUMNS	(sizeof(node_columns) / sizeof(node_columns[0]))

/* Not in FreeBSD's table, whose format is kept byte for byte. */
static const struct tool_column prom_more[] = {
	{ .kind = COLUMN_COUNT, .key = "slabs", .value = memstat_get_slabs,
	  .unknown = MEMSTAT_UNKNOWN_SLABS,
	  .metric = "slabs", .help = "Slabs the cache holds" },
};

static const struct tool_help help = {
	"vmstat-z [--libxo json[,pretty]] [-Aadht] [-n name] [-s key]\n"
	"                [-w wait [-c count]] [--prometheus file]\n"
	"                [-M core [-N system] | --replay tree tree ...]\n"
	"       vmstat-z -C [--libxo json[,pretty]] [-h] [-n name]\n"
	"                [-w wait [-c count]] [--prometheus file]\n"
	"                [-M core [-N system] | --replay source source ...]",
	"  -C           the slab caches by memory cgroup instead: a row per\n"
	"               cgroup (dying ones too, from a core image), the\n"
	"               objects charged to it; -n counts only those caches\n"
	"  -A           also the items really allocated: USED less the free\n"
	"               items the CPUs hold (core images, /proc/kcore)\n"
	"  -a           also each merged cache's other names (aliases)\n"
	"  -d           also each NUMA node's share: items used and free,\n"
	"               slabs and partial slabs, listed by node id\n"
	"  -h           sizes in human-readable form (4.0K, 1.5M)\n"
	"  -n name      only zones whose name or an alias matches the glob\n"
	"               name (repeatable: any of them)\n"
	"  -s key       sort by name, size, used, free, bytes (in use) or\n"
	"               requests; numbers largest first\n"
	"  -t           a TOTAL row summing the counts\n"
	"  -w wait      then every wait seconds the zones that changed: their\n"
	"               changes and rates (the live kernel)\n"
	"  -c count     that many looks (default: until SIGINT)\n"
	"  --prometheus file  the numbers in Prometheus's text format, for\n"
	"               node_exporter's textfile collector (- is stdout)\n"
	"  --replay     the saved trees and core images of one machine named,\n"
	"               one look each, timed by their proc/uptime or the\n"
	"               image's clock\n"
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
	{ "allocated", memstat_get_allocated },
	{ NULL, NULL },
};

/* What changes from look to look: levels, and counters as rates. */
static const struct tool_stat stats[] = {
	{ .key = "used", .heading = "USED", .value = memstat_get_count,
	  .rate = true },
	{ .key = "free", .heading = "FREE", .value = memstat_get_free },
	{ .key = "slabs", .heading = "SLABS", .value = memstat_get_slabs,
	  .unknown = MEMSTAT_UNKNOWN_SLABS, .rate = true },
	{ .key = "requests", .heading = "REQ", .value = memstat_get_numallocs,
	  .unknown = MEMSTAT_UNKNOWN_NUMALLOCS, .counter = true },
	{ .key = "fail", .heading = "FAIL", .value = memstat_get_failures,
	  .unknown = MEMSTAT_UNKNOWN_FAILURES, .counter = true },
	{ .key = "sleep", .heading = "SLEEP", .value = memstat_get_sleeps,
	  .unknown = MEMSTAT_UNKNOWN_SLEEPS, .counter = true },
};

static const struct tool_interval interval = {
	stats, sizeof(stats) / sizeof(stats[0]), "ITEM", -20, ":",
	"memory-zone-changes", "zone", NULL, 0
};

struct zones {
	struct tool_table table;
	struct tool_interval interval;	/* with -d, each node's changes */
	struct tool_column cols[NCOLUMNS + 2 + NNODE_COLUMNS];
	bool	 Aflag;
	bool	 aflag;
	bool	 Cflag;
	bool	 dflag;
	bool	 json;
	bool	 prometheus;
	bool	 names;		/* -n: matched against aliases too */
	bool	 sort_allocated; /* -s allocated */
};

/*
 * FreeBSD's columns, then what Linux adds when asked.  Aliases cost a walk
 * of /sys/kernel/slab, so text has them only with -a; Linux JSON always
 * lists them and the allocated count (FreeBSD's JSON has neither key),
 * Prometheus labels the aliases, and -n matches them too.
 */
static void
choose_columns(struct zones *z, bool linux_json)
{
	z->table.ncols = NCOLUMNS;
	if (z->Aflag || linux_json)
		z->cols[z->table.ncols++] = allocated_column;
	if (z->aflag || linux_json)
		z->cols[z->table.ncols++] = aliases_column;
	for (size_t i = 0; z->dflag && i < NNODE_COLUMNS; i++)
		z->cols[z->table.ncols++] = node_columns[i];
}

/*
 * A row the data did not hold whole: a count it stopped (a freelist that
 * loops: the row says "-"), told where the count is shown; a name a
 * filtered dump left out, told always; aliases it left out, once, where
 * they are shown.  Where the counts were not read (asked), what is
 * wrong with a row can only be its name.
 */
static void
warn_damage(struct memory_type_list *list, bool asked, bool counts,
    bool aliases)
{
	struct memory_type *mtp;
	const char *unknown = NULL;
	size_t same = 0;
	bool told = false;

	for (mtp = memstat_mtl_first(list); mtp != NULL;
	    mtp = memstat_mtl_next(mtp)) {
		if (aliases && !told &&
		    (memstat_get_unknown(mtp) & MEMSTAT_UNKNOWN_ALIASES)) {
			warnx("aliases read in part: the dump does not hold "
			    "all of /sys/kernel/slab");
			told = true;
		}
		if (memstat_get_damage(mtp) == NULL)
			continue;
		if (!asked || (memstat_get_unknown(mtp) &
		    MEMSTAT_UNKNOWN_ALLOCATED) == 0)
			warnx("%s: read in part: %s", memstat_get_name(mtp),
			    memstat_get_damage(mtp));
		else if (counts && unknown != NULL &&
		    strcmp(unknown, memstat_get_damage(mtp)) == 0)
			same++;		/* one reason for all: said once */
		else if (counts) {
			warnx("%s: allocated unknown: %s",
			    memstat_get_name(mtp), memstat_get_damage(mtp));
			unknown = memstat_get_damage(mtp);
		}
	}
	if (same > 0)
		warnx("and %zu more caches' allocated unknown for the same "
		    "reason", same);
}

static void
query(struct tool_source *src, struct memory_type_list *list, void *arg)
{
	struct zones *z = arg;
	struct tool_error e;
	bool linux_json, asked;
	int rc;

	linux_json = z->json && tool_source_linux(src);
	choose_columns(z, linux_json);
	asked = z->Aflag || linux_json || z->sort_allocated;
	rc = tool_source_uma(src, list, (z->aflag || linux_json || z->names ||
	    z->prometheus ? MEMSTAT_LINUX_ALIASES : 0) |
	    (z->dflag ? MEMSTAT_LINUX_NODES : 0) |
	    (asked ? MEMSTAT_KVM_ALLOCATED : 0), &e);
	if (rc != 0)
		memstat_mtl_free(list);
	if (rc == TOOL_ABSENT)
		tool_source_absent(src, "uma", "zone statistics");
	if (rc != 0)
		tool_query_failed(src, "uma", &e);
	warn_damage(list, asked, z->Aflag || linux_json, z->aflag ||
	    linux_json);
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		TOOL_LONG_OPTIONS,
		{ NULL, 0, NULL, 0 }
	};
	struct tool_options opts = { 0 };
	struct zones z = { .table = { z.cols, NCOLUMNS,
	    "memory-zone-statistics", "zone" }, .interval = interval };
	struct tool_list_report r = { &z.table, &z.interval, sort_keys, NULL,
	    "memstat_zone", "zone", prom_more,
	    sizeof(prom_more) / sizeof(prom_more[0]), query, &z };
	int ch;

	argc = tool_parse_libxo(argc, argv, &opts.style);
	opterr = 0;
	while ((ch = getopt_long(argc, argv, TOOL_COMMON_OPTS TOOL_ROW_OPTS
	    "AaCd", longopts, NULL)) != -1) {
		if (tool_common_option(&opts, ch, optarg, argv, &help))
			continue;
		switch (ch) {
		case 'A':
			z.Aflag = true;
			break;
		case 'a':
			z.aflag = true;
			break;
		case 'C':
			z.Cflag = true;
			break;
		case 'd':
			z.dflag = true;
			break;
		}
	}
	tool_options_done(&opts, argc, argv);
	if (z.Cflag) {
		if (z.Aflag || z.aflag || z.dflag || opts.sort != NULL ||
		    opts.totals)
			errx(1, "-C takes none of -A, -a, -d, -s and -t");
		return (zone_cgroups_run(&opts));
	}
	tool_rows_check_sort(&opts, sort_keys);
	z.prometheus = opts.prometheus != NULL;
	z.names = opts.nnames > 0;
	z.sort_allocated = opts.sort != NULL &&
	    strcmp(opts.sort, "allocated") == 0;
	z.json = opts.style != STYLE_TEXT;
	if (z.dflag) {
		z.interval.lists = node_columns;
		z.interval.nlists = NNODE_COLUMNS;
	}
	memcpy(z.cols, columns, sizeof(columns));
	return (tool_list_report_run(&r, &opts));
}
