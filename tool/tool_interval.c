/*
 * tool_interval.c: the changes between two looks at a list.
 */
#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool_interval.h"

/* Slot 0 says the other slots hold a look; slot 1 + i is stat i's. */
#define SLOT_SEEN	0
#define SLOT_STAT(i)	(1 + (i))
/* The lists' numbers: pointer slot 0, a struct kept. */
#define SLOT_LISTS	0
/* Elements of a list kept: far more NUMA nodes than a kernel has. */
#define LIST_MAX	4096

/* Each list's first n elements: list l's k-th at v[l * n + k]. */
struct kept {
	size_t		 n;
	uint64_t	 v[];
};

/* How many elements the longest of the entry's lists has. */
static size_t
list_len(const struct tool_interval *iv, const struct memory_type *mtp)
{
	size_t n = 0;
	uint64_t v;

	for (size_t l = 0; l < iv->nlists; l++)
		while (n < LIST_MAX && iv->lists[l].list(mtp, n, &v))
			n++;
	return (n);
}

static void
save_lists(const struct tool_interval *iv, struct memory_type *mtp)
{
	size_t n = list_len(iv, mtp);
	struct kept *k;

	free(memstat_get_caller_pointer(mtp, SLOT_LISTS));
	memstat_set_caller_pointer(mtp, SLOT_LISTS, NULL);
	if (n == 0)
		return;
	if ((k = calloc(1, sizeof(*k) + iv->nlists * n * sizeof(k->v[0]))) ==
	    NULL)
		err(1, "calloc");
	k->n = n;
	for (size_t l = 0; l < iv->nlists; l++)
		for (size_t e = 0; e < n; e++)
			if (!iv->lists[l].list(mtp, e, &k->v[l * n + e]))
				k->v[l * n + e] = 0;
	memstat_set_caller_pointer(mtp, SLOT_LISTS, k);
}

void
tool_interval_forget(struct memory_type_list *list)
{
	for (struct memory_type *mtp = memstat_mtl_first(list); mtp != NULL;
	    mtp = memstat_mtl_next(mtp)) {
		free(memstat_get_caller_pointer(mtp, SLOT_LISTS));
		memstat_set_caller_pointer(mtp, SLOT_LISTS, NULL);
	}
}

/*
 * List l's element e's change since the saved look (from 0 where it
 * had none then): false when the entry has no such element now.
 */
static bool
list_change(const struct tool_interval *iv, const struct memory_type *mtp,
    size_t l, size_t e, int64_t *d)
{
	const struct kept *k = memstat_get_caller_pointer(mtp, SLOT_LISTS);
	uint64_t now, was = 0;

	if (e >= LIST_MAX || !iv->lists[l].list(mtp, e, &now))
		return (false);
	if (k != NULL && e < k->n)
		was = k->v[l * k->n + e];
	*d = (int64_t)(now - was);
	return (true);
}

static bool
lists_changed(const struct tool_interval *iv, const struct memory_type *mtp)
{
	int64_t d;

	for (size_t l = 0; l < iv->nlists; l++)
		for (size_t e = 0; list_change(iv, mtp, l, e, &d); e++)
			if (d != 0)
				return (true);
	return (false);
}

static bool
known(const struct tool_stat *s, const struct memory_type *mtp)
{
	return ((memstat_get_unknown(mtp) & s->unknown) == 0);
}

void
tool_interval_save(struct memory_type_list *list,
    const struct tool_interval *iv)
{
	for (struct memory_type *mtp = memstat_mtl_first(list); mtp != NULL;
	    mtp = memstat_mtl_next(mtp)) {
		memstat_set_caller_uint64(mtp, SLOT_SEEN, 1);
		for (size_t i = 0; i < iv->nstats; i++)
			memstat_set_caller_uint64(mtp, SLOT_STAT(i),
			    iv->stats[i].value(mtp));
		if (iv->nlists > 0)
			save_lists(iv, mtp);
	}
}

/* A stat's change since the saved look, from 0 for an entry new since. */
static int64_t
change(const struct tool_stat *s, const struct memory_type *mtp, size_t i)
{
	uint64_t was = memstat_get_caller_uint64(mtp, SLOT_STAT(i));

	return ((int64_t)(s->value(mtp) - was));
}

static bool
changed(const struct tool_interval *iv, const struct memory_type *mtp)
{
	if (memstat_get_caller_uint64(mtp, SLOT_SEEN) == 0)
		return (true);
	for (size_t i = 0; i < iv->nstats; i++)
		if (known(&iv->stats[i], mtp) &&
		    change(&iv->stats[i], mtp, i) != 0)
			return (true);
	return (lists_changed(iv, mtp));
}

/* The first stat's change, largest first; then by name. */
static const struct tool_interval *sort_iv;

static uint64_t
magnitude(const struct memory_type *mtp)
{
	int64_t d = change(&sort_iv->stats[0], mtp, 0);

	return (d < 0 ? -(uint64_t)d : (uint64_t)d);
}

static int
by_change(const void *a, const void *b)
{
	const struct memory_type *const *x = a, *const *y = b;
	uint64_t m = magnitude(*x), n = magnitude(*y);

	if (m != n)
		return (m < n ? 1 : -1);
	return (strcmp(memstat_get_name(*x), memstat_get_name(*y)));
}

void
tool_interval_changed(struct tool_rows *rows, const struct tool_interval *iv,
    bool by_magnitude)
{
	size_t kept = 0;

	for (size_t i = 0; i < rows->n; i++)
		if (changed(iv, rows->v[i]))
			rows->v[kept++] = rows->v[i];
	rows->n = kept;
	if (by_magnitude && kept > 1) {
		sort_iv = iv;
		qsort(rows->v, rows->n, sizeof(*rows->v), by_change);
	}
}

