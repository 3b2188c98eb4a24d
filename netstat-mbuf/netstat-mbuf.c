/*
 * netstat-mbuf: FreeBSD's "netstat -m", mbuf statistics, of saved FreeBSD
 * data or of Linux (live, saved or a core image), whose socket buffers are
 * reported in the same current/cache/total form.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "mbuf.h"
#include "tool_options.h"

static void __attribute__((noreturn))
usage(void)
{
	fprintf(stderr,
	    "usage: netstat-mbuf [--libxo json[,pretty]] [-M core [-N system]]\n");
	exit(1);
}

int
main(int argc, char *argv[])
{
	struct tool_options opts = { 0 };
	struct memory_type_list *mtlp;
	struct tool_source *src;
	struct tool_out report;
	int ch;

	if ((argc = tool_parse_libxo(argc, argv, &opts.style)) < 0)
		usage();
	while ((ch = getopt(argc, argv, TOOL_COMMON_OPTS)) != -1)
		if (!tool_common_option(&opts, ch, optarg))
			usage();
	if (optind != argc)
		usage();

	src = tool_open_core(opts.memf, opts.nlistf);
	if ((mtlp = memstat_mtl_alloc()) == NULL)
		err(1, "memstat_mtl_alloc");
	if (tool_source_linux(src))
		linux_report(src, mtlp, &report, opts.style);
	else
		freebsd_report(src, mtlp, &report, opts.style);
	tool_out_finish(&report);
	memstat_mtl_free(mtlp);
	tool_source_close(src);
	return (0);
}
