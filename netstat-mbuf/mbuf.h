/*
 * mbuf.h: netstat-mbuf's two reports and the report lines they share.
 * FreeBSD's mbuf report (mbuf_freebsd.c) and Linux's socket buffer report
 * (mbuf_linux.c) write the same kind of line: numbers joined by '/', then
 * what they count.
 */
#ifndef NETSTAT_MBUF_H
#define NETSTAT_MBUF_H

#include <stdbool.h>
#include <stdint.h>

#include "memstat.h"
#include "tool_options.h"
#include "tool_output.h"
#include "tool_source.h"

/*
 * Where report lines go: text, or the mbuf-statistics JSON object; human:
 * text's kibibyte counts as 4.0K, 1.5M (-h).  numbers, when there is one,
 * also gets every number (and name) under its JSON key, whatever the
 * style: what -w compares from look to look and --prometheus writes.
 */
struct lines {
	FILE			*text;
	struct json_object	*json;
	struct json_object	*numbers;
	bool			 human;
};

/*
 * One report line: n numbers joined by '/', each followed by unit, then
 * the note (text only).  In JSON each number goes under its key: the
 * arguments are n pairs of (const char *key, uintmax_t value).
 */
void	numbers_line(const struct lines *out, const char *unit,
	    const char *note, int n, ...);
/*
 * A number, or a name (the cache a merged one's objects are counted in),
 * under key in JSON and numbers, not in text.
 */
void	report_number(const struct lines *out, const char *key, intmax_t v);
void	report_name(const struct lines *out, const char *key, const char *s);
/* "used/cached/total note"; in JSON under prefix-current, -cache, -total. */
void	counts_line(const struct lines *out, const char *prefix,
	    const char *note, uintmax_t used, uintmax_t cached);
/*
 * The report's lines: text, or the members of its mbuf-statistics object;
 * numbers (or NULL) as in struct lines.
 */
struct lines report_lines(struct tool_out *report, bool human,
	    struct json_object *numbers);

/*
 * Query the source, then start the report and write it, its numbers also
 * into numbers (or NULL): or exit 1.
 */
void	freebsd_report(struct tool_source *src, struct memory_type_list *mtlp,
	    struct tool_out *report, const struct tool_options *opts,
	    struct json_object *numbers);
void	linux_report(struct tool_source *src, struct memory_type_list *mtlp,
	    struct tool_out *report, const struct tool_options *opts,
	    struct json_object *numbers);

#endif /* !NETSTAT_MBUF_H */
