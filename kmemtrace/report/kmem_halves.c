/*
 * kmem_halves.c: a recording read in two halves of time at once, the
 * second on a thread of its own, and the halves joined into what one
 * pass over it gathers.
 *
 * The second half starts knowing nothing of the first.  What it cannot
 * settle alone it defers, in its order: a free of an address it has not
 * seen allocated (the first half may hold it live, or freed), an
 * allocation of an address new to it (the first half may hold it live:
 * a free without an event), a stack with no allocation of its CPU
 * waiting (the first half's last may be).  Its commands for tasks it has
 * not seen named are the first's at its end.  The join settles those
 * against the first half's end, as the one pass would have met them,
 * then adds the second's rows, stacks, commands, live objects, totals
 * and misuse to the first's: a stack or a command gets the id one pass
 * gives it, a misuse example its place.  A free takes its place in the
 * window of the last TOMBSTONES frees by its count, whichever half it is
 * in.  Where the halves do not stand for the whole (bad data, times out
 * of order, a stack with no allocation at all), it is read again in
 * one pass, which tells what one pass tells.
 */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "kmem_state.h"

/*
 * An allocation the second half made of an address st (the first half)
 * may hold: the second's object has it now.  One live in st was freed
 * without an event, as slab_alloc() counts it.
 */
static void
settle_fresh(struct kmem_stats *st, const struct kmem_fresh *f)
{
	struct kmem_totals *t = &st->totals;
	struct u64map *map = f->seq & FRESH_PAGE ? &st->pfn_map :
	    &st->object_map;
	struct kmem_object *o;
	uint32_t *v;

	if ((v = u64map_find(map, f->ptr)) == NULL)
		return;
	o = object_at(st, *v);
	if (!(f->seq & FRESH_PAGE) && OBJ_STATE(o) == OBJ_LIVE) {
		t->realloc_live++;
		st->caches[o->cache].realloc_live++;
		t->live--;
		t->live_bytes -= o->bytes_alloc;
	}
	o->state = OBJ_FREED;
	u64map_remove(map, f->ptr);
}

/* A free the second half deferred, against st's objects. */
static int
settle_free(struct kmem_stats *st, const struct kmem_stats *b,
    const struct kmem_deferred *d, uint64_t frees, struct kt_error *e)
{
	struct kmem_event ev = { .kind = d->kind, .cpu = d->cpu, .ts = d->ts,
	    .ptr = d->ptr, .pfn = d->ptr, .call_site = d->call_site,
	    .order = d->order, .node = -1, .name = d->name != NONE ?
	    b->deferred_names + d->name : NULL, .name_len = d->name_len };
	uint32_t *v, buried;

	if (d->kind == KMEM_PAGE_FREE) {
		kmem_page_free_of(st, u64map_find(&st->pfn_map, d->ptr), &ev);
		return (0);
	}
	v = u64map_find(&st->object_map, d->ptr);
	return (kmem_free_of(st, v != NULL ? *v : NONE, &ev,
	    frees + d->free_seq, &buried, e));
}

static void
add_row(struct kmem_row *to, const struct kmem_row *from)
{
	to->bytes_alloc += from->bytes_alloc;
	to->bytes_req += from->bytes_req;
	to->hits += from->hits;
	to->frees += from->frees;
	to->pingpong += from->pingpong;
	to->realloc_live += from->realloc_live;
}

/* Where each of b's rows, stacks and commands went among st's. */
struct row_moves {
	uint32_t	*site, *cache, *ptr, *page, *stack;
	uint32_t	 comm_base;	/* b's command k: st's comm_base + k */
};

