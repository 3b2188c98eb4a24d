/*
 * linux_live.c: FreeBSD's live queries, answered on Linux by the tree at
 * "/" (FreeBSD reads sysctls here; that build is not part of this port).
 */
#include "linux_tree.h"

int
memstat_sysctl_uma(struct memory_type_list *list, int flags)
{
	return (memstat_linux_uma(list, "/", flags));
}

int
memstat_sysctl_malloc(struct memory_type_list *list, int flags)
{
	return (memstat_linux_malloc(list, "/", flags));
}

int
memstat_sysctl_all(struct memory_type_list *list, int flags)
{
	if (memstat_sysctl_malloc(list, flags) != 0 ||
	    memstat_sysctl_uma(list, flags) != 0)
		return (-1);
	return (0);
}
