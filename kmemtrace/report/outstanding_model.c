/*
 * outstanding_model.c: what kmemtrace report --outstanding keeps of the
 * allocations live at the end (of a recording, or in a core image: an
 * outstanding_set), built once as they are handed over: by stack, call
 * site or pid their groups, each with its tallies of caches and pids; by
 * object the allocations themselves, sorted; folded, bytes by stack.
 *
 * Whether a recording's object is really outstanding: a free may have
 * had no event (a loss on any CPU after the allocation, or a cache seen
 * allocating an address again with no free between: kfree_rcu's
 * kfree_bulk and kmem_cache_free_bulk have no events).  Such objects are
 * counted apart and marked; the rest are certain.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "huge_alloc.h"
#include "outstanding_model.h"


/*
 * The set's allocation i: its array's, or made by its producer into buf
 * (a dump's objects are the library's, not copied).
 */
const struct kmem_live *
outstanding_live(const struct outstanding_model *m, size_t i,
    struct kmem_live *buf)
{
	if (m->set->live != NULL)
		return (&m->set->live[i]);
	m->set->live_at(m->set, i, buf);
	return (buf);
}

/* Stack id's frames past the trace machinery's. */
const uint64_t *
outstanding_frames(const struct outstanding_set *set, uint32_t id, size_t *n)
{
	if (id == KMEM_NO_STACK) {
		*n = 0;
		return (NULL);
	}
	return (set->frames(set, id, n));
}

bool
outstanding_lost(const struct outstanding_model *m, const struct kmem_live *l)
{
	return (m->set->loss_unplaced || l->ts < m->set->loss_ts);
}

bool
outstanding_untraced(const struct outstanding_model *m,
    const struct kmem_live *l)
{
	return (!m->o->pages && m->set->caches[l->cache].realloc_live > 0);
}

