/*
 * kvm_slub_objects.c: a core image's slab objects one by one, with their
 * owners where the kernel kept them (memstat_kvm_objects()).
 *
 * A cache keeps owners when its flags have SLAB_STORE_USER (slub_debug=U
 * sets it on every cache).  Such a cache is a debug cache: SLUB gives it
 * no per-CPU slabs and keeps each node's full slabs on a list of their
 * own (kmem_cache_node.full), so its partial and full lists hold all its
 * slabs; the walk checks that they add up to the node's nr_slabs.  In a
 * slab, the objects on its freelist are free and the others allocated.
 * Each object's two struct tracks (who allocated it, who freed it) sit
 * after its metadata, at get_info_end(): inuse, or inuse plus the free
 * pointer when the pointer is stored past the object.
 *
 * Every list is bounded by the node's slab count, every freelist by its
 * slab's objects.  What stops one cache's walk is that cache's damage
 * and the walk goes on with the next; a bad owner is its object's.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kvm/arch/kvm_arch.h"
#include "kvm/kernel/kvm_percpu.h"
#include "kvm/walk/kvm_slub_find.h"
#include "kvm/walk/kvm_slub_name.h"
#include "kvm/walk/kvm_slub_slab.h"
#include "kvm/walk/kvm_tasks.h"
#include "kvm/walk/kvm_stackdepot.h"
#include "objects/objects_internal.h"

#define MAX_CACHES	100000
#define NAME_MAX_LEN	256
#define MAX_OBJECTS	32767		/* MAX_OBJS_PER_PAGE */
#define MAX_FRAMES	256
#define PID_MAX_LIMIT	(4 * 1024 * 1024)	/* 64-bit kernels' */
#define STORE_USER_BIT	16		/* SLAB_STORE_USER, 0x10000 */
#define TRACK_MAX	512		/* bytes of a struct track: 5.10's 152 */
/*
 * A slab's bytes are read whole, once, up to this much (slub_max_order 3
 * is 32 KiB): an object's owner is then no read of its own, which on a
 * dump of millions of objects is most of the walk's time.  A bigger slab
 * is read object by object.
 */
#define SLAB_SPAN_MAX	(256 * 1024)
/*
 * Depot handles already read, each with its stack's id: millions of
 * objects share a few thousand stacks, and a handle names its record for
 * as long as the walk runs.  Direct-mapped, 2^STACK_BITS of them.
 */
#define STACK_BITS	13

struct layout {
	struct kvm_array cache_node;
	struct kvm_member cache_list, cache_name, cache_flags, cache_inuse,
	    cache_object_size, list_next, node_partial, node_full,
	    node_nr_slabs;
	struct kvm_member track_addr, track_stack, track_cpu, track_pid,
	    track_when;
	uint32_t	 track_size;
	bool		 depot;		/* track.handle, else track.addrs[] */
	uint64_t	 store_user;
	struct slub_slab_layout slab;
	struct slub_geometry_layout geometry;
	struct slub_memmap memmap;
	struct depot_layout stacks;
	uint64_t	 nr_nodes, hz, jiffies;
	char		 hz_why[MEMSTAT_ERRLEN];	/* hz 0 */
	uint32_t	 ncpus;
};

/* One cache's walk. */
struct cache_walk {
	struct memstat_objects *ol;
	const struct layout *l;
	struct depot_layout *depot;	/* learns how the pools are kept */
	size_t		 index;		/* in ol */
	struct slub_geometry g;
	uint64_t	 info_end;	/* track 0, from the object */
	uint64_t	 bad_slabs;	/* slabs not read, the first's why: */
	char		 why[MEMSTAT_ERRLEN];
	uint8_t		 free[(MAX_OBJECTS + 7) / 8];
	uint64_t	 frames[MAX_FRAMES];
	uint64_t	*slabs;		/* the cache's, to walk */
	size_t		 nslabs, aslabs;
	uint8_t		 slab[SLAB_SPAN_MAX];	/* the slab being walked */
	struct {
		uint32_t handle, stack;		/* handle 0: none */
	} stack_of[1U << STACK_BITS];
};

