/*
 * tool_interval.h: what changed between two looks at a list: per entry,
 * each level (items in use, bytes) with its change and, where asked, its
 * change per second; each counter the source keeps (requests, failures)
 * as its increase per second; each list the table gives per entry (-d's
 * per NUMA node) with its change per element.  The previous look's
 * numbers live in the entries' caller slots, which survive the library's
 * refresh: a rate is the difference of two refreshes of one list over the
 * time between them.  Only the entries that changed are shown.
 */
#ifndef TOOL_INTERVAL_H
#define TOOL_INTERVAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "memstat.h"
#include "tool_columns.h"
#include "tool_options.h"
#include "tool_output.h"
#include "tool_rows.h"

struct tool_stat {
	const char	*key;		/* JSON: "used", "requests" */
	const char	*heading;	/* text: "USED", "REQ" */
	uint64_t	(*value)(const struct memory_type *mtp);
	uint32_t	 unknown;	/* MEMSTAT_UNKNOWN_* bit, or 0 */
	bool		 counter;	/* only grows: shown as a rate */
	bool		 rate;		/* a level: its change per second too */
};

/* The stats fit the caller slots, one kept for "seen before". */
#define TOOL_INTERVAL_MAXSTATS	(MEMSTAT_MAXCALLER - 1)

struct tool_interval {
	const struct tool_stat *stats;
	size_t		 nstats;
	const char	*name_heading;	/* "ITEM" */
	int		 name_width;	/* negative: left-aligned */
	const char	*name_suffix;	/* after a row's name: ":" */
	const char	*container;	/* JSON: "memory-zone-changes" */
	const char	*array;		/* JSON: "zone" */
	/* COLUMN_LIST columns kept per element too (NULL, 0: none). */
	const struct tool_column *lists;
	size_t		 nlists;
};

/* Keep each entry's numbers in its caller slots: before a refresh. */
void	tool_interval_save(struct memory_type_list *list,
	    const struct tool_interval *iv);
/* Free what the lists' saved numbers took: before the list is freed. */
void	tool_interval_forget(struct memory_type_list *list);
/*
 * Drop from rows the entries with no change since the saved look (an
 * entry new since then has changed from nothing); by_magnitude: the rest
 * by their first stat's change, largest first (else as they were).
 */
void	tool_interval_changed(struct tool_rows *rows,
	    const struct tool_interval *iv, bool by_magnitude);
/*
 * The changes of rows over dt seconds into out: a heading and a line per
 * row, or {"__version", container: {"seconds", array: [...]}}.
 */
void	tool_interval_write(struct tool_out *out,
	    const struct tool_interval *iv, const struct tool_rows *rows,
	    double dt);

#endif /* !TOOL_INTERVAL_H */
