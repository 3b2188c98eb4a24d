/*
 * linux_live.c: the Linux queries.  The live kernel is the tree at "/"
 * (FreeBSD reads sysctls here; that build is not part of this port); a
 * saved tree is the same files under another root.  Each query reads what
 * it needs once, checks it all, and only then changes the list, so that
 * memstat_sysctl_all() gets zones and kmalloc families from one reading
 * of /proc/slabinfo, one moment of the kernel.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linux/linux_tree.h"

#define WANT_UMA	0x1
#define WANT_MALLOC	0x2

/*
 * A failed query's error on the list: for the live kernel, FreeBSD's bare
 * words (its tools print memstat_strerror()); for a saved tree, led by
 * the file that failed.
 */
static int
linux_failed(struct memory_type_list *list, const char *root,
    const char *file, int error)
{
	if (strcmp(root, "/") == 0)
		return (_memstat_mtl_fail(list, error));
	return (_memstat_mtl_failf(list, error, "%s/%s: %s", root, file,
	    memstat_strerror(error)));
}

static int
linux_query(struct memory_type_list *list, const char *root, int flags,
    int want)
{
	struct slab_aliases *sa = NULL;
	struct slabinfo si = { 0 };
	const char *file = "proc/slabinfo";
	char *allocinfo = NULL, bad[PATH_MAX];
	size_t len = 0;
	int rootfd, error = 0, rc;

	if ((rootfd = _memstat_linux_open(root)) == -1)
		return (linux_failed(list, root, file,
		    _memstat_linux_error(errno)));
	/* Allocation sites when the kernel profiles them, else kmalloc. */
	if (want & WANT_MALLOC) {
		error = _memstat_linux_read(rootfd, "proc/allocinfo",
		    &allocinfo, &len);
		if (error == ENOENT)
			error = 0;
		else if (error != 0) {
			file = "proc/allocinfo";
			error = _memstat_linux_error(error);
		}
	}
	if (error == 0 && ((want & WANT_UMA) || allocinfo == NULL)) {
		error = _memstat_slabinfo_read(rootfd, &si);
		if (error == 0)
			_memstat_slab_stats(rootfd, &si);
		if (error == 0 && (want & WANT_UMA) &&
		    (flags & MEMSTAT_LINUX_NODES) &&
		    (error = _memstat_slab_nodes(rootfd, &si, bad)) != 0)
			file = bad;
		if (error == 0 && (want & WANT_UMA) &&
		    (flags & MEMSTAT_LINUX_ALIASES))
			error = _memstat_slab_aliases_read(rootfd, &si, &sa);
	}
	close(rootfd);

	rc = error != 0 ? -1 : 0;
	if (rc == 0 && (want & WANT_MALLOC)) {
		if (allocinfo != NULL) {
			file = "proc/allocinfo";
			rc = _memstat_allocinfo_fill(list, allocinfo, len);
		} else
			rc = _memstat_kmalloc_families(list, &si);
		error = memstat_mtl_geterror(list);
	}
	if (rc == 0 && (want & WANT_UMA)) {
		rc = _memstat_slab_fill(list, &si, sa);
		error = memstat_mtl_geterror(list);
	}
	if (rc != 0)
		linux_failed(list, root, file, error);
	_memstat_slab_aliases_free(sa);
	_memstat_slabinfo_free(&si);
	free(allocinfo);
	return (rc);
}

int
memstat_linux_uma(struct memory_type_list *list, const char *root, int flags)
{
	return (linux_query(list, root, flags, WANT_UMA));
}

int
memstat_linux_malloc(struct memory_type_list *list, const char *root,
    int flags)
{
	return (linux_query(list, root, flags, WANT_MALLOC));
}

int
memstat_sysctl_uma(struct memory_type_list *list, int flags)
{
	return (linux_query(list, "/", flags, WANT_UMA));
}

int
memstat_sysctl_malloc(struct memory_type_list *list, int flags)
{
	return (linux_query(list, "/", flags, WANT_MALLOC));
}

int
memstat_sysctl_all(struct memory_type_list *list, int flags)
{
	return (linux_query(list, "/", flags, WANT_UMA | WANT_MALLOC));
}
