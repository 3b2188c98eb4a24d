/*
 * source_tracedat.c: trace-cmd's trace.dat as a source, through
 * libtracecmd, which holds the formats, kallsyms, cmdlines and pages and
 * merges the CPUs.  It reads the pages with its own kbuffer: unlike a
 * recording's, they are not checked here first (kmemtrace(8), BUGS).
 */
#include <stdlib.h>
#include <string.h>

#include <trace-cmd.h>

#include "recording.h"
#include "source_tracedat.h"

struct tracedat {
	struct tracecmd_input *handle;
	struct kt_source *src;
	kt_record_fn	 fn;
	void		*arg;
};

static int
each_record(struct tracecmd_input *handle, struct tep_record *record,
    int cpu, void *arg)
{
	struct tracedat *t = arg;
	struct kt_record rec;

	(void)handle;
	if (cpu < 0 || cpu >= t->src->ncpus || record->size < 0)
		return (0);
	if (record->missed_events != 0) {
		struct kt_loss *l = &t->src->loss[cpu];

		l->missed_pages++;
		if (record->missed_events > 0)
			l->missed_events += (uint64_t)record->missed_events;
		else
			l->missed_uncounted = true;
	}
	rec = (struct kt_record){ .cpu = cpu, .ts = record->ts,
	    .data = record->data, .size = (size_t)record->size,
	    .after_loss = record->missed_events != 0 };
	return (t->fn(&rec, t->arg));
}

static int
tracedat_each(struct kt_source *src, kt_record_fn fn, void *arg,
    struct kt_error *e)
{
	struct tracedat *t = src->impl;
	int rc;

	t->src = src;
	t->fn = fn;
	t->arg = arg;
	rc = tracecmd_iterate_events(t->handle, NULL, 0, each_record, t);
	return (rc < 0 ? kt_fail(e, "the trace.dat's events are unreadable") :
	    rc);
}

static void
tracedat_close(struct kt_source *src)
{
	struct tracedat *t = src->impl;

	if (t == NULL)
		return;
	/* The tep_handle is the input's. */
	src->tep = NULL;
	if (t->handle != NULL)
		tracecmd_close(t->handle);
	free(t);
	src->impl = NULL;
}

static const struct kt_source_ops tracedat_ops = {
	.each = tracedat_each,
	.close = tracedat_close,
};

int
kt_tracedat_open(struct kt_source *src, const char *path, struct kt_error *e)
{
	struct kt_facts *f = &src->facts;
	struct tracedat *t;

	if ((t = calloc(1, sizeof(*t))) == NULL)
		return (kt_fail(e, "out of memory"));
	src->impl = t;
	src->ops = &tracedat_ops;
	src->kind = "trace.dat";
	tracecmd_set_loglevel(TEP_LOG_NONE);
	tep_set_loglevel(TEP_LOG_NONE);
	t->handle = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS |
	    TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	if (t->handle == NULL)
		return (kt_fail(e, "%s: a trace.dat libtracecmd cannot read",
		    path));
	src->tep = tracecmd_get_tep(t->handle);
	src->ncpus = tep_get_cpus(src->tep);
	if (src->ncpus < 1 || src->ncpus > RECORDING_MAX_CPUS)
		return (kt_fail(e, "%s: %d CPUs", path, src->ncpus));
	if ((src->loss = calloc((size_t)src->ncpus, sizeof(*src->loss))) ==
	    NULL)
		return (kt_fail(e, "out of memory"));
	/* trace.dat keeps no per-CPU stats that libtracecmd gives out. */
	for (int cpu = 0; cpu < src->ncpus; cpu++)
		src->loss[cpu].overrun = src->loss[cpu].commit_overrun =
		    src->loss[cpu].dropped = KT_UNKNOWN;
	f->long_size = tep_get_long_size(src->tep);
	f->big_endian = tep_is_file_bigendian(src->tep);
	f->page_size = tep_get_page_size(src->tep);
	strlcpy(f->state, "complete", sizeof(f->state));
	return (0);
}
