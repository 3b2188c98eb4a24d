/*
 * kvm_memcg.c: memory cgroups and the slab objects charged to each, from
 * a core image (memstat_cgroups_kvm()).
 *
 * Each slab of an accounted cache has a vector with one slot per object
 * (5.10: page->obj_cgroups, its low bit set; 5.11 to 6.9: memcg_data
 * with MEMCG_DATA_OBJCGS; 6.10 on: slab->obj_exts with
 * MEMCG_DATA_OBJEXTS, each slot a struct slabobj_ext whose objcg is the
 * owner, slab->stride apart where the kernel has it).  A slot is set
 * while its object is allocated and cleared when it is freed, so the
 * slots set count the objects charged, the CPUs' free ones left out.
 * The slabs are found from the struct page array (kvm_slab_pages.c):
 * SLUB lists no full slab.  Counts are kept per (obj_cgroup, cache),
 * then each obj_cgroup's memcg is read once: a cgroup removed has its
 * obj_cgroups pointed at its parent, so its objects count there, and an
 * obj_cgroup that is not its memcg's own is one inherited so.
 *
 * The cgroups: the css tree from root_mem_cgroup (or, where kallsyms
 * name the code only, from any owner's memcg up its parents), children
 * before they are released, so a removed cgroup still allocated (its
 * css no longer online: dying) is in it.  Every list walk is bounded.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroups/cgroups_internal.h"
#include "kvm/arch/kvm_arch.h"
#include "kvm/walk/kvm_memcg_stock.h"
#include "kvm/walk/kvm_slab_pages.h"
#include "kvm/walk/kvm_slub_find.h"
#include "kvm/walk/kvm_slub_name.h"
#include "kvm/walk/kvm_slub_slab.h"

#define MAX_CACHES	100000
#define MAX_GROUPS	(1u << 20)
#define MAX_DEPTH	64		/* cgroup levels walked up */
#define MAX_OBJECTS	32767		/* MAX_OBJS_PER_PAGE */
#define NAME_MAX_LEN	256
#define PATH_MAX_LEN	4096
#define VECTOR_CHUNK	65536		/* vector bytes read at once */
#define CSS_ONLINE_BIT	2		/* CSS_ONLINE where BTF has no enum */
#define MAX_NODES	1024		/* MAX_NUMNODES at most */

struct layout {
	struct slab_pages pages;
	struct slub_slab_layout slab;
	struct kvm_member vector, stride;
	bool		 has_stride;
	uint64_t	 vector_flag, flag_mask;
	uint32_t	 slot_size, slot_objcg;
	struct kvm_member cache_list, cache_name, cache_size, list_next,
	    objcg_memcg, memcg_css, css_children, css_sibling, css_flags,
	    css_parent, css_cgroup, cgroup_kn, kn_name, kn_parent,
	    memcg_memory, counter_usage, memcg_objcg, memcg_nodeinfo,
	    pn_objcg;
	bool		 objcg_per_node;
	uint64_t	 css_online, nr_nodes;
};

/* An address to an index: a sorted array, looked up by bisection. */
struct addr_index {
	uint64_t	 addr;
	size_t		 index;
};

/* A count per (obj_cgroup, cache) while the slabs are walked. */
struct owner_count {
	uint64_t	 objcg;
	uint32_t	 cache;
	uint64_t	 objects;
};

struct walk {
	struct memstat_kvm *kvm;
	struct memstat_cgroups *cg;
	const struct layout *l;
	struct addr_index *caches;	/* kmem_cache address to cache */
	size_t		 ncaches, acaches;
	struct owner_count *counts;	/* open addressing, at most half full */
	size_t		 ncounts, nslots;
	bool		 lost;		/* cgroups in pages the dump left out */
	bool		 own_lost;	/* a memcg's own obj_cgroups, too */
	bool		 root_lost;	/* the root memcg itself */
	/* Slabs whose owner vectors a filtered dump left out: in use. */
	uint64_t	 unowned_slabs, unowned_objects;
	/* Objects whose obj_cgroup a filtered dump left out. */
	uint64_t	 objcg_lost_objects;
	uint8_t		 vector[VECTOR_CHUNK];
};

