/*
 * report_outstanding.c: kmemtrace report --outstanding written from its
 * model (outstanding_model.c): text, Akaros's slab_trace form by object,
 * folded stacks, or JSON.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kmem_frames.h"
#include "outstanding_model.h"
#include "report_outstanding.h"
#include "tool_output.h"

#define LIST_SHOWN	4	/* caches, pids a group names in text */

static const char *const by_names[] = { "stack", "callsite", "pid",
    "object" };

int
report_outstanding_by(const char *name)
{
	for (size_t i = 0; i < sizeof(by_names) / sizeof(*by_names); i++)
		if (strcmp(name, by_names[i]) == 0)
			return ((int)i);
	return (-1);
}

/* ---- text ---- */

static void
list_text(FILE *f, const struct outstanding_model *m, const struct group *g,
    bool pids)
{
	size_t n;
	const struct tally *t = outstanding_tally(m, g, pids, &n);
	char name[128];

	for (size_t i = 0; i < n && i < LIST_SHOWN; i++) {
		outstanding_tally_name(m, &t[i], pids, name, sizeof(name));
		fprintf(f, "%s%s (%" PRIu64 ")", i > 0 ? ", " : "", name,
		    t[i].count);
	}
	if (n > LIST_SHOWN)
		fprintf(f, ", %zu more", n - LIST_SHOWN);
}

static void
frames_text(FILE *f, const struct outstanding_model *m, uint32_t stack)
{
	const uint64_t *fr;
	size_t n;
	char sym[160];

	fr = outstanding_frames(m->set, stack, &n);
	if (n == 0) {
		fprintf(f, " (no stack recorded)\n");
		return;
	}
	for (size_t i = 0; i < n; i++) {
		kmem_frames_symbol(m->set->tep, fr[i], sym, sizeof(sym));
		fprintf(f, " #%02zu [<%#018" PRIx64 ">] in %s\n", i + 1, fr[i],
		    sym);
	}
}

static void
marks_text(FILE *f, const struct group *g)
{
	if (g->lost > 0)
		fprintf(f, "   ? %zu of them could have been freed by a lost "
		    "event\n", g->lost);
	if (g->untraced > 0)
		fprintf(f, "   ~ %zu of them are in a cache that frees without "
		    "trace events\n", g->untraced);
}

static void
group_line(FILE *f, const struct outstanding_model *m, const struct group *g)
{
	char sym[160], pid[128];

	switch (m->o->by) {
	case BY_STACK:
		fprintf(f, "%" PRIu64 " bytes in %zu allocation%s from stack",
		    g->bytes, g->n, g->n == 1 ? "" : "s");
		break;
	case BY_CALLSITE:
		if (m->o->pages && g->k1 == 0)
			snprintf(sym, sizeof(sym), "(no stack recorded)");
		else
			kmem_frames_symbol(m->set->tep, g->k1, sym,
			    sizeof(sym));
		fprintf(f, "%" PRIu64 " bytes in %zu allocation%s from %s",
		    g->bytes, g->n, g->n == 1 ? "" : "s", sym);
		break;
	case BY_PID:
		outstanding_tally_name(m, &(struct tally){ .key = g->k1,
		    .key2 = g->k2 }, true, pid, sizeof(pid));
		fprintf(f, "PID %s: %" PRIu64 " bytes in %zu allocation%s",
		    pid, g->bytes, g->n, g->n == 1 ? "" : "s");
		break;
	case BY_OBJECT:
		break;
	}
	fprintf(f, "\n   %s", m->o->pages ? "" : "caches ");
	list_text(f, m, g, false);
	if (m->o->by != BY_PID) {
		fprintf(f, "; pids ");
		list_text(f, m, g, true);
	}
	fprintf(f, "\n   age %.6f to %.6f s\n", outstanding_age(m, g->newest),
	    outstanding_age(m, g->oldest));
	marks_text(f, g);
	if (m->o->by == BY_STACK)
		frames_text(f, m, (uint32_t)g->k1);
}

