/*
 * kmem_stats.c: one pass over the events.
 *
 * An allocation's object is remembered until it is freed, and briefly
 * after (the last TOMBSTONES frees), so that a second free of it is seen.
 * A free of an address never seen allocated was allocated before the
 * recording began; an allocation of an address still live means its free
 * had no event (kmem_cache_free_bulk, kfree_bulk have none) or was lost.
 * A page is an object too, known by its pfn, while it is allocated.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <trace-seq.h>

#include "huge_alloc.h"
#include "kmem_frames.h"
#include "kmem_state.h"

pthread_mutex_t kmem_tep_lock = PTHREAD_MUTEX_INITIALIZER;

static uint32_t
saturate(uint64_t v)
{
	return (v > UINT32_MAX ? UINT32_MAX : (uint32_t)v);
}

int
kmem_grow(void **array, size_t *alloc, size_t n, size_t size)
{
	void *p;
	size_t a;

	if (n < *alloc)
		return (0);
	a = *alloc == 0 ? 64 : *alloc + *alloc / 2;
	if (a > UINT32_MAX - 1 || (p = reallocarray(*array, a, size)) == NULL)
		return (-1);
	*array = p;
	*alloc = a;
	return (0);
}

/* The row of key in rows (via map), made if new: its index, or NONE. */
uint32_t
kmem_row_of(struct u64map *map, struct kmem_row **rows, size_t *n, size_t *a,
    uint64_t key)
{
	uint32_t *v;
	bool made;

	if ((v = u64map_insert(map, key, &made)) == NULL)
		return (NONE);
	if (made) {
		if (kmem_grow((void **)rows, a, *n, sizeof(**rows)) != 0) {
			u64map_remove(map, key);
			return (NONE);
		}
		(*rows)[*n] = (struct kmem_row){ .key = key };
		*v = (uint32_t)(*n)++;
	}
	return (*v);
}

/*
 * The cache map's key for a name (collisions checked): eight bytes at a
 * time, as every cache event hashes its name.
 */
static uint64_t
name_hash(const char *s, size_t len)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ len, w;

	for (; len >= 8; s += 8, len -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	w = 0;
	memcpy(&w, s, len);
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
	return (h ^ (h >> 29));
}

/*
 * Whether a cache row is the one named name: a word at a time, as every
 * free of a named cache, and every allocation from one, compares its
 * name (most are 4 to 24 bytes: a call to memcmp cost more than that).
 */
static inline bool
row_named(const struct kmem_row *row, const char *name, size_t len)
{
	const char *a = row->name;
	uint64_t x, y;
	uint32_t u, v;

	if (row->name_len != len)
		return (false);
	if (len < 4)
		return (len == 0 || memcmp(a, name, len) == 0);
	if (len < 8) {
		/* Two words that overlap cover it. */
		memcpy(&u, a, 4);
		memcpy(&v, name, 4);
		if (u != v)
			return (false);
		memcpy(&u, a + len - 4, 4);
		memcpy(&v, name + len - 4, 4);
		return (u == v);
	}
	for (size_t i = 0; i + 8 < len; i += 8) {
		memcpy(&x, a + i, 8);
		memcpy(&y, name + i, 8);
		if (x != y)
			return (false);
	}
	memcpy(&x, a + len - 8, 8);
	memcpy(&y, name + len - 8, 8);
	return (x == y);
}

uint32_t
kmem_cache_row(struct kmem_stats *st, const char *name, size_t len)
{
	uint64_t key = name_hash(name, len);

	for (int probe = 0; probe < 64; probe++, key++) {
		uint32_t *v = u64map_find(&st->cache_map, key), i;
		char *copy;

		if (v != NULL) {
			if (row_named(&st->caches[*v], name, len))
				return (*v);
			continue;	/* another name with this hash */
		}
		if ((copy = strndup(name, len)) == NULL)
			return (NONE);
		if ((i = kmem_row_of(&st->cache_map, &st->caches, &st->ncaches,
		    &st->acaches, key)) == NONE) {
			free(copy);
			return (NONE);
		}
		st->caches[i].name = copy;
		st->caches[i].name_len = len;
		return (i);
	}
	return (NONE);
}

/*
 * kmalloc's cache, from the size it gave (its name is not recorded);
 * remembered by size, as this is every kmalloc event's.
 */
static uint32_t
kmalloc_cache(struct kmem_stats *st, uint64_t bytes_alloc)
{
	static const uint64_t sizes[] = { 8, 16, 32, 64, 96, 128, 192, 256,
	    512, 1024, 2048, 4096, 8192 };
	char name[32] = "kmalloc-large";
	uint32_t *v, row;
	bool made;

	if ((v = u64map_find(&st->kmalloc_map, bytes_alloc)) != NULL)
		return (*v);

	for (size_t i = 0; i < sizeof(sizes) / sizeof(*sizes); i++)
		if (bytes_alloc == sizes[i]) {
			if (sizes[i] >= 1024)
				snprintf(name, sizeof(name), "kmalloc-%lluk",
				    (unsigned long long)(sizes[i] / 1024));
			else
				snprintf(name, sizeof(name), "kmalloc-%llu",
				    (unsigned long long)sizes[i]);
		}
	if ((row = kmem_cache_row(st, name, strlen(name))) == NONE ||
	    (v = u64map_insert(&st->kmalloc_map, bytes_alloc, &made)) == NULL)
		return (NONE);
	*v = row;
	return (row);
}

/* A kmem_cache_alloc without the name field (before 2025). */
static uint32_t
unnamed_cache(struct kmem_stats *st, uint64_t bytes_alloc)
{
	char name[48];

	snprintf(name, sizeof(name), "(unnamed, %llu bytes)",
	    (unsigned long long)bytes_alloc);
	return (kmem_cache_row(st, name, strlen(name)));
}

