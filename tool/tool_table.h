/*
 * tool_table.h: a report that is one table of rows, as vmstat-z's and
 * vmstat-m's are: in text the heading, a line per row and, with -t, the
 * TOTAL row; in JSON {"__version": "1", container: {array: [row...],
 * "total": {...}}}, FreeBSD's shape.
 */
#ifndef TOOL_TABLE_H
#define TOOL_TABLE_H

#include "tool_columns.h"
#include "tool_options.h"
#include "tool_output.h"
#include "tool_rows.h"

struct tool_table {
	const struct tool_column *cols;
	size_t		 ncols;
	const char	*container;	/* "memory-zone-statistics" */
	const char	*array;		/* "zone" */
};

/* The table of rows into out (tool_out_init()ed), as opts asks. */
void	tool_table_write(struct tool_out *out, const struct tool_table *t,
	    const struct tool_rows *rows, const struct tool_options *opts);

#endif /* !TOOL_TABLE_H */
