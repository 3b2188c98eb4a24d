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
 * One live allocation, keyed for its group: 16 bytes, as a dump lists
 * millions.  By object, a group is a cache (pages: an order), k2, and
 * its objects go oldest first, by k1, the time; otherwise k1 and k2 make
 * the group and the order inside one is the set's.
 */
struct item {
	uint64_t	 k1;		/* stack, call site, pid; object: ts */
	uint32_t	 k2;		/* order, command; object: cache */
	uint32_t	 live;		/* index into the model's live array */
};

struct group {
	size_t		 first, n;	/* items */
	uint64_t	 bytes, pages;
	uint64_t	 oldest, newest;	/* ts */
	size_t		 lost, untraced;	/* marked objects */
};

struct model {
	const struct outstanding_set *set;
	const struct outstanding_options *o;
	const struct kmem_live *live;
	size_t		 nlive;
	struct item	*items;
	size_t		 nitems;
	struct group	*groups;
	size_t		 ngroups;
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
	if (m->live != NULL)
		return (&m->live[i]);
	m->set->live_at(m->set, i, buf);
	return (buf);
}

/* A name and how many of a group's objects have it. */
struct tally {
	uint64_t	 key, key2;
	uint64_t	 count;
};

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

/* A total order: by group, then (by object) time, then the set's order. */
static bool
item_before(const struct item *x, const struct item *y, bool by_object)
{
	if (by_object && x->k2 != y->k2)
		return (x->k2 < y->k2);
	if (x->k1 != y->k1)
		return (x->k1 < y->k1);
	if (x->k2 != y->k2)
		return (x->k2 < y->k2);
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
sort_items(struct item *v, size_t n, bool by_object)
{
	while (n > 16) {
		size_t mid = n / 2, i = 0, j = n - 1;

		if (item_before(&v[mid], &v[0], by_object))
			swap_items(&v[mid], &v[0]);
		if (item_before(&v[n - 1], &v[0], by_object))
			swap_items(&v[n - 1], &v[0]);
		if (item_before(&v[n - 1], &v[mid], by_object))
			swap_items(&v[n - 1], &v[mid]);
		struct item pivot = v[mid];
		for (;;) {
			while (item_before(&v[i], &pivot, by_object))
				i++;
			while (item_before(&pivot, &v[j], by_object))
				j--;
			if (i >= j)
				break;
			swap_items(&v[i++], &v[j--]);
		}
		/* [0, j] and [j + 1, n): the smaller one by recursion. */
		if (j + 1 < n - j - 1) {
			sort_items(v, j + 1, by_object);
			v += j + 1;
			n -= j + 1;
		} else {
			sort_items(v + j + 1, n - j - 1, by_object);
			n = j + 1;
		}
	}
	for (size_t i = 1; i < n; i++)
		for (size_t k = i; k > 0 && item_before(&v[k], &v[k - 1],
		    by_object); k--)
			swap_items(&v[k], &v[k - 1]);
}

/* Largest first; by object: the items' order (cache, then age). */
static int
cmp_group(const void *a, const void *b)
{
	const struct group *x = a, *y = b;

	if (x->bytes != y->bytes)
		return (x->bytes > y->bytes ? -1 : 1);
	if (x->n != y->n)
		return (x->n > y->n ? -1 : 1);
	/* Of equal groups the older first: not the order a walk met them. */
	if (x->oldest != y->oldest)
		return (x->oldest < y->oldest ? -1 : 1);
	return (x->first < y->first ? -1 : x->first > y->first);
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

static void
keys(const struct model *m, const struct kmem_live *l, struct item *it)
{
	switch (m->o->by) {
	case BY_STACK:
		it->k1 = l->stack;
		it->k2 = m->o->pages ? l->order : 0;
		break;
	case BY_CALLSITE:
		it->k1 = l->call_site;
		it->k2 = m->o->pages ? l->order : 0;
		break;
	case BY_PID:
		it->k1 = (uint32_t)l->pid;
		it->k2 = (uint32_t)l->comm;
		break;
	case BY_OBJECT:
		it->k1 = l->ts;
		it->k2 = m->o->pages ? l->order : cache_rank[l->cache];
		break;
	}
}

static void
model_free(struct model *m)
{
	huge_free(m->items, m->nlive * sizeof(*m->items));
	free(m->groups);
	free(cache_rank);
	cache_rank = NULL;
}

/* The items from i on that are of i's group. */
static size_t
group_length(const struct model *m, size_t i)
{
	size_t n;

	for (n = 1; i + n < m->nitems &&
	    m->items[i + n].k2 == m->items[i].k2 &&
	    (m->o->by == BY_OBJECT || m->items[i + n].k1 == m->items[i].k1);
	    n++)
		;
	return (n);
}

static int
model_build(struct model *m, const struct outstanding_set *set,
    const struct outstanding_options *o)
{
	size_t n;

	memset(m, 0, sizeof(*m));
	m->set = set;
	m->o = o;
	m->end = set->end;
	m->live = set->live;
	m->nlive = set->nlive;
	if (!o->pages && rank_caches(set) != 0)
		return (-1);
	if (m->nlive == 0)
		return (0);
	/* A dump's million objects: in huge pages, not faulted 4 KiB each. */
	if (m->nlive > SIZE_MAX / sizeof(*m->items) ||
	    (m->items = huge_zalloc(m->nlive * sizeof(*m->items))) == NULL)
		return (-1);
	for (size_t i = 0; i < m->nlive; i++) {
		struct kmem_live buf;
		const struct kmem_live *l = live_at(m, i, &buf);

		if (!wanted(m, l))
			continue;
		keys(m, l, &m->items[m->nitems]);
		m->items[m->nitems++].live = (uint32_t)i;
	}
	sort_items(m->items, m->nitems, o->by == BY_OBJECT);
	/* The groups counted first: a few thousand stacks hold millions. */
	for (size_t i = 0; i < m->nitems; i += group_length(m, i))
		m->ngroups++;
	if ((m->groups = calloc(m->ngroups + 1, sizeof(*m->groups))) == NULL)
		return (-1);
	m->ngroups = 0;
	for (size_t i = 0; i < m->nitems; i += n) {
		struct group *g = &m->groups[m->ngroups++];

		n = group_length(m, i);
		*g = (struct group){ .first = i, .n = n,
		    .oldest = UINT64_MAX };
		for (size_t k = i; k < i + n; k++) {
			struct kmem_live buf;
			const struct kmem_live *l = live_at(m,
			    m->items[k].live, &buf);

			g->bytes += l->bytes_alloc;
			g->pages += o->pages ? 1ULL << l->order : 0;
			g->oldest = l->ts < g->oldest ? l->ts : g->oldest;
			g->newest = l->ts > g->newest ? l->ts : g->newest;
			g->lost += lost_could_explain(m, l);
			g->untraced += untraced_could_explain(m, l);
		}
		m->bytes += g->bytes;
		m->lost += g->lost;
		m->untraced += g->untraced;
	}
	if (o->by != BY_OBJECT)
		qsort(m->groups, m->ngroups, sizeof(*m->groups), cmp_group);
	return (0);
}

static int
cmp_tally_key(const void *a, const void *b)
{
	const struct tally *x = a, *y = b;

	if (x->key != y->key)
		return (x->key < y->key ? -1 : 1);
	return (x->key2 < y->key2 ? -1 : x->key2 > y->key2);
}

static int
cmp_tally_count(const void *a, const void *b)
{
	const struct tally *x = a, *y = b;

	if (x->count != y->count)
		return (x->count > y->count ? -1 : 1);
	return (cmp_tally_key(a, b));
}

/*
 * The group's caches (pages: orders) or processes, most first: a new
 * array, *n long.
 */
static struct tally *
tally(const struct model *m, const struct group *g, bool pids, size_t *n)
{
	struct tally *t = NULL, *bigger;
	size_t k = 0, alloc = 0;
	struct u64map seen;
	uint32_t *at;
	bool made;

	/*
	 * Counted by key in a map, not sorted out of a copy of the group:
	 * a group of a dump may hold a million objects of a few caches.
	 */
	*n = 0;
	if (u64map_init(&seen) != 0)
		return (NULL);
	for (size_t i = 0; i < g->n; i++) {
		struct kmem_live buf;
		const struct kmem_live *l = live_at(m, m->items[g->first +
		    i].live, &buf);
		uint64_t key = pids ? (uint32_t)l->pid : m->o->pages ?
		    l->order : l->cache, key2 = pids ? l->comm : 0;

		if ((at = u64map_insert(&seen, key << 32 | key2, &made)) ==
		    NULL)
			goto fail;
		if (!made) {
			t[*at].count++;
			continue;
		}
		if (k == alloc) {
			alloc = alloc == 0 ? 16 : alloc * 2;
			if ((bigger = reallocarray(t, alloc, sizeof(*t))) ==
			    NULL)
				goto fail;
			t = bigger;
		}
		t[k] = (struct tally){ .key = key, .key2 = key2, .count = 1 };
		*at = (uint32_t)k++;
	}
	u64map_free(&seen);
	if (k == 0 && (t = calloc(1, sizeof(*t))) == NULL)
		return (NULL);
	qsort(t, k, sizeof(*t), cmp_tally_count);
	*n = k;
	return (t);
fail:
	u64map_free(&seen);
	free(t);
	return (NULL);
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
	struct tally *t;
	char name[128];
	size_t n;

	if ((t = tally(m, g, pids, &n)) == NULL)
		return;
	for (size_t i = 0; i < n && i < LIST_SHOWN; i++) {
		tally_name(m, &t[i], pids, name, sizeof(name));
		fprintf(f, "%s%s (%" PRIu64 ")", i > 0 ? ", " : "", name,
		    t[i].count);
	}
	if (n > LIST_SHOWN)
		fprintf(f, ", %zu more", n - LIST_SHOWN);
	free(t);
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
	struct kmem_live buf;
	const struct kmem_live *l = live_at(m, m->items[g->first].live,
	    &buf);
	char sym[160], pid[128];

	switch (m->o->by) {
	case BY_STACK:
		fprintf(f, "%" PRIu64 " bytes in %zu allocation%s from stack",
		    g->bytes, g->n, g->n == 1 ? "" : "s");
		break;
	case BY_CALLSITE:
		if (m->o->pages && m->items[g->first].k1 == 0)
			snprintf(sym, sizeof(sym), "(no stack recorded)");
		else
			kmem_frames_symbol(m->set->tep, m->items[g->first].k1,
			    sym, sizeof(sym));
		fprintf(f, "%" PRIu64 " bytes in %zu allocation%s from %s",
		    g->bytes, g->n, g->n == 1 ? "" : "s", sym);
		break;
	case BY_PID:
		tally_name(m, &(struct tally){ .key = (uint32_t)l->pid,
		    .key2 = l->comm }, true, pid, sizeof(pid));
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
		frames_text(f, m, (uint32_t)m->items[g->first].k1);
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
report_outstanding_text(FILE *f, const struct outstanding_set *set,
    const struct outstanding_options *o)
{
	struct model m;

	if (model_build(&m, set, o) != 0) {
		model_free(&m);
		return (-1);
	}
	fprintf(f, "# outstanding at the end: %zu %s, %" PRIu64 " bytes",
	    m.nitems, o->pages ? "page allocations" : "objects", m.bytes);
	if (o->by != BY_OBJECT)
		fprintf(f, ", in %zu groups by %s", m.ngroups, by_names[o->by]);
	fputc('\n', f);
	if (m.lost > 0)
		fprintf(f, "# ? %zu could have been freed by an event the "
		    "recording lost%s\n", m.lost, set->loss_unplaced ?
		    " (the losses are not placed in time: every object)" : "");
	if (m.untraced > 0)
		fprintf(f, "# ~ %zu are in caches seen allocating an address "
		    "again with no free: frees without events (kfree_rcu, "
		    "bulk frees)\n", m.untraced);
	if (!set->stacks)
		fprintf(f, "# %s\n", set->no_stacks);
	if (o->by == BY_OBJECT)
		objects_text(f, &m);
	else
		for (size_t i = 0; i < m.ngroups && (o->limit < 0 ||
		    (long)i < o->limit); i++) {
			fputc('\n', f);
			group_line(f, &m, &m.groups[i]);
		}
	model_free(&m);
	return (0);
}

/* ---- folded stacks ---- */

/* A stack and where it ends (a cache, or a page order), and its bytes. */
struct fold {
	uint32_t	 stack, leaf;
	uint64_t	 bytes;
	char		*line;
};

static int
cmp_fold_key(const void *a, const void *b)
{
	const struct fold *x = a, *y = b;

	if (x->stack != y->stack)
		return (x->stack < y->stack ? -1 : 1);
	return (x->leaf < y->leaf ? -1 : x->leaf > y->leaf);
}

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

/* Folds of identical key (then line) into the first: the count left. */
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
report_outstanding_folded(FILE *f, const struct outstanding_set *set,
    const struct outstanding_options *o)
{
	struct fold *fo;
	struct model m;
	size_t n;
	int rc = -1;

	if (model_build(&m, set, o) != 0 ||
	    (fo = calloc(m.nitems + 1, sizeof(*fo))) == NULL) {
		model_free(&m);
		return (-1);
	}
	for (size_t i = 0; i < m.nitems; i++) {
		struct kmem_live buf;
		const struct kmem_live *l = live_at(&m, m.items[i].live, &buf);

		fo[i] = (struct fold){ .stack = l->stack, .leaf = o->pages ?
		    l->order : l->cache, .bytes = l->bytes_alloc };
	}
	n = fold_merge(fo, m.nitems, cmp_fold_key);
	for (size_t i = 0; i < n; i++)
		if ((fo[i].line = fold_line(&m, &fo[i])) == NULL)
			goto out;
	n = fold_merge(fo, n, cmp_fold_line);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s %" PRIu64 "\n", fo[i].line, fo[i].bytes);
	rc = 0;
out:
	for (size_t i = 0; i < n; i++)
		free(fo[i].line);
	free(fo);
	model_free(&m);
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
	struct tally *t;
	size_t n;

	if ((t = tally(m, g, pids, &n)) == NULL)
		return (a);
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
	free(t);
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
	const struct item *it = &m->items[g->first];
	char sym[160];

	tool_json_set(o, "bytes", tool_json_uint(g->bytes));
	tool_json_set(o, "allocations", tool_json_uint(g->n));
	if (m->o->pages)
		tool_json_set(o, "pages", tool_json_uint(g->pages));
	if (m->o->by == BY_CALLSITE) {
		kmem_frames_symbol(m->set->tep, it->k1, sym, sizeof(sym));
		set_or_null(o, "callsite", m->o->pages && it->k1 == 0 ?
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
		tool_json_set(o, "stack", frames_json(m, (uint32_t)it->k1));
	return (o);
}

int
report_outstanding_json(struct json_object *parent,
    const struct outstanding_set *set, const struct outstanding_options *o)
{
	struct json_object *top, *a;
	struct model m;
	long shown = 0;

	if (model_build(&m, set, o) != 0) {
		model_free(&m);
		return (-1);
	}
	top = tool_json_set(parent, "outstanding",
	    tool_json_new(json_type_object));
	tool_json_set(top, "kind", json_object_new_string(o->pages ? "pages" :
	    "slab"));
	tool_json_set(top, "by", json_object_new_string(by_names[o->by]));
	tool_json_set(top, "stacks-recorded",
	    json_object_new_boolean(set->stacks));
	tool_json_set(top, "allocations", tool_json_uint(m.nitems));
	tool_json_set(top, "bytes", tool_json_uint(m.bytes));
	tool_json_set(top, "lost-event-could-explain", tool_json_uint(m.lost));
	tool_json_set(top, "losses-placed-in-time",
	    json_object_new_boolean(!set->loss_unplaced));
	tool_json_set(top, "untraced-free-could-explain",
	    tool_json_uint(m.untraced));
	a = tool_json_set(top, o->by == BY_OBJECT ? "objects" : "groups",
	    tool_json_new(json_type_array));
	for (size_t gi = 0; gi < m.ngroups; gi++) {
		const struct group *g = &m.groups[gi];
		struct kmem_live buf;

		if (o->by != BY_OBJECT) {
			if (o->limit >= 0 && shown++ >= o->limit)
				break;
			if (json_object_array_add(a, group_json(&m, g)) != 0)
				abort();
			continue;
		}
		for (size_t i = 0; i < g->n && (o->limit < 0 ||
		    shown < o->limit); i++, shown++)
			if (json_object_array_add(a, object_json(&m,
			    live_at(&m, m.items[g->first + i].live,
			    &buf))) != 0)
				abort();
	}
	model_free(&m);
	return (0);
}
