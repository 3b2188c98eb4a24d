/*
 * vmstat-frag: physical memory fragmentation, per NUMA node and zone
 * (FreeBSD: per domain) and per order of the buddy allocator's free
 * lists: FreeBSD's free memory fragmentation index (FMFI), or Linux's
 * unusable free space and fragmentation indices as its debugfs prints
 * them, or the free block counts; now, or every -w seconds into a log
 * that --plot draws.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "frag_log.h"
#include "frag_plot.h"
#include "frag_prom.h"
#include "frag_report.h"
#include "memstat.h"
#include "tool_options.h"
#include "tool_output.h"
#include "tool_source.h"
#include "tool_watch.h"

static const struct tool_help help = {
	"vmstat-frag [--libxo json[,pretty]] [-bt] [-i fmfi|unusable|extfrag]\n"
	"                   [-w wait [-c count] [-L log]] [--prometheus file]\n"
	"                   [-M core [-N system] | --replay tree tree ...]\n"
	"       vmstat-frag --plot out.svg|out.png [--3d] [-i index] log ...",
	"  -i index     fmfi (the default: FreeBSD's free memory fragmentation\n"
	"               index, at most 1000, unbounded below), unusable (Linux's\n"
	"               unusable free space index) or extfrag (its fragmentation\n"
	"               index), per order\n"
	"  -b           the free block counts per order instead\n"
	"  -t           the free block counts per migrate type (Linux, root:\n"
	"               /proc/pagetypeinfo) or per free list and pool (FreeBSD)\n"
	"  -w wait      again every wait seconds (the live kernel)\n"
	"  -c count     that many times (default: until SIGINT)\n"
	"  -L log       append each sample to the log, CSV\n"
	"  --prometheus file  the free blocks and indices in Prometheus's text\n"
	"               format, for node_exporter's textfile collector\n"
	"               (- is stdout)\n"
	"  --replay     the saved trees named, one look each\n"
	"  --plot out   draw the logs as heat maps (time across, order up),\n"
	"               one panel per boot; --3d: the 3D view instead\n"
	"  -M core      read saved data or a core image, not the live kernel\n"
	"  -N system    the core image's kernel: System.map, vmlinux or BTF\n"
	"  --libxo json[,pretty]  JSON instead of text\n"
	"  --help, --version\n",
};

enum { OPT_PLOT = 0x2000, OPT_3D };

/* One look, written whole. */
static void
report(const struct memstat_frag *frag, const struct frag_view *v,
    const struct tool_watch *w)
{
	enum tool_style style = w->opts->style;
	struct tool_prom p;
	struct tool_out out;
	struct json_object *top;

	if (w->opts->prometheus != NULL) {
		tool_prom_init(&p);
		frag_prom(&p, frag, v);
		tool_prom_write(&p, w->opts->prometheus);
		return;
	}
	/* Text looks apart by a blank line; JSON is a line each. */
	if (w->n > 1 && style == STYLE_TEXT)
		putchar('\n');
	tool_out_init(&out, style);
	if (style == STYLE_TEXT)
		frag_report_text(out.text, frag, v);
	else {
		top = tool_json_set(out.json, "vmstat-frag",
		    tool_json_new(json_type_object));
		tool_watch_stamp(w, top);
		tool_json_set(top, "index", json_object_new_string(
		    frag_index_name(v->index)));
		tool_json_set(top, "zones", frag_report_json(frag, v));
	}
	tool_out_finish(&out);
}

static void
query(struct tool_source *src, struct memstat_frag *frag, int flags)
{
	struct tool_error e;
	int rc;

	rc = tool_source_frag(src, frag, flags, &e);
	if (rc == TOOL_ABSENT)
		tool_source_absent(src, "frag", "free lists");
	if (rc != 0 && tool_source_live(src) &&
	    e.code == MEMSTAT_ERROR_PERMISSION && (flags & MEMSTAT_FRAG_TYPES)) {
		warnx("memstat_sysctl_frag: %s: -t needs root", e.msg);
		tool_source_close(src);
		memstat_frag_free(frag);
		exit(1);
	}
	if (rc != 0) {
		memstat_frag_free(frag);
		tool_query_failed(src, "frag", &e);
	}
}

