/*
 * zone_cgroups.c: vmstat-z -C, the slab caches by memory cgroup: a row
 * per cgroup, parents first, with what it and its descendants are
 * charged (MEMORY, SLAB), the slab objects charged to it alone (OBJECTS,
 * BYTES; of them INHERITED, from removed cgroups the kernel moved up to
 * it) and its dying descendants (DYING).  -n counts only the caches it
 * names: a cache's split by cgroup.  A dump walks each object's owner;
 * the live kernel and saved trees have memory.stat's totals alone, the
 * rest "-" (null in JSON).  With -w or --replay (trees and dumps of one
 * machine, each timed by its own clock), the first look's table, then
 * each look what grew or shrank, cgroup by cgroup: what grew.
 */
#include <err.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memstat.h"
#include "tool_options.h"
#include "tool_output.h"
#include "tool_prom.h"
#include "tool_source.h"
#include "tool_watch.h"
#include "zone_cgroups.h"

/* One cgroup's row, the caches -n names summed. */
struct cgroup_row {
	uint64_t	 objects, bytes, inherited;
	uint64_t	 tree_bytes;	/* it and its descendants' */
	uint64_t	 dying;		/* dying descendants */
	int64_t		 stocked;	/* held back from its memory.stat,
					   it and its descendants' */
};

/* A look's numbers of one cgroup, kept for the next look's changes. */
struct kept {
	char		*path;
	uint64_t	 memory, slab, objects;	/* UINT64_MAX: unknown */
	uint64_t	 dying;
};

struct looks {
	struct kept	*v;
	size_t		 n;
};

static bool
cache_named(const struct tool_options *opts, const char *name)
{
	if (opts->nnames == 0)
		return (true);
	for (size_t i = 0; i < opts->nnames; i++)
		if (fnmatch(opts->names[i], name, 0) == 0)
			return (true);
	return (false);
}

/*
 * STOCKED: what the CPUs hold back from memory.stat is the whole
 * cgroup's, so a split by cache (-n) has none.
 */
static bool
stocked_known(const struct memstat_cgroups *cg,
    const struct tool_options *opts)
{
	return (opts->nnames == 0 && memstat_cgroups_stocked_unknown(cg) ==
	    NULL);
}

/*
 * The rows: own counts, then, children after parents, each added to its
 * ancestors' tree bytes and dying counts (the source's, where it keeps
 * them: memory.stat is hierarchical already).
 */
static struct cgroup_row *
rows_of(const struct memstat_cgroups *cg, const struct tool_options *opts)
{
	size_t n = memstat_cgroups_count(cg), p;
	struct cgroup_row *r;

	if ((r = calloc(n + 1, sizeof(*r))) == NULL)
		err(1, "cgroups");
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < memstat_cgroup_caches(cg, i); j++) {
			if (!cache_named(opts, memstat_cgroup_cache_name(cg,
			    i, j)))
				continue;
			r[i].objects += memstat_cgroup_cache_objects(cg, i, j);
			r[i].bytes += memstat_cgroup_cache_bytes(cg, i, j);
			r[i].inherited += memstat_cgroup_cache_inherited(cg,
			    i, j);
		}
		r[i].tree_bytes = r[i].bytes;
		if (stocked_known(cg, opts))
			r[i].stocked = memstat_cgroup_stocked(cg, i);
	}
	for (size_t i = n; i-- > 0;) {
		if ((p = memstat_cgroup_parent(cg, i)) >= n)
			continue;
		r[p].tree_bytes += r[i].tree_bytes;
		r[p].stocked += r[i].stocked;
		r[p].dying += r[i].dying + (memstat_cgroup_dying(cg, i) != 0);
	}
	return (r);
}

/* SLAB and DYING: walked (summed here), or the source's own. */
static uint64_t
slab_of(const struct memstat_cgroups *cg, const struct cgroup_row *r,
    size_t i)
{
	return (memstat_cgroups_walked(cg) ? r[i].tree_bytes :
	    memstat_cgroup_stat_slab(cg, i));
}

static uint64_t
dying_of(const struct memstat_cgroups *cg, const struct cgroup_row *r,
    size_t i)
{
	return (memstat_cgroups_walked(cg) ? r[i].dying :
	    memstat_cgroup_dying_below(cg, i));
}

