/*
 * report.c: kmemtrace report.  Reads a recording or a trace.dat, gathers
 * its events in one pass and writes the tables asked for, the summary,
 * the misuse found and what was lost: whole, or not at all.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmem_stats.h"
#include "report.h"
#include "report_dump.h"
#include "recording/recording_loss.h"
#include "outstanding_model.h"
#include "report_outstanding.h"
#include "report_tables.h"
#include "recording/source_open.h"
#include "tool_options.h"
#include "tool_output.h"

/* Nothing to report: said in one line, the source closed first. */
static void __attribute__((noreturn))
no_kmem_events(struct kmem_stats *st, struct kt_source *src, const char *path)
{
	kmem_stats_free(st);
	kt_source_close(src);
	errx(1, "%s: holds no kmem events: nothing to report", path);
}

static const char report_usage[] =
    "usage: kmemtrace report [--caller] [--alloc] [--cache] [--page]\n"
    "                        [-s key[,key...]] [-l lines] [-p pid[,pid...]]\n"
    "                        [--libxo json[,pretty]] [dir | file.dat]\n"
    "       kmemtrace report --outstanding [--page] [-c cache ...]\n"
    "                        [--by stack|callsite|pid|object] [--older seconds]\n"
    "                        [-l groups] [-p pid[,pid...]]\n"
    "                        [--folded | --libxo json[,pretty]] [dir | file.dat]\n"
    "       kmemtrace report --outstanding -M core [-N system] [-c cache ...]\n"
    "                        [--by stack|callsite|pid|object] [--older seconds]\n"
    "                        [-l groups] [-p pid[,pid...]]\n"
    "                        [--folded | --libxo json[,pretty]]\n"
    "  --caller     per call site (the default)\n"
    "  --alloc      per pointer\n"
    "  --cache      per slab cache\n"
    "  --page       page allocations by order, migrate type, GFP flags\n"
    "  -s keys      sort: callsite, ptr, name, bytes, hit, pingpong,\n"
    "               frag; for --page order, migtype, gfp, hit, bytes,\n"
    "               callsite (recorded with -g)\n"
    "  -l lines     at most this many rows per table\n"
    "  -p pid[,pid...]  only the events these processes caused\n"
    "  --outstanding  the allocations not freed by the end (pages with\n"
    "               --page), grouped --by stack (slab's default with\n"
    "               stacks), callsite (pages': the first frame outside\n"
    "               the page allocator), pid, or object by object\n"
    "  -c cache     only this cache's objects (repeatable)\n"
    "  --folded     folded stacks for flame graphs: frames outermost\n"
    "               first, the cache last, then the bytes\n"
    "  --older s    only those allocated at least s seconds before the end\n"
    "  -M core      the objects allocated in a core image or /proc/kcore,\n"
    "               with their owners where the kernel kept them\n"
    "               (slub_debug=U); -N: its System.map, vmlinux or BTF\n"
    "  dir          a kmemtrace recording (default kmemtrace.data), or\n"
    "  file.dat     a trace-cmd trace.dat\n"
    "  --libxo json[,pretty]  JSON instead of text\n";

enum {
	OPT_CALLER = 0x2000,
	OPT_ALLOC,
	OPT_CACHE,
	OPT_PAGE,
	OPT_HELP,
	OPT_OUTSTANDING,
	OPT_BY,
	OPT_OLDER,
	OPT_FOLDED,
};

/* -c: as many as record takes. */
#define RECORD_REPORT_CACHES	16

static const char *const misuse_text[MISUSE_NKINDS] = {
	"kmalloc'd memory freed by kmem_cache_free",
	"cache objects freed by kfree (allowed since Linux 6.4)",
	"objects freed to another cache than their own",
	("frees of an address already freed (double frees, or an allocation "
	    "between without an event: kmem_cache_alloc_bulk has none)"),
	"allocations of less than was requested",
};