/* The SLAB_STORE_USER flag: BTF's enum since 6.10, else its old value. */
static uint64_t
store_user_flag(struct memstat_kvm *kvm)
{
	int64_t bit;

	if (_memstat_kvm_enum_value(kvm, "_SLAB_STORE_USER", &bit) == 0 &&
	    bit >= 0 && bit < 32)
		return (1ULL << bit);
	return (1ULL << STORE_USER_BIT);
}

static int
track_layout(struct memstat_kvm *kvm, struct layout *l)
{
	static const struct kvm_member_want want[] = {
#define W(t, m, f) KVM_WANT(struct layout, t, m, f)
		W("track", "addr", track_addr),
		W("track", "cpu", track_cpu),
		W("track", "pid", track_pid),
		W("track", "when", track_when),
#undef W
	};

	if (_memstat_kvm_members(kvm, want, sizeof(want) / sizeof(want[0]),
	    l) != 0 || _memstat_kvm_struct_size(kvm, "track",
	    &l->track_size) != 0)
		return (-1);
	if (l->track_size > TRACK_MAX)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "a track of %" PRIu32 " bytes", l->track_size));
	/* The stack: a depot handle since 5.17, inline addresses before. */
	if (_memstat_kvm_member(kvm, "track", "handle", &l->track_stack) == 0) {
		l->depot = true;
		if (l->track_stack.size != 4)
			return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
			    "a %" PRIu32 "-byte stack depot handle",
			    l->track_stack.size));
		(void)_memstat_depot_load(kvm, &l->stacks);
		return (0);
	}
	if (_memstat_kvm_member(kvm, "track", "addrs", &l->track_stack) != 0)
		return (-1);
	if (l->track_stack.size % 8 != 0 ||
	    l->track_stack.size / 8 > MAX_FRAMES)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "track.addrs of %" PRIu32 " bytes", l->track_stack.size));
	return (0);
}

static int
layout_load(struct memstat_kvm *kvm, struct layout *l)
{
	static const struct kvm_member_want want[] = {
#define W(t, m, f) KVM_WANT(struct layout, t, m, f)
		W("kmem_cache", "list", cache_list),
		W("kmem_cache", "name", cache_name),
		W("kmem_cache", "flags", cache_flags),
		W("kmem_cache", "inuse", cache_inuse),
		W("kmem_cache", "object_size", cache_object_size),
		W("list_head", "next", list_next),
		W("kmem_cache_node", "partial", node_partial),
		W("kmem_cache_node", "nr_slabs", node_nr_slabs),
#undef W
	};

	*l = (struct layout){ 0 };
	if (_memstat_kvm_members(kvm, want, sizeof(want) / sizeof(want[0]),
	    l) != 0 || _memstat_slub_slab_layout(kvm, &l->slab) != 0 ||
	    _memstat_slub_geometry_layout(kvm, &l->geometry) != 0 ||
	    _memstat_slub_memmap(kvm, &l->memmap) != 0 ||
	    _memstat_kvm_pointer_array(kvm, "kmem_cache", "kmem_cache_node",
	    &l->cache_node) != 0 ||
	    _memstat_slub_nr_nodes(kvm, &l->cache_node, &l->nr_nodes) != 0)
		return (-1);
	if (_memstat_kvm_nr_cpus(kvm, &l->ncpus) != 0)
		return (-1);
	/*
	 * Owners need the full lists (CONFIG_SLUB_DEBUG) and the tracks;
	 * without them every cache is one without owners.  So are ages
	 * without the clock.
	 */
	if (_memstat_kvm_member(kvm, "kmem_cache_node", "full",
	    &l->node_full) == 0 && track_layout(kvm, l) == 0)
		l->store_user = store_user_flag(kvm);
	if (_memstat_kvm_hz(kvm, &l->hz) != 0 ||
	    _memstat_kvm_jiffies(kvm, &l->jiffies) != 0) {
		l->hz = 0;
		if (kvm->err.code == MEMSTAT_ERROR_KVM_NOSYMBOL)
			(void)_memstat_kvm_code_only(kvm, "tk_core");
		snprintf(l->hz_why, sizeof(l->hz_why), "%s", kvm->err.msg);
	}
	return (0);
}