/* b's rows added to st's, the same keys' rows one. */
static int
join_rows(struct kmem_stats *st, struct kmem_stats *b, struct row_moves *m)
{
	uint32_t j;

	if ((m->site = calloc(b->nsites + 1, sizeof(*m->site))) == NULL ||
	    (m->cache = calloc(b->ncaches + 1, sizeof(*m->cache))) == NULL ||
	    (m->ptr = calloc(b->nptrs + 1, sizeof(*m->ptr))) == NULL ||
	    (m->page = calloc(b->npages + 1, sizeof(*m->page))) == NULL ||
	    (m->stack = calloc(b->stacks.nstacks + 1,
	    sizeof(*m->stack))) == NULL)
		return (-1);
	for (size_t i = 0; i < b->nsites; i++) {
		if ((j = kmem_row_of(&st->site_map, &st->sites, &st->nsites,
		    &st->asites, b->sites[i].key)) == NONE)
			return (-1);
		add_row(&st->sites[j], &b->sites[i]);
		m->site[i] = j;
	}
	for (size_t i = 0; i < b->ncaches; i++) {
		if ((j = kmem_cache_row(st, b->caches[i].name,
		    b->caches[i].name_len)) == NONE)
			return (-1);
		add_row(&st->caches[j], &b->caches[i]);
		m->cache[i] = j;
	}
	/* Tens of thousands of pointers: room made once, not by copies. */
	if (b->nptrs > 0 && st->aptrs < st->nptrs + b->nptrs) {
		struct kmem_row *r = reallocarray(st->ptrs, st->nptrs +
		    b->nptrs, sizeof(*r));

		if (r == NULL)
			return (-1);
		st->ptrs = r;
		st->aptrs = st->nptrs + b->nptrs;
	}
	for (size_t i = 0; i < b->nptrs; i++) {
		if ((j = kmem_row_of(&st->ptr_map, &st->ptrs, &st->nptrs,
		    &st->aptrs, b->ptrs[i].key)) == NONE)
			return (-1);
		add_row(&st->ptrs[j], &b->ptrs[i]);
		m->ptr[i] = j;
	}
	/* The page rows point at b's GFP names: st keeps them now. */
	for (size_t i = 0; i < b->ngfp; i++) {
		if (kmem_grow((void **)&st->gfp_names, &st->agfp, st->ngfp,
		    sizeof(*st->gfp_names)) != 0)
			return (-1);
		st->gfp_names[st->ngfp++] = b->gfp_names[i];
		b->gfp_names[i] = NULL;
	}
	for (size_t i = 0; i < b->npages; i++) {
		const struct kmem_page_row *r = &b->pages[i];

		if ((j = kmem_page_row(st, r->order, r->migratetype,
		    r->gfp_flags, r->gfp_names, r->callsite)) == NONE)
			return (-1);
		st->pages[j].hits += r->hits;
		st->pages[j].pages += r->pages;
		m->page[i] = j;
	}
	return (0);
}

/*
 * A stack the second half deferred: the first half's last allocation
 * waiting on its CPU gets it, once the second's own pushed out the
 * oldest of them.  1: none was waiting, and the recording lies (read it
 * whole, which tells where).
 */
static int
settle_stack(struct kmem_stats *st, const struct kmem_stats *b,
    const struct kmem_deferred_stack *d)
{
	const struct kt_loss *l = &st->src->loss[d->cpu];
	struct kmem_pending *p = &st->pending[(size_t)d->cpu * KMEM_PENDING];
	uint8_t *n = &st->npending[d->cpu];
	struct kmem_pending last;

	while (*n > 0 && *n + d->deepest > KMEM_PENDING) {
		memmove(p, p + 1, (size_t)(*n - 1) * sizeof(*p));
		(*n)--;
	}
	if (!st->cpu_awaited[d->cpu] && !d->awaited) {
		st->totals.stacks_early++;
		return (0);
	}
	if (*n == 0) {
		if (st->cpu_lost[d->cpu] || (l->dropped != KT_UNKNOWN &&
		    l->dropped > 0) || (l->overrun != KT_UNKNOWN &&
		    l->overrun > 0)) {
			st->totals.stacks_unmatched++;
			return (0);
		}
		return (1);
	}
	if (d->frames == NO_FRAMES)
		return (1);	/* cannot be: read whole */
	last = p[--*n];
	if (last.object == NONE || object_at(st, last.object)->gen !=
	    last.gen || OBJ_STATE(object_at(st, last.object)) != OBJ_LIVE)
		return (0);
	if (d->nframes > KMEM_MAX_FRAMES)
		st->totals.stacks_cut++;
	return (kmem_give_stack(st, last, b->dframes + d->frames,
	    d->nframes < KMEM_MAX_FRAMES ? d->nframes : KMEM_MAX_FRAMES) != 0 ?
	    -1 : 0);
}

