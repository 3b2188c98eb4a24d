/*
 * recording_loss.c: loss, per CPU, from the kernel's stats (overrun, commit
 * overrun, dropped events) and from the pages flagged "events missed".
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "recording_loss.h"
#include "source_dir.h"
#include "tool_output.h"

static bool
known(uint64_t v)
{
	return (v != KT_UNKNOWN);
}

static bool
cpu_lost(const struct kt_loss *l)
{
	return ((known(l->overrun) && l->overrun != 0) ||
	    (known(l->commit_overrun) && l->commit_overrun != 0) ||
	    (known(l->dropped) && l->dropped != 0) || l->missed_pages != 0);
}

void
recording_loss_text(FILE *f, const struct kt_source *src)
{
	bool any = false, stats = false;

	for (int cpu = 0; cpu < src->ncpus; cpu++) {
		const struct kt_loss *l = &src->loss[cpu];
		const char *sep = "";

		if (known(l->dropped))
			stats = true;
		if (!cpu_lost(l))
			continue;
		fprintf(f, "%scpu%d:", any ? "; " : "", cpu);
		any = true;
		if (known(l->dropped) && l->dropped != 0) {
			fprintf(f, " %" PRIu64 " events dropped", l->dropped);
			sep = ",";
		}
		if (known(l->overrun) && l->overrun != 0) {
			fprintf(f, "%s %" PRIu64 " overwritten", sep,
			    l->overrun);
			sep = ",";
		}
		if (known(l->commit_overrun) && l->commit_overrun != 0) {
			fprintf(f, "%s %" PRIu64 " commit overruns", sep,
			    l->commit_overrun);
			sep = ",";
		}
		if (l->missed_pages != 0) {
			fprintf(f, "%s %" PRIu64 " pages after missed events",
			    sep, l->missed_pages);
			if (l->missed_uncounted)
				fprintf(f, " (%s%" PRIu64 " events)",
				    "at least ", l->missed_events);
			else
				fprintf(f, " (%" PRIu64 " events)",
				    l->missed_events);
		}
	}
	if (!any)
		fprintf(f, "%s", stats ? "none" : "no page flagged missed "
		    "events; the per-CPU stats were not recorded");
	fputc('\n', f);
}

static void
json_count(struct json_object *o, const char *key, uint64_t v)
{
	tool_json_stat(o, key, v, known(v));
}

struct json_object *
recording_loss_json(const struct kt_source *src)
{
	struct json_object *a = tool_json_new(json_type_array);

	for (int cpu = 0; cpu < src->ncpus; cpu++) {
		const struct kt_loss *l = &src->loss[cpu];
		struct json_object *o = tool_json_new(json_type_object);

		tool_json_set(o, "cpu", tool_json_uint((uint64_t)cpu));
		json_count(o, "dropped", l->dropped);
		json_count(o, "overrun", l->overrun);
		json_count(o, "commit-overrun", l->commit_overrun);
		tool_json_set(o, "missed-pages", tool_json_uint(
		    l->missed_pages));
		tool_json_set(o, "missed-events", tool_json_uint(
		    l->missed_events));
		tool_json_set(o, "missed-uncounted",
		    json_object_new_boolean(l->missed_uncounted));
		if (json_object_array_add(a, o) != 0)
			abort();
	}
	return (a);
}

void
recording_loss_summary(FILE *f, const char *path)
{
	char size[TOOL_HUMAN_LEN];
	struct kt_source src;
	struct kt_error e;
	uint64_t bytes = 0;

	if (kt_recording_loss(&src, path, &bytes, &e) != 0) {
		fprintf(f, "kmemtrace: %s\n", e.msg);
		kt_source_close(&src);
		return;
	}
	fprintf(f, "kmemtrace: recorded %s on %d CPUs into %s; lost: ",
	    tool_humanize(size, bytes), src.ncpus, path);
	recording_loss_text(f, &src);
	kt_source_close(&src);
}
