/*
 * netstat-mbuf: FreeBSD's "netstat -m", mbuf statistics, of saved FreeBSD
 * data or of Linux (live, saved or a core image), whose socket buffers are
 * reported in the same current/cache/total form.
 */
#include <err.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "mbuf.h"
#include "mbuf_watch.h"
#include "tool_options.h"
#include "tool_watch.h"

static const struct tool_help help = {
	"netstat-mbuf [--libxo json[,pretty]] [-h] [-w wait [-c count]]\n"
	"                    [--prometheus file]\n"
	"                    [-M core [-N system] | --replay tree tree ...]",
	"  -h           memory in human-readable form (4.0K, 1.5M)\n"
	"  -w wait      then every wait seconds the numbers that changed:\n"
	"               their changes and rates (the live kernel)\n"
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

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		TOOL_LONG_OPTIONS,
		{ NULL, 0, NULL, 0 }
	};
	struct tool_options opts = { 0 };
	struct json_object *was = NULL, *now;
	struct memory_type_list *mtlp;
	struct tool_out report, changes;
	struct tool_watch w;
	struct tool_prom p;
	int ch;

	argc = tool_parse_libxo(argc, argv, &opts.style);
	opterr = 0;
	while ((ch = getopt_long(argc, argv, TOOL_COMMON_OPTS, longopts,
	    NULL)) != -1)
		(void)tool_common_option(&opts, ch, optarg, argv, &help);
	tool_options_done(&opts, argc, argv);

	tool_watch_open(&w, &opts);
	if ((mtlp = memstat_mtl_alloc()) == NULL)
		err(1, "memstat_mtl_alloc");
	while (tool_watch_next(&w)) {
		now = tool_json_new(json_type_object);
		if (tool_source_linux(w.src))
			linux_report(w.src, mtlp, &report, &opts, now);
		else
			freebsd_report(w.src, mtlp, &report, &opts, now);
		if (opts.prometheus != NULL) {
			tool_out_discard(&report);
			tool_prom_init(&p);
			mbuf_prom(&p, now);
			tool_prom_write(&p, opts.prometheus);
		} else if (w.n == 1) {
			tool_watch_stamp(&w, report.json);
			tool_out_finish(&report);
		} else {
			tool_out_discard(&report);
			if (opts.style == STYLE_TEXT)
				putchar('\n');
			tool_out_init(&changes, opts.style);
			mbuf_changes(&changes, was, now, w.dt);
			tool_watch_stamp(&w, changes.json);
			tool_out_finish(&changes);
		}
		if (was != NULL)
			json_object_put(was);
		was = now;
	}
	json_object_put(was);
	memstat_mtl_free(mtlp);
	tool_watch_close(&w);
	return (0);
}