/* Akaros's form: per cache, every object, its task and its stack. */
static void
objects_text(FILE *f, const struct outstanding_model *m)
{
	long shown = 0;

	for (size_t gi = 0; gi < m->ngroups; gi++) {
		const struct group *g = &m->groups[gi];
		struct kmem_live buf;
		const struct kmem_live *first = outstanding_live(m,
		    m->items[g->first].live, &buf);
		struct tally t = { .key = m->o->pages ? first->order :
		    first->cache };
		char name[128];

		outstanding_tally_name(m, &t, false, name, sizeof(name));
		fprintf(f, "\nDumping outstanding allocs from %s\n"
		    "-------------------------\n", name);
		for (size_t i = 0; i < g->n; i++) {
			const struct kmem_live *l = outstanding_live(m,
			    m->items[g->first + i].live, &buf);
			const char *comm = m->set->comm(m->set, l);

			if (m->o->limit >= 0 && shown++ >= m->o->limit)
				return;
			fprintf(f, "%s %#" PRIx64 ", from PID %d %s, %" PRIu64
			    " bytes, %.6f s old%s%s:\n----\n",
			    m->o->pages ? "Pfn" : "Obj", l->ptr, l->pid,
			    comm != NULL ? comm : "(command unknown)",
			    l->bytes_alloc, outstanding_age(m, l->ts),
			    outstanding_lost(m, l) ? " ?" : "",
			    outstanding_untraced(m, l) ? " ~" : "");
			frames_text(f, m, l->stack);
		}
	}
}

int
report_outstanding_text(FILE *f, const struct outstanding_model *m)
{
	const struct outstanding_options *o = m->o;

	fprintf(f, "# outstanding at the end: %zu %s, %" PRIu64 " bytes",
	    m->nitems, o->pages ? "page allocations" : "objects", m->bytes);
	if (o->by != BY_OBJECT)
		fprintf(f, ", in %zu groups by %s", m->ngroups,
		    by_names[o->by]);
	fputc('\n', f);
	if (m->lost > 0)
		fprintf(f, "# ? %zu could have been freed by an event the "
		    "recording lost%s\n", m->lost, m->set->loss_unplaced ?
		    " (the losses are not placed in time: every object)" : "");
	if (m->untraced > 0)
		fprintf(f, "# ~ %zu are in caches seen allocating an address "
		    "again with no free: frees without events (kfree_rcu, "
		    "bulk frees)\n", m->untraced);
	if (!m->set->stacks)
		fprintf(f, "# %s\n", m->set->no_stacks);
	if (o->by == BY_OBJECT)
		objects_text(f, m);
	else
		for (size_t i = 0; i < m->ngroups && (o->limit < 0 ||
		    (long)i < o->limit); i++) {
			fputc('\n', f);
			group_line(f, m, &m->groups[i]);
		}
	return (0);
}

/* ---- folded stacks ---- */

static int
cmp_fold_line(const void *a, const void *b)
{
	return (strcmp(((const struct fold *)a)->line,
	    ((const struct fold *)b)->line));
}

/* "outermost;...;innermost;[leaf]": a new string, or NULL. */
static char *
fold_line(const struct outstanding_model *m, const struct fold *fo)
{
	const uint64_t *fr;
	char *buf = NULL, name[128];
	size_t len = 0, n;
	FILE *f;

	if ((f = open_memstream(&buf, &len)) == NULL)
		return (NULL);
	fr = outstanding_frames(m->set, fo->stack, &n);
	while (n-- > 0) {
		const char *fn = tep_find_function(m->set->tep, fr[n]);

		if (fn != NULL)
			fprintf(f, "%s;", fn);
		else
			fprintf(f, "%#" PRIx64 ";", fr[n]);
	}
	outstanding_tally_name(m, &(struct tally){ .key = fo->leaf }, false,
	    name, sizeof(name));
	fprintf(f, "[%s]", name);
	return (fclose(f) == 0 ? buf : (free(buf), NULL));
}

