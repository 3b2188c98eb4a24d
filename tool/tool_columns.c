/*
 * tool_columns.c: text and JSON, written from one description of each
 * column.
 */
#include <err.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool_columns.h"
#include "tool_output.h"

static bool
known(const struct tool_column *c, const struct memory_type *mtp)
{
	return ((memstat_get_unknown(mtp) & c->unknown) == 0);
}

void
tool_columns_heading(FILE *f, const struct tool_column *cols, size_t ncols)
{
	for (size_t i = 0; i < ncols; i++)
		fprintf(f, "%s%*s", cols[i].heading_sep, cols[i].heading_width,
		    cols[i].heading);
	fputc('\n', f);
}

/* A list column's n-th element: a number or a string; false past the end. */
static bool
element(const struct tool_column *c, const struct memory_type *mtp,
    size_t n, uint64_t *v, const char **s)
{
	*v = 0;
	*s = NULL;
	if (c->kind == COLUMN_LIST)
		return (c->list(mtp, n, v));
	return ((*s = c->names(mtp, n)) != NULL);
}

/*
 * A row is built in memory and written with one fwrite: a report has
 * thousands of cells, and a stdio call per cell was a fifth of a large
 * report's time.  One buffer, kept for the next row.
 */
struct line {
	char	*p;
	size_t	 len, cap;
};
static struct line row;

static void
reserve(struct line *l, size_t n)
{
	size_t cap;
	char *p;

	if (l->len + n <= l->cap)
		return;
	for (cap = l->cap ? l->cap : 256; cap < l->len + n; cap *= 2)
		;
	if ((p = realloc(l->p, cap)) == NULL)
		err(1, "row");
	l->p = p;
	l->cap = cap;
}

static void
put(struct line *l, const char *s, size_t n)
{
	if (n == 0)
		return;		/* the buffer may not be there yet */
	reserve(l, n);
	memcpy(l->p + l->len, s, n);
	l->len += n;
}

static void
put_str(struct line *l, const char *s)
{
	put(l, s, strlen(s));
}

static void
put_spaces(struct line *l, int n)
{
	if (n <= 0)
		return;
	reserve(l, (size_t)n);
	memset(l->p + l->len, ' ', (size_t)n);
	l->len += (size_t)n;
}

/* s in width columns (negative: left-aligned), or more if it is longer. */
static void
put_padded(struct line *l, const char *s, size_t len, int width)
{
	int pad = (width < 0 ? -width : width) - (int)len;

	if (width > 0)
		put_spaces(l, pad);
	put(l, s, len);
	if (width < 0)
		put_spaces(l, pad);
}

/* The row, ended, to f; the buffer is empty again. */
static void
put_row(struct line *l, FILE *f)
{
	put(l, "\n", 1);
	fwrite(l->p, 1, l->len, f);
	l->len = 0;
}

/* v in decimal at the end of buf; returns where it starts. */
static char *
u64_text(char *end, uint64_t v)
{
	char *p = end;

	do
		*--p = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	return (p);
}

/* A list's elements, comma-joined, after sep (if any or if asked). */
static void
list_text(struct line *l, const struct tool_column *c,
    const struct memory_type *mtp)
{
	char buf[24], *end = buf + sizeof(buf);
	const char *s;
	uint64_t v;
	size_t n;

	for (n = 0; element(c, mtp, n, &v, &s); n++) {
		put_str(l, n == 0 ? c->sep : ",");
		if (c->kind == COLUMN_LIST) {
			s = u64_text(end, v);
			put(l, s, (size_t)(end - s));
		} else
			put_str(l, s);
	}
	if (n == 0 && c->sep_if_empty)
		put_str(l, c->sep);
}

/*
 * One number cell: v (or "-" when unknown) then the suffix, or with human
 * v as bytes humanized (tool_humanize()).
 */
static void
count_cell(struct line *l, const struct tool_column *c, bool is_known,
    uint64_t v, bool human)
{
	/* A u64's 20 digits, then the suffix (at most 7 bytes). */
	char buf[32], *p, *end;
	size_t len;

	put_str(l, c->sep);
	if (human && is_known) {
		tool_humanize(buf, v);
		put_padded(l, buf, strlen(buf), c->width);
		return;
	}
	end = buf + sizeof(buf) - 8;
	p = is_known ? u64_text(end, v) : memcpy(end - 1, "-", 1);
	len = strlen(c->suffix);
	memcpy(end, c->suffix, len);
	put_padded(l, p, (size_t)(end - p) + len, c->width);
}

