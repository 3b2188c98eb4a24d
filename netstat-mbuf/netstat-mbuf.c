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
#include "tool_options.h"

static const struct tool_help help = {
	"netstat-mbuf [--libxo json[,pretty]] [-h] [-M core [-N system]]",
	"  -h           memory in human-readable form (4.0K, 1.5M)\n"
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
	struct memory_type_list *mtlp;
	struct tool_source *src;
	struct tool_out report;
	int ch;

	argc = tool_parse_libxo(argc, argv, &opts.style);
	opterr = 0;
	while ((ch = getopt_long(argc, argv, TOOL_COMMON_OPTS, longopts,
	    NULL)) != -1)
		(void)tool_common_option(&opts, ch, optarg, argv, &help);
	tool_options_done(&opts, argc, argv);

	src = tool_open_core(opts.memf, opts.nlistf);
	if ((mtlp = memstat_mtl_alloc()) == NULL)
		err(1, "memstat_mtl_alloc");
	if (tool_source_linux(src))
		linux_report(src, mtlp, &report, &opts);
	else
		freebsd_report(src, mtlp, &report, &opts);
	tool_out_finish(&report);
	memstat_mtl_free(mtlp);
	tool_source_close(src);
	return (0);
}