static const char *const misuse_keys[MISUSE_NKINDS] = {
	"kmalloc-freed-by-cache-free", "cache-object-freed-by-kfree",
	"freed-to-other-cache", "double-free", "short-allocation",
};

static double
percent(uint64_t part, uint64_t whole)
{
	return (whole == 0 ? 0.0 : 100.0 * (double)part / (double)whole);
}

static void
header_text(FILE *f, const struct kt_source *src,
    const struct kmem_stats *st)
{
	const struct kt_facts *k = &src->facts;
	const struct kmem_totals *t = &st->totals;

	fprintf(f, "# %s", src->kind);
	if (k->kernel[0] != '\0')
		fprintf(f, " of Linux %s %s", k->kernel, k->architecture);
	fprintf(f, ", %d CPUs", src->ncpus);
	if (k->clock[0] != '\0')
		fprintf(f, ", trace clock %s", k->clock);
	fprintf(f, "\n# %" PRIu64 " events in %.6f s", t->events,
	    t->events == 0 ? 0.0 : (double)(t->last_ts - t->first_ts) / 1e9);
	if (k->command[0] != '\0')
		fprintf(f, ", command: %s", k->command);
	if (k->caches[0] != '\0')
		fprintf(f, "\n# allocations of these caches only: %s",
		    k->caches);
	if (k->stacks[0] != '\0')
		fprintf(f, "\n# kernel stacks of: %s", k->stacks);
	fprintf(f, "\n# state: %s%s\n", k->state, k->partial ?
	    " (the report covers what was written)" : "");
	fprintf(f, "# lost: ");
	recording_loss_text(f, src);
}

static void
example_text(FILE *f, const struct kmem_stats *st,
    const struct kmem_misuse_example *x, enum kmem_misuse_kind kind)
{
	char as[160], fs[160];

	report_symbol(st, x->alloc_site, as, sizeof(as));
	if (kind == MISUSE_SHORT) {
		fprintf(f, "    %#" PRIx64 " at %s: %" PRIu64 " requested, %"
		    PRIu64 " allocated\n", x->ptr, as, x->bytes_req,
		    x->bytes_alloc);
		return;
	}
	report_symbol(st, x->free_site, fs, sizeof(fs));
	fprintf(f, "    %#" PRIx64 " allocated at %s, freed at %s on cpu%d\n",
	    x->ptr, as, fs, x->cpu);
}

