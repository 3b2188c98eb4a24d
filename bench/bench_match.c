/*
 * bench_match: what matching each free to its allocation costs alone, the
 * work under any report that counts frees by their allocation's site
 * (kmemtrace report, perf kmem stat).  A recording's slab allocations and
 * frees, read and decoded beforehand, are replayed through the report's
 * own object map (u64map): an allocation inserts its pointer with its
 * site, a free finds it and removes it.  Nothing else is counted, so the
 * report's time beyond this is its reading, decoding and bookkeeping.
 * Those two are timed alone too: the recording opened and read through by
 * the report's own reader (its pages checked, its CPUs merged, kallsyms
 * loaded beside), once with each record left undecoded, once decoded.
 *
 *	bench_match RECORDING ROUNDS
 *
 * Prints the median of ROUNDS in seconds, the first round in seconds
 * (its map's memory fresh, as a report's is), the events replayed, then
 * the reading alone and the reading and decoding (medians of ROUNDS).
 */
#include <err.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

#include "recording/kmem_events.h"
#include "recording/source_open.h"
#include "report/u64map.h"

#define MAX_ROUNDS	101

/* One allocation (its site) or free, as the replay needs it. */
struct op {
	uint64_t	 ptr;
	uint32_t	 site;		/* 0: a free */
};

struct ops {
	struct kmem_events events;
	struct u64map	 sites;		/* call site to a small number */
	struct op	*op;
	size_t		 n, alloc;
	bool		 failed;
};

/* Where the replays' sum goes, so that no compiler drops their work. */
static volatile uint64_t sink;

static int
one_record(const struct kt_record *rec, void *arg)
{
	struct ops *o = arg;
	struct kmem_event ev;
	uint32_t *site;
	bool made, alloc;

	if (kmem_events_decode(&o->events, rec, &ev) != 0 || ev.ptr == 0)
		return (0);
	alloc = ev.kind == KMEM_KMALLOC || ev.kind == KMEM_CACHE_ALLOC;
	if (!alloc && ev.kind != KMEM_KFREE && ev.kind != KMEM_CACHE_FREE)
		return (0);
	if (o->n == o->alloc) {
		size_t n = o->alloc == 0 ? (size_t)1 << 20 : o->alloc * 2;
		struct op *op = reallocarray(o->op, n, sizeof(*op));

		if (op == NULL)
			return (o->failed = true);
		o->op = op;
		o->alloc = n;
	}
	o->op[o->n] = (struct op){ ev.ptr, 0 };
	if (alloc) {
		if ((site = u64map_insert(&o->sites, ev.call_site,
		    &made)) == NULL)
			return (o->failed = true);
		if (made)
			*site = (uint32_t)o->sites.count;
		o->op[o->n].site = *site;
	}
	o->n++;
	return (0);
}

/* What a pass folds, so that no compiler drops the reading. */
static uint64_t folded;

static int
undecoded(const struct kt_record *rec, void *arg)
{
	(void)arg;
	folded += rec->size;
	return (0);
}

static int
decoded(const struct kt_record *rec, void *arg)
{
	const struct kmem_events *events = arg;
	struct kmem_event ev;

	if (kmem_events_decode(events, rec, &ev) == 0)
		folded += ev.ptr ^ ev.call_site;
	return (0);
}

/* The recording read through by the report's reader; milliseconds. */
static double
read_through(const char *path, bool decode)
{
	struct kt_source src;
	struct kmem_events events;
	struct kt_error e;
	double start = now_ms();

	if (kt_source_open(&src, path, &e) != 0 ||
	    kmem_events_init(&events, src.tep, &e) != 0 ||
	    kt_source_each(&src, decode ? decoded : undecoded, &events,
	    &e) != 0)
		errx(1, "%s", e.msg);
	kt_source_close(&src);
	return (now_ms() - start);
}

/* The ops through a new map, as a report would meet them; milliseconds. */
static double
replay(const struct ops *o)
{
	struct u64map map;
	uint64_t sum = 0;
	uint32_t *v;
	double start = now_ms();
	bool made;

	if (u64map_init(&map) != 0)
		err(1, "u64map_init");
	for (size_t k = 0; k < o->n; k++) {
		const struct op *op = &o->op[k];

		if (op->site != 0) {
			if ((v = u64map_insert(&map, op->ptr, &made)) == NULL)
				err(1, "u64map_insert");
			*v = op->site;
		} else if ((v = u64map_find(&map, op->ptr)) != NULL) {
			sum += *v;
			u64map_remove(&map, op->ptr);
		}
	}
	u64map_free(&map);
	sink = sum;
	return (now_ms() - start);
}

int
main(int argc, char *argv[])
{
	struct kt_source src;
	struct kt_error e;
	struct ops o = { 0 };
	double ms[MAX_ROUNDS], first, matching, reading, decoding;
	int rounds;

	if (argc != 3 || (rounds = atoi(argv[2])) < 1 || rounds > MAX_ROUNDS)
		errx(1, "usage: bench_match RECORDING ROUNDS (1-%d)",
		    MAX_ROUNDS);
	if (u64map_init(&o.sites) != 0)
		err(1, "u64map_init");
	if (kt_source_open(&src, argv[1], &e) != 0 ||
	    kmem_events_init(&o.events, src.tep, &e) != 0 ||
	    kt_source_each(&src, one_record, &o, &e) != 0)
		errx(1, "%s", o.failed ? "out of memory" : e.msg);
	kt_source_close(&src);
	if (o.n == 0)
		errx(1, "%s: no slab allocations or frees", argv[1]);
	/*
	 * Read once before any round: here (a guest whose page tables the
	 * hypervisor shadows) the first read of a page after mremap(2)
	 * moved it costs microseconds, and the array grew by moves.
	 */
	for (size_t k = 0; k < o.n; k++)
		sink += o.op[k].ptr;
	for (int r = 0; r < rounds; r++)
		ms[r] = replay(&o);
	first = ms[0];
	matching = median(ms, rounds);
	for (int r = 0; r < rounds; r++)
		ms[r] = read_through(argv[1], false);
	reading = median(ms, rounds);
	for (int r = 0; r < rounds; r++)
		ms[r] = read_through(argv[1], true);
	decoding = median(ms, rounds);
	sink = folded;
	printf("%.3f %.3f %zu %.3f %.3f\n", matching / 1e3, first / 1e3, o.n,
	    reading / 1e3, decoding / 1e3);
	u64map_free(&o.sites);
	free(o.op);
	return (0);
}