/* The members the walk reads, by what each kernel calls them. */
static int
layout_load(struct memstat_kvm *kvm, struct layout *l)
{
	static const struct kvm_member_want want[] = {
#define W(t, m, f) KVM_WANT(struct layout, t, m, f)
		W("kmem_cache", "list", cache_list),
		W("kmem_cache", "name", cache_name),
		W("kmem_cache", "size", cache_size),
		W("list_head", "next", list_next),
		W("obj_cgroup", "memcg", objcg_memcg),
		W("mem_cgroup", "css", memcg_css),
		W("mem_cgroup", "memory", memcg_memory),
		W("page_counter", "usage", counter_usage),
		W("cgroup_subsys_state", "children", css_children),
		W("cgroup_subsys_state", "sibling", css_sibling),
		W("cgroup_subsys_state", "flags", css_flags),
		W("cgroup_subsys_state", "parent", css_parent),
		W("cgroup_subsys_state", "cgroup", css_cgroup),
		W("cgroup", "kn", cgroup_kn),
		W("kernfs_node", "name", kn_name),
#undef W
	};
	const char *slab = "slab";
	int64_t v;
	uint32_t size;

	*l = (struct layout){ 0 };
	if (_memstat_kvm_member(kvm, "mem_cgroup", "css", &l->memcg_css) != 0)
		return (kvm->btf == NULL ? -1 : _memstat_kvm_fail(kvm,
		    MEMSTAT_ERROR_DATAERROR, "no struct mem_cgroup in the "
		    "kernel's BTF: a kernel built without memory cgroups "
		    "(CONFIG_MEMCG) charges no slab object to one"));
	if (_memstat_kvm_members(kvm, want, sizeof(want) / sizeof(want[0]),
	    l) != 0 || _memstat_slab_pages_layout(kvm, &l->pages) != 0 ||
	    _memstat_slub_slab_layout(kvm, &l->slab) != 0)
		return (-1);
	/* kernfs_node.parent, named __parent since 6.15. */
	if (_memstat_kvm_member(kvm, "kernfs_node", "parent",
	    &l->kn_parent) != 0 && _memstat_kvm_member(kvm, "kernfs_node",
	    "__parent", &l->kn_parent) != 0)
		return (-1);
	/* The owner vector, by its name in each era. */
	if (_memstat_kvm_member(kvm, slab, "slab_cache", &l->vector) != 0)
		slab = "page";
	if (_memstat_kvm_member(kvm, slab, "obj_exts", &l->vector) != 0 &&
	    _memstat_kvm_member(kvm, slab, "memcg_data", &l->vector) != 0 &&
	    _memstat_kvm_member(kvm, slab, "obj_cgroups", &l->vector) != 0)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "no owner vector in struct %s (obj_exts, memcg_data or "
		    "obj_cgroups): a kernel before 5.9 keeps no slab "
		    "object's cgroup", slab));
	l->has_stride = _memstat_kvm_member(kvm, slab, "stride",
	    &l->stride) == 0;
	/* Which low bit says a vector, and which bits are flags. */
	if (_memstat_kvm_enum_value(kvm, "MEMCG_DATA_OBJEXTS", &v) == 0 ||
	    _memstat_kvm_enum_value(kvm, "MEMCG_DATA_OBJCGS", &v) == 0)
		l->vector_flag = (uint64_t)v;
	else
		l->vector_flag = 1;	/* 5.10's obj_cgroups | 0x1 */
	if (_memstat_kvm_enum_value(kvm, "__NR_OBJEXTS_FLAGS", &v) == 0 ||
	    _memstat_kvm_enum_value(kvm, "__NR_MEMCG_DATA_FLAGS", &v) == 0)
		l->flag_mask = (uint64_t)v - 1;
	else
		l->flag_mask = l->vector_flag;
	if (l->vector_flag == 0 || l->vector_flag > 64 || l->flag_mask > 64 ||
	    (l->vector_flag & l->flag_mask) == 0)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "owner vector flags 0x%" PRIx64 " in 0x%" PRIx64,
		    l->vector_flag, l->flag_mask));
	/* A slot: struct slabobj_ext (6.10 on), else an obj_cgroup pointer. */
	l->slot_size = 8;
	if (_memstat_kvm_struct_size(kvm, "slabobj_ext", &size) == 0) {
		struct kvm_member objcg;

		if (_memstat_kvm_member(kvm, "slabobj_ext", "objcg",
		    &objcg) != 0)
			return (-1);
		l->slot_size = size;
		l->slot_objcg = objcg.offset;
		if (size > 256 || objcg.offset + 8 > size)
			return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
			    "a %" PRIu32 "-byte slabobj_ext", size));
	}
	/* A memcg's own obj_cgroup: its member, or per node (7.0 on). */
	if (_memstat_kvm_member(kvm, "mem_cgroup", "objcg",
	    &l->memcg_objcg) != 0) {
		if (_memstat_kvm_member(kvm, "mem_cgroup", "nodeinfo",
		    &l->memcg_nodeinfo) != 0 || _memstat_kvm_member(kvm,
		    "mem_cgroup_per_node", "objcg", &l->pn_objcg) != 0)
			return (-1);
		l->objcg_per_node = true;
		if (_memstat_slub_online_nodes(kvm, &l->nr_nodes) != 0)
			return (-1);
		if (l->nr_nodes > MAX_NODES)
			return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
			    "%" PRIu64 " nodes online", l->nr_nodes));
	}
	l->css_online = _memstat_kvm_enum_value(kvm, "CSS_ONLINE", &v) == 0 &&
	    v > 0 ? (uint64_t)v : CSS_ONLINE_BIT;
	return (0);
}

