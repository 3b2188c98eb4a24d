/*
 * memstat_tool.h: what vmstat-z, vmstat-m and netstat-mbuf share, and
 * nothing a library user needs: opening the data a -M names, reading its
 * raw sysctl values, and writing a report as text or JSON only once it is
 * complete.  Built into lib/libmemstat_tool.a, which is not installed.
 */
#ifndef MEMSTAT_TOOL_H
#define MEMSTAT_TOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <json-c/json.h>

#include "memstat.h"

/* --- Sources ------------------------------------------------------------ */

/*
 * What -M names, detected by content: a single FreeBSD stream file (zone or
 * malloc statistics, told apart by their exact lengths), or a capture
 * directory holding one file per sysctl, named by its OID.
 */
struct tool_source;

/* NULL, with a message for "kvm_openfiles: %s" in err, on failure. */
struct tool_source	*tool_source_open(const char *path, char *err,
			    size_t errlen);
/*
 * What a tool does with its -M argument: open it, or exit 1 with one line
 * on stderr (no -M: there is no live FreeBSD kernel to read here).
 */
struct tool_source	*tool_open_core(const char *memf);
void			 tool_source_close(struct tool_source *src);
const char		*tool_source_path(const struct tool_source *src);

/*
 * Fill a list with the source's zones or malloc types.  0 on success;
 * TOOL_ABSENT if the source holds no such data; -1 with what went wrong in
 * err (for a lone stream file exactly memstat_strerror() of the list's
 * error, as FreeBSD's tools print it; for a capture, led by the file).
 */
#define TOOL_ABSENT	1
int	tool_source_uma(struct tool_source *src, struct memory_type_list *list,
	    char *err, size_t errlen);
int	tool_source_malloc(struct tool_source *src,
	    struct memory_type_list *list, char *err, size_t errlen);

/*
 * A capture's sysctl value as an array of width-byte integers (4 or 8) in
 * the capture's byte order.  0 and *n set; TOOL_ABSENT; or -1 with err set
 * when the file is not a whole number of integers or holds more than max.
 */
int	tool_source_ints(struct tool_source *src, const char *oid,
	    size_t width, uint64_t *out, size_t max, size_t *n, char *err,
	    size_t errlen);

/* --- Output ------------------------------------------------------------- */

enum tool_style {
	STYLE_TEXT,
	STYLE_JSON,
	STYLE_JSON_PRETTY,
};

/*
 * Take FreeBSD's --libxo option out of argv (as xo_parse_args() does):
 * "--libxo json", "--libxo=json,pretty", "--libxo text".  Returns the new
 * argc, or -1 for a style this port does not write.  argv[0] becomes the
 * program's short name, for getopt's messages.
 */
int	tool_parse_libxo(int argc, char *argv[], enum tool_style *style);

/*
 * A report under construction.  Text goes to out->text, JSON into
 * out->json; nothing reaches stdout until tool_out_finish().
 */
struct tool_out {
	enum tool_style	 style;
	FILE		*text;		/* STYLE_TEXT only */
	char		*buf;
	size_t		 len;
	struct json_object *json;	/* the top-level object, JSON only */
};

void	tool_out_init(struct tool_out *out, enum tool_style style);
/* Write the report to stdout, or exit 1 if it cannot be written. */
void	tool_out_finish(struct tool_out *out);
/*
 * obj[key] = value, in insertion order; returns value.  The report is
 * useless without its members, so running out of memory here exits.
 */
struct json_object *tool_json_set(struct json_object *obj, const char *key,
	    struct json_object *value);
struct json_object *tool_json_uint(uint64_t v);
struct json_object *tool_json_new(json_type type);

#endif /* !MEMSTAT_TOOL_H */
