/*
 * mbuf_watch.c: the report's numbers that changed between two looks.
 */
#include <inttypes.h>
#include <stdio.h>

#include "mbuf_watch.h"

void
mbuf_changes(struct tool_out *out, struct json_object *was,
    struct json_object *now, double dt)
{
	struct json_object *top = NULL, *array = NULL, *row, *old;
	int64_t v, d;

	if (out->style == STYLE_TEXT)
		fprintf(out->text, "%-28s %12s %10s %10s\n", "STATISTIC",
		    "VALUE", "CHANGE", "/s");
	else {
		tool_json_set(out->json, "__version",
		    json_object_new_string("1"));
		top = tool_json_set(out->json, "mbuf-changes",
		    tool_json_new(json_type_object));
		tool_json_set(top, "seconds", tool_json_new_double(dt));
		array = tool_json_set(top, "statistic",
		    tool_json_new(json_type_array));
	}
	json_object_object_foreach(now, key, value) {
		if (!json_object_is_type(value, json_type_int))
			continue;
		v = json_object_get_int64(value);
		/* A number the look before had not is new: from 0. */
		d = json_object_object_get_ex(was, key, &old) ?
		    v - json_object_get_int64(old) : v;
		if (d == 0)
			continue;
		if (out->style == STYLE_TEXT) {
			fprintf(out->text, "%-28s %12" PRId64 " %+10" PRId64
			    " %+10.1f\n", key, v, d, (double)d / dt);
			continue;
		}
		row = tool_json_set(array, NULL,
		    tool_json_new(json_type_object));
		tool_json_set(row, "name", json_object_new_string(key));
		tool_json_set(row, "value", tool_json_new_int(v));
		tool_json_set(row, "change", tool_json_new_int(d));
		tool_json_set(row, "per-second",
		    tool_json_new_double((double)d / dt));
	}
}