/* The second half's stack k, kept among st's at its first place. */
static int
settle_stack_id(struct kmem_stats *st, const struct kmem_stats *b,
    uint32_t k, struct row_moves *m)
{
	size_t n;
	const uint64_t *frames = kmem_stacks_get(&b->stacks, k, &n);

	return ((m->stack[k] = kmem_stacks_add(&st->stacks, frames, n)) ==
	    KMEM_NO_STACK ? -1 : 0);
}

/*
 * The second half's deferred events, in its order, against the first
 * half's end (st): as each would have gone had the halves been read as
 * one.  Their places are the second half's counts after the first's.
 * Its stacks join st's in the order they were first met, so that a
 * stack has the id one pass gives it.  1: read it whole.
 */
static int
settle_deferred(struct kmem_stats *st, const struct kmem_stats *b,
    struct row_moves *m, struct kt_error *e)
{
	uint64_t events = st->totals.events, frees = st->free_seq;
	size_t i = 0, j = 0, k = 0, id = 0;
	int rc = 0;

	for (;;) {
		uint64_t at[4] = { UINT64_MAX, UINT64_MAX, UINT64_MAX,
		    UINT64_MAX };
		int next = 0;

		if (i < b->ndeferred)
			at[0] = b->deferred[i].seq;
		if (j < b->nfresh)
			at[1] = b->fresh[j].seq & ~FRESH_PAGE;
		if (k < b->ndstacks)
			at[2] = b->dstacks[k].seq;
		if (id < b->stacks.nstacks)
			at[3] = b->stack_seq[id];
		for (int w = 1; w < 4; w++)
			if (at[w] < at[next])
				next = w;
		if (at[next] == UINT64_MAX)
			return (0);
		st->seq = events + at[next];
		switch (next) {
		case 0:
			rc = settle_free(st, b, &b->deferred[i++], frees, e);
			break;
		case 1:
			settle_fresh(st, &b->fresh[j++]);
			break;
		case 2:
			if ((rc = settle_stack(st, b, &b->dstacks[k++])) < 0)
				kt_fail(e, "out of memory");
			break;
		case 3:
			if ((rc = settle_stack_id(st, b, (uint32_t)id++,
			    m)) != 0)
				kt_fail(e, "out of memory");
			break;
		}
		if (rc != 0)
			return (rc);
	}
}

/* b's commands after st's, as one pass would have kept them. */
static int
join_tasks(struct kmem_stats *st, const struct kmem_stats *b,
    struct row_moves *m)
{
	m->comm_base = (uint32_t)st->tasks.ncomms;
	for (size_t k = 0; k < b->tasks.ncomms; k++)
		if (kmem_tasks_keep(&st->tasks, kmem_tasks_comm(&b->tasks,
		    (uint32_t)k)) == KMEM_NO_COMM)
			return (-1);
	return (0);
}

/* b's live allocations among st's objects, in st's rows. */
static int
join_objects(struct kmem_stats *st, const struct kmem_stats *b,
    const struct row_moves *m)
{
	for (uint32_t i = 0; i < b->nobjects; i++) {
		const struct kmem_object *o = object_at(b, i);
		struct kmem_object *to;
		uint32_t k;

		if (OBJ_STATE(o) != OBJ_LIVE)
			continue;
		if ((k = kmem_new_object(st)) == NONE)
			return (-1);
		to = object_at(st, k);
		*to = *o;
		if (o->stack != KMEM_NO_STACK)
			to->stack = m->stack[o->stack];
		if (o->comm == COMM_EARLIER)
			to->comm = kmem_tasks_now(&st->tasks, o->pid);
		else if (o->comm != KMEM_NO_COMM)
			to->comm = m->comm_base + o->comm;
		if (o->kind == KMEM_PAGE_ALLOC)
			to->cache = m->page[o->cache];
		else {
			to->site = m->site[o->site];
			to->cache = m->cache[o->cache];
			if (o->ptr_row != NONE)
				to->ptr_row = m->ptr[o->ptr_row];
		}
	}
	return (0);
}