static void
summary_text(FILE *f, const struct kmem_stats *st, bool slab, bool page)
{
	const struct kmem_totals *t = &st->totals;

	if (slab) {
		fprintf(f, "\nSUMMARY (slab allocator)\n"
		    "========================\n");
		fprintf(f, "Total bytes requested: %" PRIu64 "\n",
		    t->bytes_req);
		fprintf(f, "Total bytes allocated: %" PRIu64 "\n",
		    t->bytes_alloc);
		fprintf(f, "Total bytes freed:     %" PRIu64 "\n",
		    t->bytes_freed);
		fprintf(f, "Net total bytes allocated: %" PRId64 "\n",
		    (int64_t)(t->bytes_alloc - t->bytes_freed));
		fprintf(f, "Total bytes wasted on internal fragmentation: %"
		    PRIu64 "\n", t->bytes_alloc - t->bytes_req);
		fprintf(f, "Internal fragmentation: %.3f%%\n",
		    percent(t->bytes_alloc - t->bytes_req, t->bytes_alloc));
		if (st->src->facts.cpu_node != NULL)
			fprintf(f, "Cross-node allocations: %" PRIu64 "/%"
			    PRIu64 "\n", t->cross_node, t->allocs);
		else
			fprintf(f, "Cross-node allocations: -/%" PRIu64
			    " (the CPUs' nodes were not recorded)\n",
			    t->allocs);
		fprintf(f, "Cross-CPU frees: %" PRIu64 "/%" PRIu64 "\n",
		    t->cross_cpu_frees, t->frees_matched);
		fprintf(f, "Allocations: %" PRIu64 ", frees: %" PRIu64
		    " (%" PRIu64 " of memory allocated before the recording, "
		    "%" PRIu64 " kfree(NULL) ignored)\n", t->allocs, t->frees,
		    t->frees_unknown, t->kfree_null);
		fprintf(f, "Allocated again with no free recorded: %" PRIu64
		    "\n", t->realloc_live);
		fprintf(f, "Still allocated at the end: %" PRIu64 " objects, %"
		    PRIu64 " bytes\n", t->live, t->live_bytes);
		if (st->src->facts.recorder_thread != 0)
			fprintf(f, "Left out: %" PRIu64 " allocations of the "
			    "recorder's own thread %d (its copy of kallsyms)\n",
			    t->recorder_allocs, st->src->facts.recorder_thread);
		if (kmem_stats_stacks(st))
			fprintf(f, "Kernel stacks: %" PRIu64 " (%" PRIu64
			    " whose event was lost, %" PRIu64 " whose event "
			    "came before tracing began, %" PRIu64 " cut to %d "
			    "frames)\n", t->stack_events, t->stacks_unmatched,
			    t->stacks_early, t->stacks_cut, KMEM_MAX_FRAMES);

		fprintf(f, "\nMISUSE\n======\n");
		for (int k = 0; k < MISUSE_NKINDS; k++) {
			const struct kmem_misuse *m = &st->misuse[k];

			fprintf(f, "%s: %" PRIu64 "\n", misuse_text[k],
			    m->count);
			for (uint64_t i = 0; i < m->count &&
			    i < KMEM_MISUSE_EXAMPLES; i++)
				example_text(f, st, &m->example[i], k);
		}
	}
	if (page) {
		fprintf(f, "\nSUMMARY (page allocator)\n"
		    "========================\n");
		fprintf(f, "Total allocation requests     : %12" PRIu64
		    "   [ %12" PRIu64 " KB ]\n", t->page_allocs,
		    t->page_bytes_alloc / 1024);
		fprintf(f, "Total free requests           : %12" PRIu64
		    "   [ %12" PRIu64 " KB ]\n", t->page_frees,
		    t->page_bytes_free_all / 1024);
		fprintf(f, "Total alloc+freed requests    : %12" PRIu64
		    "   [ %12" PRIu64 " KB ]\n", t->page_alloc_freed,
		    t->page_bytes_freed / 1024);
		fprintf(f, "Total alloc-only requests     : %12" PRIu64
		    "   [ %12" PRIu64 " KB ]\n",
		    t->page_allocs - t->page_alloc_fail - t->page_alloc_freed,
		    (t->page_bytes_alloc - t->page_bytes_freed) / 1024);
		fprintf(f, "Total free-only requests      : %12" PRIu64
		    "   [ %12" PRIu64 " KB ]\n", t->page_free_unknown,
		    t->page_bytes_free_unknown / 1024);
		fprintf(f, "Total allocation failures     : %12" PRIu64 "\n",
		    t->page_alloc_fail);
	}
}

static struct json_object *
source_json(const struct kt_source *src, const struct kmem_stats *st)
{
	const struct kt_facts *k = &src->facts;
	struct json_object *o = tool_json_new(json_type_object);

	tool_json_set(o, "kind", json_object_new_string(src->kind));
	if (k->kernel[0] != '\0') {
		tool_json_set(o, "kernel", json_object_new_string(k->kernel));
		tool_json_set(o, "architecture",
		    json_object_new_string(k->architecture));
	}
	tool_json_set(o, "cpus", tool_json_uint((uint64_t)src->ncpus));
	if (k->clock[0] != '\0')
		tool_json_set(o, "trace-clock", json_object_new_string(k->clock));
	if (k->command[0] != '\0')
		tool_json_set(o, "command", json_object_new_string(k->command));
	if (k->caches[0] != '\0')
		tool_json_set(o, "caches", json_object_new_string(k->caches));
	if (k->stacks[0] != '\0')
		tool_json_set(o, "stacks", json_object_new_string(k->stacks));
	tool_json_set(o, "state", json_object_new_string(k->state));
	tool_json_set(o, "partial", json_object_new_boolean(k->partial));
	tool_json_set(o, "events", tool_json_uint(st->totals.events));
	tool_json_set(o, "duration-ns", tool_json_uint(st->totals.events == 0 ?
	    0 : st->totals.last_ts - st->totals.first_ts));
	return (o);
}

