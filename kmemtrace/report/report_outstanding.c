/*
 * report_outstanding.c: the allocations live at the end (of a recording,
 * or in a core image: an outstanding_set), sorted into groups once (the
 * model), then written as text or JSON from it.
 *
 * Whether a recording's object is really outstanding: a free may have
 * had no event (a loss on any CPU after the allocation, or a cache seen
 * allocating an address again with no free between: kfree_rcu's
 * kfree_bulk and kmem_cache_free_bulk have no events).  Such objects are
 * counted apart and marked; the rest are certain.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "huge_alloc.h"
#include "kmem_frames.h"
#include "report_outstanding.h"
#include "u64map.h"
#include "tool_output.h"

#define LIST_SHOWN	4	/* caches, pids a group names in text */

/*
 * By object, every live allocation, keyed for its place: 16 bytes, as
 * a dump lists millions.  Its group is a cache (pages: an order), k2,
 * and its objects go oldest first, by k1, the time.
 */
struct item {
	uint64_t	 k1;		/* ts */
	uint32_t	 k2;		/* cache rank; pages: order */
	uint32_t	 live;		/* index into the set */
};

/*
 * A name (a cache, an order; a pid and command) and how many of a
 * group's objects have it.
 */
struct tally {
	uint64_t	 key, key2;
	uint64_t	 count;
	uint32_t	 group;
	bool		 pid;
};

/*
 * A group: by stack, call site or pid, kept as the allocations are
 * handed over, with its tallies (caches first, then pids); by object, a
 * cache's items.  The groups, not the allocations, are what is kept.
 */
struct group {
	uint64_t	 k1;		/* stack, call site, pid */
	uint32_t	 k2;		/* order, command; object: cache */
	size_t		 first, n;	/* object: items; else first tally */
	size_t		 ncaches, npids;	/* tallies from first */
	uint64_t	 bytes, pages;
	uint64_t	 oldest, newest;	/* ts */
	size_t		 lost, untraced;	/* marked objects */
};

/* A stack and where it ends (a cache, or a page order), and its bytes. */
struct fold {
	uint32_t	 stack, leaf;
	uint64_t	 bytes;
	char		*line;
};

struct model {
	const struct outstanding_set *set;
	const struct outstanding_options *o;
	struct item	*items;		/* by object */
	size_t		 nitems, aitems;
	struct group	*groups;
	size_t		 ngroups, agroups;
	struct tally	*tallies;
	size_t		 ntallies, atallies;
	/* Group by key; call sites and (pid, command) pairs by number. */
	struct u64map	 group_of, site_of, pid_of, cache_tally, pid_tally;
	uint64_t	*sites;
	size_t		 nsites, asites;
	uint64_t	*pid_pairs;	/* pid << 32 | command */
	size_t		 npid_pairs, apid_pairs;
	struct fold	*folds;		/* folded: by stack and leaf */
	size_t		 nfolds, afolds;
	struct u64map	 fold_of;
	uint64_t	 end, bytes;
	size_t		 lost, untraced;
};

/*
 * The set's allocation i: its array's, or made by its producer into buf
 * (a dump's objects are the library's, not copied).
 */
static const struct kmem_live *
live_at(const struct model *m, size_t i, struct kmem_live *buf)
{
	if (m->set->live != NULL)
		return (&m->set->live[i]);
	m->set->live_at(m->set, i, buf);
	return (buf);
}

static const char *const by_names[] = { "stack", "callsite", "pid",
    "object" };

int
report_outstanding_by(const char *name)
{
	for (size_t i = 0; i < sizeof(by_names) / sizeof(*by_names); i++)
		if (strcmp(name, by_names[i]) == 0)
			return ((int)i);
	return (-1);
}

/* Stack id's frames past the trace machinery's. */
static const uint64_t *
frames_of(const struct outstanding_set *set, uint32_t id, size_t *n)
{
	if (id == KMEM_NO_STACK) {
		*n = 0;
		return (NULL);
	}
	return (set->frames(set, id, n));
}

static bool
lost_could_explain(const struct model *m, const struct kmem_live *l)
{
	return (m->set->loss_unplaced || l->ts < m->set->loss_ts);
}

static bool
untraced_could_explain(const struct model *m, const struct kmem_live *l)
{
	return (!m->o->pages && m->set->caches[l->cache].realloc_live > 0);
}

static bool
wanted(const struct model *m, const struct kmem_live *l)
{
	const struct kmem_row *c;

	if (m->end - l->ts < m->o->older_ns)
		return (false);
	if (m->o->ncaches == 0)
		return (true);
	c = &m->set->caches[l->cache];
	for (size_t i = 0; i < m->o->ncaches; i++)
		if (strlen(m->o->caches[i]) == c->name_len &&
		    memcmp(m->o->caches[i], c->name, c->name_len) == 0)
			return (true);
	return (false);
}

