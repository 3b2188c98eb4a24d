/*
 * tool_columns.h: a report's columns, each described once: its text
 * heading and width, its JSON key, its value and whether the source keeps
 * it.  Text and JSON are both written from the one description (libxo's
 * lesson); a Prometheus writer will be a third over the same table, so a
 * column also names its metric.
 */
#ifndef TOOL_COLUMNS_H
#define TOOL_COLUMNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <json-c/json.h>

#include "memstat.h"

enum tool_column_kind {
	COLUMN_NAME,		/* the entry's name (a string) */
	COLUMN_COUNT,		/* a number: value() */
	COLUMN_LIST,		/* numbers: list(), comma-joined; JSON array */
	COLUMN_NAMES,		/* strings: names(), comma-joined; JSON array */
};

struct tool_column {
	enum tool_column_kind kind;
	const char	*key;		/* JSON member */
	/* Text: the heading, its separator before it and its width. */
	const char	*heading;
	const char	*heading_sep;
	int		 heading_width;	/* negative: left-aligned */
	/* Text: the value's separator before it, width and suffix. */
	const char	*sep;
	int		 width;		/* negative: left-aligned */
	const char	*suffix;	/* after the value, inside the width;
					   at most 7 bytes */
	/*
	 * COLUMN_LIST and COLUMN_NAMES: whether sep is written for an empty
	 * list, and whether the JSON member is left out when it is empty.
	 */
	bool		 sep_if_empty;
	bool		 json_omit_empty;
	/* MEMSTAT_UNKNOWN_* bit: "-" in text, null in JSON, when set. */
	uint32_t	 unknown;
	uint64_t	(*value)(const struct memory_type *mtp);
	/*
	 * COLUMN_COUNT: the same in bytes, for -h (text only: "4.0K",
	 * the suffix dropped); and whether -t's TOTAL row sums the column
	 * (else it shows "-" there).
	 */
	uint64_t	(*bytes)(const struct memory_type *mtp);
	bool		 total;
	/* The n-th element of a list, false past its end. */
	bool		(*list)(const struct memory_type *mtp, size_t n,
			    uint64_t *v);
	const char	*(*names)(const struct memory_type *mtp, size_t n);
	/*
	 * For the Prometheus writer: metric name and help (NULL: none);
	 * a COLUMN_LIST's elements are samples labelled list_label="n".
	 */
	const char	*metric;
	const char	*help;
	const char	*list_label;
};

/* The heading line. */
void	tool_columns_heading(FILE *f, const struct tool_column *cols,
	    size_t ncols);
/* One entry's line; human: byte counts as 4.0K, 1.5M (-h). */
void	tool_columns_text(FILE *f, const struct tool_column *cols,
	    size_t ncols, const struct memory_type *mtp, bool human);
/* One entry's members, added to obj in column order. */
void	tool_columns_json(struct json_object *obj,
	    const struct tool_column *cols, size_t ncols,
	    const struct memory_type *mtp);
/*
 * -t: the TOTAL row of rows[0..n-1], as a line or as obj's members (the
 * summed columns only).  A sum over a row whose source does not keep the
 * number is unknown.
 */
void	tool_columns_total_text(FILE *f, const struct tool_column *cols,
	    size_t ncols, const struct memory_type *const *rows, size_t n,
	    bool human);
void	tool_columns_total_json(struct json_object *obj,
	    const struct tool_column *cols, size_t ncols,
	    const struct memory_type *const *rows, size_t n);

#endif /* !TOOL_COLUMNS_H */