static void
misuse(struct kmem_stats *st, enum kmem_misuse_kind kind,
    const struct kmem_event *ev, const struct kmem_object *obj)
{
	struct kmem_misuse *m = &st->misuse[kind];

	if (m->count < KMEM_MISUSE_EXAMPLES)
		m->example[m->count] = (struct kmem_misuse_example){
		    .ptr = ev->ptr, .ts = ev->ts, .cpu = ev->cpu,
		    .alloc_site = obj != NULL ? st->sites[obj->site].key :
		    ev->call_site,
		    .free_site = obj != NULL ? ev->call_site : 0,
		    .bytes_req = obj != NULL ? obj->bytes_req : ev->bytes_req,
		    .bytes_alloc = obj != NULL ? obj->bytes_alloc :
		    ev->bytes_alloc, .seq = st->seq };
	m->count++;
}

/*
 * The command pid runs now, for an allocation: in a second half, one it
 * has not seen set is the first half's at its end (COMM_EARLIER).
 */
static uint32_t
comm_now(const struct kmem_stats *st, int pid)
{
	uint32_t c;

	if (!st->events.have_stacks)
		return (KMEM_NO_COMM);
	c = kmem_tasks_now(&st->tasks, pid);
	return (c == KMEM_NO_COMM && st->second ? COMM_EARLIER : c);
}

/* A free slot for an object: the free list, or a new one. */
uint32_t
kmem_new_object(struct kmem_stats *st)
{
	uint32_t i = st->free_object;

	if (i != NONE) {
		st->free_object = object_at(st, i)->next_free;
		object_at(st, i)->gen++;
		return (i);
	}
	if (st->nobjects == st->nchunks * OBJECT_CHUNK) {
		if (st->nobjects >= NONE - OBJECT_CHUNK ||
		    kmem_grow((void **)&st->object_chunks, &st->achunks,
		    st->nchunks, sizeof(*st->object_chunks)) != 0 ||
		    (st->object_chunks[st->nchunks] = huge_zalloc(OBJECT_CHUNK *
		    sizeof(struct kmem_object))) == NULL)
			return (NONE);
		st->nchunks++;
	}
	*object_at(st, (uint32_t)st->nobjects) = (struct kmem_object){ 0 };
	return ((uint32_t)st->nobjects++);
}

/*
 * A free of an address: a tombstone, its object's if it freed one (i,
 * else NONE).  The ring grows to TOMBSTONES, then the oldest goes (its
 * object slot freed, unless reused since): a second free is seen if it
 * comes within TOMBSTONES frees of the first.  Every free takes a place,
 * so that a free's is its count, whichever half of a recording read in
 * two it is in.  The sizes are powers of two: a mask, not a division.
 */
static int
bury(struct kmem_stats *st, uint32_t i)
{
	if (st->ring_count == st->ring_size && st->ring_size < TOMBSTONES) {
		size_t n = st->ring_size == 0 ? 4096 : st->ring_size * 2;
		struct kmem_tombstone *r = huge_zalloc(n * sizeof(*r));

		if (r == NULL)
			return (-1);
		/* Unrolled into the new ring, oldest first. */
		for (size_t k = 0; k < st->ring_count; k++)
			r[k] = st->ring[(st->ring_head + k) &
			    (st->ring_size - 1)];
		huge_free(st->ring, st->ring_size * sizeof(*st->ring));
		st->ring = r;
		st->ring_head = 0;
		st->ring_size = n;
	}
	if (st->ring_count == st->ring_size) {
		struct kmem_tombstone t = st->ring[st->ring_head];
		struct kmem_object *old = t.object != NONE ?
		    object_at(st, t.object) : NULL;

		if (old != NULL && OBJ_STATE(old) == OBJ_FREED &&
		    old->gen == t.gen) {
			u64map_remove(&st->object_map, old->ptr);
			old->next_free = st->free_object;
			st->free_object = t.object;
		}
		st->ring_count--;
		st->ring_head = (st->ring_head + 1) & (st->ring_size - 1);
	}
	st->ring[(st->ring_head + st->ring_count++) & (st->ring_size - 1)] =
	    (struct kmem_tombstone){ i, i != NONE ? object_at(st, i)->gen :
	    0 };
	return (0);
}

/* A second half's deferrals, settled at the join (kmem_halves.c). */
static int
defer_fresh(struct kmem_stats *st, uint64_t ptr, bool page)
{
	if (kmem_grow((void **)&st->fresh, &st->afresh, st->nfresh,
	    sizeof(*st->fresh)) != 0)
		return (-1);
	st->fresh[st->nfresh++] = (struct kmem_fresh){
	    .seq = st->seq | (page ? FRESH_PAGE : 0), .ptr = ptr };
	return (0);
}

/* The free ev, of an address this half has not allocated. */
static int
defer_free(struct kmem_stats *st, const struct kmem_event *ev)
{
	uint32_t name = NONE;

	if (st->ndeferred == DEFER_MAX)
		return (-1);	/* read whole */
	if (ev->name != NULL) {
		while (st->nnames + ev->name_len > st->anames)
			if (kmem_grow((void **)&st->deferred_names, &st->anames,
			    st->anames, 1) != 0)
				return (-1);
		memcpy(st->deferred_names + st->nnames, ev->name,
		    ev->name_len);
		name = (uint32_t)st->nnames;
		st->nnames += ev->name_len;
	}
	if (kmem_grow((void **)&st->deferred, &st->adeferred, st->ndeferred,
	    sizeof(*st->deferred)) != 0)
		return (-1);
	st->deferred[st->ndeferred++] = (struct kmem_deferred){
	    .seq = st->seq, .free_seq = st->free_seq, .ts = ev->ts,
	    .ptr = ev->kind == KMEM_PAGE_FREE ? ev->pfn : ev->ptr,
	    .call_site = ev->call_site, .name = name,
	    .name_len = (uint32_t)ev->name_len, .order = ev->order,
	    .cpu = ev->cpu, .kind = (uint8_t)ev->kind };
	return (0);
}

