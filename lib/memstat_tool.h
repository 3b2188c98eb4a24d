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
 * What a tool reads.  No -M: the live kernel.  -M names, detected by
 * content: a Linux kernel core image (ELF core, kdump-compressed or
 * flattened), a single FreeBSD stream file (zone or malloc statistics, told
 * apart by their exact lengths), a saved Linux tree (a directory holding
 * proc/slabinfo), or a FreeBSD capture directory holding one file per
 * sysctl, named by its OID.
 */
struct tool_source;

/* NULL, with a message for "kvm_openfiles: %s" in err, on failure. */
struct tool_source	*tool_source_open(const char *path, char *err,
			    size_t errlen);
/*
 * What a tool does with its -M and -N arguments: open them, or exit 1 with
 * one line on stderr.  No -M is the live kernel: Linux's, on Linux.  -N
 * matters only for a core image (a System.map, vmlinux or BTF file).
 */
struct tool_source	*tool_open_core(const char *memf, const char *nlistf);
/* A core image: its report has no lines from /proc files. */
bool	tool_source_is_core(const struct tool_source *src);
/* The running kernel (no -M). */
bool	tool_source_is_live(const struct tool_source *src);
/* How to name a source's file in a message: "cap/proc/x", "/proc/x". */
const char *tool_source_file_path(const struct tool_source *src,
	    const char *file, char *buf, size_t len);
void			 tool_source_close(struct tool_source *src);
const char		*tool_source_path(const struct tool_source *src);

/* A Linux source (live or saved): Linux's columns and extras apply. */
bool	tool_source_linux(const struct tool_source *src);
/* "sysctl" for the live kernel, "kvm" for -M: FreeBSD's query names. */
const char *tool_source_api(const struct tool_source *src);

/*
 * Fill a list with the source's zones or malloc types; flags go to the
 * Linux queries (MEMSTAT_LINUX_*).  0 on success; TOOL_ABSENT if the
 * source holds no such data; -1 with what went wrong in err (for the live
 * kernel or a lone stream file exactly memstat_strerror() of the list's
 * error, as FreeBSD's tools print it; for a saved directory, led by the
 * file).
 */
#define TOOL_ABSENT	1
int	tool_source_uma(struct tool_source *src, struct memory_type_list *list,
	    int flags, char *err, size_t errlen);
int	tool_source_malloc(struct tool_source *src,
	    struct memory_type_list *list, int flags, char *err, size_t errlen);
/*
 * Exit 1 after a failed query with FreeBSD's line ("vmstat-z:
 * memstat_sysctl_uma: Permission denied"), and, when the live kernel
 * refused, a second line saying what to do about it.  src is closed.
 */
void	tool_query_failed(struct tool_source *src, const char *query,
	    const char *err) __attribute__((noreturn));

/*
 * A text file of a Linux source ("proc/net/sockstat"), whole and
 * NUL-terminated, in *bufp for the caller to free.  0, TOOL_ABSENT, or -1
 * with err set.
 */
int	tool_source_text(struct tool_source *src, const char *file,
	    char **bufp, char *err, size_t errlen);

/*
 * Linux's /proc/net/sockstat: socket counts, and socket buffer memory in
 * pages (pagesize: the live one, or a saved tree's "pagesize" file, else
 * 4096).  0, TOOL_ABSENT, or -1 with err set.
 */
struct tool_sockstat {
	uint64_t	 sockets;		/* sockets: used */
	uint64_t	 tcp_inuse, tcp_orphan, tcp_tw, tcp_alloc, tcp_mem;
	uint64_t	 udp_inuse, udp_mem;
	uint64_t	 udplite_inuse, raw_inuse;
	uint64_t	 frag_inuse, frag_memory;	/* memory in bytes */
	uint64_t	 pagesize;
};
int	tool_source_sockstat(struct tool_source *src, struct tool_sockstat *ss,
	    char *err, size_t errlen);

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

/*
 * A statistic the source may not keep (memstat_get_unknown()): unknown is
 * null in JSON and "-" in text, never 0.
 */
#define TOOL_STAT_LEN	21
void	tool_json_stat(struct json_object *obj, const char *key, uint64_t v,
	    bool known);
const char *tool_stat_text(char buf[TOOL_STAT_LEN], uint64_t v, bool known);
struct json_object *tool_json_new(json_type type);

#endif /* !MEMSTAT_TOOL_H */