static void
cell(FILE *f, int width, uint64_t v, bool known, bool human)
{
	char buf[TOOL_HUMAN_LEN];

	if (!known)
		fprintf(f, " %*s", width, "-");
	else if (human)
		fprintf(f, " %*s", width, tool_humanize(buf, v));
	else
		fprintf(f, " %*ju", width, (uintmax_t)v);
}

/* A signed byte count (human: its size, signed). */
static void
bytes_cell(FILE *f, int width, int64_t v, bool known, bool human)
{
	char buf[TOOL_HUMAN_LEN + 1];

	if (!known)
		fprintf(f, " %*s", width, "-");
	else if (human) {
		buf[0] = '-';
		tool_humanize(buf + 1, v < 0 ? -(uint64_t)v : (uint64_t)v);
		fprintf(f, " %*s", width, v < 0 ? buf : buf + 1);
	} else
		fprintf(f, " %*jd", width, (intmax_t)v);
}

static void
write_text(FILE *f, const struct memstat_cgroups *cg,
    const struct cgroup_row *r, const struct tool_options *opts)
{
	bool walked = memstat_cgroups_walked(cg) != 0, human = opts->human;
	bool stocked = stocked_known(cg, opts);

	fprintf(f, "%-32s %-6s %10s %10s %8s %9s %10s %9s %5s\n", "CGROUP",
	    "STATE", "MEMORY", "SLAB", "STOCKED", "OBJECTS", "BYTES",
	    "INHERITED", "DYING");
	for (size_t i = 0; i < memstat_cgroups_count(cg); i++) {
		uint64_t mem = memstat_cgroup_memory(cg, i);
		uint64_t slab = slab_of(cg, r, i), dying = dying_of(cg, r, i);

		fprintf(f, "%-32s %-6s", memstat_cgroup_path(cg, i),
		    memstat_cgroup_dying(cg, i) ? "dying" : "online");
		cell(f, 10, mem, mem != UINT64_MAX, human);
		cell(f, 10, slab, slab != UINT64_MAX, human);
		bytes_cell(f, 8, r[i].stocked, stocked, human);
		cell(f, 9, r[i].objects, walked, false);
		cell(f, 10, r[i].bytes, walked, human);
		cell(f, 9, r[i].inherited, walked, false);
		cell(f, 5, dying, dying != UINT64_MAX, false);
		fputc('\n', f);
	}
}

static void
write_json(struct json_object *top, const struct memstat_cgroups *cg,
    const struct cgroup_row *r, const struct tool_options *opts)
{
	struct json_object *stats, *list, *c, *caches, *o;
	bool walked = memstat_cgroups_walked(cg) != 0;

	stats = tool_json_set(top, "memory-cgroup-statistics",
	    tool_json_new(json_type_object));
	if (memstat_cgroups_left_out(cg) != NULL)
		tool_json_set(stats, "left-out", json_object_new_string(
		    memstat_cgroups_left_out(cg)));
	list = tool_json_set(stats, "cgroup", tool_json_new(json_type_array));
	for (size_t i = 0; i < memstat_cgroups_count(cg); i++) {
		uint64_t mem = memstat_cgroup_memory(cg, i);
		uint64_t slab = slab_of(cg, r, i), dying = dying_of(cg, r, i);

		c = tool_json_new(json_type_object);
		tool_json_set(c, "path", json_object_new_string(
		    memstat_cgroup_path(cg, i)));
		tool_json_set(c, "dying", json_object_new_boolean(
		    memstat_cgroup_dying(cg, i) != 0));
		tool_json_stat(c, "memory", mem, mem != UINT64_MAX);
		tool_json_stat(c, "slab", slab, slab != UINT64_MAX);
		if (stocked_known(cg, opts))
			tool_json_set(c, "stocked", tool_json_new_int(
			    r[i].stocked));
		else
			tool_json_stat(c, "stocked", 0, false);
		tool_json_stat(c, "objects", r[i].objects, walked);
		tool_json_stat(c, "bytes", r[i].bytes, walked);
		tool_json_stat(c, "inherited", r[i].inherited, walked);
		tool_json_stat(c, "dying_descendants", dying,
		    dying != UINT64_MAX);
		if (walked) {
			caches = tool_json_set(c, "caches",
			    tool_json_new(json_type_array));
			for (size_t j = 0; j < memstat_cgroup_caches(cg, i);
			    j++) {
				const char *name = memstat_cgroup_cache_name(cg,
				    i, j);

				if (!cache_named(opts, name))
					continue;
				o = tool_json_new(json_type_object);
				tool_json_set(o, "name",
				    json_object_new_string(name));
				tool_json_set(o, "objects", tool_json_uint(
				    memstat_cgroup_cache_objects(cg, i, j)));
				tool_json_set(o, "bytes", tool_json_uint(
				    memstat_cgroup_cache_bytes(cg, i, j)));
				tool_json_set(o, "inherited", tool_json_uint(
				    memstat_cgroup_cache_inherited(cg, i, j)));
				if (json_object_array_add(caches, o) != 0)
					errx(1, "JSON: out of memory");
			}
		}
		if (json_object_array_add(list, c) != 0)
			errx(1, "JSON: out of memory");
	}
}

