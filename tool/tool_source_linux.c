/*
 * tool_source_linux.c: Linux trees.  The live kernel is the tree at "/"
 * (FreeBSD's sysctl queries); a saved tree is the same files under the
 * directory -M names (memstat-capture writes one).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tool_source.h"
#include "tool_source_kinds.h"

static int
tree_uma(struct tool_source *src, struct memory_type_list *list, int flags,
    struct tool_error *e)
{
	if (memstat_linux_uma(list, src->path, flags) != 0)
		return (tool_error_from_list(e, list));
	return (0);
}

static int
tree_malloc(struct tool_source *src, struct memory_type_list *list,
    int flags, struct tool_error *e)
{
	if (memstat_linux_malloc(list, src->path, flags) != 0)
		return (tool_error_from_list(e, list));
	return (0);
}

static int
live_uma(struct tool_source *src, struct memory_type_list *list, int flags,
    struct tool_error *e)
{
	(void)src;
	if (memstat_sysctl_uma(list, flags) != 0)
		return (tool_error_from_list(e, list));
	return (0);
}

static int
live_malloc(struct tool_source *src, struct memory_type_list *list,
    int flags, struct tool_error *e)
{
	(void)src;
	if (memstat_sysctl_malloc(list, flags) != 0)
		return (tool_error_from_list(e, list));
	return (0);
}

static int
tree_frag(struct tool_source *src, struct memstat_frag *frag, int flags,
    struct tool_error *e)
{
	if (memstat_frag_linux(frag, src->path, flags) != 0)
		return (tool_error_from_frag(e, frag));
	return (0);
}

static int
tree_cgroups(struct tool_source *src, struct memstat_cgroups *cg,
    struct tool_error *e)
{
	if (memstat_cgroups_linux(cg, src->path) != 0)
		return (tool_error_from_cgroups(e, cg));
	return (0);
}

static int tree_text(struct tool_source *, const char *, char **,
    struct tool_error *);

/* A saved tree's proc/uptime: the seconds since boot when it was saved. */
static int
tree_uptime(struct tool_source *src, double *seconds, struct tool_error *e)
{
	char *buf, *end;
	int rc;

	if ((rc = tree_text(src, "proc/uptime", &buf, e)) != 0)
		return (rc);
	errno = 0;
	*seconds = strtod(buf, &end);
	rc = end == buf || errno != 0 || !(*seconds >= 0) || *seconds > 1e12 ||
	    (*end != ' ' && *end != '\n');
	free(buf);
	return (rc ? tool_error_set(e, MEMSTAT_ERROR_DATAERROR,
	    "%s/proc/uptime: not seconds since boot", src->path) : 0);
}

static int
tree_text(struct tool_source *src, const char *file, char **bufp,
    struct tool_error *e)
{
	struct tool_blob b;
	int rc;

	/* The blob ends in a NUL: the caller takes it as text. */
	if ((rc = tool_source_file(src, file, &b, e)) == 0)
		*bufp = (char *)b.data;
	return (rc);
}

static bool
parse_pow2(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 10);
	return (errno == 0 && end != s && (*end == '\n' || *end == '\0') &&
	    *s >= '0' && *s <= '9' && *v != 0 && (*v & (*v - 1)) == 0);
}

/* A saved tree's "pagesize" file (memstat-capture writes it). */
static uint64_t
tree_pagesize(struct tool_source *src)
{
	struct tool_error e;
	uint64_t v;
	char *buf;

	if (tree_text(src, "pagesize", &buf, &e) != 0)
		return (4096);
	if (!parse_pow2(buf, &v))
		v = 4096;
	free(buf);
	return (v);
}

static uint64_t
live_pagesize(struct tool_source *src)
{
	long ps = sysconf(_SC_PAGESIZE);

	(void)src;
	return (ps > 0 ? (uint64_t)ps : 4096);
}

const struct tool_source_ops tool_source_linux_tree = {
	.api = "kvm",
	.linux = true,
	.open = tool_source_open_dir,
	.uma = tree_uma,
	.malloc = tree_malloc,
	.frag = tree_frag,
	.cgroups = tree_cgroups,
	.uptime = tree_uptime,
	.text = tree_text,
	.pagesize = tree_pagesize,
};

const struct tool_source_ops tool_source_linux_live = {
	.api = "sysctl",
	.linux = true,
	.live = true,
	.open = tool_source_open_dir,
	.uma = live_uma,
	.malloc = live_malloc,
	.frag = tree_frag,
	.cgroups = tree_cgroups,
	.text = tree_text,
	.pagesize = live_pagesize,
};