/* The -i index needs block counts: a vm.phys_frag_idx has FMFI only. */
static void
check_view(struct tool_source *src, struct memstat_frag *frag,
    const struct frag_view *v)
{
	for (size_t z = 0; z < memstat_frag_zones(frag); z++)
		if (!memstat_frag_has_blocks(frag, z) &&
		    (v->blocks || v->types || v->index != INDEX_FMFI)) {
			warnx("%s: only the FMFI is known (vm.phys_frag_idx): "
			    "-b, -t and -i unusable or extfrag need the block "
			    "counts", tool_source_path(src));
			tool_source_close(src);
			memstat_frag_free(frag);
			exit(1);
		}
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		TOOL_LONG_OPTIONS,
		{ "plot", required_argument, NULL, OPT_PLOT },
		{ "3d", no_argument, NULL, OPT_3D },
		{ NULL, 0, NULL, 0 }
	};
	struct tool_options opts = { 0 };
	struct frag_view v = { .index = INDEX_FMFI };
	struct memstat_frag *frag;
	struct frag_boot boot;
	struct tool_watch w;
	const char *plot = NULL, *logpath = NULL, *why;
	bool three_d = false, index_given = false;
	FILE *log = NULL;
	int ch, i;

	argc = tool_parse_libxo(argc, argv, &opts.style);
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":M:N:bc:i:L:tw:", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'b':
			v.blocks = true;
			continue;
		case 't':
			v.types = true;
			continue;
		case 'i':
			if ((i = frag_index_parse(optarg)) < 0)
				tool_usage_error("-i %s: fmfi, unusable or "
				    "extfrag", optarg);
			v.index = (enum frag_index)i;
			index_given = true;
			continue;
		case 'L':
			logpath = optarg;
			continue;
		case OPT_PLOT:
			plot = optarg;
			continue;
		case OPT_3D:
			three_d = true;
			continue;
		}
		tool_common_option(&opts, ch, optarg, argv, &help);
	}
	if (plot != NULL) {
		if (optind == argc)
			tool_usage_error("--plot %s: name the logs to draw",
			    plot);
		if (opts.memf != NULL || v.blocks || v.types ||
		    opts.wait > 0 || logpath != NULL || opts.count > 0 ||
		    opts.prometheus != NULL || opts.nreplay > 0)
			tool_usage_error("--plot draws logs: it takes -i and "
			    "--3d only");
		return (frag_plot(plot, (const char *const *)argv + optind,
		    (size_t)(argc - optind), v.index, three_d));
	}
	tool_options_done(&opts, argc, argv);
	if (three_d)
		tool_usage_error("--3d goes with --plot");
	if (logpath != NULL && opts.wait == 0)
		tool_usage_error("-L logs the looks of -w: give -w too");
	if (v.blocks && index_given)
		tool_usage_error("-b prints counts, not the index -i %s",
		    frag_index_name(v.index));

	tool_watch_open(&w, &opts);
	if ((frag = memstat_frag_alloc()) == NULL)
		err(1, "memstat_frag_alloc");
	if (logpath != NULL) {
		if (frag_boot_live(&boot, &why) != 0)
			err(1, "%s", why);
		if ((log = frag_log_open(logpath)) == NULL)
			err(1, "%s", logpath);
	}
	while (tool_watch_next(&w)) {
		query(w.src, frag, v.types ? MEMSTAT_FRAG_TYPES : 0);
		if (w.n == 1)
			check_view(w.src, frag, &v);
		report(frag, &v, &w);
		if (log != NULL &&
		    frag_log_append(log, frag, &boot, &w.wall) != 0)
			err(1, "%s", logpath);
	}
	if (log != NULL && fclose(log) != 0)
		err(1, "%s", logpath);
	memstat_frag_free(frag);
	tool_watch_close(&w);
	return (0);
}