static int
defer_stack(struct kmem_stats *st, const struct kmem_event *ev)
{
	size_t n = ev->nframes < KMEM_MAX_FRAMES ? ev->nframes :
	    KMEM_MAX_FRAMES, at = st->ndframes;

	if (st->ndstacks == DEFER_MAX)
		return (-1);	/* read whole */
	if (st->deferred_on[ev->cpu] < KMEM_PENDING)
		st->deferred_on[ev->cpu]++;
	else {
		n = 0;
		at = NO_FRAMES;
	}
	while (st->ndframes + n > st->adframes)
		if (kmem_grow((void **)&st->dframes, &st->adframes,
		    st->adframes, sizeof(*st->dframes)) != 0)
			return (-1);
	if (kmem_grow((void **)&st->dstacks, &st->adstacks, st->ndstacks,
	    sizeof(*st->dstacks)) != 0)
		return (-1);
	kmem_events_frames(&st->events, ev, st->dframes + st->ndframes, n);
	st->dstacks[st->ndstacks++] = (struct kmem_deferred_stack){
	    .seq = st->seq, .frames = at, .nframes = ev->nframes,
	    .cpu = ev->cpu, .deepest = st->deepest[ev->cpu],
	    .awaited = st->cpu_awaited[ev->cpu] };
	st->ndframes += n;
	st->deepest[ev->cpu] = 0;
	return (0);
}

/*
 * An allocation's call site row and cache row: the site's last ones when
 * the cache is the same (kmalloc's and an unnamed one's by size).
 */
static int
site_and_cache(struct kmem_stats *st, const struct kmem_event *ev,
    uint32_t *site, uint32_t *cache)
{
	struct kmem_site_memo *m = &st->site_memo[(ev->call_site ^
	    ev->call_site >> 16) % KMEM_SITE_MEMO];
	bool named = ev->kind == KMEM_CACHE_ALLOC && ev->name != NULL;

	if (m->used && m->call_site == ev->call_site && m->kind == ev->kind &&
	    m->named == named && (named ?
	    row_named(&st->caches[m->cache], ev->name, ev->name_len) :
	    m->bytes_alloc == ev->bytes_alloc)) {
		*site = m->site;
		*cache = m->cache;
		return (0);
	}
	if ((*site = kmem_row_of(&st->site_map, &st->sites, &st->nsites,
	    &st->asites, ev->call_site)) == NONE)
		return (-1);
	if (ev->kind == KMEM_KMALLOC)
		*cache = kmalloc_cache(st, ev->bytes_alloc);
	else if (named)
		*cache = kmem_cache_row(st, ev->name, ev->name_len);
	else
		*cache = unnamed_cache(st, ev->bytes_alloc);
	if (*cache == NONE)
		return (-1);
	*m = (struct kmem_site_memo){ .call_site = ev->call_site,
	    .bytes_alloc = ev->bytes_alloc, .site = *site, .cache = *cache,
	    .kind = (uint8_t)ev->kind, .named = named, .used = true };
	return (0);
}

static int
slab_alloc(struct kmem_stats *st, const struct kmem_event *ev,
    struct kt_error *e)
{
	struct kmem_totals *t = &st->totals;
	struct kmem_object *obj;
	uint32_t site, cache, *v, i, ptr_row = NONE;
	bool made;

	t->allocs++;
	t->bytes_req += ev->bytes_req;
	t->bytes_alloc += ev->bytes_alloc;
	if (ev->node >= 0 && st->src->facts.cpu_node != NULL) {
		t->node_known++;
		if (ev->node != st->src->facts.cpu_node[ev->cpu])
			t->cross_node++;
	}
	if (ev->bytes_alloc < ev->bytes_req)
		misuse(st, MISUSE_SHORT, ev, NULL);
	if (site_and_cache(st, ev, &site, &cache) != 0)
		return (kt_fail(e, "out of memory"));
	st->sites[site].hits++;
	st->sites[site].bytes_alloc += ev->bytes_alloc;
	st->sites[site].bytes_req += ev->bytes_req;
	st->caches[cache].hits++;
	st->caches[cache].bytes_alloc += ev->bytes_alloc;
	st->caches[cache].bytes_req += ev->bytes_req;
	if ((v = u64map_insert(&st->object_map, ev->ptr, &made)) == NULL)
		return (kt_fail(e, "out of memory"));
	/* The first half may hold the address live: the join says. */
	if (made && st->second && defer_fresh(st, ev->ptr, false) != 0) {
		u64map_remove(&st->object_map, ev->ptr);
		return (kt_fail(e, "out of memory"));
	}
	/* An address met again: its object names its row. */
	if (st->by_pointer) {
		if (!made)
			ptr_row = object_at(st, *v)->ptr_row;
		else if ((ptr_row = kmem_row_of(&st->ptr_map, &st->ptrs,
		    &st->nptrs, &st->aptrs, ev->ptr)) == NONE) {
			u64map_remove(&st->object_map, ev->ptr);
			return (kt_fail(e, "out of memory"));
		}
		st->ptrs[ptr_row].hits++;
		st->ptrs[ptr_row].bytes_alloc += ev->bytes_alloc;
		st->ptrs[ptr_row].bytes_req += ev->bytes_req;
	}
	if (made) {
		if ((i = kmem_new_object(st)) == NONE) {
			u64map_remove(&st->object_map, ev->ptr);
			return (kt_fail(e, "out of memory"));
		}
		*v = i;
	} else {
		i = *v;
		if (OBJ_STATE(object_at(st, i)) == OBJ_LIVE) {
			t->realloc_live++;
			st->caches[object_at(st, i)->cache].realloc_live++;
			t->live--;
			t->live_bytes -= object_at(st, i)->bytes_alloc;
		}
		object_at(st, i)->gen++;	/* its tombstone is void */
	}
	obj = object_at(st, i);
	obj->ptr = ev->ptr;
	obj->ts = ev->ts;
	obj->bytes_alloc = saturate(ev->bytes_alloc);
	obj->bytes_req = saturate(ev->bytes_req);
	obj->site = site;
	obj->cache = cache;
	obj->pid = ev->pid;
	obj->cpu = (uint16_t)ev->cpu;
	obj->kind = (uint8_t)ev->kind;
	obj->state = OBJ_LIVE;
	obj->ptr_row = ptr_row;	/* NONE without --alloc */
	if (ev->kind == KMEM_CACHE_ALLOC && ev->name == NULL)
		obj->state |= OBJ_UNNAMED;
	obj->stack = KMEM_NO_STACK;
	obj->comm = comm_now(st, ev->pid);
	st->made = i;
	t->live++;
	t->live_bytes += obj->bytes_alloc;
	return (0);
}

