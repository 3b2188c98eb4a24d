/*
 * vmstat-z: FreeBSD's "vmstat -z", the UMA zone report, of the live kernel
 * (Linux's slab caches) or of saved data.  For FreeBSD data, text and JSON
 * are FreeBSD's newest formats, byte for byte; Linux fills the same
 * columns, with "-" (JSON null) for what Linux does not count.
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
	fprintf(stderr, "usage: vmstat-z [--libxo json[,pretty]] [-a] "
	    "[-M core [-N system]]\n");
	exit(1);
}

static bool
known(const struct memory_type *mtp, uint32_t what)
{
	return ((memstat_get_unknown(mtp) & what) == 0);
}

/* What "%-20s" would add after name and its colon. */
static int
pad(const char *name)
{
	size_t len = strlen(name) + 1;

	return (len >= 20 ? 0 : (int)(20 - len));
}

static void
report_text(FILE *f, struct memory_type_list *mtlp, bool aliases)
{
	char limit[TOOL_STAT_LEN],
	    req[TOOL_STAT_LEN], fail[TOOL_STAT_LEN], sleep[TOOL_STAT_LEN],
	    xdomain[TOOL_STAT_LEN];
	struct memory_type *mtp;
	size_t i, n;

	fprintf(f, "%-20s %6s %6s %8s %8s %8s %8s %4s %4s%s\n", "ITEM", "SIZE",
	    "LIMIT", "USED", "FREE", "REQ", "FAIL", "SLEEP", "XDOMAIN",
	    aliases ? " ALIASES" : "");
	for (mtp = memstat_mtl_first(mtlp); mtp != NULL;
	    mtp = memstat_mtl_next(mtp)) {
		/*
		 * The name and its colon in 20 columns or more, as FreeBSD
		 * (whose names have at most 31 bytes; Linux's can be longer).
		 */
		fprintf(f, "%s:%*s %6" PRIu64 ", %6s,%8" PRIu64 ",%8" PRIu64
		    ",%8s,%4s,%4s,%4s", memstat_get_name(mtp),
		    pad(memstat_get_name(mtp)), "", memstat_get_size(mtp),
		    tool_stat_text(limit, memstat_get_countlimit(mtp),
		    known(mtp, MEMSTAT_UNKNOWN_LIMIT)),
		    memstat_get_count(mtp), memstat_get_free(mtp),
		    tool_stat_text(req, memstat_get_numallocs(mtp),
		    known(mtp, MEMSTAT_UNKNOWN_NUMALLOCS)),
		    tool_stat_text(fail, memstat_get_failures(mtp),
		    known(mtp, MEMSTAT_UNKNOWN_FAILURES)),
		    tool_stat_text(sleep, memstat_get_sleeps(mtp),
		    known(mtp, MEMSTAT_UNKNOWN_SLEEPS)),
		    tool_stat_text(xdomain, memstat_get_xdomain(mtp),
		    known(mtp, MEMSTAT_UNKNOWN_XDOMAIN)));
		n = aliases ? memstat_get_alias_count(mtp) : 0;
		for (i = 0; i < n; i++)
			fprintf(f, "%c%s", i == 0 ? ' ' : ',',
			    memstat_get_alias(mtp, i));
		fputc('\n', f);
	}
}

static void
report_json(struct json_object *root, struct memory_type_list *mtlp,
    bool aliases)
{
	struct json_object *zones, *z, *names;
	struct memory_type *mtp;
	size_t i, n;

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
		tool_json_stat(z, "limit", memstat_get_countlimit(mtp),
		    known(mtp, MEMSTAT_UNKNOWN_LIMIT));
		tool_json_set(z, "used", tool_json_uint(memstat_get_count(mtp)));
		tool_json_set(z, "free", tool_json_uint(memstat_get_free(mtp)));
		tool_json_stat(z, "requests", memstat_get_numallocs(mtp),
		    known(mtp, MEMSTAT_UNKNOWN_NUMALLOCS));
		tool_json_stat(z, "fail", memstat_get_failures(mtp),
		    known(mtp, MEMSTAT_UNKNOWN_FAILURES));
		tool_json_stat(z, "sleep", memstat_get_sleeps(mtp),
		    known(mtp, MEMSTAT_UNKNOWN_SLEEPS));
		tool_json_stat(z, "xdomain", memstat_get_xdomain(mtp),
		    known(mtp, MEMSTAT_UNKNOWN_XDOMAIN));
		if (!aliases)
			continue;
		names = tool_json_set(z, "aliases",
		    tool_json_new(json_type_array));
		n = memstat_get_alias_count(mtp);
		for (i = 0; i < n; i++)
			tool_json_set(names, NULL, json_object_new_string(
			    memstat_get_alias(mtp, i)));
	}
}

int
main(int argc, char *argv[])
{
	struct memory_type_list *mtlp;
	struct tool_source *src;
	struct tool_out out;
	enum tool_style style;
	const char *memf = NULL, *nlistf = NULL;
	bool aflag = false, linux_json;
	char errbuf[512];
	int ch, rc;

	if ((argc = tool_parse_libxo(argc, argv, &style)) < 0)
		usage();
	while ((ch = getopt(argc, argv, "ahM:N:")) != -1) {
		switch (ch) {
		case 'a':
			aflag = true;
			break;
		case 'M':
			memf = optarg;
			break;
		case 'N':
			nlistf = optarg;
			break;
		case 'h':
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();

	src = tool_open_core(memf, nlistf);
	if ((mtlp = memstat_mtl_alloc()) == NULL)
		err(1, "memstat_mtl_alloc");
	/*
	 * Aliases cost a walk of /sys/kernel/slab, so text has them only
	 * with -a; Linux JSON always lists them (FreeBSD's has no such key).
	 */
	linux_json = style != STYLE_TEXT && tool_source_linux(src);
	rc = tool_source_uma(src, mtlp, aflag || linux_json ?
	    MEMSTAT_LINUX_ALIASES : 0, errbuf, sizeof(errbuf));
	if (rc == TOOL_ABSENT)
		errx(1, "memstat_kvm_uma: %s holds no zone statistics", memf);
	if (rc != 0)
		tool_query_failed(src, "uma", errbuf);

	tool_out_init(&out, style);
	if (style == STYLE_TEXT)
		report_text(out.text, mtlp, aflag);
	else
		report_json(out.json, mtlp, aflag || linux_json);
	tool_out_finish(&out);
	memstat_mtl_free(mtlp);
	tool_source_close(src);
	return (0);
}