/*
 * Each wanted allocation of the set to fn: handed over by its producer
 * (a dump's walk, which keeps none), or read from its array.
 */
struct walk {
	struct model	*m;
	int		(*fn)(struct model *m, const struct kmem_live *l,
			    size_t i);
	size_t		 i;
};

static int
walk_one(const struct kmem_live *l, void *arg)
{
	struct walk *w = arg;

	return (wanted(w->m, l) ? w->fn(w->m, l, w->i++) : (w->i++, 0));
}

static int
model_walk(struct model *m, int (*fn)(struct model *m,
    const struct kmem_live *l, size_t i))
{
	struct walk w = { .m = m, .fn = fn };

	if (m->set->each != NULL)
		return (m->set->each(m->set->each_arg, walk_one, &w));
	for (size_t i = 0; i < m->set->nlive; i++) {
		struct kmem_live buf;

		if (walk_one(live_at(m, i, &buf), &w) != 0)
			return (-1);
	}
	return (0);
}

/* Room for one more of an array of size-byte elements: 0, or -1. */
static int
room(void *a, size_t n, size_t *cap, size_t size)
{
	void **p = a, *bigger;
	size_t c;

	if (n < *cap)
		return (0);
	c = *cap ? *cap * 2 : 64;
	if ((bigger = reallocarray(*p, c, size)) == NULL)
		return (-1);
	*p = bigger;
	*cap = c;
	return (0);
}

/* ---- by object: every allocation kept, sorted ---- */

/* A total order: by cache (order), then time, then the set's order. */
static bool
item_before(const struct item *x, const struct item *y)
{
	if (x->k2 != y->k2)
		return (x->k2 < y->k2);
	if (x->k1 != y->k1)
		return (x->k1 < y->k1);
	return (x->live < y->live);
}

static void
swap_items(struct item *a, struct item *b)
{
	struct item t = *a;

	*a = *b;
	*b = t;
}

/*
 * The items sorted in place: qsort(3) would take a copy of them all,
 * tens of megabytes for a dump's millions.  Quicksort, the median of
 * three as pivot, the smaller side first (depth at most log n), insertion
 * below 16.
 */
static void
sort_items(struct item *v, size_t n)
{
	while (n > 16) {
		size_t mid = n / 2, i = 0, j = n - 1;

		if (item_before(&v[mid], &v[0]))
			swap_items(&v[mid], &v[0]);
		if (item_before(&v[n - 1], &v[0]))
			swap_items(&v[n - 1], &v[0]);
		if (item_before(&v[n - 1], &v[mid]))
			swap_items(&v[n - 1], &v[mid]);
		struct item pivot = v[mid];
		for (;;) {
			while (item_before(&v[i], &pivot))
				i++;
			while (item_before(&pivot, &v[j]))
				j--;
			if (i >= j)
				break;
			swap_items(&v[i++], &v[j--]);
		}
		/* [0, j] and [j + 1, n): the smaller one by recursion. */
		if (j + 1 < n - j - 1) {
			sort_items(v, j + 1);
			v += j + 1;
			n -= j + 1;
		} else {
			sort_items(v + j + 1, n - j - 1);
			n = j + 1;
		}
	}
	for (size_t i = 1; i < n; i++)
		for (size_t k = i; k > 0 && item_before(&v[k], &v[k - 1]); k--)
			swap_items(&v[k], &v[k - 1]);
}

/* Caches in name order, for the object form's headers (qsort has no
 * argument for them). */
static uint32_t *cache_rank;
static const struct kmem_row *rank_caches_of;

static int
cmp_cache_name(const void *a, const void *b)
{
	const struct kmem_row *x = &rank_caches_of[*(const uint32_t *)a];
	const struct kmem_row *y = &rank_caches_of[*(const uint32_t *)b];
	int c = strncmp(x->name, y->name, x->name_len < y->name_len ?
	    x->name_len : y->name_len);

	return (c != 0 ? c : (x->name_len > y->name_len) -
	    (x->name_len < y->name_len));
}

static int
rank_caches(const struct outstanding_set *set)
{
	uint32_t *order;

	free(cache_rank);
	if ((cache_rank = calloc(set->ncaches + 1, sizeof(*cache_rank))) ==
	    NULL || (order = calloc(set->ncaches + 1, sizeof(*order))) == NULL)
		return (-1);
	for (size_t i = 0; i < set->ncaches; i++)
		order[i] = (uint32_t)i;
	rank_caches_of = set->caches;
	qsort(order, set->ncaches, sizeof(*order), cmp_cache_name);
	for (size_t i = 0; i < set->ncaches; i++)
		cache_rank[order[i]] = (uint32_t)i;
	free(order);
	return (0);
}