/* A free that names its cache settles an unnamed allocation's cache. */
static int
settle_cache(struct kmem_stats *st, struct kmem_object *obj,
    const struct kmem_event *ev, struct kt_error *e)
{
	struct kmem_row *from = &st->caches[obj->cache];
	uint32_t to;

	if ((to = kmem_cache_row(st, ev->name, ev->name_len)) == NONE)
		return (kt_fail(e, "out of memory"));
	from = &st->caches[obj->cache];	/* cache_row may move the rows */
	from->hits--;
	from->bytes_alloc -= obj->bytes_alloc;
	from->bytes_req -= obj->bytes_req;
	st->caches[to].hits++;
	st->caches[to].bytes_alloc += obj->bytes_alloc;
	st->caches[to].bytes_req += obj->bytes_req;
	obj->cache = to;
	obj->state &= ~OBJ_UNNAMED;
	return (0);
}

/*
 * The free ev, the g-th free of an address, of object i (NONE: none is
 * known): matched to it; a second free if the first was among the last
 * TOMBSTONES frees; else of an allocation made before the recording.
 * *buried: the object it freed, or NONE.
 */
int
kmem_free_of(struct kmem_stats *st, uint32_t i, const struct kmem_event *ev,
    uint64_t g, uint32_t *buried, struct kt_error *e)
{
	struct kmem_totals *t = &st->totals;
	struct kmem_object *obj = i != NONE ? object_at(st, i) : NULL;

	*buried = NONE;
	if (obj == NULL || (OBJ_STATE(obj) == OBJ_FREED &&
	    g - obj->freed_at > TOMBSTONES)) {
		t->frees_unknown++;
		return (0);
	}
	if (OBJ_STATE(obj) == OBJ_FREED) {
		misuse(st, MISUSE_DOUBLE_FREE, ev, obj);
		return (0);
	}
	if (obj->kind == KMEM_KMALLOC && ev->kind == KMEM_CACHE_FREE)
		misuse(st, MISUSE_KMALLOC_CACHE_FREE, ev, obj);
	if (obj->kind == KMEM_CACHE_ALLOC && ev->kind == KMEM_KFREE)
		misuse(st, MISUSE_CACHE_KFREE, ev, obj);
	if (ev->name != NULL && obj->kind == KMEM_CACHE_ALLOC) {
		if (obj->state & OBJ_UNNAMED) {
			if (settle_cache(st, obj, ev, e) != 0)
				return (-1);
		} else if (!row_named(&st->caches[obj->cache], ev->name,
		    ev->name_len))
			misuse(st, MISUSE_OTHER_CACHE, ev, obj);
	}
	t->frees_matched++;
	t->bytes_freed += obj->bytes_alloc;
	st->sites[obj->site].frees++;
	st->caches[obj->cache].frees++;
	if (st->by_pointer) {
		st->ptrs[obj->ptr_row].frees++;
		if (obj->cpu != ev->cpu)
			st->ptrs[obj->ptr_row].pingpong++;
	}
	if (obj->cpu != ev->cpu) {
		t->cross_cpu_frees++;
		st->sites[obj->site].pingpong++;
		st->caches[obj->cache].pingpong++;
	}
	t->live--;
	t->live_bytes -= obj->bytes_alloc;
	obj->state = OBJ_FREED;
	obj->freed_at = g;
	*buried = i;
	return (0);
}

static int
slab_free(struct kmem_stats *st, const struct kmem_event *ev,
    struct kt_error *e)
{
	uint32_t *v, buried = NONE;

	if (ev->ptr == 0) {
		st->totals.kfree_null++;	/* kfree(NULL): nothing freed */
		return (0);
	}
	st->totals.frees++;
	v = u64map_find(&st->object_map, ev->ptr);
	if (v == NULL && st->second) {
		/* Its object, if any, is the first half's. */
		if (defer_free(st, ev) != 0)
			return (kt_fail(e, "out of memory"));
	} else if (kmem_free_of(st, v != NULL ? *v : NONE, ev, st->free_seq,
	    &buried, e) != 0)
		return (-1);
	st->free_seq++;
	if (bury(st, buried) != 0)
		return (kt_fail(e, "out of memory"));
	return (0);
}

/*
 * The kernel's own names for a GFP value: the event printed by its
 * recorded format, its "gfp_flags=" part.  Only when every field of the
 * event lies inside the record, so the printer reads nothing else.
 */