static struct json_object *
summary_json(const struct kmem_stats *st)
{
	const struct kmem_totals *t = &st->totals;
	struct json_object *o = tool_json_new(json_type_object);

	tool_json_set(o, "bytes-requested", tool_json_uint(t->bytes_req));
	tool_json_set(o, "bytes-allocated", tool_json_uint(t->bytes_alloc));
	tool_json_set(o, "bytes-freed", tool_json_uint(t->bytes_freed));
	tool_json_set(o, "bytes-net", json_object_new_int64(
	    (int64_t)(t->bytes_alloc - t->bytes_freed)));
	tool_json_set(o, "bytes-wasted", tool_json_uint(t->bytes_alloc -
	    t->bytes_req));
	tool_json_set(o, "fragmentation-percent", json_object_new_double(
	    percent(t->bytes_alloc - t->bytes_req, t->bytes_alloc)));
	tool_json_stat(o, "cross-node-allocations", t->cross_node,
	    st->src->facts.cpu_node != NULL);
	tool_json_set(o, "allocations", tool_json_uint(t->allocs));
	tool_json_set(o, "frees", tool_json_uint(t->frees));
	tool_json_set(o, "frees-matched", tool_json_uint(t->frees_matched));
	tool_json_set(o, "cross-cpu-frees", tool_json_uint(t->cross_cpu_frees));
	tool_json_set(o, "frees-before-recording",
	    tool_json_uint(t->frees_unknown));
	tool_json_set(o, "kfree-null", tool_json_uint(t->kfree_null));
	tool_json_set(o, "allocated-again-without-free",
	    tool_json_uint(t->realloc_live));
	tool_json_set(o, "live-objects", tool_json_uint(t->live));
	tool_json_set(o, "live-bytes", tool_json_uint(t->live_bytes));
	if (st->src->facts.recorder_thread != 0)
		tool_json_set(o, "recorder-allocations-left-out",
		    tool_json_uint(t->recorder_allocs));
	if (kmem_stats_stacks(st)) {
		tool_json_set(o, "stack-events", tool_json_uint(
		    t->stack_events));
		tool_json_set(o, "stacks-without-event", tool_json_uint(
		    t->stacks_unmatched));
		tool_json_set(o, "stacks-before-start", tool_json_uint(
		    t->stacks_early));
		tool_json_set(o, "stacks-cut", tool_json_uint(t->stacks_cut));
	}
	tool_json_set(o, "page-allocations", tool_json_uint(t->page_allocs));
	tool_json_set(o, "page-frees", tool_json_uint(t->page_frees));
	tool_json_set(o, "page-allocations-freed",
	    tool_json_uint(t->page_alloc_freed));
	tool_json_set(o, "page-frees-before-recording",
	    tool_json_uint(t->page_free_unknown));
	tool_json_set(o, "page-allocation-failures",
	    tool_json_uint(t->page_alloc_fail));
	tool_json_set(o, "page-bytes-allocated",
	    tool_json_uint(t->page_bytes_alloc));
	tool_json_set(o, "page-bytes-freed", tool_json_uint(t->page_bytes_freed));
	tool_json_set(o, "page-bytes-free-requests",
	    tool_json_uint(t->page_bytes_free_all));
	tool_json_set(o, "page-bytes-freed-before-recording",
	    tool_json_uint(t->page_bytes_free_unknown));
	return (o);
}