/* Room for a items: a dump's million objects in huge pages, not 4 KiB
 * each.  0, or -1. */
static int
items_room(struct model *m, size_t a)
{
	struct item *bigger;

	if (a > SIZE_MAX / sizeof(*bigger) ||
	    (bigger = huge_zalloc(a * sizeof(*bigger))) == NULL)
		return (-1);
	if (m->nitems > 0)
		memcpy(bigger, m->items, m->nitems * sizeof(*bigger));
	huge_free(m->items, m->aitems * sizeof(*bigger));
	m->items = bigger;
	m->aitems = a;
	return (0);
}

static int
item_add(struct model *m, const struct kmem_live *l, size_t i)
{
	if (m->nitems == m->aitems && items_room(m, m->aitems ?
	    m->aitems * 2 : 4096) != 0)
		return (-1);
	m->items[m->nitems++] = (struct item){ .k1 = l->ts,
	    .k2 = m->o->pages ? l->order : cache_rank[l->cache],
	    .live = (uint32_t)i };
	return (0);
}

/* The items sorted, and a group for each cache (order) they hold. */
static int
items_grouped(struct model *m)
{
	sort_items(m->items, m->nitems);
	for (size_t i = 0, n; i < m->nitems; i += n) {
		struct group *g;

		for (n = 1; i + n < m->nitems &&
		    m->items[i + n].k2 == m->items[i].k2; n++)
			;
		if (room(&m->groups, m->ngroups, &m->agroups,
		    sizeof(*m->groups)) != 0)
			return (-1);
		g = &m->groups[m->ngroups++];
		*g = (struct group){ .k2 = m->items[i].k2, .first = i,
		    .n = n };
		for (size_t k = i; k < i + n; k++) {
			struct kmem_live buf;
			const struct kmem_live *l = live_at(m,
			    m->items[k].live, &buf);

			g->bytes += l->bytes_alloc;
			m->lost += lost_could_explain(m, l);
			m->untraced += untraced_could_explain(m, l);
		}
		m->bytes += g->bytes;
	}
	return (0);
}

/* ---- by stack, call site or pid: groups, as they come ---- */

/* The number of x in a list kept once each (values, *n of them). */
static int
number_of(struct u64map *map, uint64_t **values, size_t *n, size_t *cap,
    uint64_t x, uint32_t *number)
{
	uint32_t *at;
	bool made;

	if ((at = u64map_insert(map, x, &made)) == NULL)
		return (-1);
	if (made) {
		if (*n == UINT32_MAX || room(values, *n, cap,
		    sizeof(**values)) != 0)
			return (-1);
		(*values)[*n] = x;
		*at = (uint32_t)(*n)++;
	}
	*number = *at;
	return (0);
}

/* One more of key (and key2) in group gi's caches or pids. */
static int
tally_count(struct model *m, struct u64map *map, uint32_t gi, bool pid,
    uint64_t key, uint64_t key2, uint32_t number)
{
	uint32_t *at;
	bool made;

	if ((at = u64map_insert(map, (uint64_t)gi << 32 | number, &made)) ==
	    NULL)
		return (-1);
	if (made) {
		if (m->ntallies == UINT32_MAX || room(&m->tallies,
		    m->ntallies, &m->atallies, sizeof(*m->tallies)) != 0)
			return (-1);
		m->tallies[m->ntallies] = (struct tally){ .key = key,
		    .key2 = key2, .group = gi, .pid = pid };
		*at = (uint32_t)m->ntallies++;
	}
	m->tallies[*at].count++;
	return (0);
}