/* The first examples of each misuse, of both halves, by place. */
static void
join_misuse(struct kmem_stats *st, const struct kmem_stats *b)
{
	for (int k = 0; k < MISUSE_NKINDS; k++) {
		struct kmem_misuse *m = &st->misuse[k];
		const struct kmem_misuse *o = &b->misuse[k];
		struct kmem_misuse_example x[2 * KMEM_MISUSE_EXAMPLES];
		size_t n = 0;

		for (uint64_t i = 0; i < m->count && i < KMEM_MISUSE_EXAMPLES;
		    i++)
			x[n++] = m->example[i];
		for (uint64_t i = 0; i < o->count && i < KMEM_MISUSE_EXAMPLES;
		    i++) {
			x[n] = o->example[i];
			x[n++].seq += st->totals.events;
		}
		for (size_t i = 1; i < n; i++)
			for (size_t j = i; j > 0 && x[j].seq < x[j - 1].seq;
			    j--) {
				struct kmem_misuse_example t = x[j];

				x[j] = x[j - 1];
				x[j - 1] = t;
			}
		for (size_t i = 0; i < n && i < KMEM_MISUSE_EXAMPLES; i++)
			m->example[i] = x[i];
		m->count += o->count;
	}
}

static void
join_totals(struct kmem_totals *t, const struct kmem_totals *b)
{
	if (b->events == 0)
		return;
	if (t->events == 0)
		t->first_ts = b->first_ts;
	t->last_ts = b->last_ts;
#define ADD(f)	t->f += b->f
	ADD(events); ADD(slab_events); ADD(page_events); ADD(other_events);
	ADD(allocs); ADD(frees); ADD(kfree_null);
	ADD(bytes_req); ADD(bytes_alloc); ADD(bytes_freed);
	ADD(cross_node); ADD(node_known);
	ADD(cross_cpu_frees); ADD(frees_matched); ADD(frees_unknown);
	ADD(realloc_live); ADD(recorder_allocs); ADD(live); ADD(live_bytes);
	ADD(stack_events); ADD(task_events); ADD(stacks_unmatched);
	ADD(stacks_early); ADD(stacks_cut);
	ADD(page_allocs); ADD(page_frees); ADD(page_alloc_fail);
	ADD(page_bytes_alloc); ADD(page_bytes_freed);
	ADD(page_alloc_freed); ADD(page_free_unknown);
	ADD(page_bytes_free_all); ADD(page_bytes_free_unknown);
#undef ADD
}

/* b, the second half, joined to st, the first: as if read as one. */
static int
join_halves(struct kmem_stats *st, struct kmem_stats *b, struct kt_error *e)
{
	struct row_moves m = { 0 };
	int rc = -1;

	if (join_rows(st, b, &m) != 0 || join_tasks(st, b, &m) != 0) {
		kt_fail(e, "out of memory");
		goto out;
	}
	if ((rc = settle_deferred(st, b, &m, e)) != 0)
		goto out;
	rc = -1;
	if (join_objects(st, b, &m) != 0) {
		kt_fail(e, "out of memory");
		goto out;
	}
	join_misuse(st, b);
	join_totals(&st->totals, &b->totals);
	st->free_seq += b->free_seq;
	if (b->loss_ts != 0)
		st->loss_ts = b->loss_ts;
	rc = 0;
out:
	free(m.site);
	free(m.cache);
	free(m.ptr);
	free(m.page);
	free(m.stack);
	return (rc);
}

/*
 * Whether the halves' joins can make what one pass makes: not where a
 * stack goes to the record before it, whatever that was (a trace.dat's).
 */