/* Folds of the same line into the first: the count left. */
static size_t
fold_merge(struct fold *fo, size_t n, int (*cmp)(const void *, const void *))
{
	size_t k = 0;

	qsort(fo, n, sizeof(*fo), cmp);
	for (size_t i = 0; i < n; i++) {
		if (k > 0 && cmp(&fo[k - 1], &fo[i]) == 0) {
			fo[k - 1].bytes += fo[i].bytes;
			free(fo[i].line);
			continue;
		}
		fo[k++] = fo[i];
	}
	return (k);
}

int
report_outstanding_folded(FILE *f, const struct outstanding_model *m)
{
	struct fold *fo;
	size_t n = m->nfolds;
	int rc = -1;

	if ((fo = calloc(n + 1, sizeof(*fo))) == NULL)
		return (-1);
	if (n > 0)
		memcpy(fo, m->folds, n * sizeof(*fo));
	for (size_t i = 0; i < n; i++)
		if ((fo[i].line = fold_line(m, &fo[i])) == NULL)
			goto out;
	n = fold_merge(fo, n, cmp_fold_line);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s %" PRIu64 "\n", fo[i].line, fo[i].bytes);
	rc = 0;
out:
	for (size_t i = 0; i < n; i++)
		free(fo[i].line);
	free(fo);
	return (rc);
}

/* ---- JSON ---- */

/* key: value, or null where there is none. */
static void
set_or_null(struct json_object *o, const char *key, struct json_object *v)
{
	if (v != NULL)
		tool_json_set(o, key, v);
	else if (json_object_object_add(o, key, NULL) != 0)
		abort();
}

static struct json_object *
list_json(const struct outstanding_model *m, const struct group *g, bool pids)
{
	struct json_object *a = tool_json_new(json_type_array);
	size_t n;
	const struct tally *t = outstanding_tally(m, g, pids, &n);

	for (size_t i = 0; i < n; i++) {
		struct json_object *o = tool_json_new(json_type_object);
		char name[128];

		if (pids) {
			struct kmem_live l = { .pid = (int)t[i].key,
			    .comm = (uint32_t)t[i].key2 };
			const char *comm = m->set->comm(m->set, &l);

			tool_json_set(o, "pid", tool_json_uint(t[i].key));
			set_or_null(o, "command", comm != NULL ?
			    json_object_new_string(comm) : NULL);
		} else if (m->o->pages)
			tool_json_set(o, "order", tool_json_uint(t[i].key));
		else {
			outstanding_tally_name(m, &t[i], false, name,
			    sizeof(name));
			tool_json_set(o, "cache",
			    json_object_new_string(name));
		}
		tool_json_set(o, "count", tool_json_uint(t[i].count));
		if (json_object_array_add(a, o) != 0)
			abort();
	}
	return (a);
}

static struct json_object *
frames_json(const struct outstanding_model *m, uint32_t stack)
{
	struct json_object *a = tool_json_new(json_type_array);
	const uint64_t *fr;
	char sym[160], addr[24];
	size_t n;

	for (fr = outstanding_frames(m->set, stack, &n); n > 0; fr++, n--) {
		struct json_object *o = tool_json_new(json_type_object);

		snprintf(addr, sizeof(addr), "%#" PRIx64, *fr);
		kmem_frames_symbol(m->set->tep, *fr, sym, sizeof(sym));
		tool_json_set(o, "address", json_object_new_string(addr));
		tool_json_set(o, "symbol", json_object_new_string(sym));
		if (json_object_array_add(a, o) != 0)
			abort();
	}
	return (a);
}