static int
group_add(struct model *m, const struct kmem_live *l, size_t i)
{
	uint64_t k1 = m->o->by == BY_STACK ? l->stack : m->o->by ==
	    BY_CALLSITE ? l->call_site : (uint32_t)l->pid;
	uint32_t k2 = m->o->by == BY_PID ? l->comm : m->o->pages ? l->order :
	    0, n1, pair, gi, *at;
	uint64_t cache = m->o->pages ? l->order : l->cache;
	struct group *g;
	bool made;

	(void)i;
	/* A call site takes 64 bits: numbered, so that k2 fits beside. */
	n1 = (uint32_t)k1;
	if (m->o->by == BY_CALLSITE && number_of(&m->site_of, &m->sites,
	    &m->nsites, &m->asites, k1, &n1) != 0)
		return (-1);
	if ((at = u64map_insert(&m->group_of, (uint64_t)n1 << 32 | k2,
	    &made)) == NULL)
		return (-1);
	if (made) {
		if (m->ngroups == UINT32_MAX || room(&m->groups, m->ngroups,
		    &m->agroups, sizeof(*m->groups)) != 0)
			return (-1);
		m->groups[m->ngroups] = (struct group){ .k1 = k1, .k2 = k2,
		    .oldest = UINT64_MAX };
		*at = (uint32_t)m->ngroups++;
	}
	gi = *at;
	g = &m->groups[gi];
	g->n++;
	g->bytes += l->bytes_alloc;
	g->pages += m->o->pages ? 1ULL << l->order : 0;
	g->oldest = l->ts < g->oldest ? l->ts : g->oldest;
	g->newest = l->ts > g->newest ? l->ts : g->newest;
	g->lost += lost_could_explain(m, l);
	g->untraced += untraced_could_explain(m, l);
	m->nitems++;
	m->bytes += l->bytes_alloc;
	m->lost += lost_could_explain(m, l);
	m->untraced += untraced_could_explain(m, l);
	if (number_of(&m->pid_of, &m->pid_pairs, &m->npid_pairs,
	    &m->apid_pairs, (uint64_t)(uint32_t)l->pid << 32 | l->comm,
	    &pair) != 0)
		return (-1);
	return (tally_count(m, &m->cache_tally, gi, false, cache, 0,
	    (uint32_t)cache) != 0 || tally_count(m, &m->pid_tally, gi, true,
	    (uint32_t)l->pid, l->comm, pair) != 0 ? -1 : 0);
}

/* A group's tallies in turn, caches first, each kind most first. */
static int
cmp_tally(const void *a, const void *b)
{
	const struct tally *x = a, *y = b;

	if (x->group != y->group)
		return (x->group < y->group ? -1 : 1);
	if (x->pid != y->pid)
		return (x->pid ? 1 : -1);
	if (x->count != y->count)
		return (x->count > y->count ? -1 : 1);
	if (x->key != y->key)
		return (x->key < y->key ? -1 : 1);
	return (x->key2 < y->key2 ? -1 : x->key2 > y->key2);
}

/* Largest first; of equal groups the older, then by key. */
static int
cmp_group(const void *a, const void *b)
{
	const struct group *x = a, *y = b;

	if (x->bytes != y->bytes)
		return (x->bytes > y->bytes ? -1 : 1);
	if (x->n != y->n)
		return (x->n > y->n ? -1 : 1);
	/* Not the order a walk met them. */
	if (x->oldest != y->oldest)
		return (x->oldest < y->oldest ? -1 : 1);
	if (x->k1 != y->k1)
		return (x->k1 < y->k1 ? -1 : 1);
	return (x->k2 < y->k2 ? -1 : x->k2 > y->k2);
}

/* Each group's tallies placed, then the groups in report order. */
static void
groups_done(struct model *m)
{
	if (m->ntallies > 1)
		qsort(m->tallies, m->ntallies, sizeof(*m->tallies), cmp_tally);
	for (size_t t = 0; t < m->ntallies; t++) {
		struct group *g = &m->groups[m->tallies[t].group];

		if (g->ncaches + g->npids == 0)
			g->first = t;
		if (m->tallies[t].pid)
			g->npids++;
		else
			g->ncaches++;
	}
	if (m->ngroups > 1)
		qsort(m->groups, m->ngroups, sizeof(*m->groups), cmp_group);
}

/* ---- folded: bytes by stack and leaf, as they come ---- */

static int
fold_add(struct model *m, const struct kmem_live *l, size_t i)
{
	uint32_t leaf = m->o->pages ? l->order : l->cache, *at;
	bool made;

	(void)i;
	if ((at = u64map_insert(&m->fold_of, (uint64_t)l->stack << 32 | leaf,
	    &made)) == NULL)
		return (-1);
	if (made) {
		if (m->nfolds == UINT32_MAX || room(&m->folds, m->nfolds,
		    &m->afolds, sizeof(*m->folds)) != 0)
			return (-1);
		m->folds[m->nfolds] = (struct fold){ .stack = l->stack,
		    .leaf = leaf };
		*at = (uint32_t)m->nfolds++;
	}
	m->folds[*at].bytes += l->bytes_alloc;
	m->nitems++;
	return (0);
}

static void
model_free(struct model *m)
{
	huge_free(m->items, m->aitems * sizeof(*m->items));
	free(m->groups);
	free(m->tallies);
	free(m->sites);
	free(m->pid_pairs);
	u64map_free(&m->group_of);
	u64map_free(&m->site_of);
	u64map_free(&m->pid_of);
	u64map_free(&m->cache_tally);
	u64map_free(&m->pid_tally);
	u64map_free(&m->fold_of);
	free(m->folds);
	free(cache_rank);
	cache_rank = NULL;
}

