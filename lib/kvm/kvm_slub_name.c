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
 * is no name of the cache.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "kvm/kvm_slub.h"

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
	/* A page a dump left out; the running kernel's are walked again. */
	if (kvm->live || kvm->err.code != MEMSTAT_ERROR_KVM_SHORTREAD)
		return (-1);
	snprintf(first, sizeof(first), "%s", kvm->err.msg);
	if (kobject_name(kvm, cache, buf, size) == 0)
		return (0);
	snprintf(buf, size, "kmem_cache@0x%" PRIx64, cache);
	snprintf(why, whylen, "its name is not in the dump (%s)", first);
	return (0);
}
