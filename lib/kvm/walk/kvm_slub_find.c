/*
 * kvm_slub_find.c: what the slab walk reads that kallsyms naming the
 * kernel's code only do not name (a kernel built without
 * CONFIG_KALLSYMS_ALL: Debian's arm64 5.10 and 6.1), found by the
 * image's own structure instead:
 *
 *   - slab_caches, the list of every cache: the cache of any slab page
 *     (PG_slab in a struct page's flags, its slab_cache) is on it, and
 *     following its list, every entry is a kmem_cache, a slab's memory,
 *     but one, the head, in the kernel image (outside the direct map, or
 *     within it where the image is: ppc64's, s390x's before 6.2); held
 *     to its next's prev;
 *   - slab_kset, the caches' sysfs directory: the kset of a cache's
 *     kobject;
 *   - nr_node_ids: past the highest node of node_online_map, which
 *     VMCOREINFO names.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "kvm/arch/kvm_arch.h"
#include "kvm/kernel/kvm_finders.h"
#include "kvm/walk/kvm_slab_pages.h"
#include "kvm/walk/kvm_slub_find.h"

#define MAX_CACHES	65536		/* a loop guard: a kernel has hundreds */
#define MAX_NODE_WORDS	16		/* MAX_NUMNODES 1024, in words */

struct scan {
	struct memstat_kvm *kvm;
	const struct slab_pages *sp;
	struct kvm_member list;
	uint64_t	 head;		/* found */
};

/*
 * The head of the list cache (a kmem_cache, a slab's memory) is on: the
 * one entry not in a slab, whose next's prev is itself.  0 with s->head,
 * 1 if this cache does not lead to one, -1 (error).
 */
static int
head_from(struct scan *s, uint64_t cache)
{
	struct memstat_kvm *kvm = s->kvm;
	struct kvm_loop guard = KVM_LOOP_INIT;
	uint64_t e = cache + s->list.offset, next, prev;
	int slab;

	for (int n = 0; n < MAX_CACHES; n++) {
		if (_memstat_kvm_read_u64(kvm, e, &next) != 0 ||
		    (slab = _memstat_slab_pages_holds(kvm, s->sp, next)) < 0)
			return (_memstat_kvm_left_out(kvm) ? 1 : -1);
		if (slab == 0) {
			if (_memstat_kvm_read_u64(kvm, next, &e) != 0 ||
			    _memstat_kvm_read_u64(kvm, e + 8, &prev) != 0)
				return (_memstat_kvm_left_out(kvm) ? 1 : -1);
			if (prev != next || !_memstat_kvm_arch_in_direct_map(kvm, e))
				return (1);
			s->head = next;
			return (0);
		}
		if (_memstat_kvm_loops(&guard, next))
			return (1);
		e = next;
	}
	return (1);
}

/* A slab page whose cache leads to the head. */
static int
scan_slab(void *arg, uint64_t page, const uint8_t *bytes, uint64_t cache)
{
	int rc;

	(void)page;
	(void)bytes;
	if ((rc = head_from(arg, cache)) <= 0)
		return (rc == 0 ? 1 : -1);
	return (0);
}

/* slab_caches by structure: 0 with kvm->slab_caches, or -1. */
static int
caches_by_structure(struct memstat_kvm *kvm)
{
	struct slab_pages sp;
	struct scan s = { .kvm = kvm, .sp = &sp };
	uint64_t budget = 1ULL << 26;
	int rc;

	if (_memstat_slab_pages_layout(kvm, &sp) != 0) {
		char why[MEMSTAT_ERRLEN];

		snprintf(why, sizeof(why), "%s", kvm->err.msg);
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM_NOSYMBOL,
		    "no symbol slab_caches in the dump's kallsyms, and %s",
		    why));
	}
	if (_memstat_kvm_member(kvm, "kmem_cache", "list", &s.list) != 0)
		return (-1);
	if ((rc = _memstat_slab_pages_each(kvm, &sp, &budget, scan_slab,
	    &s)) == 1 && s.head != 0) {
		kvm->slab_caches = s.head;
		return (0);
	}
	return (rc == -1 ? -1 : _memstat_kvm_fail(kvm,
	    MEMSTAT_ERROR_KVM_NOSYMBOL, "no symbol slab_caches in the dump's "
	    "kallsyms, and no slab page in the dump leads to it"));
}

int
_memstat_slub_caches_head(struct memstat_kvm *kvm, uint64_t *head)
{
	if (kvm->slab_caches == 0 &&
	    _memstat_kvm_symbol(kvm, "slab_caches", &kvm->slab_caches) != 0 &&
	    caches_by_structure(kvm) != 0) {
		kvm->slab_caches = 0;
		return (-1);
	}
	*head = kvm->slab_caches;
	return (0);
}

int
_memstat_slub_kset(struct memstat_kvm *kvm, uint64_t *kset)
{
	struct kvm_member list, kobj, kobj_kset;
	uint64_t addr, head, first;

	if (_memstat_kvm_symbol(kvm, "slab_kset", &addr) == 0)
		return (_memstat_kvm_read_u64(kvm, addr, kset));
	/* slab_caches named, slab_kset not: a kernel without sysfs. */
	if (_memstat_kvm_symbol(kvm, "slab_caches", &addr) == 0)
		return (1);
	if (_memstat_slub_caches_head(kvm, &head) != 0 ||
	    _memstat_kvm_member(kvm, "kmem_cache", "list", &list) != 0 ||
	    _memstat_kvm_member(kvm, "kmem_cache", "kobj", &kobj) != 0 ||
	    _memstat_kvm_member(kvm, "kobject", "kset", &kobj_kset) != 0)
		return (-1);
	if (_memstat_kvm_read_u64(kvm, head, &first) != 0)
		return (-1);
	if (first == head)
		return (1);
	return (_memstat_kvm_read_u64(kvm, first - list.offset +
	    kobj.offset + kobj_kset.offset, kset));
}

int
_memstat_slub_online_nodes(struct memstat_kvm *kvm, uint64_t *n)
{
	uint64_t map, words[MAX_NODE_WORDS];
	uint32_t size;

	*n = 1;
	if (_memstat_kvm_vmcoreinfo_symbol(kvm, "node_online_map", &map) != 0)
		return (0);
	/* Its first word where BTF gives no size: 64 nodes. */
	if (_memstat_kvm_struct_size(kvm, "nodemask_t", &size) != 0 ||
	    size == 0 || size > sizeof(words) || size % 8 != 0)
		size = 8;
	if (_memstat_kvm_read(kvm, map, words, size) != 0)
		return (-1);
	for (uint32_t w = 0; w < size / 8; w++) {
		uint64_t word = _memstat_kvm_u64(kvm, &words[w]);

		for (unsigned b = 0; b < 64; b++)
			if (word & (1ULL << b))
				*n = (uint64_t)w * 64 + b + 1;
	}
	return (0);
}