/* model_free() undoes it, done or not. */
static int
model_open(struct model *m, const struct outstanding_set *set,
    const struct outstanding_options *o)
{
	m->set = set;
	m->o = o;
	m->end = set->end;
	if (u64map_init(&m->group_of) != 0 || u64map_init(&m->site_of) != 0 ||
	    u64map_init(&m->pid_of) != 0 || u64map_init(&m->cache_tally) !=
	    0 || u64map_init(&m->pid_tally) != 0 ||
	    u64map_init(&m->fold_of) != 0)
		return (-1);
	if (o->folded)
		return (model_walk(m, fold_add));
	/* Every allocation kept: as many items as the set has, at once. */
	if (o->by == BY_OBJECT)
		return ((!o->pages && rank_caches(set) != 0) ||
		    (set->each == NULL && set->nlive > 0 &&
		    items_room(m, set->nlive) != 0) ||
		    model_walk(m, item_add) != 0 || items_grouped(m) != 0 ?
		    -1 : 0);
	if (model_walk(m, group_add) != 0)
		return (-1);
	groups_done(m);
	return (0);
}

/* What the header names: the model, whose insides are this file's. */
struct outstanding_model {
	struct model	 m;
};

struct outstanding_model *
outstanding_model_build(const struct outstanding_set *set,
    const struct outstanding_options *o)
{
	struct outstanding_model *r = calloc(1, sizeof(*r));

	if (r == NULL || model_open(&r->m, set, o) != 0) {
		outstanding_model_free(r);
		return (NULL);
	}
	return (r);
}

void
outstanding_model_free(struct outstanding_model *r)
{
	if (r == NULL)
		return;
	model_free(&r->m);
	free(r);
}

/*
 * The group's caches (pages: orders) or processes, most first, *n of
 * them: the model's.
 */
static const struct tally *
tally(const struct model *m, const struct group *g, bool pids, size_t *n)
{
	*n = pids ? g->npids : g->ncaches;
	return (&m->tallies[g->first + (pids ? g->ncaches : 0)]);
}

/* A tally's name: "kmalloc-1k", "order 2", "1234 kmemload". */
static void
tally_name(const struct model *m, const struct tally *t, bool pids,
    char *buf, size_t len)
{
	const struct kmem_row *c;

	if (pids) {
		struct kmem_live l = { .pid = (int)t->key,
		    .comm = (uint32_t)t->key2 };
		const char *comm = m->set->comm(m->set, &l);

		snprintf(buf, len, "%d %s", l.pid, comm != NULL ? comm :
		    "(command unknown)");
	} else if (m->o->pages)
		snprintf(buf, len, "order %u", (unsigned)t->key);
	else {
		c = &m->set->caches[t->key];
		snprintf(buf, len, "%.*s", (int)c->name_len, c->name);
	}
}

static double
age(const struct model *m, uint64_t ts)
{
	return ((double)(m->end - ts) / 1e9);
}

/* ---- text ---- */

static void
list_text(FILE *f, const struct model *m, const struct group *g, bool pids)
{
	size_t n;
	const struct tally *t = tally(m, g, pids, &n);
	char name[128];

	for (size_t i = 0; i < n && i < LIST_SHOWN; i++) {
		tally_name(m, &t[i], pids, name, sizeof(name));
		fprintf(f, "%s%s (%" PRIu64 ")", i > 0 ? ", " : "", name,
		    t[i].count);
	}
	if (n > LIST_SHOWN)
		fprintf(f, ", %zu more", n - LIST_SHOWN);
}

static void
frames_text(FILE *f, const struct model *m, uint32_t stack)
{
	const uint64_t *fr;
	size_t n;
	char sym[160];

	fr = frames_of(m->set, stack, &n);
	if (n == 0) {
		fprintf(f, " (no stack recorded)\n");
		return;
	}
	for (size_t i = 0; i < n; i++) {
		kmem_frames_symbol(m->set->tep, fr[i], sym, sizeof(sym));
		fprintf(f, " #%02zu [<%#018" PRIx64 ">] in %s\n", i + 1, fr[i],
		    sym);
	}
}

static void
marks_text(FILE *f, const struct group *g)
{
	if (g->lost > 0)
		fprintf(f, "   ? %zu of them could have been freed by a lost "
		    "event\n", g->lost);
	if (g->untraced > 0)
		fprintf(f, "   ~ %zu of them are in a cache that frees without "
		    "trace events\n", g->untraced);
}