static struct json_object *
object_json(const struct outstanding_model *m, const struct kmem_live *l)
{
	struct json_object *o = tool_json_new(json_type_object);
	const char *comm = m->set->comm(m->set, l);
	char buf[160];

	snprintf(buf, sizeof(buf), "%#" PRIx64, l->ptr);
	tool_json_set(o, m->o->pages ? "pfn" : "ptr",
	    json_object_new_string(buf));
	if (m->o->pages)
		tool_json_set(o, "order", tool_json_uint(l->order));
	else {
		outstanding_tally_name(m, &(struct tally){ .key = l->cache },
		    false, buf, sizeof(buf));
		tool_json_set(o, "cache", json_object_new_string(buf));
		kmem_frames_symbol(m->set->tep, l->call_site, buf, sizeof(buf));
		tool_json_set(o, "callsite", json_object_new_string(buf));
	}
	tool_json_set(o, "bytes", tool_json_uint(l->bytes_alloc));
	tool_json_set(o, "pid", tool_json_uint((uint32_t)l->pid));
	set_or_null(o, "command", comm != NULL ?
	    json_object_new_string(comm) : NULL);
	tool_json_set(o, "cpu", tool_json_uint((uint64_t)l->cpu));
	tool_json_set(o, "age-ns", tool_json_uint(m->end - l->ts));
	tool_json_set(o, "lost-event-could-explain",
	    json_object_new_boolean(outstanding_lost(m, l)));
	tool_json_set(o, "untraced-free-could-explain",
	    json_object_new_boolean(outstanding_untraced(m, l)));
	tool_json_set(o, "stack", frames_json(m, l->stack));
	return (o);
}

static struct json_object *
group_json(const struct outstanding_model *m, const struct group *g)
{
	struct json_object *o = tool_json_new(json_type_object);
	char sym[160];

	tool_json_set(o, "bytes", tool_json_uint(g->bytes));
	tool_json_set(o, "allocations", tool_json_uint(g->n));
	if (m->o->pages)
		tool_json_set(o, "pages", tool_json_uint(g->pages));
	if (m->o->by == BY_CALLSITE) {
		kmem_frames_symbol(m->set->tep, g->k1, sym, sizeof(sym));
		set_or_null(o, "callsite", m->o->pages && g->k1 == 0 ?
		    NULL : json_object_new_string(sym));
	}
	tool_json_set(o, m->o->pages ? "orders" : "caches",
	    list_json(m, g, false));
	tool_json_set(o, "pids", list_json(m, g, true));
	tool_json_set(o, "age-min-ns", tool_json_uint(m->end - g->newest));
	tool_json_set(o, "age-max-ns", tool_json_uint(m->end - g->oldest));
	tool_json_set(o, "lost-event-could-explain", tool_json_uint(g->lost));
	tool_json_set(o, "untraced-free-could-explain",
	    tool_json_uint(g->untraced));
	if (m->o->by == BY_STACK)
		tool_json_set(o, "stack", frames_json(m, (uint32_t)g->k1));
	return (o);
}

int
report_outstanding_json(struct json_object *parent,
    const struct outstanding_model *m)
{
	const struct outstanding_options *o = m->o;
	struct json_object *top, *a;
	long shown = 0;

	top = tool_json_set(parent, "outstanding",
	    tool_json_new(json_type_object));
	tool_json_set(top, "kind", json_object_new_string(o->pages ? "pages" :
	    "slab"));
	tool_json_set(top, "by", json_object_new_string(by_names[o->by]));
	tool_json_set(top, "stacks-recorded",
	    json_object_new_boolean(m->set->stacks));
	tool_json_set(top, "allocations", tool_json_uint(m->nitems));
	tool_json_set(top, "bytes", tool_json_uint(m->bytes));
	tool_json_set(top, "lost-event-could-explain",
	    tool_json_uint(m->lost));
	tool_json_set(top, "losses-placed-in-time",
	    json_object_new_boolean(!m->set->loss_unplaced));
	tool_json_set(top, "untraced-free-could-explain",
	    tool_json_uint(m->untraced));
	a = tool_json_set(top, o->by == BY_OBJECT ? "objects" : "groups",
	    tool_json_new(json_type_array));
	for (size_t gi = 0; gi < m->ngroups; gi++) {
		const struct group *g = &m->groups[gi];
		struct kmem_live buf;

		if (o->by != BY_OBJECT) {
			if (o->limit >= 0 && shown++ >= o->limit)
				break;
			if (json_object_array_add(a, group_json(m, g)) != 0)
				abort();
			continue;
		}
		for (size_t i = 0; i < g->n && (o->limit < 0 ||
		    shown < o->limit); i++, shown++)
			if (json_object_array_add(a, object_json(m,
			    outstanding_live(m, m->items[g->first + i].live,
			    &buf))) != 0)
				abort();
	}
	return (0);
}