static int
cmp_addr(const void *a, const void *b)
{
	const struct addr_index *x = a, *y = b;

	return (x->addr < y->addr ? -1 : x->addr > y->addr);
}

/*
 * v[0..n) sorted by address, and searched.  v is NULL while n is 0 (a
 * walk whose memcgs' own obj_cgroups were all left out): neither qsort
 * nor bsearch may be given it.
 */
static void
sort_addrs(struct addr_index *v, size_t n)
{
	if (n > 0)
		qsort(v, n, sizeof(*v), cmp_addr);
}

static const struct addr_index *
find_addr(const struct addr_index *v, size_t n, uint64_t addr)
{
	struct addr_index key = { addr, 0 };

	return (n == 0 ? NULL : bsearch(&key, v, n, sizeof(*v), cmp_addr));
}

/* Every cache of slab_caches, as a cache of cg and by its address. */
static int
caches_load(struct walk *w)
{
	struct memstat_kvm *kvm = w->kvm;
	const struct layout *l = w->l;
	struct kvm_loop guard = KVM_LOOP_INIT;
	char name[NAME_MAX_LEN], part[MEMSTAT_ERRLEN];
	uint64_t head, e, size;
	size_t at;

	if (_memstat_slub_caches_head(kvm, &head) != 0 ||
	    _memstat_kvm_read_u64(kvm, head, &e) != 0)
		return (-1);
	while (e != head) {
		uint64_t cache = e - l->cache_list.offset;

		if (w->ncaches == MAX_CACHES || _memstat_kvm_loops(&guard, e))
			return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
			    "slab_caches does not end (a cycle?)"));
		if (_memstat_slub_cache_name(kvm, &l->cache_name, cache, name,
		    sizeof(name), part, sizeof(part)) != 0 ||
		    _memstat_slub_member(kvm, cache, &l->cache_size, &size) != 0)
			return (-1);
		if (_memstat_huge_array_grow((void **)&w->caches, w->ncaches,
		    &w->acaches, sizeof(*w->caches)) != 0)
			return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_NOMEMORY,
			    "%s", strerror(ENOMEM)));
		/* What the kernel charges: obj_full_size(), slot and owner. */
		if (size > SLUB_OBJECT_MAX || _memstat_cgroups_cache_add(w->cg,
		    name, size + 8, &at) != 0)
			return (size > SLUB_OBJECT_MAX ? _memstat_kvm_fail(kvm,
			    MEMSTAT_ERROR_DATAERROR, "cache %s of %" PRIu64
			    "-byte objects", name, size) : _memstat_kvm_fail(kvm,
			    MEMSTAT_ERROR_NOMEMORY, "%s", strerror(ENOMEM)));
		w->caches[w->ncaches++] = (struct addr_index){ cache, at };
		if (_memstat_slub_member(kvm, e, &l->list_next, &e) != 0)
			return (-1);
	}
	qsort(w->caches, w->ncaches, sizeof(*w->caches), cmp_addr);
	return (0);
}

static int
cmp_count(const void *a, const void *b)
{
	const struct owner_count *x = a, *y = b;

	return (x->objcg < y->objcg ? -1 : x->objcg > y->objcg);
}

static size_t
count_slot(const struct walk *w, uint64_t objcg, uint32_t cache)
{
	uint64_t h = (objcg ^ (uint64_t)cache << 48) * 0x9e3779b97f4a7c15ULL;

	return ((size_t)(h >> 32) & (w->nslots - 1));
}