static void
group_line(FILE *f, const struct model *m, const struct group *g)
{
	char sym[160], pid[128];

	switch (m->o->by) {
	case BY_STACK:
		fprintf(f, "%" PRIu64 " bytes in %zu allocation%s from stack",
		    g->bytes, g->n, g->n == 1 ? "" : "s");
		break;
	case BY_CALLSITE:
		if (m->o->pages && g->k1 == 0)
			snprintf(sym, sizeof(sym), "(no stack recorded)");
		else
			kmem_frames_symbol(m->set->tep, g->k1, sym,
			    sizeof(sym));
		fprintf(f, "%" PRIu64 " bytes in %zu allocation%s from %s",
		    g->bytes, g->n, g->n == 1 ? "" : "s", sym);
		break;
	case BY_PID:
		tally_name(m, &(struct tally){ .key = g->k1, .key2 = g->k2 },
		    true, pid, sizeof(pid));
		fprintf(f, "PID %s: %" PRIu64 " bytes in %zu allocation%s",
		    pid, g->bytes, g->n, g->n == 1 ? "" : "s");
		break;
	case BY_OBJECT:
		break;
	}
	fprintf(f, "\n   %s", m->o->pages ? "" : "caches ");
	list_text(f, m, g, false);
	if (m->o->by != BY_PID) {
		fprintf(f, "; pids ");
		list_text(f, m, g, true);
	}
	fprintf(f, "\n   age %.6f to %.6f s\n", age(m, g->newest),
	    age(m, g->oldest));
	marks_text(f, g);
	if (m->o->by == BY_STACK)
		frames_text(f, m, (uint32_t)g->k1);
}

/* Akaros's form: per cache, every object, its task and its stack. */
static void
objects_text(FILE *f, const struct model *m)
{
	long shown = 0;

	for (size_t gi = 0; gi < m->ngroups; gi++) {
		const struct group *g = &m->groups[gi];
		struct kmem_live buf;
		const struct kmem_live *first = live_at(m,
		    m->items[g->first].live, &buf);
		struct tally t = { .key = m->o->pages ? first->order :
		    first->cache };
		char name[128];

		tally_name(m, &t, false, name, sizeof(name));
		fprintf(f, "\nDumping outstanding allocs from %s\n"
		    "-------------------------\n", name);
		for (size_t i = 0; i < g->n; i++) {
			const struct kmem_live *l = live_at(m,
			    m->items[g->first + i].live, &buf);
			const char *comm = m->set->comm(m->set, l);

			if (m->o->limit >= 0 && shown++ >= m->o->limit)
				return;
			fprintf(f, "%s %#" PRIx64 ", from PID %d %s, %" PRIu64
			    " bytes, %.6f s old%s%s:\n----\n",
			    m->o->pages ? "Pfn" : "Obj", l->ptr, l->pid,
			    comm != NULL ? comm : "(command unknown)",
			    l->bytes_alloc, age(m, l->ts),
			    lost_could_explain(m, l) ? " ?" : "",
			    untraced_could_explain(m, l) ? " ~" : "");
			frames_text(f, m, l->stack);
		}
	}
}

int
report_outstanding_text(FILE *f, const struct outstanding_model *r)
{
	const struct model *m = &r->m;
	const struct outstanding_options *o = m->o;

	fprintf(f, "# outstanding at the end: %zu %s, %" PRIu64 " bytes",
	    m->nitems, o->pages ? "page allocations" : "objects", m->bytes);
	if (o->by != BY_OBJECT)
		fprintf(f, ", in %zu groups by %s", m->ngroups,
		    by_names[o->by]);
	fputc('\n', f);
	if (m->lost > 0)
		fprintf(f, "# ? %zu could have been freed by an event the "
		    "recording lost%s\n", m->lost, m->set->loss_unplaced ?
		    " (the losses are not placed in time: every object)" : "");
	if (m->untraced > 0)
		fprintf(f, "# ~ %zu are in caches seen allocating an address "
		    "again with no free: frees without events (kfree_rcu, "
		    "bulk frees)\n", m->untraced);
	if (!m->set->stacks)
		fprintf(f, "# %s\n", m->set->no_stacks);
	if (o->by == BY_OBJECT)
		objects_text(f, m);
	else
		for (size_t i = 0; i < m->ngroups && (o->limit < 0 ||
		    (long)i < o->limit); i++) {
			fputc('\n', f);
			group_line(f, m, &m->groups[i]);
		}
	return (0);
}

/* ---- folded stacks ---- */

static int
cmp_fold_line(const void *a, const void *b)
{
	return (strcmp(((const struct fold *)a)->line,
	    ((const struct fold *)b)->line));
}