static bool
halves_joinable(const struct kmem_stats *st)
{
	return (!st->stack_adjacent);
}

struct second_half {
	const struct kmem_stats *first;
	struct kt_source *src;
	struct kt_halves *h;
	struct kmem_stats st;
	struct kt_error	 e;
	int		 rc;
};

/* The second half's gathering: made ready on its own thread too. */
static void *
read_second(void *arg)
{
	struct second_half *s = arg;
	struct gather g = { &s->st, &s->e };

	pthread_mutex_lock(&kmem_tep_lock);
	s->rc = kmem_stats_init(&s->st, s->src, s->first->by_pointer, &s->e);
	pthread_mutex_unlock(&kmem_tep_lock);
	if (s->rc != 0)
		return (NULL);
	s->st.pids = s->first->pids;
	s->st.npids = s->first->npids;
	s->st.second = true;
	/* Commands: its own only (an unset one is the first's). */
	kmem_tasks_free(&s->st.tasks);
	if (kmem_tasks_init(&s->st.tasks) != 0 ||
	    (s->st.events.have_stacks && ((s->st.deepest = calloc(
	    (size_t)s->src->ncpus, sizeof(*s->st.deepest))) == NULL ||
	    (s->st.deferred_on = calloc((size_t)s->src->ncpus,
	    sizeof(*s->st.deferred_on))) == NULL))) {
		s->rc = kt_fail(&s->e, "out of memory");
		return (NULL);
	}
	s->rc = kt_halves_each(s->h, 1, kmem_one_record, &g, &s->e);
	return (NULL);
}

/*
 * The two halves read at once, the second on a thread of its own, then
 * joined: 0; 1 if they cannot stand for the whole (bad data, whose first
 * lie one pass tells; times out of order); -1.
 */
static int
gather_halves(struct kmem_stats *st, struct kt_source *src,
    struct kt_halves *h, struct kt_error *e)
{
	struct second_half s = { .first = st, .src = src, .h = h };
	struct gather g = { st, e };
	sigset_t all, old;
	pthread_t thread;
	bool threaded, met;
	int rc;

	/* Signals are the caller's thread's to take. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	threaded = pthread_create(&thread, NULL, read_second, &s) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	rc = kt_halves_each(h, 0, kmem_one_record, &g, e);
	if (threaded)
		pthread_join(thread, NULL);
	else if (rc == 0)
		read_second(&s);
	if (rc == 0 && s.rc == 0) {
		if ((rc = kt_halves_join(src, h, &met, e)) == 0)
			rc = met ? join_halves(st, &s.st, e) : 1;
	} else
		rc = 1;
	kmem_stats_free(&s.st);
	return (rc);
}

/* st as kmem_stats_init() made it, for a pass over the whole source. */
static int
stats_again(struct kmem_stats *st, const struct kt_source *src,
    struct kt_error *e)
{
	const int *pids = st->pids;
	size_t npids = st->npids;
	bool by_pointer = st->by_pointer;

	kmem_stats_free(st);
	if (kmem_stats_init(st, src, by_pointer, e) != 0)
		return (-1);
	st->pids = pids;
	st->npids = npids;
	return (0);
}

int
kmem_stats_gather(struct kmem_stats *st, struct kt_source *src,
    struct kt_error *e)
{
	return (kmem_stats_gather_at(st, src, 0, e));
}

int
kmem_stats_gather_at(struct kmem_stats *st, struct kt_source *src,
    uint64_t at, struct kt_error *e)
{
	struct gather g = { st, e };
	struct kt_halves *h;
	int rc;

	/* Both cores, where the recording can be cut in two by time. */
	if (at != KMEM_WHOLE && halves_joinable(st) &&
	    (rc = kt_source_halve(src, at, &h, e)) != 1) {
		if (rc == 0)
			rc = gather_halves(st, src, h, e);
		kt_halves_free(h);
		if (rc <= 0)
			return (rc);
		if (stats_again(st, src, e) != 0)
			return (-1);
	}
	return (kt_source_each(src, kmem_one_record, &g, e) != 0 ? -1 : 0);
}