/* Whether the cache at cache keeps owners with room for its tracks. */
static int
keeps_owners(struct memstat_kvm *kvm, struct cache_walk *w, uint64_t cache,
    bool *owners)
{
	const struct layout *l = w->l;
	uint64_t flags, inuse;

	*owners = false;
	if (l->store_user == 0)
		return (0);
	if (_memstat_slub_member(kvm, cache, &l->cache_flags, &flags) != 0)
		return (-1);
	if ((flags & l->store_user) == 0)
		return (0);
	if (_memstat_slub_geometry(kvm, &l->geometry, cache, &w->g) != 0 ||
	    _memstat_slub_member(kvm, cache, &l->cache_inuse, &inuse) != 0)
		return (-1);
	w->info_end = w->g.offset >= inuse ? inuse + 8 : inuse;
	if (w->g.red_left_pad + w->info_end + 2ULL * l->track_size > w->g.size)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "objects of %" PRIu64 " bytes have no room for their "
		    "owners past byte %" PRIu64, w->g.size, w->info_end));
	*owners = true;
	return (0);
}

/* An int member of a track already read into t. */
static int32_t
track_int(const struct memstat_kvm *kvm, const uint8_t *t,
    const struct kvm_member *m)
{
	return ((int32_t)(uint32_t)_memstat_kvm_member_of(kvm, t, m));
}

/* The track's stack into o->stack (none: OBJECTS_NO_STACK). */
static int
track_stack(struct memstat_kvm *kvm, struct cache_walk *w, const uint8_t *t,
    struct objects_object *o)
{
	const struct layout *l = w->l;
	uint32_t n = 0, handle = 0, slot = 0;

	o->stack = OBJECTS_NO_STACK;
	if (l->depot) {
		handle = (uint32_t)_memstat_kvm_member_of(kvm, t,
		    &l->track_stack);
		if (handle == 0)
			return (0);
		slot = (handle * 2654435761U) >> (32 - STACK_BITS);
		if (w->stack_of[slot].handle == handle) {
			o->stack = w->stack_of[slot].stack;
			return (0);
		}
		if (!w->depot->ok || _memstat_depot_stack(kvm, w->depot,
		    handle, w->frames, MAX_FRAMES, &n) != 0) {
			o->damage |= MEMSTAT_OBJECT_BAD_STACK;
			return (0);
		}
	} else {
		while (n < l->track_stack.size / 8 && (w->frames[n] =
		    _memstat_kvm_u64(kvm, t + l->track_stack.offset + n * 8))
		    != 0)
			n++;
	}
	if (n == 0)
		return (0);
	/* arm64's return addresses may be signed: the code's, unsigned. */
	for (uint32_t i = 0; i < n; i++)
		w->frames[i] = _memstat_kvm_arch_strip(kvm, w->frames[i]);
	if (_memstat_objects_stack(w->ol, w->frames, n, &o->stack) != 0)
		return (-1);
	if (l->depot) {
		w->stack_of[slot].handle = handle;
		w->stack_of[slot].stack = o->stack;
	}
	return (0);
}

/* Nanoseconds between jiffies then and now, at hz. */
static uint64_t
age_ns(const struct layout *l, uint64_t then)
{
	uint64_t d = l->jiffies - then;

	return (d / l->hz * 1000000000ULL + d % l->hz * 1000000000ULL /
	    l->hz);
}

/*
 * The allocated object at p and its owner, whose track is at t: in the
 * slab's bytes (span of them read from base), else read here.
 */
