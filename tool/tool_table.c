/*
 * tool_table.c: a report that is one table of rows, text or JSON.
 */
#include "tool_table.h"

static void
table_text(FILE *f, const struct tool_table *t, const struct tool_rows *rows,
    const struct tool_options *opts)
{
	tool_columns_heading(f, t->cols, t->ncols);
	for (size_t i = 0; i < rows->n; i++)
		tool_columns_text(f, t->cols, t->ncols, rows->v[i],
		    opts->human);
	if (opts->totals)
		tool_columns_total_text(f, t->cols, t->ncols, rows->v, rows->n,
		    opts->human);
}

static void
table_json(struct json_object *root, const struct tool_table *t,
    const struct tool_rows *rows, const struct tool_options *opts)
{
	struct json_object *stats, *array;

	tool_json_set(root, "__version", json_object_new_string("1"));
	stats = tool_json_set(root, t->container,
	    tool_json_new(json_type_object));
	array = tool_json_set(stats, t->array, tool_json_new(json_type_array));
	for (size_t i = 0; i < rows->n; i++)
		tool_columns_json(tool_json_set(array, NULL,
		    tool_json_new(json_type_object)), t->cols, t->ncols,
		    rows->v[i]);
	if (opts->totals)
		tool_columns_total_json(tool_json_set(stats, "total",
		    tool_json_new(json_type_object)), t->cols, t->ncols,
		    rows->v, rows->n);
}

void
tool_table_write(struct tool_out *out, const struct tool_table *t,
    const struct tool_rows *rows, const struct tool_options *opts)
{
	if (out->style == STYLE_TEXT)
		table_text(out->text, t, rows, opts);
	else
		table_json(out->json, t, rows, opts);
}
