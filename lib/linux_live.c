/*
 * linux_live.c: the Linux queries.  The live kernel is the tree at "/"
 * (FreeBSD reads sysctls here; that build is not part of this port); a
 * saved tree is the same files under another root.  Each query reads what
 * it needs once, checks it all, and only then changes the list, so that
 * memstat_sysctl_all() gets zones and kmalloc families from one reading
 * of /proc/slabinfo, one moment of the kernel.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "linux_tree.h"

#define WANT_UMA	0x1
#define WANT_MALLOC	0x2

static int
linux_query(struct memory_type_list *list, const char *root, int flags,
    int want)
{
	struct slab_aliases *sa = NULL;
	struct slabinfo si = { 0 };
	char *allocinfo = NULL;
	size_t len = 0;
	int rootfd, error = 0, rc;

	if ((rootfd = _memstat_linux_open(root)) == -1)
		return (_memstat_mtl_fail(list, _memstat_linux_error(errno)));
	/* Allocation sites when the kernel profiles them, else kmalloc. */
	if (want & WANT_MALLOC) {
		error = _memstat_linux_read(rootfd, "proc/allocinfo",
		    &allocinfo, &len);
		if (error == ENOENT)
			error = 0;
		else if (error != 0)
			error = _memstat_linux_error(error);
	}
	if (error == 0 && ((want & WANT_UMA) || allocinfo == NULL)) {
		error = _memstat_slabinfo_read(rootfd, &si);
		if (error == 0)
			_memstat_slab_stats(rootfd, &si);
		if (error == 0 && (want & WANT_UMA) &&
		    (flags & MEMSTAT_LINUX_ALIASES))
			error = _memstat_slab_aliases_read(rootfd, &si, &sa);
	}
	close(rootfd);

	if (error != 0)
		rc = _memstat_mtl_fail(list, error);
	else if ((want & WANT_MALLOC) && (allocinfo != NULL ?
	    _memstat_allocinfo_fill(list, allocinfo, len) :
	    _memstat_kmalloc_families(list, &si)) != 0)
		rc = -1;
	else
		rc = (want & WANT_UMA) ? _memstat_slab_fill(list, &si, sa) : 0;
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