/* A name cell: the name and its suffix in the column's width. */
static void
name_cell(struct line *l, const struct tool_column *c, const char *s)
{
	size_t len = strlen(s) + strlen(c->suffix);

	put_str(l, c->sep);
	if (c->width > 0)
		put_spaces(l, c->width - (int)len);
	put_str(l, s);
	put_str(l, c->suffix);
	if (c->width < 0)
		put_spaces(l, -c->width - (int)len);
}

void
tool_columns_text(FILE *f, const struct tool_column *cols, size_t ncols,
    const struct memory_type *mtp, bool human)
{
	const struct tool_column *c;

	for (size_t i = 0; i < ncols; i++) {
		c = &cols[i];
		switch (c->kind) {
		case COLUMN_NAME:
			name_cell(&row, c, memstat_get_name(mtp));
			break;
		case COLUMN_COUNT:
			if (human && c->bytes != NULL)
				count_cell(&row, c, known(c, mtp),
				    c->bytes(mtp), true);
			else
				count_cell(&row, c, known(c, mtp),
				    c->value(mtp), false);
			break;
		case COLUMN_LIST:
		case COLUMN_NAMES:
			list_text(&row, c, mtp);
			break;
		}
	}
	put_row(&row, f);
}

/* A column's sum over the rows; false if a row's source does not keep it. */
static bool
column_sum(const struct tool_column *c, const struct memory_type *const *rows,
    size_t n, bool bytes, uint64_t *sum)
{
	uint64_t v;

	*sum = 0;
	for (size_t r = 0; r < n; r++) {
		if (!known(c, rows[r]))
			return (false);
		v = bytes ? c->bytes(rows[r]) : c->value(rows[r]);
		*sum = __builtin_add_overflow(*sum, v, sum) ? UINT64_MAX : *sum;
	}
	return (true);
}

void
tool_columns_total_text(FILE *f, const struct tool_column *cols,
    size_t ncols, const struct memory_type *const *rows, size_t n,
    bool human)
{
	const struct tool_column *c;
	bool bytes, is_known;
	uint64_t sum;

	for (size_t i = 0; i < ncols; i++) {
		c = &cols[i];
		switch (c->kind) {
		case COLUMN_NAME:
			name_cell(&row, c, "TOTAL");
			break;
		case COLUMN_COUNT:
			bytes = human && c->bytes != NULL;
			is_known = c->total &&
			    column_sum(c, rows, n, bytes, &sum);
			count_cell(&row, c, is_known, is_known ? sum : 0,
			    bytes);
			break;
		case COLUMN_LIST:
		case COLUMN_NAMES:
			if (c->sep_if_empty)
				put_str(&row, c->sep);
			break;
		}
	}
	put_row(&row, f);
}

void
tool_columns_total_json(struct json_object *obj,
    const struct tool_column *cols, size_t ncols,
    const struct memory_type *const *rows, size_t n)
{
	uint64_t sum;
	bool is_known;

	for (size_t i = 0; i < ncols; i++) {
		if (cols[i].kind != COLUMN_COUNT || !cols[i].total)
			continue;
		is_known = column_sum(&cols[i], rows, n, false, &sum);
		tool_json_stat(obj, cols[i].key, sum, is_known);
	}
}

static void
list_json(struct json_object *obj, const struct tool_column *c,
    const struct memory_type *mtp)
{
	struct json_object *a = NULL;
	const char *s;
	uint64_t v;

	if (!c->json_omit_empty)
		a = tool_json_set(obj, c->key, tool_json_new(json_type_array));
	for (size_t n = 0; element(c, mtp, n, &v, &s); n++) {
		if (a == NULL)
			a = tool_json_set(obj, c->key,
			    tool_json_new(json_type_array));
		tool_json_set(a, NULL, c->kind == COLUMN_LIST ?
		    tool_json_uint(v) : json_object_new_string(s));
	}
}

void
tool_columns_json(struct json_object *obj, const struct tool_column *cols,
    size_t ncols, const struct memory_type *mtp)
{
	const struct tool_column *c;

	for (size_t i = 0; i < ncols; i++) {
		c = &cols[i];
		switch (c->kind) {
		case COLUMN_NAME:
			tool_json_set(obj, c->key, json_object_new_string(
			    memstat_get_name(mtp)));
			break;
		case COLUMN_COUNT:
			tool_json_stat(obj, c->key, c->value(mtp),
			    known(c, mtp));
			break;
		case COLUMN_LIST:
		case COLUMN_NAMES:
			list_json(obj, c, mtp);
			break;
		}
	}
}
