/*
 * mbuf_lines.c: the lines of netstat-mbuf's reports, text or JSON from
 * one call each.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "mbuf.h"

/* A number of a text line: in kibibytes (unit "K") humanized with -h. */
static void
text_number(const struct lines *out, const char *sep, uintmax_t v,
    const char *unit)
{
	char buf[TOOL_HUMAN_LEN];

	if (out->human && strcmp(unit, "K") == 0)
		fprintf(out->text, "%s%s", sep, tool_humanize(buf,
		    v > UINT64_MAX / 1024 ? UINT64_MAX : (uint64_t)v * 1024));
	else
		fprintf(out->text, "%s%ju%s", sep, v, unit);
}

/*
 * One report line: n numbers joined by '/', each followed by unit, then
 * the note (text only).  In JSON each number goes under its key.
 */
void
numbers_line(const struct lines *out, const char *unit, const char *note,
    int n, ...)
{
	const char *key;
	uintmax_t v;
	va_list ap;

	va_start(ap, n);
	for (int i = 0; i < n; i++) {
		key = va_arg(ap, const char *);
		v = va_arg(ap, uintmax_t);
		if (out->text != NULL)
			text_number(out, i ? "/" : "", v, unit);
		else
			tool_json_set(out->json, key, tool_json_uint(v));
		if (out->numbers != NULL)
			tool_json_set(out->numbers, key, tool_json_uint(v));
	}
	va_end(ap);
	if (out->text != NULL)
		fprintf(out->text, " %s\n", note);
}

void
report_number(const struct lines *out, const char *key, intmax_t v)
{
	if (out->json != NULL)
		tool_json_set(out->json, key, tool_json_new_int(v));
	if (out->numbers != NULL)
		tool_json_set(out->numbers, key, tool_json_new_int(v));
}

void
report_name(const struct lines *out, const char *key, const char *s)
{
	if (out->json != NULL)
		tool_json_set(out->json, key, json_object_new_string(s));
	if (out->numbers != NULL)
		tool_json_set(out->numbers, key, json_object_new_string(s));
}

/* "used/cached/total note"; in JSON under prefix-current, -cache, -total. */
void
counts_line(const struct lines *out, const char *prefix, const char *note,
    uintmax_t used, uintmax_t cached)
{
	char k1[64], k2[64], k3[64];

	snprintf(k1, sizeof(k1), "%s-current", prefix);
	snprintf(k2, sizeof(k2), "%s-cache", prefix);
	snprintf(k3, sizeof(k3), "%s-total", prefix);
	numbers_line(out, "", note, 3, k1, used, k2, cached, k3,
	    used + cached);
}

/* The report's lines: text, or the members of its mbuf-statistics object. */
struct lines
report_lines(struct tool_out *report, bool human, struct json_object *numbers)
{
	struct lines out = { .text = report->text, .numbers = numbers,
	    .human = human };

	if (report->json != NULL)
		out.json = tool_json_set(report->json, "mbuf-statistics",
		    tool_json_new(json_type_object));
	return (out);
}