static struct json_object *
misuse_json(const struct kmem_stats *st)
{
	struct json_object *o = tool_json_new(json_type_object);

	for (int k = 0; k < MISUSE_NKINDS; k++) {
		const struct kmem_misuse *m = &st->misuse[k];
		struct json_object *a = tool_json_new(json_type_array);
		struct json_object *mo = tool_json_new(json_type_object);
		char site[160], ptr[24];

		tool_json_set(mo, "count", tool_json_uint(m->count));
		for (uint64_t i = 0; i < m->count && i < KMEM_MISUSE_EXAMPLES;
		    i++) {
			const struct kmem_misuse_example *x = &m->example[i];
			struct json_object *xo = tool_json_new(
			    json_type_object);

			snprintf(ptr, sizeof(ptr), "%#" PRIx64, x->ptr);
			tool_json_set(xo, "ptr", json_object_new_string(ptr));
			report_symbol(st, x->alloc_site, site, sizeof(site));
			tool_json_set(xo, "alloc-callsite",
			    json_object_new_string(site));
			if (k != MISUSE_SHORT) {
				report_symbol(st, x->free_site, site,
				    sizeof(site));
				tool_json_set(xo, "free-callsite",
				    json_object_new_string(site));
				tool_json_set(xo, "cpu",
				    tool_json_uint((uint64_t)x->cpu));
			}
			tool_json_set(xo, "bytes-req",
			    tool_json_uint(x->bytes_req));
			tool_json_set(xo, "bytes-alloc",
			    tool_json_uint(x->bytes_alloc));
			if (json_object_array_add(a, xo) != 0)
				abort();
		}
		tool_json_set(mo, "examples", a);
		tool_json_set(o, misuse_keys[k], mo);
	}
	return (o);
}

static int
cmp_pid(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x < y ? -1 : x > y);
}

/* "12,345": sorted, for the stats' bsearch. */
static size_t
parse_pids(const char *arg, int **pids)
{
	size_t n = 0;
	const char *p = arg;
	char *end;

	free(*pids);
	if ((*pids = calloc(strlen(arg) / 2 + 1, sizeof(**pids))) == NULL)
		err(1, "calloc");
	for (;;) {
		long v;

		errno = 0;
		v = strtol(p, &end, 10);
		if (end == p || errno != 0 || v < 0 || v > INT32_MAX ||
		    (*end != ',' && *end != '\0'))
			tool_usage_error("-p %s: process ids, comma "
			    "separated", arg);
		(*pids)[n++] = (int)v;
		if (*end == '\0')
			break;
		p = end + 1;
	}
	qsort(*pids, n, sizeof(**pids), cmp_pid);
	return (n);
}

/*
 * --outstanding: slab objects, or pages (--page, or a recording of pages
 * only).  by -1: slab objects by stack where stacks were recorded, else
 * by call site.
 */
static int
outstanding_report(const char *path, enum tool_style style,
    struct outstanding_options *o, int *pids, size_t npids)
{
	struct json_object *body;
	struct outstanding_model *model;
	struct outstanding_set set;
	struct kmem_stats st;
	struct kt_source src;
	struct kt_error e;
	struct tool_out out;
	bool slab, page;
	int rc;

	if (kt_source_open(&src, path, &e) != 0)
		errx(1, "%s", e.msg);
	if (kmem_stats_init(&st, &src, false, &e) != 0)
		errx(1, "%s: %s", path, e.msg);
	st.pids = pids;
	st.npids = npids;
	if (kmem_stats_gather(&st, &src, &e) != 0)
		errx(1, "%s", e.msg);
	slab = src.formats_recorded ? st.events.have_slab :
	    st.totals.slab_events > 0;
	page = src.formats_recorded ? st.events.have_page :
	    st.totals.page_events > 0;
	if (!slab && !page)
		no_kmem_events(&st, &src, path);
	if (!o->pages && !slab && page && o->ncaches == 0)
		o->pages = true;
	if (o->pages && !page)
		errx(1, "%s: no page events were recorded (kmemtrace record "
		    "-e page)", path);
	if (!o->pages && !slab)
		errx(1, "%s: no slab events were recorded (kmemtrace record "
		    "-e slab)", path);
	/* Pages by who asked for them, past the allocator; slab by stack. */
	if ((int)o->by < 0)
		o->by = kmem_stats_stacks(&st) && !o->pages ? BY_STACK :
		    BY_CALLSITE;
	if (kmem_events_need(&st.events, !o->pages, o->pages, o->by ==
	    BY_STACK, &e) != 0)
		errx(1, "%s: %s", path, e.msg);
	if (o->by == BY_STACK && !kmem_stats_stacks(&st))
		errx(1, "%s: no stacks were recorded (kmemtrace record -g); "
		    "--by callsite, pid or object", path);

