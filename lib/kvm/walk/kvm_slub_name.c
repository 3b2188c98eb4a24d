/*
 * kvm_slub_name.c: a cache's name, read where a filtered dump still has
 * it.  kmem_cache.name of a cache whose name was not the kernel's own
 * constant is a kmalloc'd copy (kstrdup_const()), an object of
 * kmalloc-8 or -16.  makedumpfile 1.7.2 (Debian 12's) leaves some of
 * those slabs out of a -d 8 dump on 6.10 and later: it takes a per-CPU
 * partial slab, whose slab.slabs count lies where a page's mapping does,
 * for an anonymous (user) page when that count is odd.  The kobject the
 * cache was registered under in sysfs holds a second copy, and its
 * directory's kernfs node a third, each allocated on its own; a merged
 * cache's kobject is named by a unique id (":a-0000064") instead, which
 * is no name of the cache.  Those are often in the same slab as the
 * first, kmalloc'd in the same breath.  A socket's caches have one more
 * owner to ask: the protocol that made them (proto_list), whose struct
 * proto in the kernel's data holds its name and its cache
 * (proto.name, proto.slab), its request and timewait socket caches with
 * theirs (rsk_prot->slab_name, twsk_prot->twsk_slab_name).  A protocol
 * whose cache was merged into another's points at that one: the name is
 * the cache's only when every holder of the cache (kmem_cache.refcount)
 * is a protocol, and then it is the first registered's, the last on
 * proto_list (proto_register() adds at its head).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "kvm/walk/kvm_slub_name.h"
#include "kvm/walk/kvm_slub_slab.h"

/* The string at the pointer member m of base, if it is a cache's name. */
static int
name_at(struct memstat_kvm *kvm, uint64_t base, const struct kvm_member *m,
    char *buf, size_t size)
{
	uint64_t p;

	if (_memstat_slub_member(kvm, base, m, &p) != 0 || p == 0 ||
	    _memstat_kvm_read_string(kvm, p, buf, size) != 0)
		return (-1);
	return (buf[0] == '\0' || buf[0] == ':' ? -1 : 0);
}

/* The name the cache's kobject, or its sysfs directory, was given. */
static int
kobject_name(struct memstat_kvm *kvm, uint64_t cache, char *buf, size_t size)
{
	struct kvm_member kobj, name, sd, kn_name;
	uint64_t kn;

	if (_memstat_kvm_member(kvm, "kmem_cache", "kobj", &kobj) != 0 ||
	    _memstat_kvm_member(kvm, "kobject", "name", &name) != 0 ||
	    _memstat_kvm_member(kvm, "kobject", "sd", &sd) != 0 ||
	    _memstat_kvm_member(kvm, "kernfs_node", "name", &kn_name) != 0)
		return (-1);
	if (name_at(kvm, cache + kobj.offset, &name, buf, size) == 0)
		return (0);
	if (_memstat_slub_member(kvm, cache + kobj.offset, &sd, &kn) != 0 ||
	    kn == 0)
		return (-1);
	return (name_at(kvm, kn, &kn_name, buf, size));
}

#define MAX_PROTOS	4096		/* a loop guard: a kernel has dozens */

/* Where a protocol keeps one of its caches and that cache's name. */
struct proto_cache {
	struct kvm_member ops;		/* in struct proto, or none */
	struct kvm_member slab, name;	/* in the struct ops points at */
	bool		 inline_name;	/* a char array, not a pointer */
};

/* The name a protocol gave cache, if one made it. */
static int
proto_name(struct memstat_kvm *kvm, uint64_t cache, char *buf, size_t size)
{
	struct proto_cache pc[3] = {
		{ .inline_name = true }, { .ops = { 0 } }, { .ops = { 0 } } };
	struct kvm_member node, next, refcount;
	uint64_t head, e, proto, base, p, refs, found = 0, where = 0;
	size_t n = 0, which = 0;

	if (_memstat_kvm_symbol(kvm, "proto_list", &head) != 0 ||
	    _memstat_kvm_member(kvm, "proto", "node", &node) != 0 ||
	    _memstat_kvm_member(kvm, "proto", "slab", &pc[0].slab) != 0 ||
	    _memstat_kvm_member(kvm, "proto", "name", &pc[0].name) != 0 ||
	    _memstat_kvm_member(kvm, "proto", "rsk_prot", &pc[1].ops) != 0 ||
	    _memstat_kvm_member(kvm, "request_sock_ops", "slab",
	    &pc[1].slab) != 0 ||
	    _memstat_kvm_member(kvm, "request_sock_ops", "slab_name",
	    &pc[1].name) != 0 ||
	    _memstat_kvm_member(kvm, "proto", "twsk_prot", &pc[2].ops) != 0 ||
	    _memstat_kvm_member(kvm, "timewait_sock_ops", "twsk_slab",
	    &pc[2].slab) != 0 ||
	    _memstat_kvm_member(kvm, "timewait_sock_ops", "twsk_slab_name",
	    &pc[2].name) != 0 ||
	    _memstat_kvm_member(kvm, "kmem_cache", "refcount",
	    &refcount) != 0 ||
	    _memstat_kvm_member(kvm, "list_head", "next", &next) != 0 ||
	    _memstat_slub_member(kvm, cache, &refcount, &refs) != 0 ||
	    _memstat_slub_member(kvm, head, &next, &e) != 0)
		return (-1);
	for (; e != head; n++) {
		if (n == MAX_PROTOS)
			return (-1);
		proto = e - node.offset;
		for (size_t k = 0; k < 3; k++) {
			base = proto;
			if (k > 0 && (_memstat_slub_member(kvm, proto,
			    &pc[k].ops, &base) != 0 || base == 0))
				continue;
			if (_memstat_slub_member(kvm, base, &pc[k].slab,
			    &p) != 0)
				return (-1);
			if (p != cache)
				continue;
			found++;
			where = base;
			which = k;
		}
		if (_memstat_slub_member(kvm, e, &next, &e) != 0)
			return (-1);
	}
	if (found == 0 || found != (uint32_t)refs)
		return (-1);
	if (!pc[which].inline_name)
		return (name_at(kvm, where, &pc[which].name, buf, size));
	if (size > pc[which].name.size)
		size = pc[which].name.size;
	if (_memstat_kvm_read(kvm, where + pc[which].name.offset, buf,
	    size) != 0)
		return (-1);
	buf[size - 1] = '\0';
	return (buf[0] == '\0' ? -1 : 0);
}

int
_memstat_slub_cache_name(struct memstat_kvm *kvm,
    const struct kvm_member *name, uint64_t cache, char *buf, size_t size,
    char *why, size_t whylen)
{
	uint64_t p;
	char first[MEMSTAT_ERRLEN];

	why[0] = '\0';
	if (_memstat_slub_member(kvm, cache, name, &p) != 0)
		return (-1);
	if (_memstat_kvm_read_string(kvm, p, buf, size) == 0)
		return (0);
	if (!_memstat_kvm_left_out(kvm))
		return (-1);
	snprintf(first, sizeof(first), "%s", kvm->err.msg);
	if (kobject_name(kvm, cache, buf, size) == 0 ||
	    proto_name(kvm, cache, buf, size) == 0)
		return (0);
	snprintf(buf, size, "kmem_cache@0x%" PRIx64, cache);
	snprintf(why, whylen, "its name is not in the dump (%s)", first);
	return (0);
}
