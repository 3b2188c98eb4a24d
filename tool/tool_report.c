/*
 * tool_report.c: a table report's looks.
 */
#include <err.h>
#include <stdio.h>

#include "tool_prom.h"
#include "tool_report.h"
#include "tool_watch.h"

static void
prometheus(const struct tool_list_report *r, const struct tool_rows *rows,
    const char *path)
{
	struct tool_prom p;

	tool_prom_init(&p);
	tool_prom_columns(&p, r->prom_prefix, r->prom_label, r->table->cols,
	    r->table->ncols, rows);
	tool_prom_columns(&p, r->prom_prefix, r->prom_label, r->prom_more,
	    r->nprom_more, rows);
	tool_prom_write(&p, path);
}

int
tool_list_report_run(const struct tool_list_report *r,
    const struct tool_options *opts)
{
	struct memory_type_list *list;
	struct tool_watch w;
	struct tool_rows rows;
	struct tool_out out;

	tool_watch_open(&w, opts);
	if ((list = memstat_mtl_alloc()) == NULL)
		err(1, "memstat_mtl_alloc");
	while (tool_watch_next(&w)) {
		if (w.n > 1)
			tool_interval_save(list, r->interval);
		r->query(w.src, list, r->arg);
		tool_rows_select(&rows, list, opts, r->keys, r->shown);
		if (opts->prometheus != NULL)
			prometheus(r, &rows, opts->prometheus);
		else {
			if (w.n > 1 && opts->style == STYLE_TEXT)
				putchar('\n');
			tool_out_init(&out, opts->style);
			if (w.n == 1)
				tool_table_write(&out, r->table, &rows, opts);
			else {
				tool_interval_changed(&rows, r->interval,
				    opts->sort == NULL);
				tool_interval_write(&out, r->interval, &rows,
				    w.dt);
			}
			tool_watch_stamp(&w, out.json);
			tool_out_finish(&out);
		}
		tool_rows_free(&rows);
	}
	tool_interval_forget(list);
	memstat_mtl_free(list);
	tool_watch_close(&w);
	return (0);
}