	if (outstanding_from_recording(&set, &st, o->pages) != 0)
		errx(1, "out of memory");
	if ((model = outstanding_model_build(&set, o)) == NULL)
		errx(1, "out of memory");
	/* By object, text as large as the objects: not held whole. */
	if (style == STYLE_TEXT && !o->folded && o->by == BY_OBJECT)
		tool_out_init_streamed(&out);
	else
		tool_out_init(&out, style);
	if (o->folded)
		rc = report_outstanding_folded(out.text, model);
	else if (style != STYLE_TEXT) {
		body = tool_json_set(out.json, "kmemtrace",
		    tool_json_new(json_type_object));
		tool_json_set(body, "source", source_json(&src, &st));
		tool_json_set(body, "lost", recording_loss_json(&src));
		rc = report_outstanding_json(body, model);
	} else {
		header_text(out.text, &src, &st);
		rc = report_outstanding_text(out.text, model);
	}
	if (rc != 0)
		errx(1, "out of memory");
	tool_out_finish(&out);
	outstanding_model_free(model);
	outstanding_set_free(&set);
	kmem_stats_free(&st);
	kt_source_close(&src);
	return (0);
}

/* What the command line asks for. */
struct report_args {
	const char	*path, *sort, *core, *system;
	bool		 want[TABLE_COUNT], any;
	enum tool_style	 style;
	long		 limit;
	int		*pids;
	size_t		 npids;
	/* --outstanding */
	bool		 outstanding, folded;
	int		 by;
	double		 older;
	const char	*caches[RECORD_REPORT_CACHES];
	size_t		 ncaches;
};

static double
parse_older(const char *arg)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (*arg == '\0' || *end != '\0' || errno != 0 || !(v >= 0 && v < 1e9))
		tool_usage_error("--older %s: a number of seconds", arg);
	return (v);
}

static long
parse_limit(const char *arg)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (*arg == '\0' || *end != '\0' || errno != 0 || v < 0)
		tool_usage_error("-l %s: a number of lines", arg);
	return (v);
}

/* One option of the report's; getopt_long's ch and its optarg. */
static void
report_option(struct report_args *a, int ch, char *argv[])
{
	switch (ch) {
	case OPT_OUTSTANDING:
		a->outstanding = true;
		break;
	case OPT_FOLDED:
		a->folded = true;
		break;
	case OPT_BY:
		if ((a->by = report_outstanding_by(optarg)) < 0)
			tool_usage_error("--by %s: stack, callsite, pid or "
			    "object", optarg);
		break;
	case OPT_OLDER:
		a->older = parse_older(optarg);
		break;
	case 'c':
		if (a->ncaches == RECORD_REPORT_CACHES)
			tool_usage_error("-c: at most %d caches",
			    RECORD_REPORT_CACHES);
		a->caches[a->ncaches++] = optarg;
		break;
	case OPT_CALLER:
	case OPT_ALLOC:
	case OPT_CACHE:
	case OPT_PAGE:
		a->want[ch - OPT_CALLER] = a->any = true;
		break;
	case OPT_HELP:
		printf("%s", report_usage);
		exit(0);
	case 'l':
		a->limit = parse_limit(optarg);
		break;
	case 'p':
		a->npids = parse_pids(optarg, &a->pids);
		break;
	case 'M':
		a->core = optarg;
		break;
	case 'N':
		a->system = optarg;
		break;
	case 's':
		a->sort = optarg;
		break;
	case ':':
		tool_usage_error("option %s needs an argument",
		    argv[optind - 1]);
	default:
		if (optopt != 0 && optopt < 0x100)
			tool_usage_error("unknown option -%c", optopt);
		tool_usage_error("unknown option %s", argv[optind - 1]);
	}
}

