/*
 * tool_prom.h: a report in Prometheus's text exposition format, for
 * node_exporter's textfile collector: "# HELP", "# TYPE", then a sample per
 * thing measured, what it is in labels.  A family is written only with a
 * sample: a statistic the source does not keep is absent, never 0.  The
 * file is written whole under a temporary name in its directory and
 * renamed into place, so that a scrape never reads half of it.
 */
#ifndef TOOL_PROM_H
#define TOOL_PROM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tool_columns.h"
#include "tool_rows.h"

struct tool_prom {
	FILE		*f;		/* in memory until written */
	char		*buf;
	size_t		 len;
	/* The family whose header waits for its first sample. */
	const char	*family, *help;
	bool		 counter;
};

void	tool_prom_init(struct tool_prom *p);
/* Start a family; "_total" names a counter, anything else a gauge. */
void	tool_prom_family(struct tool_prom *p, const char *name,
	    const char *help);
/*
 * A sample of the family: labels are nlabels (name, value) pairs, values
 * escaped here.
 */
void	tool_prom_sample(struct tool_prom *p, const char *const *labels,
	    size_t nlabels, double v);
void	tool_prom_sample_uint(struct tool_prom *p, const char *const *labels,
	    size_t nlabels, uint64_t v);
void	tool_prom_sample_int(struct tool_prom *p, const char *const *labels,
	    size_t nlabels, int64_t v);
/*
 * A table's families: one per column with a metric, named prefix_metric,
 * a sample per row labelled label="name" (a merged cache's other names
 * in one "aliases" label; an entry whose name an earlier one has, with
 * "index" its place among them).  A byte column gives bytes; a list
 * column with a list_label a sample per element, labelled with its place.
 */
void	tool_prom_columns(struct tool_prom *p, const char *prefix,
	    const char *label, const struct tool_column *cols, size_t ncols,
	    const struct tool_rows *rows);
/*
 * Write to path ("-": standard output) whole and free p; or exit 1 with
 * one line, leaving no temporary file.
 */
void	tool_prom_write(struct tool_prom *p, const char *path);

#endif /* !TOOL_PROM_H */
