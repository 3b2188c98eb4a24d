/*
 * tool_output.h: a report reaches stdout whole or not at all, as text or
 * as JSON (FreeBSD's --libxo styles), so a failure never leaves a partial
 * table behind.
 */
#ifndef TOOL_OUTPUT_H
#define TOOL_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <json-c/json.h>

#include "tool_textbuf.h"

enum tool_style {
	STYLE_TEXT,
	STYLE_JSON,
	STYLE_JSON_PRETTY,
};

/*
 * A report under construction.  Text goes to out->text, JSON into
 * out->json; nothing reaches stdout until tool_out_finish(), but text
 * streamed.
 */
struct tool_out {
	enum tool_style	 style;
	FILE		*text;		/* STYLE_TEXT only */
	struct tool_textbuf textbuf;	/* what text holds */
	struct json_object *json;	/* the top-level object, JSON only */
	bool		 streamed;	/* text is stdout */
};

void	tool_out_init(struct tool_out *out, enum tool_style style);
/*
 * Text straight to stdout, for a report whose every fact is gathered
 * before its first line, so that only writing it can fail: one that
 * grows with what it reports (every object of a dump) is not held whole.
 */
void	tool_out_init_streamed(struct tool_out *out);
/* Write the report to stdout, or exit 1 if it cannot be written. */
void	tool_out_finish(struct tool_out *out);
/* Drop the report unwritten (its numbers were wanted, not its text). */
void	tool_out_discard(struct tool_out *out);
/*
 * obj[key] = value, in insertion order; returns value.  The report is
 * useless without its members, so running out of memory here exits.
 */
struct json_object *tool_json_set(struct json_object *obj, const char *key,
	    struct json_object *value);
struct json_object *tool_json_uint(uint64_t v);
/*
 * A double in the fewest digits that read back as it (42216.76, not
 * 42216.760000000002): buf holds TOOL_DOUBLE_LEN bytes; returns buf.
 */
#define TOOL_DOUBLE_LEN	32
const char *tool_shortest_double(char buf[TOOL_DOUBLE_LEN], double v);
/* Never NULL: running out of memory exits. */
struct json_object *tool_json_new_int(int64_t v);
struct json_object *tool_json_new_double(double v);
struct json_object *tool_json_new(json_type type);

/*
 * A statistic the source may not keep (memstat_get_unknown()): unknown is
 * null in JSON (and "-" in text), never 0.
 */
void	tool_json_stat(struct json_object *obj, const char *key, uint64_t v,
	    bool known);

/*
 * -h: bytes as humanize_number(3) writes them in at most four characters
 * ("256B", "4.0K", "1.5M"), into buf; returns buf.
 */
#define TOOL_HUMAN_LEN	8
const char *tool_humanize(char buf[TOOL_HUMAN_LEN], uint64_t bytes);

#endif /* !TOOL_OUTPUT_H */
