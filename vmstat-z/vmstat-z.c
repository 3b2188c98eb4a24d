/*
 * vmstat-z: FreeBSD's "vmstat -z", the UMA zone report, from saved FreeBSD
 * statistics.  Text and JSON are FreeBSD's newest formats, byte for byte.
 */
#include <err.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "memstat.h"
#include "memstat_tool.h"

static void __attribute__((noreturn))
usage(void)
{
	fprintf(stderr,
	    "usage: vmstat-z [--libxo json[,pretty]] [-M core [-N system]]\n");
	exit(1);
}

static void
report_text(FILE *f, struct memory_type_list *mtlp)
{
	struct memory_type *mtp;
	char name[MEMTYPE_MAXNAME + 1];

	fprintf(f, "%-20s %6s %6s %8s %8s %8s %8s %4s %4s\n", "ITEM", "SIZE",
	    "LIMIT", "USED", "FREE", "REQ", "FAIL", "SLEEP", "XDOMAIN");
	for (mtp = memstat_mtl_first(mtlp); mtp != NULL;
	    mtp = memstat_mtl_next(mtp)) {
		/* As FreeBSD: at most 31 bytes of name, then the colon. */
		snprintf(name, sizeof(name), "%.31s:", memstat_get_name(mtp));
		fprintf(f, "%-20s %6" PRIu64 ", %6" PRIu64 ",%8" PRIu64
		    ",%8" PRIu64 ",%8" PRIu64 ",%4" PRIu64 ",%4" PRIu64
		    ",%4" PRIu64 "\n", name, memstat_get_size(mtp),
		    memstat_get_countlimit(mtp), memstat_get_count(mtp),
		    memstat_get_free(mtp), memstat_get_numallocs(mtp),
		    memstat_get_failures(mtp), memstat_get_sleeps(mtp),
		    memstat_get_xdomain(mtp));
	}
}

static void
report_json(struct json_object *root, struct memory_type_list *mtlp)
{
	struct json_object *zones, *z;
	struct memory_type *mtp;

	tool_json_set(root, "__version", json_object_new_string("1"));
	zones = tool_json_set(tool_json_set(root, "memory-zone-statistics",
	    tool_json_new(json_type_object)), "zone",
	    tool_json_new(json_type_array));
	for (mtp = memstat_mtl_first(mtlp); mtp != NULL;
	    mtp = memstat_mtl_next(mtp)) {
		z = tool_json_set(zones, NULL, tool_json_new(json_type_object));
		tool_json_set(z, "name",
		    json_object_new_string(memstat_get_name(mtp)));
		tool_json_set(z, "size", tool_json_uint(memstat_get_size(mtp)));
		tool_json_set(z, "limit",
		    tool_json_uint(memstat_get_countlimit(mtp)));
		tool_json_set(z, "used", tool_json_uint(memstat_get_count(mtp)));
		tool_json_set(z, "free", tool_json_uint(memstat_get_free(mtp)));
		tool_json_set(z, "requests",
		    tool_json_uint(memstat_get_numallocs(mtp)));
		tool_json_set(z, "fail",
		    tool_json_uint(memstat_get_failures(mtp)));
		tool_json_set(z, "sleep",
		    tool_json_uint(memstat_get_sleeps(mtp)));
		tool_json_set(z, "xdomain",
		    tool_json_uint(memstat_get_xdomain(mtp)));
	}
}

int
main(int argc, char *argv[])
{
	struct memory_type_list *mtlp;
	struct tool_source *src;
	struct tool_out out;
	enum tool_style style;
	const char *memf = NULL;
	char errbuf[512];
	int ch, rc;

	if ((argc = tool_parse_libxo(argc, argv, &style)) < 0)
		usage();
	while ((ch = getopt(argc, argv, "hM:N:")) != -1) {
		switch (ch) {
		case 'M':
			memf = optarg;
			break;
		case 'N':
			/* A namelist means nothing to saved FreeBSD data. */
			break;
		case 'h':
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();

	src = tool_open_core(memf);
	if ((mtlp = memstat_mtl_alloc()) == NULL)
		err(1, "memstat_mtl_alloc");
	rc = tool_source_uma(src, mtlp, errbuf, sizeof(errbuf));
	if (rc == TOOL_ABSENT)
		errx(1, "memstat_kvm_uma: %s holds no zone statistics", memf);
	if (rc != 0)
		errx(1, "memstat_kvm_uma: %s", errbuf);

	tool_out_init(&out, style);
	if (style == STYLE_TEXT)
		report_text(out.text, mtlp);
	else
		report_json(out.json, mtlp);
	tool_out_finish(&out);
	memstat_mtl_free(mtlp);
	tool_source_close(src);
	return (0);
}