static const char *
gfp_names(struct kmem_stats *st, const struct kmem_event *ev)
{
	const struct kt_record *r = ev->record;
	struct tep_event *event;
	struct tep_format_field *f;
	struct tep_record rec;
	struct trace_seq s;
	char *p, *name, buf[40];
	uint32_t *v;
	bool made, fits;
	size_t len;

	if ((v = u64map_find(&st->gfp_map, ev->gfp_flags)) != NULL)
		return (st->gfp_names[*v]);
	pthread_mutex_lock(&kmem_tep_lock);
	event = tep_find_event(st->events.tep, (int)tep_read_number(
	    st->events.tep, r->data, st->events.type.size));
	fits = event != NULL;
	for (f = fits ? event->format.fields : NULL; f != NULL; f = f->next)
		if (f->offset < 0 || f->size < 0 || (size_t)f->offset +
		    (size_t)f->size > r->size ||
		    (f->flags & TEP_FIELD_IS_DYNAMIC))
			fits = false;
	trace_seq_init(&s);
	name = NULL;
	if (fits) {
		rec = (struct tep_record){ .ts = r->ts, .cpu = r->cpu,
		    .data = (void *)r->data, .size = (int)r->size };
		tep_print_event(st->events.tep, &s, &rec, "%s",
		    TEP_PRINT_INFO);
		trace_seq_terminate(&s);
		if (s.buffer != NULL &&
		    (p = strstr(s.buffer, "gfp_flags=")) != NULL) {
			p += strlen("gfp_flags=");
			len = strcspn(p, " ");
			if (len > 0 && len < 512)
				name = strndup(p, len);
		}
	}
	trace_seq_destroy(&s);
	pthread_mutex_unlock(&kmem_tep_lock);
	if (name == NULL) {
		snprintf(buf, sizeof(buf), "%#llx",
		    (unsigned long long)ev->gfp_flags);
		name = strdup(buf);
	}
	if (name == NULL || kmem_grow((void **)&st->gfp_names, &st->agfp,
	    st->ngfp, sizeof(*st->gfp_names)) != 0 ||
	    (v = u64map_insert(&st->gfp_map, ev->gfp_flags, &made)) == NULL) {
		free(name);
		return (NULL);
	}
	st->gfp_names[st->ngfp] = name;
	*v = (uint32_t)st->ngfp++;
	return (name);
}

/*
 * The page table's row of an order, migrate type, GFP flags and call site
 * (0 until a stack names it), made if new: its index, or NONE.
 */
uint32_t
kmem_page_row(struct kmem_stats *st, unsigned order, int migratetype,
    uint64_t gfp_flags, const char *gfp_names, uint64_t callsite)
{
	uint64_t key = name_hash((const char *)&gfp_flags, sizeof(gfp_flags)) ^
	    ((uint64_t)order << 8 | (uint8_t)migratetype) *
	    0x9e3779b97f4a7c15ULL ^ callsite * 0xc2b2ae3d27d4eb4fULL;
	uint32_t *v;
	bool made;

	for (int probe = 0; probe < 64; probe++, key++) {
		const struct kmem_page_row *row;

		if ((v = u64map_insert(&st->page_map, key, &made)) == NULL)
			return (NONE);
		if (made) {
			if (kmem_grow((void **)&st->pages, &st->apages,
			    st->npages, sizeof(*st->pages)) != 0) {
				u64map_remove(&st->page_map, key);
				return (NONE);
			}
			st->pages[st->npages] = (struct kmem_page_row){
			    .order = order, .migratetype = migratetype,
			    .gfp_flags = gfp_flags, .gfp_names = gfp_names,
			    .callsite = callsite };
			*v = (uint32_t)st->npages++;
		}
		row = &st->pages[*v];
		if (row->order == order && row->migratetype == migratetype &&
		    row->gfp_flags == gfp_flags && row->callsite == callsite)
			return (*v);
		/* another row with this key */
	}
	return (NONE);
}

static int
page_alloc(struct kmem_stats *st, const struct kmem_event *ev,
    struct kt_error *e)
{
	struct kmem_totals *t = &st->totals;
	struct kmem_object *obj;
	const char *names;
	uint64_t pages;
	uint32_t *v, row;
	bool made;

	/* The order is the kernel's: anything past 63 is not a page count. */
	if (ev->order > 63 - (unsigned)st->page_shift)
		return (kt_fail(e, "%s: cpu%d: an mm_page_alloc event of "
		    "order %u", st->src->path, ev->cpu, ev->order));
	pages = 1ULL << ev->order;
	t->page_allocs++;
	/* A failed allocation's pfn is -1UL: all ones in a long. */
	if (ev->pfn == UINT64_MAX || (st->src->facts.long_size == 4 &&
	    ev->pfn == UINT32_MAX)) {
		t->page_alloc_fail++;
		return (0);
	}
	t->page_bytes_alloc += pages << st->page_shift;
	if ((names = gfp_names(st, ev)) == NULL ||
	    (row = kmem_page_row(st, ev->order, ev->migratetype, ev->gfp_flags,
	    names, 0)) == NONE)
		return (kt_fail(e, "out of memory"));
	st->pages[row].hits++;
	st->pages[row].pages += pages;
	if ((v = u64map_insert(&st->pfn_map, ev->pfn, &made)) == NULL)
		return (kt_fail(e, "out of memory"));
	/* The first half may hold the page: the join says. */
	if (made && st->second && defer_fresh(st, ev->pfn, true) != 0) {
		u64map_remove(&st->pfn_map, ev->pfn);
		return (kt_fail(e, "out of memory"));
	}
	if (made) {
		uint32_t i = kmem_new_object(st);

		if (i == NONE) {
			u64map_remove(&st->pfn_map, ev->pfn);
			return (kt_fail(e, "out of memory"));
		}
		*v = i;
	} else
		object_at(st, *v)->gen++;	/* allocated again: a new one */
	obj = object_at(st, *v);
	*obj = (struct kmem_object){ .ptr = ev->pfn, .ts = ev->ts,
	    .bytes_alloc = saturate(pages << st->page_shift),
	    .bytes_req = ev->order, .site = NONE, .cache = row,
	    .stack = KMEM_NO_STACK, .gen = obj->gen, .next_free = NONE,
	    .pid = ev->pid, .cpu = (uint16_t)ev->cpu,
	    .kind = KMEM_PAGE_ALLOC, .state = OBJ_LIVE,
	    .comm = comm_now(st, ev->pid) };
	st->made = *v;
	return (0);
}