/* One more object of cache owned by objcg: 0, or -1 (memory). */
static int
count_owner(struct walk *w, uint64_t objcg, uint32_t cache)
{
	struct owner_count *c, *old = w->counts;
	size_t n = w->nslots, s;

	if (2 * (w->ncounts + 1) > w->nslots) {
		w->nslots = n != 0 ? n * 2 : 4096;
		if ((w->counts = calloc(w->nslots, sizeof(*c))) == NULL) {
			w->counts = old;
			w->nslots = n;
			return (-1);
		}
		for (size_t i = 0; i < n; i++) {
			if (old[i].objects == 0)
				continue;
			for (s = count_slot(w, old[i].objcg, old[i].cache);
			    w->counts[s].objects != 0;
			    s = (s + 1) & (w->nslots - 1))
				;
			w->counts[s] = old[i];
		}
		free(old);
	}
	for (s = count_slot(w, objcg, cache); (c = &w->counts[s])->objects != 0;
	    s = (s + 1) & (w->nslots - 1))
		if (c->objcg == objcg && c->cache == cache) {
			c->objects++;
			return (0);
		}
	*c = (struct owner_count){ objcg, cache, 1 };
	w->ncounts++;
	return (0);
}

/* One slab: each slot of its owner vector that names an owner. */
static int
slab_owners(void *arg, uint64_t page, const uint8_t *bytes, uint64_t cache)
{
	struct walk *w = arg;
	const struct layout *l = w->l;
	const struct addr_index *c;
	uint64_t vector, objects, stride, base, objcg, len;
	uint64_t per;

	(void)page;
	if ((c = find_addr(w->caches, w->ncaches, cache)) == NULL)
		return (0);
	vector = _memstat_kvm_member_of(w->kvm, bytes, &l->vector);
	if ((vector & l->vector_flag) == 0)
		return (0);
	base = vector & ~l->flag_mask;
	objects = _memstat_kvm_member_of(w->kvm, bytes, &l->slab.objects);
	stride = l->has_stride ? _memstat_kvm_member_of(w->kvm, bytes,
	    &l->stride) : l->slot_size;
	if (base == 0 || objects == 0 || objects > MAX_OBJECTS ||
	    stride < l->slot_size || stride > VECTOR_CHUNK)
		return (0);
	per = VECTOR_CHUNK / stride;
	for (uint64_t i = 0; i < objects; i += per) {
		uint64_t n = objects - i < per ? objects - i : per;

		len = (n - 1) * stride + l->slot_size;
		if (_memstat_kvm_read(w->kvm, base + i * stride, w->vector,
		    len) != 0) {
			/* Freed under a live walk: the slab with it. */
			if (w->kvm->live)
				return (0);
			if (!_memstat_kvm_left_out(w->kvm))
				return (-1);
			/* A filtered dump's hole: its objects said, not owned. */
			w->unowned_slabs++;
			w->unowned_objects += _memstat_kvm_member_of(w->kvm,
			    bytes, &l->slab.inuse);
			return (0);
		}
		for (uint64_t j = 0; j < n; j++) {
			objcg = _memstat_kvm_u64(w->kvm,
			    w->vector + j * stride + l->slot_objcg);
			if (objcg != 0 && count_owner(w, objcg,
			    (uint32_t)c->index) != 0)
				return (_memstat_kvm_fail(w->kvm,
				    MEMSTAT_ERROR_NOMEMORY, "%s",
				    strerror(ENOMEM)));
		}
	}
	return (0);
}

/* The root memcg: root_mem_cgroup, or up the parents of any owner's. */
static int
root_memcg(struct walk *w, uint64_t *root)
{
	struct memstat_kvm *kvm = w->kvm;
	const struct layout *l = w->l;
	uint64_t addr, memcg = 0, parent;

	if (_memstat_kvm_symbol(kvm, "root_mem_cgroup", &addr) == 0)
		return (_memstat_kvm_read_u64(kvm, addr, root));
	for (size_t s = 0; s < w->nslots && memcg == 0; s++)
		if (w->counts[s].objects != 0 &&
		    _memstat_slub_member(kvm, w->counts[s].objcg,
		    &l->objcg_memcg, &memcg) != 0)
			memcg = 0;
	if (memcg == 0)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM_NOSYMBOL,
		    "no symbol root_mem_cgroup in the dump's kallsyms, and no "
		    "slab object charged to a cgroup to find it by"));
	for (int d = 0; d < MAX_DEPTH; d++) {
		if (_memstat_slub_member(kvm, memcg + l->memcg_css.offset,
		    &l->css_parent, &parent) != 0)
			return (-1);
		if (parent == 0) {
			*root = memcg;
			return (0);
		}
		memcg = parent - l->memcg_css.offset;
	}
	return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
	    "memory cgroups more than %d deep (a cycle?)", MAX_DEPTH));
}

