/*
 * fuzz_linux_tree.c: a saved Linux tree, cut from the input at FUZZ_SEP
 * in this order: proc/slabinfo, proc/allocinfo, proc/net/sockstat, a
 * description of sys/kernel/slab, pagesize, proc/uptime (an input with
 * fewer parts leaves the rest out).  The description has one entry per line:
 *
 *	NAME -> TARGET		a symlink (a merged cache's alias)
 *	NAME/FILE VALUE		a directory holding FILE, "VALUE\n" in it
 *
 * The tree goes through the library (a failed query must leave a list as
 * it was), then through all three tools, text, JSON and Prometheus's
 * format, and as the second look of a --replay after a good tree.
 */
#include <sys/stat.h>

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_support.h"
#include "memstat.h"
#include "tool_run.h"

int	LLVMFuzzerInitialize(int *argc, char ***argv);
int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_SYSFS_LINES	512

static const char *files[] = {
	"proc/slabinfo", "proc/allocinfo", "proc/net/sockstat",
	NULL /* sys/kernel/slab */, "pagesize", "proc/uptime",
};
#define NFILES	(sizeof(files) / sizeof(files[0]))

static char *good_root, *timed_root;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (asprintf(&good_root, "%s/fixtures/linux/captures/synthetic",
	    fuzz_repo()) == -1 ||
	    asprintf(&timed_root, "%s/fixtures/linux/captures/rates-6.18/1",
	    fuzz_repo()) == -1)
		abort();
	fuzz_tool_init();
	return (0);
}

/* One path component: no '/', not "." or "..", not empty. */
static bool
component(const char *s)
{
	return (*s != '\0' && strchr(s, '/') == NULL && strcmp(s, ".") != 0 &&
	    strcmp(s, "..") != 0 && strlen(s) < NAME_MAX);
}

static void
sysfs_write(const char *dir, const struct fuzz_part *part)
{
	struct fuzz_part lines[MAX_SYSFS_LINES];
	char line[1024], path[PATH_MAX], *arrow, *slash, *space;
	size_t n;

	n = fuzz_split(part->data, part->len, '\n', lines, MAX_SYSFS_LINES);
	snprintf(path, sizeof(path), "%s/sys/kernel/slab", dir);
	fuzz_write(dir, "sys/kernel/slab/.keep", "", 0);
	for (size_t i = 0; i < n; i++) {
		if (lines[i].len >= sizeof(line) ||
		    memchr(lines[i].data, '\0', lines[i].len) != NULL)
			continue;
		memcpy(line, lines[i].data, lines[i].len);
		line[lines[i].len] = '\0';
		if ((arrow = strstr(line, " -> ")) != NULL) {
			*arrow = '\0';
			if (!component(line))
				continue;
			snprintf(path, sizeof(path), "%s/sys/kernel/slab/%s",
			    dir, line);
			(void)symlink(arrow + 4, path);
		} else if ((slash = strchr(line, '/')) != NULL &&
		    (space = strchr(slash, ' ')) != NULL) {
			*slash = *space = '\0';
			if (!component(line) || !component(slash + 1))
				continue;
			snprintf(path, sizeof(path), "sys/kernel/slab/%s/%s",
			    line, slash + 1);
			*space = '\n';
			fuzz_write(dir, path, space + 1, strlen(space + 1));
		}
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_part parts[NFILES];
	struct memory_type_list *list;
	uint64_t before;
	size_t n, entries, after_entries;
	const char *dir;

	n = fuzz_split(data, size, FUZZ_SEP, parts, NFILES);
	dir = fuzz_scratch();
	for (size_t i = 0; i < n; i++)
		if (files[i] != NULL)
			fuzz_write(dir, files[i], parts[i].data, parts[i].len);
		else
			sysfs_write(dir, &parts[i]);

	/* Over a good tree's entries: a failure changes nothing. */
	if ((list = memstat_mtl_alloc()) == NULL)
		abort();
	if (memstat_linux_uma(list, good_root, MEMSTAT_LINUX_ALIASES) != 0)
		abort();
	before = fuzz_list_digest(list, &entries);
	if (memstat_linux_uma(list, dir, MEMSTAT_LINUX_ALIASES) != 0 &&
	    (fuzz_list_digest(list, &after_entries) != before ||
	    after_entries != entries))
		abort();
	if (memstat_linux_malloc(list, good_root, 0) != 0)
		abort();
	before = fuzz_list_digest(list, &entries);
	if (memstat_linux_malloc(list, dir, 0) != 0 &&
	    (fuzz_list_digest(list, &after_entries) != before ||
	    after_entries != entries))
		abort();
	memstat_mtl_free(list);

	fuzz_tool_run_on(FUZZ_VMSTAT_Z, dir, NULL);
	fuzz_tool_run_on(FUZZ_VMSTAT_Z, dir, "-a", NULL);
	fuzz_tool_run_on(FUZZ_VMSTAT_Z, dir, "--libxo", "json", NULL);
	fuzz_tool_run_on(FUZZ_VMSTAT_M, dir, NULL);
	fuzz_tool_run_on(FUZZ_VMSTAT_M, dir, "--libxo", "json", NULL);
	fuzz_tool_run_on(FUZZ_NETSTAT_MBUF, dir, NULL);
	fuzz_tool_run_on(FUZZ_NETSTAT_MBUF, dir, "--libxo", "json", NULL);
	fuzz_tool_run_on(FUZZ_VMSTAT_Z, dir, "--prometheus", "-", NULL);
	fuzz_tool_run_on(FUZZ_VMSTAT_M, dir, "--prometheus", "-", NULL);
	fuzz_tool_run_on(FUZZ_NETSTAT_MBUF, dir, "--prometheus", "-", NULL);
	{
		char *argv[] = { (char *)fuzz_tool_name(FUZZ_VMSTAT_Z),
		    "--replay", timed_root, (char *)dir, NULL };

		fuzz_tool_run_looks(FUZZ_VMSTAT_Z, 4, argv);
	}
	return (0);
}