static void
parse_report_args(int argc, char *argv[], struct report_args *a)
{
	static const struct option longopts[] = {
		{ "caller", no_argument, NULL, OPT_CALLER },
		{ "alloc", no_argument, NULL, OPT_ALLOC },
		{ "cache", no_argument, NULL, OPT_CACHE },
		{ "page", no_argument, NULL, OPT_PAGE },
		{ "help", no_argument, NULL, OPT_HELP },
		{ "outstanding", no_argument, NULL, OPT_OUTSTANDING },
		{ "by", required_argument, NULL, OPT_BY },
		{ "older", required_argument, NULL, OPT_OLDER },
		{ "folded", no_argument, NULL, OPT_FOLDED },
		{ NULL, 0, NULL, 0 }
	};
	int ch;

	*a = (struct report_args){ .path = "kmemtrace.data", .limit = -1,
	    .by = -1 };
	argc = tool_parse_libxo(argc, argv, &a->style);
	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":c:l:M:N:p:s:", longopts,
	    NULL)) != -1)
		report_option(a, ch, argv);
	if (optind < argc && a->core == NULL)
		a->path = argv[optind++];
	if (optind < argc)
		tool_usage_error("unexpected argument %s", argv[optind]);
}

/* The options that do not go together. */
static void
check_report_args(struct report_args *a)
{
	const bool *want = a->want;
	const char *bad;

	if (a->core == NULL && a->system != NULL)
		tool_usage_error("-N names the system of a core image (-M)");
	if (a->core != NULL && (!a->outstanding || want[TABLE_PAGE]))
		tool_usage_error("-M reads a core image's slab objects: "
		    "--outstanding, without --page");
	if (!a->outstanding && (a->by >= 0 || a->older > 0 ||
	    a->ncaches > 0 || a->folded))
		tool_usage_error("--by, --older, -c and --folded go with "
		    "--outstanding");
	if (a->folded && a->style != STYLE_TEXT)
		tool_usage_error("--folded writes folded stacks, not JSON");
	if (a->outstanding && (want[TABLE_CALLER] || want[TABLE_ALLOC] ||
	    want[TABLE_CACHE] || a->sort != NULL))
		tool_usage_error("--outstanding takes --page, not the tables' "
		    "options");
	if (a->outstanding && want[TABLE_PAGE] && a->ncaches > 0)
		tool_usage_error("-c chooses slab caches, not pages");
	if (a->outstanding)
		return;
	if (!a->any)
		a->want[TABLE_CALLER] = true;
	for (int t = 0; t < TABLE_COUNT; t++)
		if (want[t] && a->sort != NULL &&
		    (bad = report_sort_check(t, a->sort)) != NULL)
			tool_usage_error("-s %s: --%s tables sort by %s",
			    bad, t == TABLE_CALLER ? "caller" : t == TABLE_ALLOC ?
			    "alloc" : t == TABLE_CACHE ? "cache" : "page",
			    t == TABLE_PAGE ?
			    "order, migtype, gfp, hit, bytes, callsite" :
			    "callsite, ptr, name, bytes, hit, pingpong, frag");
}

/*
 * The tables a recording can give: what was recorded decides, by the
 * formats, or for a trace.dat (which has every event's) by the events
 * met.  Says why not and exits.
 */
static void
tables_possible(struct report_args *a, struct kmem_stats *st,
    struct kt_source *src, bool *slab, bool *page)
{
	bool *want = a->want;
	struct kt_error e;