static int
object_add(struct memstat_kvm *kvm, struct cache_walk *w, uint64_t p,
    uint64_t base, uint64_t span)
{
	const struct layout *l = w->l;
	struct objects_object o = { .address = p, .cache =
	    (uint32_t)w->index, .age_ns = UINT64_MAX };
	uint8_t copy[TRACK_MAX];
	const uint8_t *t = copy;
	uint64_t when, at = p - base + w->info_end;
	int32_t cpu;

	if (at + l->track_size <= span)
		t = w->slab + at;
	else if (_memstat_kvm_read(kvm, p + w->info_end, copy,
	    l->track_size) != 0)
		return (-1);
	o.callsite = _memstat_kvm_member_of(kvm, t, &l->track_addr);
	o.pid = track_int(kvm, t, &l->track_pid);
	cpu = track_int(kvm, t, &l->track_cpu);
	when = _memstat_kvm_member_of(kvm, t, &l->track_when);
	if (o.pid < 0 || o.pid > PID_MAX_LIMIT) {
		o.damage |= MEMSTAT_OBJECT_BAD_PID;
		o.pid = -1;
	}
	/* ncpus is at most MAX_CPUS (8192): a CPU fits 16 bits. */
	if (cpu < 0 || (uint32_t)cpu >= l->ncpus) {
		o.damage |= MEMSTAT_OBJECT_BAD_CPU;
		cpu = -1;
	}
	o.cpu = (int16_t)cpu;
	if (when > l->jiffies)
		o.damage |= MEMSTAT_OBJECT_BAD_AGE;
	else if (l->hz != 0)
		o.age_ns = age_ns(l, when);
	if (track_stack(kvm, w, t, &o) != 0 ||
	    _memstat_objects_add(w->ol, &o) != 0)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_NOMEMORY, "%s",
		    strerror(ENOMEM)));
	return (0);
}

/* The allocated objects of one slab: those not on its freelist. */
static int
slab_objects(struct memstat_kvm *kvm, struct cache_walk *w, uint64_t slab)
{
	const struct layout *l = w->l;
	uint64_t objects, head, base, nfree, span;

	if (_memstat_slub_member(kvm, slab, &l->slab.objects, &objects) != 0 ||
	    _memstat_slub_member(kvm, slab, &l->slab.freelist, &head) != 0 ||
	    _memstat_slub_slab_base(kvm, &l->memmap, slab, &base) != 0)
		return (-1);
	if (objects > MAX_OBJECTS)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "slab 0x%" PRIx64 " of %" PRIu64 " objects", slab,
		    objects));
	memset(w->free, 0, (objects + 7) / 8);
	span = objects * w->g.size;
	if (span > SLAB_SPAN_MAX || _memstat_kvm_read(kvm, base, w->slab,
	    span) != 0)
		span = 0;	/* object by object */
	if (_memstat_slub_freelist(kvm, &l->memmap, &w->g, slab, objects,
	    head, span != 0 ? w->slab : NULL, w->free, &nfree) != 0)
		return (-1);
	for (uint64_t i = 0; i < objects; i++)
		if ((w->free[i / 8] & (1u << (i % 8))) == 0 &&
		    object_add(kvm, w, base + i * w->g.size +
		    w->g.red_left_pad, base, span) != 0)
			return (-1);
	return (0);
}

/* One more slab to walk: 0, or -1 (memory). */
static int
slab_found(struct memstat_kvm *kvm, struct cache_walk *w, uint64_t slab)
{
	uint64_t *bigger;
	size_t a;

	if (w->nslabs == w->aslabs) {
		a = w->aslabs == 0 ? 1024 : w->aslabs * 2;
		if ((bigger = reallocarray(w->slabs, a, sizeof(*bigger))) ==
		    NULL)
			return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_NOMEMORY,
			    "%s", strerror(ENOMEM)));
		w->slabs = bigger;
		w->aslabs = a;
	}
	w->slabs[w->nslabs++] = slab;
	return (0);
}