/* A memcg's own obj_cgroups (one, or one per node) into own[]. */
static int
own_objcgs(struct walk *w, uint64_t memcg, uint64_t *own, size_t *n)
{
	const struct layout *l = w->l;
	uint64_t pn, objcg;

	*n = 0;
	if (!l->objcg_per_node) {
		if (_memstat_slub_member(w->kvm, memcg, &l->memcg_objcg,
		    &objcg) != 0)
			return (-1);
		if (objcg != 0)
			own[(*n)++] = objcg;
		return (0);
	}
	for (uint64_t i = 0; i < l->nr_nodes; i++) {
		if (_memstat_kvm_read_u64(w->kvm, memcg +
		    l->memcg_nodeinfo.offset + i * 8, &pn) != 0 ||
		    (pn != 0 && _memstat_slub_member(w->kvm, pn, &l->pn_objcg,
		    &objcg) != 0))
			return (-1);
		if (pn != 0 && objcg != 0)
			own[(*n)++] = objcg;
	}
	return (0);
}

struct tree {
	struct addr_index *memcgs;	/* memcg to group */
	struct addr_index *own;		/* obj_cgroup to its memcg's group */
	size_t		 nmemcgs, nown, amemcgs, aown;
};

static int
tree_add(struct addr_index **v, size_t *n, size_t *cap, uint64_t addr,
    size_t index)
{
	if (_memstat_huge_array_grow((void **)v, *n, cap, sizeof(**v)) != 0)
		return (-1);
	(*v)[(*n)++] = (struct addr_index){ addr, index };
	return (0);
}

/* One memcg: its group (path, state, memory) and own obj_cgroups. */
static int
group_add(struct walk *w, struct tree *t, uint64_t memcg, size_t parent,
    size_t *index)
{
	struct memstat_kvm *kvm = w->kvm;
	const struct layout *l = w->l;
	uint64_t css = memcg + l->memcg_css.offset, flags, cgroup, kn, name;
	uint64_t usage, own[MAX_NODES];
	char leaf[NAME_MAX_LEN], path[PATH_MAX_LEN];
	size_t nown;
	int len;

	if (_memstat_slub_member(kvm, css, &l->css_flags, &flags) != 0 ||
	    _memstat_slub_member(kvm, css, &l->css_cgroup, &cgroup) != 0 ||
	    _memstat_slub_member(kvm, cgroup, &l->cgroup_kn, &kn) != 0 ||
	    _memstat_slub_member(kvm, kn, &l->kn_name, &name) != 0 ||
	    _memstat_kvm_read_string(kvm, name, leaf, sizeof(leaf)) != 0 ||
	    _memstat_slub_member(kvm, memcg + l->memcg_memory.offset,
	    &l->counter_usage, &usage) != 0)
		return (-1);
	/*
	 * Its obj_cgroup pointers in a page a filtered dump left out (sid's
	 * makedumpfile 1.7.8 at -d 31 drops 7.2's root mem_cgroup's
	 * per-node pointers): its objects still reach it by their
	 * obj_cgroup's memcg, counted as inherited, and that is said.
	 */
	if (own_objcgs(w, memcg, own, &nown) != 0 &&
	    !_memstat_kvm_left_out_mark(kvm, &w->own_lost))
		return (-1);
	if (parent == SIZE_MAX)
		len = snprintf(path, sizeof(path), "/");
	else
		len = snprintf(path, sizeof(path), "%s/%s",
		    strcmp(w->cg->groups[parent].path, "/") == 0 ? "" :
		    w->cg->groups[parent].path, leaf);
	if (len < 0 || (size_t)len >= sizeof(path) ||
	    (parent != SIZE_MAX && (leaf[0] == '\0' || strchr(leaf, '/'))))
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "memory cgroup 0x%" PRIx64 ": no usable name", memcg));
	if (_memstat_cgroups_group_add(w->cg, path, parent,
	    (flags & l->css_online) == 0, index) != 0 ||
	    tree_add(&t->memcgs, &t->nmemcgs, &t->amemcgs, memcg, *index) != 0)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_NOMEMORY, "%s",
		    strerror(ENOMEM)));
	if (usage <= UINT64_MAX >> _memstat_kvm_page_shift(kvm))
		w->cg->groups[*index].memory = usage <<
		    _memstat_kvm_page_shift(kvm);
	for (size_t i = 0; i < nown; i++)
		if (tree_add(&t->own, &t->nown, &t->aown, own[i], *index) != 0)
			return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_NOMEMORY,
			    "%s", strerror(ENOMEM)));
	return (0);
}

