/*
 * tool_source_core.c: a kernel core image, through the library's
 * kvm-style handle.  -N may name a System.map, a vmlinux or a BTF file.
 */
#include "tool_source.h"
#include "tool_source_kinds.h"

static int
core_open(struct tool_source *src, const char *nlistf, struct tool_error *e)
{
	char errbuf[MEMSTAT_KVM_ERRLEN];

	if ((src->state = memstat_kvm_open(src->path, nlistf, errbuf)) ==
	    NULL)
		return (tool_error_set(e, MEMSTAT_ERROR_KVM, "%s: %s",
		    src->path, errbuf));
	return (0);
}

/*
 * What the tool will show beyond slabinfo's counts (MEMSTAT_KVM_ALLOCATED,
 * MEMSTAT_LINUX_ALIASES) is all the dump is read for.
 */
static int
core_uma(struct tool_source *src, struct memory_type_list *list, int flags,
    struct tool_error *e)
{
	memstat_kvm_setflags(src->state, flags);
	if (memstat_kvm_uma(list, src->state) != 0)
		return (tool_error_from_list(e, list));
	return (0);
}

static int
core_malloc(struct tool_source *src, struct memory_type_list *list,
    int flags, struct tool_error *e)
{
	memstat_kvm_setflags(src->state, flags);
	if (memstat_kvm_malloc(list, src->state) != 0)
		return (tool_error_from_list(e, list));
	return (0);
}

static int
core_frag(struct tool_source *src, struct memstat_frag *frag, int flags,
    struct tool_error *e)
{
	if (memstat_frag_kvm(frag, src->state, flags) != 0)
		return (tool_error_from_frag(e, frag));
	return (0);
}

static int
core_cgroups(struct tool_source *src, struct memstat_cgroups *cg,
    struct tool_error *e)
{
	if (memstat_cgroups_kvm(cg, src->state) != 0)
		return (tool_error_from_cgroups(e, cg));
	return (0);
}

static int
core_uptime(struct tool_source *src, double *seconds, struct tool_error *e)
{
	if (memstat_kvm_uptime(src->state, seconds) != 0)
		return (tool_error_set(e, MEMSTAT_ERROR_KVM, "%s: %s",
		    src->path, memstat_kvm_geterr(src->state)));
	return (0);
}

/* /proc/kcore: the running kernel, read anew each look. */
static bool
core_changes(const struct tool_source *src)
{
	return (memstat_kvm_live(src->state) != 0);
}

static void
core_close(struct tool_source *src)
{
	memstat_kvm_close(src->state);
}

const struct tool_source_ops tool_source_core = {
	.api = "kvm",
	.linux = true,
	.open = core_open,
	.uma = core_uma,
	.malloc = core_malloc,
	.frag = core_frag,
	.cgroups = core_cgroups,
	.uptime = core_uptime,
	.changes = core_changes,
	.close = core_close,
};