/* The slabs of one of a node's lists, at most *left of them. */
static int
list_slabs(struct memstat_kvm *kvm, struct cache_walk *w, uint64_t head,
    uint64_t *left)
{
	const struct layout *l = w->l;
	struct kvm_loop loop = KVM_LOOP_INIT;
	uint64_t p;

	if (_memstat_slub_member(kvm, head, &l->list_next, &p) != 0)
		return (-1);
	while (p != head) {
		if (*left == 0 || _memstat_kvm_loops(&loop, p))
			return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
			    "a node's slab lists hold more slabs than it "
			    "counts (a list loops)"));
		--*left;
		if (slab_found(kvm, w, p - l->slab.list.offset) != 0 ||
		    _memstat_slub_member(kvm, p, &l->list_next, &p) != 0)
			return (-1);
	}
	return (0);
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return ((x > y) - (x < y));
}

/*
 * Every node's partial and full slabs of the cache at cache, each slab's
 * objects.  The slabs are walked in the order of their struct slab, which
 * is their memory's (the memory map is by page frame), so the objects come
 * out by address with no sort of them, and the dump is read forward.
 */
static int
cache_objects(struct memstat_kvm *kvm, struct cache_walk *w, uint64_t cache)
{
	const struct layout *l = w->l;
	uint64_t node, nr_slabs, left;

	w->bad_slabs = 0;
	w->nslabs = 0;
	for (uint64_t i = 0; i < l->nr_nodes; i++) {
		if (_memstat_kvm_read_u64(kvm, cache + l->cache_node.offset +
		    i * l->cache_node.stride, &node) != 0)
			return (-1);
		if (node == 0)
			continue;
		if (_memstat_slub_member(kvm, node, &l->node_nr_slabs,
		    &nr_slabs) != 0)
			return (-1);
		left = nr_slabs;
		if (list_slabs(kvm, w, node + l->node_partial.offset,
		    &left) != 0 || list_slabs(kvm, w, node +
		    l->node_full.offset, &left) != 0)
			return (-1);
		if (left != 0)
			return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
			    "%" PRIu64 " of node %" PRIu64 "'s %" PRIu64
			    " slabs are on neither of its lists", left, i,
			    nr_slabs));
	}
	/* No slab yet, no array yet: qsort() takes no NULL. */
	if (w->nslabs > 1)
		qsort(w->slabs, w->nslabs, sizeof(*w->slabs), cmp_u64);
	for (size_t i = 0; i < w->nslabs; i++) {
		/* A slab that cannot be read is one slab less, not the rest. */
		if (slab_objects(kvm, w, w->slabs[i]) == 0)
			continue;
		if (kvm->err.code == MEMSTAT_ERROR_NOMEMORY)
			return (-1);
		if (w->bad_slabs++ == 0)
			snprintf(w->why, sizeof(w->why), "%s", kvm->err.msg);
	}
	if (w->bad_slabs > 0) {
		char why[MEMSTAT_ERRLEN];

		snprintf(why, sizeof(why), "%s", w->why);
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR, "%"
		    PRIu64 " slab%s not read, the first: %s", w->bad_slabs,
		    w->bad_slabs == 1 ? "" : "s", why));
	}
	return (0);
}

static bool
wanted(const char *name, const char *const *caches, size_t ncaches)
{
	for (size_t i = 0; i < ncaches; i++)
		if (strcmp(caches[i], name) == 0)
			return (true);
	return (ncaches == 0);
}