/*
 * The root memcg in a page a filtered dump left out (sid's makedumpfile
 * 1.7.8 at -d 31 dropped 7.2's in one run of three): it is "/" and
 * online by definition, its memory unknown; its objects reach it by
 * their obj_cgroup's memcg, counted as inherited, and that is said.
 */
static int
root_left_out(struct walk *w, struct tree *t, uint64_t root, size_t *index)
{
	if (_memstat_cgroups_group_add(w->cg, "/", SIZE_MAX, false,
	    index) != 0 ||
	    tree_add(&t->memcgs, &t->nmemcgs, &t->amemcgs, root, *index) != 0)
		return (_memstat_kvm_fail(w->kvm, MEMSTAT_ERROR_NOMEMORY, "%s",
		    strerror(ENOMEM)));
	return (0);
}

/*
 * The tree from root, depth first, each child after its parent: an
 * explicit stack of the children lists being walked.
 */
static int
tree_walk(struct walk *w, struct tree *t, uint64_t root)
{
	struct memstat_kvm *kvm = w->kvm;
	const struct layout *l = w->l;
	struct {
		uint64_t head, at;	/* its children list, and where */
		size_t	 group;
	} stack[MAX_DEPTH];
	int depth = 0;
	size_t g, visited = 0;
	uint64_t next;

	if (group_add(w, t, root, SIZE_MAX, &g) != 0 &&
	    (!_memstat_kvm_left_out_mark(kvm, &w->root_lost) ||
	    root_left_out(w, t, root, &g) != 0))
		return (-1);
	stack[0].head = root + l->memcg_css.offset + l->css_children.offset;
	stack[0].at = stack[0].head;
	stack[0].group = g;
	while (depth >= 0) {
		if (_memstat_slub_member(kvm, stack[depth].at, &l->list_next,
		    &next) != 0) {
			/*
			 * The rest of this list, in a page a filtered dump
			 * left out (makedumpfile -d dropped a live
			 * mem_cgroup's once): the walk goes on without it,
			 * its cgroups found from their objects' owners.
			 */
			if (!_memstat_kvm_left_out_mark(kvm, &w->lost))
				return (-1);
			depth--;
			continue;
		}
		if (next == stack[depth].head) {
			depth--;
			continue;
		}
		if (++visited > MAX_GROUPS)
			return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
			    "more than %u memory cgroups (a cycle?)",
			    MAX_GROUPS));
		stack[depth].at = next;
		{
			uint64_t css = next - l->css_sibling.offset;
			uint64_t memcg = css - l->memcg_css.offset;

			if (group_add(w, t, memcg, stack[depth].group,
			    &g) != 0) {
				/* Its sibling link went with it. */
				if (!_memstat_kvm_left_out_mark(kvm, &w->lost))
					return (-1);
				depth--;
				continue;
			}
			if (depth + 1 == MAX_DEPTH)
				return (_memstat_kvm_fail(kvm,
				    MEMSTAT_ERROR_DATAERROR, "memory cgroups "
				    "more than %d deep", MAX_DEPTH));
			depth++;
			stack[depth].head = css + l->css_children.offset;
			stack[depth].at = stack[depth].head;
			stack[depth].group = g;
		}
	}
	return (0);
}

/*
 * An owner's memcg that the tree walk did not reach, its parent's list
 * cut short by a page the dump left out: found up its parents to one
 * the walk reached, and added below it with those between, top down.
 * 0 with its group, 1 where it cannot be placed (its page, or one on
 * the way, left out too), -1 (memory).
 */
