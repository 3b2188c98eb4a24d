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
 * text's kibibyte counts as 4.0K, 1.5M (-h).
 */
struct lines {
	FILE			*text;
	struct json_object	*json;
	bool			 human;
};

/*
 * One report line: n numbers joined by '/', each followed by unit, then
 * the note (text only).  In JSON each number goes under its key: the
 * arguments are n pairs of (const char *key, uintmax_t value).
 */
void	line(const struct lines *out, const char *unit, const char *note,
	    int n, ...);
/* "used/cached/total note"; in JSON under prefix-current, -cache, -total. */
void	counts_line(const struct lines *out, const char *prefix,
	    const char *note, uintmax_t used, uintmax_t cached);
/* The report's lines: text, or the members of its mbuf-statistics object. */
struct lines report_lines(struct tool_out *report, bool human);

/* Query the source, then start the report and write it: or exit 1. */
void	freebsd_report(struct tool_source *src, struct memory_type_list *mtlp,
	    struct tool_out *report, const struct tool_options *opts);
void	linux_report(struct tool_source *src, struct memory_type_list *mtlp,
	    struct tool_out *report, const struct tool_options *opts);

#endif /* !NETSTAT_MBUF_H */