static double
per_second(int64_t d, double dt)
{
	return (dt > 0 ? (double)d / dt : 0);
}

/* A tenth where it matters; beyond a thousand, whole numbers fit. */
static void
rate_text(FILE *f, const char *format, double v)
{
	fputc(' ', f);
	fprintf(f, format, v > -1000 && v < 1000 ? 1 : 0, v);
}

/* Each list's changes, comma-joined as the table joins the list; "-": none. */
static void
lists_text(FILE *f, const struct tool_interval *iv,
    const struct memory_type *mtp)
{
	int64_t d;
	size_t e;

	for (size_t l = 0; l < iv->nlists; l++) {
		fputs("  ", f);
		for (e = 0; list_change(iv, mtp, l, e, &d); e++)
			fprintf(f, "%s%+" PRId64, e > 0 ? "," : "", d);
		if (e == 0)
			fputc('-', f);
	}
}

static void
interval_text(FILE *f, const struct tool_interval *iv,
    const struct tool_rows *rows, double dt)
{
	char h[32];

	fprintf(f, "%*s", iv->name_width, iv->name_heading);
	for (size_t i = 0; i < iv->nstats; i++) {
		const struct tool_stat *s = &iv->stats[i];

		if (s->counter) {
			snprintf(h, sizeof(h), "%s/s", s->heading);
			fprintf(f, " %9s", h);
			continue;
		}
		snprintf(h, sizeof(h), "+%s", s->heading);
		fprintf(f, " %9s %9s", s->heading, h);
		if (s->rate) {
			snprintf(h, sizeof(h), "%s/s", s->heading);
			fprintf(f, " %9s", h);
		}
	}
	for (size_t l = 0; l < iv->nlists; l++)
		fprintf(f, "  +%s", iv->lists[l].heading);
	fputc('\n', f);
	for (size_t r = 0; r < rows->n; r++) {
		const struct memory_type *mtp = rows->v[r];
		char name[MEMTYPE_MAXNAME + 256];

		snprintf(name, sizeof(name), "%s%s", memstat_get_name(mtp),
		    iv->name_suffix);
		fprintf(f, "%*s", iv->name_width, name);
		for (size_t i = 0; i < iv->nstats; i++) {
			const struct tool_stat *s = &iv->stats[i];
			int64_t d = change(s, mtp, i);

			if (!known(s, mtp)) {
				fprintf(f, s->counter ? " %9s" : s->rate ?
				    " %9s %9s %9s" : " %9s %9s", "-", "-",
				    "-");
				continue;
			}
			if (s->counter) {
				rate_text(f, "%9.*f", per_second(d, dt));
				continue;
			}
			fprintf(f, " %9" PRIu64 " %+9" PRId64, s->value(mtp),
			    d);
			if (s->rate)
				rate_text(f, "%+9.*f", per_second(d, dt));
		}
		lists_text(f, iv, mtp);
		fputc('\n', f);
	}
}

/* obj[key suffix] = v, or null (v NULL) when the source does not keep it. */
static void
member(struct json_object *obj, const char *key, const char *suffix,
    struct json_object *v)
{
	char k[64];

	snprintf(k, sizeof(k), "%s%s", key, suffix);
	if (v != NULL)
		tool_json_set(obj, k, v);
	else if (json_object_object_add(obj, k, NULL) != 0)
		errx(1, "JSON: %s", strerror(ENOMEM));
}

/* Each list's changes, an array; null where the entry has none. */
static void
lists_json(struct json_object *obj, const struct tool_interval *iv,
    const struct memory_type *mtp)
{
	struct json_object *a;
	int64_t d;

	for (size_t l = 0; l < iv->nlists; l++) {
		if (!list_change(iv, mtp, l, 0, &d)) {
			member(obj, iv->lists[l].key, "-change", NULL);
			continue;
		}
		a = tool_json_new(json_type_array);
		for (size_t e = 0; list_change(iv, mtp, l, e, &d); e++)
			tool_json_set(a, NULL, tool_json_new_int(d));
		member(obj, iv->lists[l].key, "-change", a);
	}
}

static void
interval_json(struct json_object *root, const struct tool_interval *iv,
    const struct tool_rows *rows, double dt)
{
	struct json_object *top, *array, *obj;

	tool_json_set(root, "__version", json_object_new_string("1"));
	top = tool_json_set(root, iv->container,
	    tool_json_new(json_type_object));
	tool_json_set(top, "seconds", json_object_new_double(dt));
	array = tool_json_set(top, iv->array, tool_json_new(json_type_array));
	for (size_t r = 0; r < rows->n; r++) {
		const struct memory_type *mtp = rows->v[r];

		obj = tool_json_set(array, NULL,
		    tool_json_new(json_type_object));
		tool_json_set(obj, "name",
		    json_object_new_string(memstat_get_name(mtp)));
		for (size_t i = 0; i < iv->nstats; i++) {
			const struct tool_stat *s = &iv->stats[i];
			int64_t d = change(s, mtp, i);
			bool k = known(s, mtp);

			if (!s->counter)
				tool_json_stat(obj, s->key, s->value(mtp), k);
			member(obj, s->key, "-change", k ?
			    tool_json_new_int(d) : NULL);
			if (s->counter || s->rate)
				member(obj, s->key, "-per-second", k ?
				    tool_json_new_double(per_second(d, dt)) :
				    NULL);
		}
		lists_json(obj, iv, mtp);
	}
}

void
tool_interval_write(struct tool_out *out, const struct tool_interval *iv,
    const struct tool_rows *rows, double dt)
{
	if (out->style == STYLE_TEXT)
		interval_text(out->text, iv, rows, dt);
	else
		interval_json(out->json, iv, rows, dt);
}