/* A page's stack names its caller: its count moves to that row. */
static int
page_caller_known(struct kmem_stats *st, struct kmem_object *obj,
    const uint64_t *frames, size_t n)
{
	const struct kmem_page_row *from;
	uint64_t site;
	uint32_t to;

	/* libtraceevent names a frame in one place for every caller. */
	pthread_mutex_lock(&kmem_tep_lock);
	site = kmem_frames_page_caller(st->events.tep, frames, n);
	pthread_mutex_unlock(&kmem_tep_lock);
	if (site == 0)
		return (0);
	from = &st->pages[obj->cache];
	if ((to = kmem_page_row(st, from->order, from->migratetype,
	    from->gfp_flags, from->gfp_names, site)) == NONE)
		return (-1);
	st->pages[obj->cache].hits--;
	st->pages[obj->cache].pages -= 1ULL << obj->bytes_req;
	st->pages[to].hits++;
	st->pages[to].pages += 1ULL << obj->bytes_req;
	obj->cache = to;
	return (0);
}

/* The free ev of a page whose object is at v (NULL: none is known). */
void
kmem_page_free_of(struct kmem_stats *st, const uint32_t *v,
    const struct kmem_event *ev)
{
	struct kmem_totals *t = &st->totals;
	uint32_t i;

	if (v == NULL) {
		t->page_free_unknown++;
		t->page_bytes_free_unknown += (1ULL << ev->order) <<
		    st->page_shift;
		return;
	}
	i = *v;
	t->page_alloc_freed++;
	t->page_bytes_freed += (1ULL << object_at(st, i)->bytes_req) <<
	    st->page_shift;
	object_at(st, i)->state = OBJ_FREED;
	object_at(st, i)->next_free = st->free_object;
	st->free_object = i;
	u64map_remove(&st->pfn_map, ev->pfn);
}

static int
page_free(struct kmem_stats *st, const struct kmem_event *ev,
    struct kt_error *e)
{
	struct kmem_totals *t = &st->totals;
	uint32_t *v;

	t->page_frees++;
	/* The order is the kernel's: anything past 63 is not a page count. */
	if (ev->order > 63 - (unsigned)st->page_shift)
		return (kt_fail(e, "%s: cpu%d: an mm_page_free event of "
		    "order %u", st->src->path, ev->cpu, ev->order));
	t->page_bytes_free_all += (1ULL << ev->order) << st->page_shift;
	v = u64map_find(&st->pfn_map, ev->pfn);
	if (v == NULL && st->second)
		/* Its page, if any, is the first half's. */
		return (defer_free(st, ev) != 0 ?
		    kt_fail(e, "out of memory") : 0);
	kmem_page_free_of(st, v, ev);
	return (0);
}

/* An allocation whose stack is to come: on its CPU's pending stack. */
static void
await_stack(struct kmem_stats *st, int cpu)
{
	struct kmem_pending *p = &st->pending[(size_t)cpu * KMEM_PENDING];
	uint8_t *n = &st->npending[cpu];

	st->cpu_awaited[cpu] = true;
	/* A trace.dat's: only the record just before a stack can own it. */
	if (st->stack_adjacent)
		*n = 0;
	/* Full: the oldest's stack was lost; it goes. */
	if (*n == KMEM_PENDING) {
		memmove(p, p + 1, (KMEM_PENDING - 1) * sizeof(*p));
		(*n)--;
	}
	p[(*n)++] = (struct kmem_pending){ st->made,
	    st->made != NONE ? object_at(st, st->made)->gen : 0 };
	if (st->second && *n > st->deepest[cpu])
		st->deepest[cpu] = *n;
}

/*
 * frames, n of them, the stack of the allocation p waited for; a
 * second half notes where each of its stacks was first met.
 */
int
kmem_give_stack(struct kmem_stats *st, struct kmem_pending p,
    const uint64_t *frames, size_t n)
{
	struct kmem_object *obj = object_at(st, p.object);
	size_t had = st->stacks.nstacks;
	uint32_t id;

	if ((id = kmem_stacks_add(&st->stacks, frames, n)) == KMEM_NO_STACK ||
	    (obj->kind == KMEM_PAGE_ALLOC &&
	    page_caller_known(st, obj, frames, n) != 0))
		return (-1);
	if (st->second && st->stacks.nstacks > had) {
		if (kmem_grow((void **)&st->stack_seq, &st->astack_seq, had,
		    sizeof(*st->stack_seq)) != 0)
			return (-1);
		st->stack_seq[had] = st->seq;
	}
	object_at(st, p.object)->stack = id;
	return (0);
}

/* A stack record: the latest allocation waiting on its CPU gets it. */
static int
stack_record(struct kmem_stats *st, const struct kmem_event *ev,
    struct kt_error *e)
{
	const struct kt_loss *l = &st->src->loss[ev->cpu];
	uint64_t frames[KMEM_MAX_FRAMES];
	struct kmem_pending p;
	size_t n = ev->nframes;

	st->totals.stack_events++;
	/* The first half's last allocations on the CPU may be waiting. */
	if (st->second && st->npending[ev->cpu] == 0 &&
	    !st->cpu_lost[ev->cpu])
		return (defer_stack(st, ev) != 0 ?
		    kt_fail(e, "out of memory") : 0);
	/*
	 * An allocation in flight as tracing began: its event came before
	 * tracing_on, its stack after, the head of its CPU's stream.
	 */
	if (!st->cpu_awaited[ev->cpu]) {
		st->totals.stacks_early++;
		return (0);
	}
	if (st->npending[ev->cpu] == 0) {
		/* Its event was lost; else the recording lies. */
		if (st->stack_adjacent || st->cpu_lost[ev->cpu] ||
		    (l->dropped != KT_UNKNOWN &&
		    l->dropped > 0) || (l->overrun != KT_UNKNOWN &&
		    l->overrun > 0)) {
			st->totals.stacks_unmatched++;
			return (0);
		}
		return (kt_fail(e, "%s: cpu%d: a kernel stack at %llu with no "
		    "allocation before it", st->src->path, ev->cpu,
		    (unsigned long long)ev->ts));
	}
	p = st->pending[(size_t)ev->cpu * KMEM_PENDING +
	    --st->npending[ev->cpu]];
	if (st->stack_adjacent)
		st->npending[ev->cpu] = 0;
	if (p.object == NONE || object_at(st, p.object)->gen != p.gen ||
	    OBJ_STATE(object_at(st, p.object)) != OBJ_LIVE)
		return (0);	/* not kept (-p), or freed already */
	if (n > KMEM_MAX_FRAMES) {
		st->totals.stacks_cut++;
		n = KMEM_MAX_FRAMES;
	}
	kmem_events_frames(&st->events, ev, frames, n);
	return (kmem_give_stack(st, p, frames, n) != 0 ?
	    kt_fail(e, "out of memory") : 0);
}

