/*
 * tool_output.c: reports that reach stdout whole or not at all, so a
 * failure never leaves a partial table behind.
 */
#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <libutil.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool_output.h"

void
tool_out_init(struct tool_out *out, enum tool_style style)
{
	*out = (struct tool_out){ .style = style };
	if (style == STYLE_TEXT) {
		if ((out->text = tool_textbuf_open(&out->textbuf)) == NULL)
			err(1, "report");
	} else
		out->json = tool_json_new(json_type_object);
}

void
tool_out_init_streamed(struct tool_out *out)
{
	*out = (struct tool_out){ .style = STYLE_TEXT, .text = stdout,
	    .streamed = true };
}

/*
 * An empty array or object as "[]" and "{}", whichever json-c wrote it:
 * Debian 12's writes "[ ]", or "[", a newline and an indent, "]" in
 * pretty mode; Debian 13's "[]".  Outside strings only (a newline in a
 * string is "\n", but "[ ]" may be a name).  In place; the new length.
 */
static size_t
empty_collapsed(char *s, size_t len)
{
	size_t r = 0, w = 0, k;
	bool in_string = false;

	while (r < len) {
		char c = s[r++];

		s[w++] = c;
		if (in_string) {
			if (c == '\\' && r < len)
				s[w++] = s[r++];
			else if (c == '"')
				in_string = false;
			continue;
		}
		if (c == '"')
			in_string = true;
		else if (c == '[' || c == '{') {
			for (k = r; k < len &&
			    (s[k] == ' ' || s[k] == '\n'); k++)
				;
			if (k < len && s[k] == (c == '[' ? ']' : '}'))
				r = k;
		}
	}
	return (w);
}

void
tool_out_finish(struct tool_out *out)
{
	const char *json;
	char *buf;
	size_t len;

	if (out->streamed) {
		if (fflush(stdout) != 0 || ferror(stdout))
			err(1, "stdout");
		*out = (struct tool_out){ 0 };
		return;
	}
	if (out->style == STYLE_TEXT) {
		if (fclose(out->text) != 0)
			err(1, "report");
		if (tool_textbuf_write(&out->textbuf, stdout) != 0)
			err(1, "stdout");
		tool_textbuf_free(&out->textbuf);
	} else {
		json = json_object_to_json_string_length(out->json,
		    (out->style == STYLE_JSON_PRETTY ? JSON_C_TO_STRING_PRETTY :
		    0) | JSON_C_TO_STRING_SPACED |
		    JSON_C_TO_STRING_NOSLASHESCAPE, &len);
		if (json == NULL || (buf = malloc(len + 1)) == NULL)
			errx(1, "JSON: %s", strerror(ENOMEM));
		memcpy(buf, json, len);
		len = empty_collapsed(buf, len);
		buf[len++] = '\n';
		json_object_put(out->json);
		if (fwrite(buf, 1, len, stdout) != len)
			err(1, "stdout");
		free(buf);
	}
	if (fflush(stdout) != 0)
		err(1, "stdout");
	*out = (struct tool_out){ 0 };
}

void
tool_out_discard(struct tool_out *out)
{
	if (out->streamed)
		;	/* written already */
	else if (out->style == STYLE_TEXT) {
		(void)fclose(out->text);
		tool_textbuf_free(&out->textbuf);
	} else
		json_object_put(out->json);
	*out = (struct tool_out){ 0 };
}

struct json_object *
tool_json_new(json_type type)
{
	struct json_object *o;

	o = type == json_type_array ? json_object_new_array() :
	    json_object_new_object();
	if (o == NULL)
		errx(1, "JSON: %s", strerror(ENOMEM));
	return (o);
}

struct json_object *
tool_json_set(struct json_object *obj, const char *key,
    struct json_object *value)
{
	int rc;

	if (value == NULL)
		errx(1, "JSON: %s", strerror(ENOMEM));
	if (json_object_is_type(obj, json_type_array))
		rc = json_object_array_add(obj, value);
	else
		rc = json_object_object_add(obj, key, value);
	if (rc != 0)
		errx(1, "JSON: %s", strerror(ENOMEM));
	return (value);
}

struct json_object *
tool_json_uint(uint64_t v)
{
	return (json_object_new_uint64(v));
}

struct json_object *
tool_json_new_int(int64_t v)
{
	struct json_object *obj;

	if ((obj = json_object_new_int64(v)) == NULL)
		errx(1, "JSON: %s", strerror(ENOMEM));
	return (obj);
}

const char *
tool_shortest_double(char buf[TOOL_DOUBLE_LEN], double v)
{
	int prec;

	for (prec = 1; prec < 17; prec++) {
		snprintf(buf, TOOL_DOUBLE_LEN, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return (buf);
	}
	snprintf(buf, TOOL_DOUBLE_LEN, "%.17g", v);
	return (buf);
}

struct json_object *
tool_json_new_double(double v)
{
	struct json_object *obj;
	char buf[TOOL_DOUBLE_LEN];

	/* json-c would write 42216.760000000002 for 42216.76. */
	if ((obj = json_object_new_double_s(v,
	    tool_shortest_double(buf, v))) == NULL)
		errx(1, "JSON: %s", strerror(ENOMEM));
	return (obj);
}

void
tool_json_stat(struct json_object *obj, const char *key, uint64_t v,
    bool known)
{
	if (known)
		tool_json_set(obj, key, tool_json_uint(v));
	else if (json_object_object_add(obj, key, NULL) != 0)
		errx(1, "JSON: %s", strerror(ENOMEM));
}

const char *
tool_humanize(char buf[TOOL_HUMAN_LEN], uint64_t bytes)
{
	humanize_number(buf, 5, bytes > INT64_MAX ? INT64_MAX : (int64_t)bytes,
	    "", HN_AUTOSCALE, HN_DECIMAL | HN_NOSPACE | HN_B);
	return (buf);
}