/* A family with a sample per cgroup and cache -n names. */
static void
prom_per_cache(struct tool_prom *p, const struct memstat_cgroups *cg,
    const struct tool_options *opts, const char *family, const char *help,
    uint64_t (*value)(const struct memstat_cgroups *, size_t, size_t))
{
	const char *labels[4] = { "cgroup", NULL, "zone", NULL };

	tool_prom_family(p, family, help);
	for (size_t i = 0; i < memstat_cgroups_count(cg); i++)
		for (size_t j = 0; j < memstat_cgroup_caches(cg, i); j++) {
			labels[1] = memstat_cgroup_path(cg, i);
			labels[3] = memstat_cgroup_cache_name(cg, i, j);
			if (cache_named(opts, labels[3]))
				tool_prom_sample_uint(p, labels, 2,
				    value(cg, i, j));
		}
}

static void
write_prom(const struct memstat_cgroups *cg, const struct cgroup_row *r,
    const struct tool_options *opts)
{
	struct tool_prom p;
	const char *labels[4];
	size_t n = memstat_cgroups_count(cg);

	tool_prom_init(&p);
	labels[0] = "cgroup";
	tool_prom_family(&p, "memstat_cgroup_memory_bytes",
	    "Memory charged to a cgroup and its descendants");
	for (size_t i = 0; i < n; i++)
		if (memstat_cgroup_memory(cg, i) != UINT64_MAX) {
			labels[1] = memstat_cgroup_path(cg, i);
			tool_prom_sample_uint(&p, labels, 1,
			    memstat_cgroup_memory(cg, i));
		}
	tool_prom_family(&p, "memstat_cgroup_slab_bytes",
	    "Slab memory charged to a cgroup and its descendants");
	for (size_t i = 0; i < n; i++)
		if (slab_of(cg, r, i) != UINT64_MAX) {
			labels[1] = memstat_cgroup_path(cg, i);
			tool_prom_sample_uint(&p, labels, 1, slab_of(cg, r, i));
		}
	tool_prom_family(&p, "memstat_cgroup_stocked_bytes",
	    "Slab bytes of a cgroup and its descendants the CPUs hold back "
	    "from memory.stat");
	for (size_t i = 0; i < n && stocked_known(cg, opts); i++) {
		labels[1] = memstat_cgroup_path(cg, i);
		tool_prom_sample_int(&p, labels, 1, r[i].stocked);
	}
	tool_prom_family(&p, "memstat_cgroup_dying",
	    "1 for a removed cgroup the kernel still holds");
	for (size_t i = 0; i < n && memstat_cgroups_walked(cg); i++) {
		labels[1] = memstat_cgroup_path(cg, i);
		tool_prom_sample_uint(&p, labels, 1,
		    memstat_cgroup_dying(cg, i) != 0);
	}
	tool_prom_family(&p, "memstat_cgroup_dying_descendants",
	    "Removed cgroups below a cgroup the kernel still holds");
	for (size_t i = 0; i < n; i++)
		if (dying_of(cg, r, i) != UINT64_MAX) {
			labels[1] = memstat_cgroup_path(cg, i);
			tool_prom_sample_uint(&p, labels, 1, dying_of(cg, r, i));
		}
	/* A sample per cgroup and cache: the per-cache split. */
	prom_per_cache(&p, cg, opts, "memstat_cgroup_zone_used_items",
	    "Slab objects of a cache charged to a cgroup itself",
	    memstat_cgroup_cache_objects);
	prom_per_cache(&p, cg, opts, "memstat_cgroup_zone_bytes",
	    "Bytes the kernel charged a cgroup itself for a cache's objects",
	    memstat_cgroup_cache_bytes);
	tool_prom_write(&p, opts->prometheus);
}

