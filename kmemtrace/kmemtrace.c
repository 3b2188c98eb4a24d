/*
 * kmemtrace: record every kernel allocation, report it on any machine.
 *
 *	kmemtrace record [-f] [-o dir] [-e slab|page|all] [-b KiB]
 *	                 [-t seconds] [-- command [arg ...]]
 *	kmemtrace report [--caller] [--alloc] [--cache] [--page] [-s keys]
 *	                 [-l lines] [--libxo json[,pretty]] [dir | file.dat]
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/record.h"
#include "report/report.h"
#include "tool_options.h"

#ifndef MEMSTAT_VERSION
#define MEMSTAT_VERSION	"unknown"
#endif

static const char usage[] =
    "usage: kmemtrace record [-f] [-o dir] [-e slab|page|all] [-b KiB]\n"
    "                        [-c cache ...] [-t seconds] [-- command [arg ...]]\n"
    "       kmemtrace report [--caller] [--alloc] [--cache] [--page]\n"
    "                        [-s key[,key...]] [-l lines]\n"
    "                        [--libxo json[,pretty]] [dir | file.dat]\n"
    "  kmemtrace record --help and kmemtrace report --help tell more\n";

int
main(int argc, char *argv[])
{
	setprogname("kmemtrace");
	if (argc < 2)
		tool_usage_error("record or report?");
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		printf("%s", usage);
		exit(0);
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("kmemtrace (memstat) %s\n", MEMSTAT_VERSION);
		exit(0);
	}
	if (strcmp(argv[1], "record") == 0) {
#ifdef FUZZ_REPO
		/* A fuzzed command line never touches the live kernel. */
		tool_usage_error("record is not fuzzed");
#endif
		return (kmemtrace_record(argc - 1, argv + 1));
	}
	if (strcmp(argv[1], "report") == 0)
		return (kmemtrace_report(argc - 1, argv + 1));
	tool_usage_error("unknown command %s", argv[1]);
}