static int
place(struct walk *w, struct tree *t, uint64_t memcg, size_t *group)
{
	const struct layout *l = w->l;
	const struct addr_index *m;
	uint64_t chain[MAX_DEPTH], parent;
	int n = 0, rc = 0;

	while ((m = find_addr(t->memcgs, t->nmemcgs, memcg)) == NULL) {
		if (n == MAX_DEPTH || memcg == 0 || _memstat_slub_member(w->kvm,
		    memcg + l->memcg_css.offset, &l->css_parent, &parent) != 0 ||
		    parent == 0)
			return (1);
		chain[n++] = memcg;
		memcg = parent - l->memcg_css.offset;
	}
	*group = m->index;
	while (n-- > 0 && (rc = group_add(w, t, chain[n], *group,
	    group)) == 0)
		;
	/* Sorted again for give_out()'s lookups, whatever was added. */
	sort_addrs(t->memcgs, t->nmemcgs);
	sort_addrs(t->own, t->nown);
	if (rc == 0)
		return (0);
	return (w->kvm->err.code == MEMSTAT_ERROR_NOMEMORY ? -1 : 1);
}

/* Each (obj_cgroup, cache) count to its memcg's cgroup. */
static int
give_out(struct walk *w, struct tree *t)
{
	static const char *apart_path[2] = { "(not in the tree)",
	    "(cgroups the dump left out)" };
	const struct addr_index *m, *own;
	uint64_t memcg, last = 0;
	size_t group = SIZE_MAX, apart[2] = { SIZE_MAX, SIZE_MAX };
	bool inherited = false, left = false;
	int rc;

	sort_addrs(t->memcgs, t->nmemcgs);
	sort_addrs(t->own, t->nown);
	/* By obj_cgroup, so that each one's memcg is read once. */
	qsort(w->counts, w->nslots, sizeof(*w->counts), cmp_count);
	for (size_t s = 0; s < w->nslots; s++) {
		const struct owner_count *c = &w->counts[s];

		if (c->objects == 0)
			continue;
		if (c->objcg != last) {
			last = c->objcg;
			own = find_addr(t->own, t->nown, last);
			/* Its obj_cgroup in a page the dump left out: apart. */
			left = false;
			if (_memstat_slub_member(w->kvm, last,
			    &w->l->objcg_memcg, &memcg) != 0) {
				(void)_memstat_kvm_left_out_mark(w->kvm, &left);
				memcg = 0;
			}
			m = find_addr(t->memcgs, t->nmemcgs, memcg);
			rc = m == NULL && w->lost ? place(w, t, memcg,
			    &group) : 1;
			if (rc < 0)
				return (-1);
			if (rc == 0)
				own = find_addr(t->own, t->nown, last);
			inherited = own == NULL;
			if (m != NULL)
				group = m->index;
			else if (rc != 0) {
				/* An owner outside the tree: said, apart. */
				int k = w->lost || left;

				if (apart[k] == SIZE_MAX &&
				    _memstat_cgroups_group_add(w->cg,
				    apart_path[k], SIZE_MAX, false,
				    &apart[k]) != 0)
					return (-1);
				group = apart[k];
				inherited = false;
			}
		}
		if (left)
			w->objcg_lost_objects += c->objects;
		if (_memstat_cgroups_charge(w->cg, group, c->cache,
		    c->objects, inherited ? c->objects : 0) != 0)
			return (-1);
	}
	return (0);
}

struct stock_walk {
	struct walk	*w;
	const struct tree *t;
};

/* A CPU's stock: to the group of the memcg its obj_cgroup points at. */
static int
stock_objcg(void *arg, uint64_t objcg, int64_t bytes)
{
	struct stock_walk *sw = arg;
	const struct addr_index *m;
	uint64_t memcg;

	if (_memstat_slub_member(sw->w->kvm, objcg, &sw->w->l->objcg_memcg,
	    &memcg) != 0)
		return (-1);
	if ((m = find_addr(sw->t->memcgs, sw->t->nmemcgs, memcg)) != NULL)
		sw->w->cg->groups[m->index].stocked += bytes;
	return (0);
}

/*
 * What the CPUs hold back from each group's memory.stat (the memcgs
 * sorted by give_out()).  Not knowing it fails nothing: the reason is
 * kept for the report to say.
 */
static void
stocks_read(struct walk *w, const struct tree *t)
{
	struct memcg_stock_layout sl;
	struct stock_walk sw = { w, t };
	struct memstat_cgroups *cg = w->cg;
	int64_t bytes;
	int rc;

	if ((rc = _memstat_memcg_stock_layout(w->kvm, &sl)) == 0) {
		if (sl.per_objcg)
			rc = _memstat_memcg_stock_objcgs(w->kvm, &sl,
			    stock_objcg, &sw);
		for (size_t i = 0; !sl.per_objcg && rc == 0 &&
		    i < t->nmemcgs; i++)
			if ((rc = _memstat_memcg_stock_memcg(w->kvm, &sl,
			    t->memcgs[i].addr, &bytes)) == 0)
				cg->groups[t->memcgs[i].index].stocked +=
				    bytes;
		_memstat_memcg_stock_layout_free(&sl);
	}
	/* What was added before is never shown: unknown says so. */
	if (rc != 0)
		snprintf(cg->stocked_why, sizeof(cg->stocked_why), "%s",
		    w->kvm->err.msg);
}