static int
cmp_kept(const void *a, const void *b)
{
	return (strcmp(((const struct kept *)a)->path,
	    ((const struct kept *)b)->path));
}

static void
looks_free(struct looks *k)
{
	for (size_t i = 0; i < k->n; i++)
		free(k->v[i].path);
	free(k->v);
	k->v = NULL;
	k->n = 0;
}

/* This look's numbers, sorted by path, in place of the last look's. */
static void
looks_keep(struct looks *k, const struct memstat_cgroups *cg,
    const struct cgroup_row *r)
{
	looks_free(k);
	k->n = memstat_cgroups_count(cg);
	if ((k->v = calloc(k->n + 1, sizeof(*k->v))) == NULL)
		err(1, "cgroups");
	for (size_t i = 0; i < k->n; i++) {
		if ((k->v[i].path = strdup(memstat_cgroup_path(cg, i))) == NULL)
			err(1, "cgroups");
		k->v[i].memory = memstat_cgroup_memory(cg, i);
		k->v[i].slab = slab_of(cg, r, i);
		k->v[i].objects = memstat_cgroups_walked(cg) ? r[i].objects :
		    UINT64_MAX;
		k->v[i].dying = dying_of(cg, r, i);
	}
	qsort(k->v, k->n, sizeof(*k->v), cmp_kept);
}

/* The change of one number, or unknown when either look lacks it. */
static bool
change(uint64_t was, uint64_t now, int64_t *d)
{
	if (was == UINT64_MAX || now == UINT64_MAX)
		return (false);
	*d = (int64_t)(now - was);
	return (true);
}

static void
json_change(struct json_object *c, const char *key, int64_t d, bool known)
{
	if (known)
		tool_json_set(c, key, tool_json_new_int(d));
	else
		tool_json_stat(c, key, 0, false);
}

static void
signed_cell(FILE *f, int width, int64_t d, bool known)
{
	if (!known)
		fprintf(f, " %*s", width, "-");
	else
		fprintf(f, " %+*jd", width, (intmax_t)d);
}

/*
 * What changed since the last look, cgroup by cgroup (a cgroup new
 * since then counts from 0): MEMORY and SLAB with their changes and the
 * slab's rate per second, OBJECTS and its change.
 */