/* "outermost;...;innermost;[leaf]": a new string, or NULL. */
static char *
fold_line(const struct model *m, const struct fold *fo)
{
	const uint64_t *fr;
	char *buf = NULL, name[128];
	size_t len = 0, n;
	FILE *f;

	if ((f = open_memstream(&buf, &len)) == NULL)
		return (NULL);
	fr = frames_of(m->set, fo->stack, &n);
	while (n-- > 0) {
		const char *fn = tep_find_function(m->set->tep, fr[n]);

		if (fn != NULL)
			fprintf(f, "%s;", fn);
		else
			fprintf(f, "%#" PRIx64 ";", fr[n]);
	}
	tally_name(m, &(struct tally){ .key = fo->leaf }, false, name,
	    sizeof(name));
	fprintf(f, "[%s]", name);
	return (fclose(f) == 0 ? buf : (free(buf), NULL));
}

/* Folds of the same line into the first: the count left. */
static size_t
fold_merge(struct fold *fo, size_t n, int (*cmp)(const void *, const void *))
{
	size_t k = 0;

	qsort(fo, n, sizeof(*fo), cmp);
	for (size_t i = 0; i < n; i++) {
		if (k > 0 && cmp(&fo[k - 1], &fo[i]) == 0) {
			fo[k - 1].bytes += fo[i].bytes;
			free(fo[i].line);
			continue;
		}
		fo[k++] = fo[i];
	}
	return (k);
}

int
report_outstanding_folded(FILE *f, const struct outstanding_model *r)
{
	const struct model *m = &r->m;
	struct fold *fo;
	size_t n = m->nfolds;
	int rc = -1;

	if ((fo = calloc(n + 1, sizeof(*fo))) == NULL)
		return (-1);
	if (n > 0)
		memcpy(fo, m->folds, n * sizeof(*fo));
	for (size_t i = 0; i < n; i++)
		if ((fo[i].line = fold_line(m, &fo[i])) == NULL)
			goto out;
	n = fold_merge(fo, n, cmp_fold_line);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s %" PRIu64 "\n", fo[i].line, fo[i].bytes);
	rc = 0;
out:
	for (size_t i = 0; i < n; i++)
		free(fo[i].line);
	free(fo);
	return (rc);
}

/* ---- JSON ---- */

/* key: value, or null where there is none. */
static void
set_or_null(struct json_object *o, const char *key, struct json_object *v)
{
	if (v != NULL)
		tool_json_set(o, key, v);
	else if (json_object_object_add(o, key, NULL) != 0)
		abort();
}

static struct json_object *
list_json(const struct model *m, const struct group *g, bool pids)
{
	struct json_object *a = tool_json_new(json_type_array);
	size_t n;
	const struct tally *t = tally(m, g, pids, &n);

	for (size_t i = 0; i < n; i++) {
		struct json_object *o = tool_json_new(json_type_object);
		char name[128];

		if (pids) {
			struct kmem_live l = { .pid = (int)t[i].key,
			    .comm = (uint32_t)t[i].key2 };
			const char *comm = m->set->comm(m->set, &l);

			tool_json_set(o, "pid", tool_json_uint(t[i].key));
			set_or_null(o, "command", comm != NULL ?
			    json_object_new_string(comm) : NULL);
		} else if (m->o->pages)
			tool_json_set(o, "order", tool_json_uint(t[i].key));
		else {
			tally_name(m, &t[i], false, name, sizeof(name));
			tool_json_set(o, "cache",
			    json_object_new_string(name));
		}
		tool_json_set(o, "count", tool_json_uint(t[i].count));
		if (json_object_array_add(a, o) != 0)
			abort();
	}
	return (a);
}

static struct json_object *
frames_json(const struct model *m, uint32_t stack)
{
	struct json_object *a = tool_json_new(json_type_array);
	const uint64_t *fr;
	char sym[160], addr[24];
	size_t n;

	for (fr = frames_of(m->set, stack, &n); n > 0; fr++, n--) {
		struct json_object *o = tool_json_new(json_type_object);

		snprintf(addr, sizeof(addr), "%#" PRIx64, *fr);
		kmem_frames_symbol(m->set->tep, *fr, sym, sizeof(sym));
		tool_json_set(o, "address", json_object_new_string(addr));
		tool_json_set(o, "symbol", json_object_new_string(sym));
		if (json_object_array_add(a, o) != 0)
			abort();
	}
	return (a);
}

