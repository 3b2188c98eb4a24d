/*
 * tool_report.h: the run of a report that is one table of a list's
 * entries (vmstat-z, vmstat-m): one look, or with -w or --replay the
 * first look's table and then, each interval, what changed
 * (tool_interval.h); or with --prometheus each look's numbers in
 * Prometheus's format instead.
 */
#ifndef TOOL_REPORT_H
#define TOOL_REPORT_H

#include <stdbool.h>

#include "memstat.h"
#include "tool_interval.h"
#include "tool_options.h"
#include "tool_rows.h"
#include "tool_source.h"
#include "tool_table.h"

struct tool_list_report {
	const struct tool_table *table;
	const struct tool_interval *interval;
	const struct tool_sort_key *keys;
	bool		(*shown)(const struct memory_type *mtp); /* or NULL */
	const char	*prom_prefix;	/* "memstat_zone" */
	const char	*prom_label;	/* "zone" */
	/* Metrics Prometheus has beyond the table's columns (or NULL, 0). */
	const struct tool_column *prom_more;
	size_t		 nprom_more;
	/* Fill list from src (again: a refresh), or exit 1 with one line. */
	void		(*query)(struct tool_source *src,
			    struct memory_type_list *list, void *arg);
	void		*arg;
};

/* Run the report as opts asks; returns the exit status. */
int	tool_list_report_run(const struct tool_list_report *r,
	    const struct tool_options *opts);

#endif /* !TOOL_REPORT_H */