	*slab = src->formats_recorded ? st->events.have_slab :
	    st->totals.slab_events > 0;
	*page = src->formats_recorded ? st->events.have_page :
	    st->totals.page_events > 0;
	if (!*slab && !*page)
		no_kmem_events(st, src, a->path);
	/* A page-only recording's default table is the page one. */
	if (!a->any && !*slab)
		want[TABLE_CALLER] = false, want[TABLE_PAGE] = true;
	if (want[TABLE_PAGE] && !*page)
		errx(1, "%s: no page events were recorded (kmemtrace record "
		    "-e page)", a->path);
	if ((want[TABLE_CALLER] || want[TABLE_ALLOC] || want[TABLE_CACHE]) &&
	    !*slab)
		errx(1, "%s: no slab events were recorded (kmemtrace record "
		    "-e slab)", a->path);
	if (kmem_events_need(&st->events, want[TABLE_CALLER] ||
	    want[TABLE_ALLOC] || want[TABLE_CACHE], want[TABLE_PAGE], false,
	    &e) != 0)
		errx(1, "%s: %s", a->path, e.msg);
}

/* The tables' report: the source's heading, each table, the summary. */
static void
tables_write(const struct report_args *a, struct kmem_stats *st,
    struct kt_source *src, bool slab, bool page)
{
	struct json_object *body = NULL;
	struct tool_out out;

	tool_out_init(&out, a->style);
	if (a->style != STYLE_TEXT) {
		body = tool_json_set(out.json, "kmemtrace",
		    tool_json_new(json_type_object));
		tool_json_set(body, "source", source_json(src, st));
		tool_json_set(body, "lost", recording_loss_json(src));
	} else
		header_text(out.text, src, st);
	for (int t = 0; t < TABLE_COUNT; t++) {
		const char *keys = a->sort != NULL ? a->sort :
		    report_sort_default(t);

		if (!a->want[t])
			continue;
		if (a->style != STYLE_TEXT)
			tool_json_set(body, report_table_key(t),
			    report_table_json(st, t, keys, a->limit));
		else {
			fputc('\n', out.text);
			report_table_text(out.text, st, t, keys, a->limit);
		}
	}
	if (a->style != STYLE_TEXT) {
		tool_json_set(body, "summary", summary_json(st));
		if (slab)
			tool_json_set(body, "misuse", misuse_json(st));
	} else
		summary_text(out.text, st, slab, page);
	tool_out_finish(&out);
}

static int
tables_report(struct report_args *a)
{
	struct kmem_stats st;
	struct kt_source src;
	struct kt_error e;
	bool slab, page;

	if (kt_source_open(&src, a->path, &e) != 0)
		errx(1, "%s", e.msg);
	/* What the events say is wrong is said of the recording. */
	if (kmem_stats_init(&st, &src, a->want[TABLE_ALLOC], &e) != 0)
		errx(1, "%s: %s", a->path, e.msg);
	st.pids = a->pids;
	st.npids = a->npids;
	if (kmem_stats_gather(&st, &src, &e) != 0)
		errx(1, "%s", e.msg);
	tables_possible(a, &st, &src, &slab, &page);
	tables_write(a, &st, &src, slab, page);
	kmem_stats_free(&st);
	kt_source_close(&src);
	return (0);
}

int
kmemtrace_report(int argc, char *argv[])
{
	struct report_args a;
	int rc;

	parse_report_args(argc, argv, &a);
	check_report_args(&a);
	struct outstanding_options o = { .by = a.by,
	    .pages = a.want[TABLE_PAGE], .older_ns = (uint64_t)(a.older * 1e9),
	    .caches = a.caches, .ncaches = a.ncaches, .limit = a.limit,
	    .folded = a.folded };
	if (a.core != NULL) {
		o.pages = false;
		report_dump(a.core, a.system, a.style, &o, a.pids, a.npids);
		rc = 0;
	} else if (a.outstanding)
		rc = outstanding_report(a.path, a.style, &o, a.pids, a.npids);
	else
		rc = tables_report(&a);
	free(a.pids);
	return (rc);
}