static struct json_object *
object_json(const struct model *m, const struct kmem_live *l)
{
	struct json_object *o = tool_json_new(json_type_object);
	const char *comm = m->set->comm(m->set, l);
	char buf[160];

	snprintf(buf, sizeof(buf), "%#" PRIx64, l->ptr);
	tool_json_set(o, m->o->pages ? "pfn" : "ptr",
	    json_object_new_string(buf));
	if (m->o->pages)
		tool_json_set(o, "order", tool_json_uint(l->order));
	else {
		tally_name(m, &(struct tally){ .key = l->cache }, false, buf,
		    sizeof(buf));
		tool_json_set(o, "cache", json_object_new_string(buf));
		kmem_frames_symbol(m->set->tep, l->call_site, buf, sizeof(buf));
		tool_json_set(o, "callsite", json_object_new_string(buf));
	}
	tool_json_set(o, "bytes", tool_json_uint(l->bytes_alloc));
	tool_json_set(o, "pid", tool_json_uint((uint32_t)l->pid));
	set_or_null(o, "command", comm != NULL ?
	    json_object_new_string(comm) : NULL);
	tool_json_set(o, "cpu", tool_json_uint((uint64_t)l->cpu));
	tool_json_set(o, "age-ns", tool_json_uint(m->end - l->ts));
	tool_json_set(o, "lost-event-could-explain",
	    json_object_new_boolean(lost_could_explain(m, l)));
	tool_json_set(o, "untraced-free-could-explain",
	    json_object_new_boolean(untraced_could_explain(m, l)));
	tool_json_set(o, "stack", frames_json(m, l->stack));
	return (o);
}

static struct json_object *
group_json(const struct model *m, const struct group *g)
{
	struct json_object *o = tool_json_new(json_type_object);
	char sym[160];

	tool_json_set(o, "bytes", tool_json_uint(g->bytes));
	tool_json_set(o, "allocations", tool_json_uint(g->n));
	if (m->o->pages)
		tool_json_set(o, "pages", tool_json_uint(g->pages));
	if (m->o->by == BY_CALLSITE) {
		kmem_frames_symbol(m->set->tep, g->k1, sym, sizeof(sym));
		set_or_null(o, "callsite", m->o->pages && g->k1 == 0 ?
		    NULL : json_object_new_string(sym));
	}
	tool_json_set(o, m->o->pages ? "orders" : "caches",
	    list_json(m, g, false));
	tool_json_set(o, "pids", list_json(m, g, true));
	tool_json_set(o, "age-min-ns", tool_json_uint(m->end - g->newest));
	tool_json_set(o, "age-max-ns", tool_json_uint(m->end - g->oldest));
	tool_json_set(o, "lost-event-could-explain", tool_json_uint(g->lost));
	tool_json_set(o, "untraced-free-could-explain",
	    tool_json_uint(g->untraced));
	if (m->o->by == BY_STACK)
		tool_json_set(o, "stack", frames_json(m, (uint32_t)g->k1));
	return (o);
}

int
report_outstanding_json(struct json_object *parent,
    const struct outstanding_model *r)
{
	const struct model *m = &r->m;
	const struct outstanding_options *o = m->o;
	struct json_object *top, *a;
	long shown = 0;

	top = tool_json_set(parent, "outstanding",
	    tool_json_new(json_type_object));
	tool_json_set(top, "kind", json_object_new_string(o->pages ? "pages" :
	    "slab"));
	tool_json_set(top, "by", json_object_new_string(by_names[o->by]));
	tool_json_set(top, "stacks-recorded",
	    json_object_new_boolean(m->set->stacks));
	tool_json_set(top, "allocations", tool_json_uint(m->nitems));
	tool_json_set(top, "bytes", tool_json_uint(m->bytes));
	tool_json_set(top, "lost-event-could-explain",
	    tool_json_uint(m->lost));
	tool_json_set(top, "losses-placed-in-time",
	    json_object_new_boolean(!m->set->loss_unplaced));
	tool_json_set(top, "untraced-free-could-explain",
	    tool_json_uint(m->untraced));
	a = tool_json_set(top, o->by == BY_OBJECT ? "objects" : "groups",
	    tool_json_new(json_type_array));
	for (size_t gi = 0; gi < m->ngroups; gi++) {
		const struct group *g = &m->groups[gi];
		struct kmem_live buf;

		if (o->by != BY_OBJECT) {
			if (o->limit >= 0 && shown++ >= o->limit)
				break;
			if (json_object_array_add(a, group_json(m, g)) != 0)
				abort();
			continue;
		}
		for (size_t i = 0; i < g->n && (o->limit < 0 ||
		    shown < o->limit); i++, shown++)
			if (json_object_array_add(a, object_json(m,
			    live_at(m, m->items[g->first + i].live,
			    &buf))) != 0)
				abort();
	}
	return (0);
}