/* One cache of slab_caches: its row, and its objects if it has owners. */
static int
cache_walk(struct memstat_kvm *kvm, struct cache_walk *w, uint64_t cache,
    const char *const *caches, size_t ncaches)
{
	char name[NAME_MAX_LEN], part[MEMSTAT_ERRLEN];
	uint64_t object_size;
	bool owners;

	if (_memstat_slub_cache_name(kvm, &w->l->cache_name, cache, name,
	    sizeof(name), part, sizeof(part)) != 0 ||
	    _memstat_slub_member(kvm, cache, &w->l->cache_object_size,
	    &object_size) != 0)
		return (-1);
	if (!wanted(name, caches, ncaches))
		return (0);
	if (_memstat_objects_cache_add(w->ol, name, object_size, false,
	    &w->index) != 0)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_NOMEMORY, "%s",
		    strerror(ENOMEM)));
	if (keeps_owners(kvm, w, cache, &owners) == 0) {
		w->ol->caches[w->index].owners = owners;
		if (!owners || cache_objects(kvm, w, cache) == 0) {
			if (part[0] == '\0')
				return (0);
			/* Its objects are all there; its name is not. */
			_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM_SHORTREAD,
			    "%s", part);
		}
	}
	if (kvm->err.code == MEMSTAT_ERROR_NOMEMORY)
		return (-1);
	/* The cache's damage; the walk goes on with the next cache. */
	if (_memstat_objects_cache_damage(w->ol, w->index, kvm->err.msg) != 0)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_NOMEMORY, "%s",
		    strerror(ENOMEM)));
	return (0);
}

static int
objects_walk(struct memstat_kvm *kvm, struct memstat_objects *ol,
    const char *const *caches, size_t ncaches)
{
	struct cache_walk *w;
	struct layout l;
	uint64_t head, e;
	size_t n = 0;
	int rc = -1;

	if (layout_load(kvm, &l) != 0 ||
	    _memstat_slub_caches_head(kvm, &head) != 0 ||
	    _memstat_slub_member(kvm, head, &l.list_next, &e) != 0)
		return (-1);
	if ((w = calloc(1, sizeof(*w))) == NULL)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_NOMEMORY, "%s",
		    strerror(ENOMEM)));
	w->ol = ol;
	w->l = &l;
	w->depot = &l.stacks;
	ol->hz = l.hz;
	if (l.hz == 0)
		_memstat_objects_why(&ol->hz_why, l.hz_why);
	while (e != head) {
		if (n++ == MAX_CACHES) {
			_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
			    "slab_caches does not end (a cycle?)");
			goto out;
		}
		if (cache_walk(kvm, w, e - l.cache_list.offset, caches,
		    ncaches) != 0 ||
		    _memstat_slub_member(kvm, e, &l.list_next, &e) != 0)
			goto out;
	}
	rc = 0;
out:
	free(w->slabs);
	free(w);
	return (rc);
}

/* Either query: objects kept in ol (fn NULL), or handed to fn. */
static int
objects_query(struct memstat_objects *ol, struct memstat_kvm *kvm,
    const char *const *caches, size_t ncaches,
    int (*fn)(const struct memstat_objects *, void *), void *arg)
{
	int rc = -1;

	_memstat_objects_clear(ol);
	ol->each = fn;
	ol->each_arg = arg;
	_memstat_kvm_arch_look(kvm);
	if (objects_walk(kvm, ol, caches, ncaches) == 0) {
		for (size_t c = 0; c < ol->ncaches; c++)
			if (ol->caches[c].owners) {
				_memstat_kvm_tasks(kvm, ol);
				break;
			}
		rc = 0;
	} else {
		_memstat_objects_clear(ol);
		_memstat_err_set(&ol->err, kvm->err.code, "%s", kvm->err.msg);
	}
	ol->each = NULL;
	ol->each_arg = NULL;
	return (rc);
}

int
memstat_kvm_objects(struct memstat_objects *ol, void *kvm_handle,
    const char *const *caches, size_t ncaches)
{
	return (objects_query(ol, kvm_handle, caches, ncaches, NULL, NULL));
}

int
memstat_kvm_objects_each(struct memstat_objects *ol, void *kvm_handle,
    const char *const *caches, size_t ncaches,
    int (*fn)(const struct memstat_objects *ol, void *arg), void *arg)
{
	return (objects_query(ol, kvm_handle, caches, ncaches, fn, arg));
}
