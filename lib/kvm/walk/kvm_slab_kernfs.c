/*
 * kvm_slab_kernfs.c: the aliases of merged caches from a core image, read
 * where the live kernel's /sys/kernel/slab comes from: the kernfs tree in
 * memory.  slab_kset's directory (kset.kobj.sd) keeps its entries in a
 * red-black tree (kernfs_elem_dir.children); each symlink entry
 * (flags & KERNFS_LINK, the value from BTF) names a cache and points at
 * its directory (kernfs_elem_symlink.target_kn).  The links go to the
 * same grouping the live tree's readlink()s go to
 * (linux_slab_sysfs.c), so that a dump's aliases are the live ones.
 *
 * The tree is walked in order with a stack of at most RB_DEPTH nodes (a
 * red-black tree of n nodes is at most 2 log2(n + 1) deep) and at most
 * MAX_ENTRIES nodes: a tree that loops or is deeper is bad data.  A node
 * that a filtered dump left out (its kernfs_node_cache slab taken for a
 * user page, kvm_slub_name.c) is passed over with what hangs below it,
 * and counted: the aliases are then read in part.
 */
#include <inttypes.h>
#include <stdint.h>

#include "kvm/kernel/kvm_finders.h"
#include "kvm/walk/kvm_slab_kernfs.h"
#include "kvm/walk/kvm_slub_find.h"
#include "linux/linux_tree.h"

#define RB_DEPTH	64
#define MAX_ENTRIES	(1u << 20)
#define NAME_LEN	256
#define KERNFS_TYPE_MASK 0x000f	/* include/linux/kernfs.h */

struct kernfs_layout {
	struct kvm_member kset_kobj, kobj_sd, kn_name, kn_rb, kn_flags,
	    kn_dir, kn_symlink, dir_children, root_node, rb_right, rb_left,
	    symlink_target;
	int64_t		 link;
};

static int
layout_load(struct memstat_kvm *kvm, struct kernfs_layout *l)
{
	static const struct kvm_member_want want[] = {
#define W(t, m, f) KVM_WANT(struct kernfs_layout, t, m, f)
		W("kset", "kobj", kset_kobj),
		W("kobject", "sd", kobj_sd),
		W("kernfs_node", "name", kn_name),
		W("kernfs_node", "rb", kn_rb),
		W("kernfs_node", "flags", kn_flags),
		W("kernfs_node", "dir", kn_dir),
		W("kernfs_node", "symlink", kn_symlink),
		W("kernfs_elem_dir", "children", dir_children),
		W("rb_root", "rb_node", root_node),
		W("rb_node", "rb_right", rb_right),
		W("rb_node", "rb_left", rb_left),
		W("kernfs_elem_symlink", "target_kn", symlink_target),
#undef W
	};

	if (_memstat_kvm_members(kvm, want, sizeof(want) / sizeof(want[0]),
	    l) != 0)
		return (-1);
	return (_memstat_kvm_enum_value(kvm, "KERNFS_LINK", &l->link));
}

static int
read_ptr(struct memstat_kvm *kvm, uint64_t base, const struct kvm_member *m,
    uint64_t *v)
{
	return (_memstat_kvm_read_u64(kvm, base + m->offset, v));
}

/* One entry of the directory: a link adds its name and target's name. */
static int
entry(struct memstat_kvm *kvm, const struct kernfs_layout *l, uint64_t kn,
    struct slab_aliases *sa)
{
	char name[NAME_LEN], target[NAME_LEN];
	uint64_t p, tkn;
	unsigned char b[2];
	uint16_t flags;
	int error;

	if (_memstat_kvm_read(kvm, kn + l->kn_flags.offset, b, sizeof(b)) !=
	    0)
		return (-1);
	flags = (uint16_t)_memstat_kvm_uint(kvm, b, sizeof(b));
	if ((flags & KERNFS_TYPE_MASK) != l->link)
		return (0);
	if (read_ptr(kvm, kn, &l->kn_name, &p) != 0 ||
	    _memstat_kvm_read_string(kvm, p, name, sizeof(name)) != 0 ||
	    read_ptr(kvm, kn + l->kn_symlink.offset, &l->symlink_target,
	    &tkn) != 0 || read_ptr(kvm, tkn, &l->kn_name, &p) != 0 ||
	    _memstat_kvm_read_string(kvm, p, target, sizeof(target)) != 0)
		return (-1);
	if ((error = _memstat_slab_aliases_link(sa, name, target)) != 0)
		return (_memstat_kvm_fail(kvm, error, "/sys/kernel/slab: "
		    "link %s", name));
	return (0);
}

/* Whether a failed read was of a page a dump left out: passed over. */
static bool
left_out(struct memstat_kvm *kvm, struct slab_aliases *sa)
{
	if (!_memstat_kvm_left_out(kvm))
		return (false);
	_memstat_slab_aliases_lost(sa, 1);
	return (true);
}

/* The tree under root, in order. */
static int
walk(struct memstat_kvm *kvm, const struct kernfs_layout *l, uint64_t node,
    struct slab_aliases *sa)
{
	uint64_t stack[RB_DEPTH], left;
	size_t depth = 0, seen = 0;

	while (node != 0 || depth > 0) {
		while (node != 0) {
			if (depth == RB_DEPTH)
				return (_memstat_kvm_fail(kvm,
				    MEMSTAT_ERROR_DATAERROR, "/sys/kernel/slab:"
				    " a tree deeper than %d (it loops)",
				    RB_DEPTH));
			if (read_ptr(kvm, node, &l->rb_left, &left) != 0) {
				if (!left_out(kvm, sa))
					return (-1);
				break;
			}
			stack[depth++] = node;
			node = left;
		}
		if (depth == 0)		/* the node passed over was the last */
			break;
		node = stack[--depth];
		if (++seen > MAX_ENTRIES)
			return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
			    "/sys/kernel/slab: more than %u entries (the tree "
			    "loops)", MAX_ENTRIES));
		if (entry(kvm, l, node - l->kn_rb.offset, sa) != 0 &&
		    !left_out(kvm, sa))
			return (-1);
		if (read_ptr(kvm, node, &l->rb_right, &node) != 0) {
			if (!left_out(kvm, sa))
				return (-1);
			node = 0;
		}
	}
	return (0);
}

int
_memstat_kvm_slab_links(struct memstat_kvm *kvm, struct slab_aliases *sa)
{
	struct kernfs_layout l;
	uint64_t kset, dir, root;
	int rc;

	/* A kernel without sysfs has no slab_kset, and no aliases to show. */
	if ((rc = _memstat_slub_kset(kvm, &kset)) != 0)
		return (rc == 1 ? 0 : left_out(kvm, sa) ? 0 : -1);
	if (layout_load(kvm, &l) != 0)
		return (-1);
	if (kset == 0)
		return (0);
	if (read_ptr(kvm, kset + l.kset_kobj.offset, &l.kobj_sd, &dir) != 0 ||
	    read_ptr(kvm, dir + l.kn_dir.offset + l.dir_children.offset,
	    &l.root_node, &root) != 0)
		return (left_out(kvm, sa) ? 0 : -1);
	return (walk(kvm, &l, root, sa));
}
