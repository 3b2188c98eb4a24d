/*
 * tool_rows.c: a report's rows, filtered and sorted.
 */
#include <err.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool_rows.h"

/* A row, and where the source had it: ties keep that order. */
struct sortable {
	const struct memory_type *mtp;
	uint64_t	 value;
	size_t		 seq;
};

static bool
matches(const struct memory_type *mtp, const struct tool_options *opts)
{
	size_t i, a, n;

	if (opts->nnames == 0)
		return (true);
	n = memstat_get_alias_count(mtp);
	for (i = 0; i < opts->nnames; i++) {
		if (fnmatch(opts->names[i], memstat_get_name(mtp), 0) == 0)
			return (true);
		for (a = 0; a < n; a++)
			if (fnmatch(opts->names[i], memstat_get_alias(mtp, a),
			    0) == 0)
				return (true);
	}
	return (false);
}

static int
by_name(const void *a, const void *b)
{
	const struct sortable *x = a, *y = b;
	int c = strcmp(memstat_get_name(x->mtp), memstat_get_name(y->mtp));

	return (c != 0 ? c : (x->seq > y->seq) - (x->seq < y->seq));
}

static int
by_value(const void *a, const void *b)
{
	const struct sortable *x = a, *y = b;

	if (x->value != y->value)
		return (x->value < y->value ? 1 : -1);
	return ((x->seq > y->seq) - (x->seq < y->seq));
}

static const struct tool_sort_key *
sort_key(const char *name, const struct tool_sort_key *keys)
{
	char list[256] = "";
	size_t i;

	for (i = 0; keys[i].name != NULL; i++)
		if (strcmp(keys[i].name, name) == 0)
			return (&keys[i]);
	for (i = 0; keys[i].name != NULL; i++) {
		if (i > 0)
			strlcat(list, keys[i + 1].name == NULL ? " or " : ", ",
			    sizeof(list));
		strlcat(list, keys[i].name, sizeof(list));
	}
	tool_usage_error("-s %s: sort by %s", name, list);
}

void
tool_rows_check_sort(const struct tool_options *opts,
    const struct tool_sort_key *keys)
{
	if (opts->sort != NULL)
		(void)sort_key(opts->sort, keys);
}

void
tool_rows_select(struct tool_rows *rows, struct memory_type_list *list,
    const struct tool_options *opts, const struct tool_sort_key *keys,
    bool (*shown)(const struct memory_type *mtp))
{
	const struct tool_sort_key *key = NULL;
	struct memory_type *mtp;
	struct sortable *s;
	size_t n = 0, cap = 0, i;

	if (opts->sort != NULL)
		key = sort_key(opts->sort, keys);
	for (mtp = memstat_mtl_first(list); mtp != NULL;
	    mtp = memstat_mtl_next(mtp))
		cap++;
	if ((s = calloc(cap + 1, sizeof(*s))) == NULL)
		err(1, "rows");
	for (mtp = memstat_mtl_first(list); mtp != NULL;
	    mtp = memstat_mtl_next(mtp)) {
		if ((shown != NULL && !shown(mtp)) || !matches(mtp, opts))
			continue;
		s[n] = (struct sortable){ mtp,
		    key != NULL && key->value != NULL ? key->value(mtp) : 0, n };
		n++;
	}
	if (key != NULL)
		qsort(s, n, sizeof(*s), key->value == NULL ? by_name :
		    by_value);
	if ((rows->v = calloc(n + 1, sizeof(*rows->v))) == NULL)
		err(1, "rows");
	for (i = 0; i < n; i++)
		rows->v[i] = s[i].mtp;
	rows->n = n;
	free(s);
}

void
tool_rows_free(struct tool_rows *rows)
{
	free(rows->v);
	*rows = (struct tool_rows){ 0 };
}