static bool
wanted(const struct outstanding_model *m, const struct kmem_live *l)
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
	struct outstanding_model	*m;
	int		(*fn)(struct outstanding_model *m,
			    const struct kmem_live *l,
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
model_walk(struct outstanding_model *m, int (*fn)(struct outstanding_model *m,
    const struct kmem_live *l, size_t i))
{
	struct walk w = { .m = m, .fn = fn };

	if (m->set->each != NULL)
		return (m->set->each(m->set->each_arg, walk_one, &w));
	for (size_t i = 0; i < m->set->nlive; i++) {
		struct kmem_live buf;

		if (walk_one(outstanding_live(m, i, &buf), &w) != 0)
			return (-1);
	}
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
items_room(struct outstanding_model *m, size_t a)
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
item_add(struct outstanding_model *m, const struct kmem_live *l, size_t i)
{
	if (m->nitems == m->aitems && items_room(m, m->aitems ?
	    m->aitems * 2 : 4096) != 0)
		return (-1);
	m->items[m->nitems++] = (struct item){ .k1 = l->ts,
	    .k2 = m->o->pages ? l->order : cache_rank[l->cache],
	    .live = (uint32_t)i };
	return (0);
}

/* The items from i on of i's cache (order). */
static size_t
run_length(const struct outstanding_model *m, size_t i)
{
	size_t n = 1;

	while (i + n < m->nitems && m->items[i + n].k2 == m->items[i].k2)
		n++;
	return (n);
}

/* The items sorted, and a group for each cache (order) they hold. */
static int
items_grouped(struct outstanding_model *m)
{
	sort_items(m->items, m->nitems);
	for (size_t i = 0; i < m->nitems; i += run_length(m, i))
		m->agroups++;
	if ((m->groups = calloc(m->agroups + 1, sizeof(*m->groups))) == NULL)
		return (-1);
	for (size_t i = 0, n; i < m->nitems; i += n) {
		struct group *g = &m->groups[m->ngroups++];

		n = run_length(m, i);
		*g = (struct group){ .k2 = m->items[i].k2, .first = i,
		    .n = n };
		for (size_t k = i; k < i + n; k++) {
			struct kmem_live buf;
			const struct kmem_live *l = outstanding_live(m,
			    m->items[k].live, &buf);

			g->bytes += l->bytes_alloc;
			m->lost += outstanding_lost(m, l);
			m->untraced += outstanding_untraced(m, l);
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
	bool made;

	if (u64map_entry(map, x, values, n, cap, sizeof(**values), number,
	    &made) != 0)
		return (-1);
	if (made)
		(*values)[*number] = x;
	return (0);
}

/* One more of key (and key2) in group gi's caches or pids. */
static int
tally_count(struct outstanding_model *m, struct u64map *map, uint32_t gi,
    bool pid, uint64_t key, uint64_t key2, uint32_t number)
{
	uint32_t t;
	bool made;

	if (u64map_entry(map, (uint64_t)gi << 32 | number, &m->tallies,
	    &m->ntallies, &m->atallies, sizeof(*m->tallies), &t, &made) != 0)
		return (-1);
	if (made)
		m->tallies[t] = (struct tally){ .key = key, .key2 = key2,
		    .group = gi, .pid = pid };
	m->tallies[t].count++;
	return (0);
}

static int
group_add(struct outstanding_model *m, const struct kmem_live *l, size_t i)
{
	uint64_t k1 = m->o->by == BY_STACK ? l->stack : m->o->by ==
	    BY_CALLSITE ? l->call_site : (uint32_t)l->pid;
	uint32_t k2 = m->o->by == BY_PID ? l->comm : m->o->pages ? l->order :
	    0, n1, pair, gi;
	uint64_t cache = m->o->pages ? l->order : l->cache;
	struct group *g;
	bool made;

	(void)i;
	/* A call site takes 64 bits: numbered, so that k2 fits beside. */
	n1 = (uint32_t)k1;
	if (m->o->by == BY_CALLSITE && number_of(&m->site_of, &m->sites,
	    &m->nsites, &m->asites, k1, &n1) != 0)
		return (-1);
	if (u64map_entry(&m->group_of, (uint64_t)n1 << 32 | k2, &m->groups,
	    &m->ngroups, &m->agroups, sizeof(*m->groups), &gi, &made) != 0)
		return (-1);
	g = &m->groups[gi];
	if (made)
		*g = (struct group){ .k1 = k1, .k2 = k2,
		    .oldest = UINT64_MAX };
	g->n++;
	g->bytes += l->bytes_alloc;
	g->pages += m->o->pages ? 1ULL << l->order : 0;
	g->oldest = l->ts < g->oldest ? l->ts : g->oldest;
	g->newest = l->ts > g->newest ? l->ts : g->newest;
	g->lost += outstanding_lost(m, l);
	g->untraced += outstanding_untraced(m, l);
	m->nitems++;
	m->bytes += l->bytes_alloc;
	m->lost += outstanding_lost(m, l);
	m->untraced += outstanding_untraced(m, l);
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
groups_done(struct outstanding_model *m)
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
fold_add(struct outstanding_model *m, const struct kmem_live *l, size_t i)
{
	uint32_t leaf = m->o->pages ? l->order : l->cache, f;
	bool made;

	(void)i;
	if (u64map_entry(&m->fold_of, (uint64_t)l->stack << 32 | leaf,
	    &m->folds, &m->nfolds, &m->afolds, sizeof(*m->folds), &f,
	    &made) != 0)
		return (-1);
	if (made)
		m->folds[f] = (struct fold){ .stack = l->stack, .leaf = leaf };
	m->folds[f].bytes += l->bytes_alloc;
	m->nitems++;
	return (0);
}

static void
model_free(struct outstanding_model *m)
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
model_open(struct outstanding_model *m, const struct outstanding_set *set,
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

struct outstanding_model *
outstanding_model_build(const struct outstanding_set *set,
    const struct outstanding_options *o)
{
	struct outstanding_model *m = calloc(1, sizeof(*m));

	if (m == NULL || model_open(m, set, o) != 0) {
		outstanding_model_free(m);
		return (NULL);
	}
	return (m);
}

void
outstanding_model_free(struct outstanding_model *m)
{
	if (m == NULL)
		return;
	model_free(m);
	free(m);
}

/*
 * The group's caches (pages: orders) or processes, most first, *n of
 * them: the model's.
 */
const struct tally *
outstanding_tally(const struct outstanding_model *m, const struct group *g,
    bool pids, size_t *n)
{
	*n = pids ? g->npids : g->ncaches;
	return (&m->tallies[g->first + (pids ? g->ncaches : 0)]);
}

/* A tally's name: "kmalloc-1k", "order 2", "1234 kmemload". */
void
outstanding_tally_name(const struct outstanding_model *m,
    const struct tally *t, bool pids, char *buf, size_t len)
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

double
outstanding_age(const struct outstanding_model *m, uint64_t ts)
{
	return ((double)(m->end - ts) / 1e9);
}