/* One more thing left out, after those said, "; " between. */
static void __attribute__((format(printf, 2, 3)))
left_out_add(struct memstat_cgroups *cg, const char *fmt, ...)
{
	size_t n = strlen(cg->left_out_why), len = sizeof(cg->left_out_why);
	va_list ap;

	if (n > 0 && n + 2 < len) {
		memcpy(cg->left_out_why + n, "; ", 3);
		n += 2;
	}
	va_start(ap, fmt);
	(void)vsnprintf(cg->left_out_why + n, len - n, fmt, ap);
	va_end(ap);
}

/*
 * What a filtered dump left out that the walk needed, said: a cgroup
 * list cut short (the cgroups after it found from their objects' owners
 * only: one whose objects all went to its parent, a dying one, not at
 * all), obj_cgroups (their objects counted apart), the owner vectors of
 * some slabs (their objects in no cgroup).
 */
static void
left_out_say(struct walk *w)
{
	if (w->lost)
		left_out_add(w->cg, "%s", "a memory cgroup's list is in a page "
		    "the dump left out: the cgroups after it are found from "
		    "their objects' owners only");
	if (w->root_lost)
		left_out_add(w->cg, "%s", "the root memory cgroup is in a page "
		    "the dump left out: its memory is unknown, its objects "
		    "counted in it as inherited");
	if (w->own_lost)
		left_out_add(w->cg, "%s", "a memory cgroup's own obj_cgroups "
		    "are in a page the dump left out: its objects count in it "
		    "as inherited");
	if (w->objcg_lost_objects > 0)
		left_out_add(w->cg, "the obj_cgroups of %" PRIu64 " objects are "
		    "in pages the dump left out: they count in (cgroups the "
		    "dump left out)", w->objcg_lost_objects);
	if (w->unowned_slabs > 0)
		left_out_add(w->cg, "the owners of %" PRIu64 " objects in %"
		    PRIu64 " slab%s are in pages the dump left out: they count "
		    "in no cgroup", w->unowned_objects, w->unowned_slabs,
		    w->unowned_slabs == 1 ? "" : "s");
}

static int
memcg_walk(struct memstat_kvm *kvm, struct memstat_cgroups *cg)
{
	struct layout l;
	struct walk *w;
	struct tree t = { 0 };
	uint64_t root;
	int rc = -1;

	if (layout_load(kvm, &l) != 0)
		return (-1);
	if ((w = calloc(1, sizeof(*w))) == NULL)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_NOMEMORY, "%s",
		    strerror(ENOMEM)));
	w->kvm = kvm;
	w->cg = cg;
	w->l = &l;
	if (caches_load(w) == 0 &&
	    _memstat_slab_pages_each(kvm, &l.pages, NULL, slab_owners,
	    w) == 0 && root_memcg(w, &root) == 0 &&
	    tree_walk(w, &t, root) == 0) {
		if (give_out(w, &t) == 0 && _memstat_cgroups_finish(cg) == 0) {
			stocks_read(w, &t);
			left_out_say(w);
			rc = 0;
		}
		else
			_memstat_kvm_fail(kvm, MEMSTAT_ERROR_NOMEMORY, "%s",
			    strerror(ENOMEM));
	}
	_memstat_huge_array_free(t.memcgs, t.amemcgs, sizeof(*t.memcgs));
	_memstat_huge_array_free(t.own, t.aown, sizeof(*t.own));
	free(w->counts);
	_memstat_huge_array_free(w->caches, w->acaches, sizeof(*w->caches));
	free(w);
	return (rc);
}

int
memstat_cgroups_kvm(struct memstat_cgroups *cg, void *kvm_handle)
{
	struct memstat_kvm *kvm = kvm_handle;

	_memstat_cgroups_clear(cg);
	cg->walked = true;
	_memstat_kvm_arch_look(kvm);
	if (memcg_walk(kvm, cg) == 0)
		return (0);
	_memstat_cgroups_clear(cg);
	return (_memstat_err_set(&cg->err, kvm->err.code, "%s",
	    kvm->err.msg));
}