static void
write_changes(struct tool_out *out, const struct memstat_cgroups *cg,
    const struct cgroup_row *r, const struct looks *last, double dt)
{
	struct json_object *list = NULL, *c;
	struct kept key, *was;
	static const struct kept none = { NULL, 0, 0, 0, 0 };

	if (out->json != NULL)
		list = tool_json_set(tool_json_set(out->json,
		    "memory-cgroup-changes", tool_json_new(json_type_object)),
		    "cgroup", tool_json_new(json_type_array));
	else
		fprintf(out->text, "%-32s %-6s %10s %10s %10s %10s %10s "
		    "%9s %9s %5s\n", "CGROUP", "STATE", "MEMORY", "+MEMORY",
		    "SLAB", "+SLAB", "SLAB/s", "OBJECTS", "+OBJECTS", "DYING");
	for (size_t i = 0; i < memstat_cgroups_count(cg); i++) {
		uint64_t mem = memstat_cgroup_memory(cg, i);
		uint64_t slab = slab_of(cg, r, i);
		uint64_t objects = memstat_cgroups_walked(cg) ? r[i].objects :
		    UINT64_MAX, dying = dying_of(cg, r, i);
		int64_t dm = 0, ds = 0, dobj = 0;
		bool km, ks, ko;

		key.path = (char *)memstat_cgroup_path(cg, i);
		if ((was = bsearch(&key, last->v, last->n, sizeof(*last->v),
		    cmp_kept)) == NULL)
			was = (struct kept *)&none;
		km = change(was->memory, mem, &dm);
		ks = change(was->slab, slab, &ds);
		ko = change(was->objects, objects, &dobj);
		if (dm == 0 && ds == 0 && dobj == 0 && was != &none &&
		    dying == was->dying)
			continue;
		if (list != NULL) {
			c = tool_json_new(json_type_object);
			tool_json_set(c, "path", json_object_new_string(
			    key.path));
			tool_json_set(c, "dying", json_object_new_boolean(
			    memstat_cgroup_dying(cg, i) != 0));
			tool_json_stat(c, "memory", mem, mem != UINT64_MAX);
			json_change(c, "memory_change", dm, km);
			tool_json_stat(c, "slab", slab, slab != UINT64_MAX);
			json_change(c, "slab_change", ds, ks);
			if (ks && dt > 0)
				tool_json_set(c, "slab_rate",
				    tool_json_new_double((double)ds / dt));
			else
				tool_json_stat(c, "slab_rate", 0, false);
			tool_json_stat(c, "objects", objects,
			    objects != UINT64_MAX);
			json_change(c, "objects_change", dobj, ko);
			tool_json_stat(c, "dying_descendants", dying,
			    dying != UINT64_MAX);
			if (json_object_array_add(list, c) != 0)
				errx(1, "JSON: out of memory");
			continue;
		}
		fprintf(out->text, "%-32s %-6s", key.path,
		    memstat_cgroup_dying(cg, i) ? "dying" : "online");
		cell(out->text, 10, mem, mem != UINT64_MAX, false);
		signed_cell(out->text, 10, dm, km);
		cell(out->text, 10, slab, slab != UINT64_MAX, false);
		signed_cell(out->text, 10, ds, ks);
		if (ks && dt > 0)
			fprintf(out->text, " %+10.1f", (double)ds / dt);
		else
			fprintf(out->text, " %10s", "-");
		cell(out->text, 9, objects, objects != UINT64_MAX, false);
		signed_cell(out->text, 9, dobj, ko);
		cell(out->text, 5, dying, dying != UINT64_MAX, false);
		fputc('\n', out->text);
	}
}

int
zone_cgroups_run(const struct tool_options *opts)
{
	struct looks last = { NULL, 0 };
	struct memstat_cgroups *cg;
	struct cgroup_row *r;
	struct tool_watch w;
	struct tool_error e;
	struct tool_out out;
	int rc;

	if ((cg = memstat_cgroups_alloc()) == NULL)
		err(1, "memstat_cgroups_alloc");
	tool_watch_open(&w, opts);
	while (tool_watch_next(&w)) {
		/* Nothing left behind by the exits below: e holds the why. */
		if ((rc = tool_source_cgroups(w.src, cg, &e)) != 0) {
			memstat_cgroups_free(cg);
			looks_free(&last);
		}
		if (rc == TOOL_ABSENT)
			tool_source_absent(w.src, "cgroups",
			    "memory cgroups");
		if (rc != 0)
			tool_query_failed(w.src, "cgroups", &e);
		/* Said once: the look's table says "-" each time. */
		if (w.n == 1 && memstat_cgroups_walked(cg) &&
		    opts->nnames == 0 && memstat_cgroups_stocked_unknown(cg))
			warnx("what the CPUs hold back from memory.stat is "
			    "unknown: %s", memstat_cgroups_stocked_unknown(cg));
		if (w.n == 1 && memstat_cgroups_left_out(cg) != NULL)
			warnx("%s", memstat_cgroups_left_out(cg));
		r = rows_of(cg, opts);
		if (opts->prometheus != NULL)
			write_prom(cg, r, opts);
		else {
			if (w.n > 1 && opts->style == STYLE_TEXT)
				putchar('\n');
			tool_out_init(&out, opts->style);
			if (w.n > 1)
				write_changes(&out, cg, r, &last, w.dt);
			else if (out.json != NULL)
				write_json(out.json, cg, r, opts);
			else
				write_text(out.text, cg, r, opts);
			tool_watch_stamp(&w, out.json);
			tool_out_finish(&out);
		}
		looks_keep(&last, cg, r);
		free(r);
	}
	looks_free(&last);
	memstat_cgroups_free(cg);
	tool_watch_close(&w);
	return (0);
}