static int
cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x < y ? -1 : x > y);
}

static int
one_event(struct kmem_stats *st, const struct kmem_event *ev,
    struct kt_error *e)
{
	struct kmem_totals *t = &st->totals;

	if (st->npids > 0 && bsearch(&ev->pid, st->pids, st->npids,
	    sizeof(*st->pids), cmp_int) == NULL)
		return (0);
	/*
	 * The recorder's copy of kallsyms ran while tracing was on: its
	 * allocations (its reads, its file's page cache) are not the
	 * command's.  Its frees stay: they may free what others allocated.
	 */
	if (st->src->facts.recorder_thread != 0 &&
	    ev->pid == st->src->facts.recorder_thread &&
	    (ev->kind == KMEM_KMALLOC || ev->kind == KMEM_CACHE_ALLOC ||
	    ev->kind == KMEM_PAGE_ALLOC)) {
		t->recorder_allocs++;
		return (0);
	}
	switch (ev->kind) {
	case KMEM_KMALLOC:
	case KMEM_CACHE_ALLOC:
		t->slab_events++;
		return (slab_alloc(st, ev, e));
	case KMEM_KFREE:
	case KMEM_CACHE_FREE:
		t->slab_events++;
		return (slab_free(st, ev, e));
	case KMEM_PAGE_ALLOC:
		t->page_events++;
		return (page_alloc(st, ev, e));
	case KMEM_PAGE_FREE:
		t->page_events++;
		return (page_free(st, ev, e));
	case KMEM_TASK_NEW:
	case KMEM_TASK_RENAME:
		t->task_events++;
		return (kmem_tasks_set(&st->tasks, ev->task_pid, ev->comm,
		    ev->comm_len) != 0 ? kt_fail(e, "out of memory") : 0);
	case KMEM_STACK:
		break;
	}
	return (0);
}

int
kmem_one_record(const struct kt_record *rec, void *arg)
{
	struct gather *g = arg;
	struct kmem_stats *st = g->st;
	struct kmem_totals *t = &st->totals;
	struct kmem_event ev;
	int rc;

	st->seq = t->events;
	if (t->events++ == 0)
		t->first_ts = rec->ts;
	t->last_ts = rec->ts;
	if (rec->after_loss && st->events.have_stacks) {
		/* What waited for a stack before the loss waits no more. */
		st->npending[rec->cpu] = 0;
		st->cpu_lost[rec->cpu] = true;
	}
	if (rec->after_loss)
		st->loss_ts = rec->ts;
	rc = kmem_events_decode(&st->events, rec, &ev);
	if (rc == -2)
		return (kt_fail(g->e, "%s: cpu%d: a kernel stack at %llu "
		    "counts more frames than its record holds", st->src->path,
		    rec->cpu, (unsigned long long)rec->ts));
	if (rc < 0)
		return (kt_fail(g->e, "%s: cpu%d: an event at %llu is shorter "
		    "than its format", st->src->path, rec->cpu,
		    (unsigned long long)rec->ts));
	if (rc > 0) {
		t->other_events++;
		st->made = NONE;
		if (st->stack_adjacent)
			await_stack(st, rec->cpu);
		return (0);
	}
	if (ev.kind == KMEM_STACK)
		return (stack_record(st, &ev, g->e));
	st->made = NONE;
	rc = one_event(st, &ev, g->e);
	if (rc == 0 && (st->stack_adjacent || st->stacked[ev.kind]))
		await_stack(st, rec->cpu);
	return (rc);
}

/* The kinds recorded with stacks, from the recording's "stacks:" line. */
static void
stacked_kinds(struct kmem_stats *st, const char *names)
{
	static const struct {
		const char	*name;
		enum kmem_kind	 kind;
	} kinds[] = {
		{ "kmalloc", KMEM_KMALLOC }, { "kmalloc_node", KMEM_KMALLOC },
		{ "kmem_cache_alloc", KMEM_CACHE_ALLOC },
		{ "kmem_cache_alloc_node", KMEM_CACHE_ALLOC },
		{ "mm_page_alloc", KMEM_PAGE_ALLOC },
	};
	char copy[sizeof(st->src->facts.stacks)], *w, *save;

	strlcpy(copy, names, sizeof(copy));
	for (w = strtok_r(copy, " ", &save); w != NULL;
	    w = strtok_r(NULL, " ", &save))
		for (size_t i = 0; i < sizeof(kinds) / sizeof(*kinds); i++)
			if (strcmp(w, kinds[i].name) == 0)
				st->stacked[kinds[i].kind] = true;
}

