/*
 * tool_source.h: what a report reads.  No -M: the live kernel.  -M names
 * whatever memstat_probe() says it holds: a FreeBSD stream (a file or a
 * pipe), a FreeBSD capture directory, a saved Linux tree, or a kernel
 * core image.  Each kind is one set of operations (tool_source_kinds.h);
 * a report asks the source, never which kind it is.
 */
#ifndef TOOL_SOURCE_H
#define TOOL_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "memstat.h"

/*
 * A failure: the MEMSTAT_ERROR_* code (UNDEFINED when the tool itself
 * found the fault) with what to print after "memstat_kvm_uma: ".
 */
struct tool_error {
	int	 code;
	char	 msg[MEMSTAT_ERRLEN];
};

struct tool_source;

/*
 * What a tool does with its -M and -N arguments: open them, or exit 1 with
 * one line on stderr.  No -M is the live kernel: Linux's, on Linux.  -N
 * matters only for a core image (a System.map, vmlinux or BTF file).
 */
struct tool_source *tool_open_core(const char *memf, const char *nlistf);
void	tool_source_close(struct tool_source *src);
/* -M's argument; "/" for the live kernel. */
const char *tool_source_path(const struct tool_source *src);
/* How to name a source's file in a message: "cap/proc/x", "/proc/x". */
const char *tool_source_file_path(const struct tool_source *src,
	    const char *file, char *buf, size_t len);

/* A Linux source (live, saved or a core image): Linux's columns apply. */
bool	tool_source_linux(const struct tool_source *src);
/* Whether the source has files besides its statistics (/proc/net/...). */
bool	tool_source_has_files(const struct tool_source *src);
/* "sysctl" for the live kernel, "kvm" for -M: FreeBSD's query names. */
const char *tool_source_api(const struct tool_source *src);

/*
 * Fill a list with the source's zones or malloc types; flags go to the
 * Linux queries (MEMSTAT_LINUX_*).  0 on success; TOOL_ABSENT if the
 * source holds no such data; -1 with the library's code and message in e.
 */
#define TOOL_ABSENT	1
int	tool_source_uma(struct tool_source *src, struct memory_type_list *list,
	    int flags, struct tool_error *e);
int	tool_source_malloc(struct tool_source *src,
	    struct memory_type_list *list, int flags, struct tool_error *e);
/*
 * Fill frag with the source's free lists (flags: MEMSTAT_FRAG_*): 0;
 * TOOL_ABSENT if the source holds none; -1 with the library's code and
 * message in e.
 */
int	tool_source_frag(struct tool_source *src, struct memstat_frag *frag,
	    int flags, struct tool_error *e);
/*
 * Fill cg with the source's memory cgroups: 0; TOOL_ABSENT if the source
 * holds none; -1 with the library's code and message in e.
 */
int	tool_source_cgroups(struct tool_source *src, struct memstat_cgroups *cg,
	    struct tool_error *e);
/*
 * When a saved source was taken, in seconds since its machine booted (a
 * tree's proc/uptime, a dump's timekeeper): 0; TOOL_ABSENT if it does
 * not say; -1 with e set.
 */
int	tool_source_uptime(struct tool_source *src, double *seconds,
	    struct tool_error *e);
/* The live kernel, not saved data. */
bool	tool_source_live(const struct tool_source *src);
/* What it reads changes: the live kernel, or it read as memory. */
bool	tool_source_changes(const struct tool_source *src);

/*
 * Exit 1 after a failed query with FreeBSD's line ("vmstat-z:
 * memstat_sysctl_uma: Permission denied"), which, when the live kernel
 * refused, goes on to say what to do about it.  src is closed.
 */
void	tool_query_failed(struct tool_source *src, const char *query,
	    const struct tool_error *e) __attribute__((noreturn));

/*
 * Exit 1 when the source holds no such statistics: "vmstat-m:
 * memstat_kvm_malloc: DIR holds no malloc statistics".  src is closed.
 */
void	tool_source_absent(struct tool_source *src, const char *query,
	    const char *what) __attribute__((noreturn));

/*
 * A text file of a Linux source ("proc/net/sockstat"), whole and
 * NUL-terminated, in *bufp for the caller to free.  0, TOOL_ABSENT, or -1
 * with e set.
 */
int	tool_source_text(struct tool_source *src, const char *file,
	    char **bufp, struct tool_error *e);
/* The page size of the kernel the source comes from (4096 if unsaid). */
uint64_t tool_source_pagesize(struct tool_source *src);

/*
 * A capture's sysctl value as an array of width-byte integers (4 or 8) in
 * the capture's byte order.  0 and *n set; TOOL_ABSENT; or -1 with e set
 * when the file is not a whole number of integers or holds more than max.
 */
int	tool_source_ints(struct tool_source *src, const char *oid,
	    size_t width, uint64_t *out, size_t max, size_t *n,
	    struct tool_error *e);

/* e from a list whose query failed: its code and message. */
int	tool_error_from_list(struct tool_error *e,
	    struct memory_type_list *list);
int	tool_error_from_frag(struct tool_error *e,
	    const struct memstat_frag *frag);
int	tool_error_from_cgroups(struct tool_error *e,
	    const struct memstat_cgroups *cg);
int	tool_error_set(struct tool_error *e, int code, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));

#endif /* !TOOL_SOURCE_H */