int
kmem_stats_init(struct kmem_stats *st, const struct kt_source *src,
    bool by_pointer, struct kt_error *e)
{
	int page = src->facts.page_size > 0 ? src->facts.page_size : 4096;

	memset(st, 0, sizeof(*st));
	st->src = src;
	st->by_pointer = by_pointer;
	st->free_object = NONE;
	/* The kernel's page: the recording's sub-buffer is one here. */
	for (st->page_shift = 0; (1 << st->page_shift) < page &&
	    st->page_shift < 30; st->page_shift++)
		;
	if (kmem_events_init(&st->events, src->tep, e) != 0)
		return (-1);
	if (kmem_stacks_init(&st->stacks) != 0 ||
	    kmem_tasks_init(&st->tasks) != 0)
		return (kt_fail(e, "out of memory"));
	for (size_t i = 0; i < src->ntasks; i++)
		if (kmem_tasks_set(&st->tasks, src->tasks[i].pid,
		    src->tasks[i].comm, strlen(src->tasks[i].comm)) != 0)
			return (kt_fail(e, "out of memory"));
	if (st->events.have_stacks) {
		/*
		 * A trace.dat says not which events have stacks (trace-cmd
		 * -T: all; a stacktrace trigger: some): a stack goes to the
		 * record just before it, or to none.
		 */
		stacked_kinds(st, src->facts.stacks);
		st->stack_adjacent = src->facts.stacks[0] == '\0';
		if ((st->pending = calloc((size_t)src->ncpus * KMEM_PENDING,
		    sizeof(*st->pending))) == NULL ||
		    (st->npending = calloc((size_t)src->ncpus, 1)) == NULL ||
		    (st->cpu_lost = calloc((size_t)src->ncpus, 1)) == NULL ||
		    (st->cpu_awaited = calloc((size_t)src->ncpus, 1)) == NULL)
			return (kt_fail(e, "out of memory"));
	}
	if (u64map_init(&st->site_map) != 0 || u64map_init(&st->ptr_map) != 0 ||
	    u64map_init(&st->cache_map) != 0 ||
	    u64map_init(&st->page_map) != 0 ||
	    u64map_init(&st->gfp_map) != 0 ||
	    u64map_init(&st->object_map) != 0 ||
	    u64map_init(&st->pfn_map) != 0 ||
	    u64map_init(&st->kmalloc_map) != 0)
		return (kt_fail(e, "out of memory"));
	return (0);
}

void
kmem_stats_free(struct kmem_stats *st)
{
	for (size_t i = 0; i < st->ncaches; i++)
		free((char *)st->caches[i].name);
	for (size_t i = 0; i < st->ngfp; i++)
		free(st->gfp_names[i]);
	free(st->gfp_names);
	free(st->sites);
	free(st->ptrs);
	free(st->caches);
	free(st->pages);
	for (size_t i = 0; i < st->nchunks; i++)
		huge_free(st->object_chunks[i], OBJECT_CHUNK *
		    sizeof(struct kmem_object));
	free(st->object_chunks);
	u64map_free(&st->site_map);
	u64map_free(&st->ptr_map);
	u64map_free(&st->cache_map);
	u64map_free(&st->page_map);
	u64map_free(&st->gfp_map);
	u64map_free(&st->object_map);
	u64map_free(&st->pfn_map);
	u64map_free(&st->kmalloc_map);
	huge_free(st->ring, st->ring_size * sizeof(*st->ring));
	kmem_stacks_free(&st->stacks);
	kmem_tasks_free(&st->tasks);
	free(st->pending);
	free(st->npending);
	free(st->cpu_lost);
	free(st->cpu_awaited);
	free(st->deferred);
	free(st->deferred_names);
	free(st->fresh);
	free(st->dstacks);
	free(st->dframes);
	free(st->deepest);
	free(st->deferred_on);
	free(st->stack_seq);
}

/*
 * Allocated earlier first; at the same time, the lower address: not the
 * slots' order, which hangs on what was freed before (and on whether a
 * recording was read in two halves).
 */
static int
cmp_live(const void *a, const void *b)
{
	const struct kmem_live *x = a, *y = b;

	if (x->ts != y->ts)
		return (x->ts < y->ts ? -1 : 1);
	return (x->ptr < y->ptr ? -1 : x->ptr > y->ptr);
}

struct kmem_live *
kmem_stats_live(const struct kmem_stats *st, bool pages, size_t *n)
{
	struct kmem_live *out;
	size_t k = 0;

	*n = 0;
	for (uint32_t i = 0; i < st->nobjects; i++)
		if (OBJ_STATE(object_at(st, i)) == OBJ_LIVE &&
		    (object_at(st, i)->kind == KMEM_PAGE_ALLOC) == pages)
			k++;
	if (k == 0)
		return (NULL);
	if ((out = calloc(k, sizeof(*out))) == NULL) {
		*n = SIZE_MAX;
		return (NULL);
	}
	for (uint32_t i = 0; i < st->nobjects; i++) {
		const struct kmem_object *o = object_at(st, i);

		if (OBJ_STATE(o) != OBJ_LIVE ||
		    (o->kind == KMEM_PAGE_ALLOC) != pages)
			continue;
		out[*n] = (struct kmem_live){ .ptr = o->ptr, .ts = o->ts,
		    .bytes_alloc = o->bytes_alloc,
		    .bytes_req = pages ? o->bytes_alloc : o->bytes_req,
		    .call_site = pages ? 0 : st->sites[o->site].key,
		    .cache = o->cache, .stack = o->stack, .comm = o->comm,
		    .pid = o->pid, .cpu = o->cpu,
		    .order = pages ? o->bytes_req : 0 };
		(*n)++;
	}
	qsort(out, *n, sizeof(*out), cmp_live);
	return (out);
}

bool
kmem_stats_stacks(const struct kmem_stats *st)
{
	return (st->src->formats_recorded ? st->events.have_stacks :
	    st->totals.stack_events > 0);
}

const char *
kmem_stats_comm(const struct kmem_stats *st, const struct kmem_live *l)
{
	const char *c;

	if (l->comm != KMEM_NO_COMM)
		return (kmem_tasks_comm(&st->tasks, l->comm));
	/* The kernel's table: the last command of the pid, if it kept it. */
	c = tep_data_comm_from_pid(st->src->tep, l->pid);
	return (c != NULL && strcmp(c, "<...>") != 0 ? c : NULL);
}
