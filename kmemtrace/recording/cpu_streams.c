/*
 * cpu_streams.c: the per-CPU page files, a batch of pages at a time,
 * merged by time; and cut in two at a time for two readers.
 *
 * The cut: a time T (half of all CPUs' pages are earlier), and in each
 * file the first record at or after T, found by a binary search on the
 * pages' header times and a walk of one page.  The first half reads each
 * file up to that record, the second from it.  The pages' times are data
 * from a file: nothing here trusts them to be in order.  Each half notes
 * whether a stream's time went back (a page's, an absolute time stamp's)
 * or its first or last record lay on the other side of T; only if none
 * did were the halves, one after the other, the whole in its order (all
 * of the first's records before all of the second's).  Checked per page
 * and at the ends, not per record.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu_streams.h"
#include "pages_present.h"

#define BATCH_BYTES	(256 * 1024)		/* per CPU at most */
#define BATCHES_BYTES	(32 * 1024 * 1024)	/* all CPUs' at most */
#define SAMPLES		256			/* page times, for the cut */

int
cpu_streams_batches(struct cpu_streams *w, struct kt_error *e)
{
	size_t page = w->format->page_size, pages;

	pages = BATCHES_BYTES / page / (size_t)(w->ncpus > 0 ? w->ncpus : 1);
	if (pages > BATCH_BYTES / page)
		pages = BATCH_BYTES / page;
	if (pages == 0)
		pages = 1;
	for (int cpu = 0; cpu < w->ncpus; cpu++) {
		struct cpu_stream *s = &w->cpus[cpu];

		s->batch_pages = pages;
		if ((s->batch = malloc(pages * page)) == NULL)
			return (kt_fail(e, "out of memory"));
		pages_present(s->batch, pages * page);
		s->batch_at = pages;	/* empty */
	}
	return (0);
}

/* The next page of s into its batch, checked, not yet counted. */
static int
load_page(struct cpu_streams *w, struct cpu_stream *s,
    struct page_info *info, struct kt_error *e)
{
	size_t page = w->format->page_size;
	const char *why;
	uint8_t *p;

	if (s->page >= s->npages)
		return (1);
	if (s->batch_at == s->batch_pages) {
		uint64_t left = s->npages - s->page;
		size_t want = (left < s->batch_pages ? (size_t)left :
		    s->batch_pages) * page, have = 0;
		off_t at = (off_t)(s->page * page);

		while (have < want) {
			ssize_t n = pread(s->fd, s->batch + have, want - have,
			    at + (off_t)have);

			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				return (kt_fail(e, "%s/cpu%d.raw: %s", w->path,
				    s->cpu, n < 0 ? strerror(errno) :
				    "changed while it was read"));
			have += (size_t)n;
		}
		/* Place the batch so its last page is at batch_pages - 1. */
		s->batch_at = s->batch_pages - want / page;
		if (s->batch_at != 0)
			memmove(s->batch + s->batch_at * page, s->batch, want);
	}
	p = s->batch + s->batch_at * page;
	if (page_check(w->format, p, info, &why) != 0)
		return (kt_fail(e, "%s/cpu%d.raw: page %llu: %s", w->path,
		    s->cpu, (unsigned long long)s->page, why));
	/* A half's last page: its records up to the other half's first. */
	if (s->page == s->npages - 1 && info->commit > s->last_commit)
		info->commit = s->last_commit;
	s->after_loss = info->missed;
	s->batch_at++;
	s->page++;
	/* A page before its stream's last record: time went back. */
	s->walk.odd_time |= info->timestamp < s->ts;
	page_walk_begin(&s->walk, w->format, p, info);
	return (0);
}

static void
count_missed(struct kt_loss *l, const struct page_info *info)
{
	if (!info->missed)
		return;
	l->missed_pages++;
	if (info->missed_stored)
		l->missed_events += info->missed_count;
	else
		l->missed_uncounted = true;
}

int
cpu_stream_next_page(struct cpu_streams *w, struct cpu_stream *s,
    struct kt_error *e)
{
	struct page_info info;
	int rc;

	if ((rc = load_page(w, s, &info, e)) == 0)
		count_missed(&w->loss[s->cpu], &info);
	return (rc);
}

/* s's next record, across pages; s->have false at its end. */
static int
advance(struct cpu_streams *w, struct cpu_stream *s, struct kt_error *e)
{
	int rc;

	while (!page_walk_next(&s->walk, &s->data, &s->size, &s->ts))
		if ((rc = cpu_stream_next_page(w, s, e)) != 0) {
			s->have = false;
			return (rc < 0 ? -1 : 0);
		}
	s->have = true;
	return (0);
}

/* The heap's order: time, then CPU (as libtracecmd merges). */
static bool
before(const struct cpu_stream *a, const struct cpu_stream *b)
{
	return (a->ts < b->ts || (a->ts == b->ts && a->cpu < b->cpu));
}

static void
sift_down(struct cpu_streams *w, int i)
{
	for (;;) {
		int l = 2 * i + 1, m = i;

		if (l < w->nheap && before(w->heap[l], w->heap[m]))
			m = l;
		if (l + 1 < w->nheap && before(w->heap[l + 1], w->heap[m]))
			m = l + 1;
		if (m == i)
			return;
		struct cpu_stream *t = w->heap[i];
		w->heap[i] = w->heap[m];
		w->heap[m] = t;
		i = m;
	}
}

/* The stream due after the heap's top: one of its children; or none. */
static const struct cpu_stream *
runner_up(const struct cpu_streams *w)
{
	if (w->nheap < 2)
		return (NULL);
	if (w->nheap == 2 || before(w->heap[1], w->heap[2]))
		return (w->heap[1]);
	return (w->heap[2]);
}

int
cpu_streams_each(struct cpu_streams *w, kt_record_fn fn, void *arg,
    struct kt_error *e)
{
	struct kt_record rec;
	int rc;

	w->nheap = 0;
	for (int cpu = 0; cpu < w->ncpus; cpu++) {
		/* A second half's stream starts on its first record. */
		if (!w->cpus[cpu].have && advance(w, &w->cpus[cpu], e) != 0)
			return (-1);
		if (w->cpus[cpu].have)
			w->heap[w->nheap++] = &w->cpus[cpu];
		w->outside |= w->cpus[cpu].have && w->cpus[cpu].ts < w->from;
	}
	for (int i = w->nheap / 2 - 1; i >= 0; i--)
		sift_down(w, i);
	while (w->nheap > 0) {
		struct cpu_stream *s = w->heap[0];
		const struct cpu_stream *next = runner_up(w);

		/*
		 * s's records up to the next stream's: a CPU's events come
		 * in runs, and a sift for each of them cost more than the
		 * walk of its record.
		 */
		do {
			rec = (struct kt_record){ .cpu = s->cpu, .ts = s->ts,
			    .data = s->data, .size = s->size,
			    .after_loss = s->after_loss };
			s->after_loss = false;
			if ((rc = fn(&rec, arg)) != 0)
				return (rc);
			/* The page's next record here; the next page there. */
			if (!page_walk_next(&s->walk, &s->data, &s->size,
			    &s->ts) && advance(w, s, e) != 0)
				return (-1);
		} while (s->have && (next == NULL || before(s, next)));
		if (!s->have)
			w->heap[0] = w->heap[--w->nheap];
		sift_down(w, 0);
	}
	/*
	 * Each stream's times in order, its first at from or later, its
	 * last before to: so were all its records.
	 */
	for (int cpu = 0; cpu < w->ncpus; cpu++)
		w->outside |= w->cpus[cpu].walk.odd_time ||
		    w->cpus[cpu].ts >= w->to;
	return (0);
}

void
cpu_streams_free(struct cpu_streams *w)
{
	for (int cpu = 0; w->cpus != NULL && !w->borrowed && cpu < w->ncpus;
	    cpu++)
		free(w->cpus[cpu].batch);
	free(w->cpus);
	free(w->heap);
	free(w->loss);
	w->cpus = NULL;
	w->heap = NULL;
	w->loss = NULL;
}

/* The header time of page i of s (the file's byte order): 0, or -1. */
static int
page_time(const struct cpu_streams *w, const struct cpu_stream *s,
    uint64_t i, uint64_t *ts)
{
	uint8_t b[8];

	if (pread(s->fd, b, 8, (off_t)(i * w->format->page_size)) != 8)
		return (-1);
	*ts = 0;
	for (int k = 0; k < 8; k++)
		*ts |= (uint64_t)b[w->format->big_endian ? k : 7 - k] <<
		    (8 * (7 - k));
	return (0);
}

struct sample {
	uint64_t	 ts, pages;	/* a page's time; the pages it stands for */
};

static int
by_time(const void *a, const void *b)
{
	const struct sample *x = a, *y = b;

	return (x->ts < y->ts ? -1 : x->ts > y->ts);
}

/*
 * The time that halves the pages of all CPUs: each file's page times
 * sampled (at most SAMPLES in all, each CPU's evenly), each standing for
 * the pages to the next; the time where they pass half.  CPUs' files
 * differ in how their pages spread over time (a CPU busy late, one busy
 * early): the middle of one file can leave two thirds to one half.
 */
static int
middle_time(const struct cpu_streams *w, uint64_t *t)
{
	struct sample *v;
	uint64_t total = 0, sum = 0;
	size_t n = 0, per = SAMPLES / (size_t)(w->ncpus > 0 ? w->ncpus : 1);
	int rc = 1;

	if (per == 0)
		per = 1;
	if ((v = calloc((size_t)w->ncpus * per, sizeof(*v))) == NULL)
		return (-1);
	for (int cpu = 0; cpu < w->ncpus; cpu++) {
		const struct cpu_stream *s = &w->cpus[cpu];
		uint64_t step = s->npages / per + 1;

		for (uint64_t p = 0; p < s->npages; p += step) {
			if (page_time(w, s, p, &v[n].ts) != 0)
				goto out;
			v[n++].pages = p + step < s->npages ? step :
			    s->npages - p;
		}
		total += s->npages;
	}
	if (total < 2)
		goto out;
	qsort(v, n, sizeof(*v), by_time);
	for (size_t i = 0; i < n; i++)
		if ((sum += v[i].pages) >= total / 2) {
			*t = v[i].ts;
			rc = *t != 0 ? 0 : 1;
			break;
		}
out:
	free(v);
	return (rc);
}

/* Streams like whole's, each at its file's start, with no batch. */
static int
streams_like(const struct cpu_streams *whole, struct cpu_streams *w,
    struct kt_error *e)
{
	*w = (struct cpu_streams){ .path = whole->path,
	    .format = whole->format, .ncpus = whole->ncpus };
	if ((w->cpus = calloc((size_t)w->ncpus, sizeof(*w->cpus))) == NULL ||
	    (w->heap = calloc((size_t)w->ncpus, sizeof(*w->heap))) == NULL ||
	    (w->loss = calloc((size_t)w->ncpus, sizeof(*w->loss))) == NULL)
		return (kt_fail(e, "out of memory"));
	for (int cpu = 0; cpu < w->ncpus; cpu++)
		w->cpus[cpu] = (struct cpu_stream){ .cpu = cpu,
		    .fd = whole->cpus[cpu].fd,
		    .npages = whole->cpus[cpu].npages,
		    .last_commit = SIZE_MAX };
	return (0);
}

/*
 * In s (second's), the first record at or after t: s starts on it, and
 * first's stream f ends just before it.  Found by the last page whose
 * header time is before t (if the times are in order, the record is on
 * it or starts the next).  1: the times would not tell (read it whole).
 */
static int
cut_stream(struct cpu_streams *second, struct cpu_stream *s,
    struct cpu_stream *f, uint64_t t, struct kt_error *e)
{
	struct page_info info;
	uint64_t lo = 0, hi = s->npages, ts;
	size_t off;
	int rc;

	/* The first page whose header time is t or later: lo. */
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (page_time(second, s, mid, &ts) != 0)
			return (1);
		if (ts < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0) {
		f->npages = 0;		/* all of it is second's */
		return (0);
	}
	s->page = lo - 1;
	if ((rc = load_page(second, s, &info, e)) != 0)
		return (rc < 0 ? -1 : 1);
	for (;;) {
		off = s->walk.off;
		if (!page_walk_next(&s->walk, &s->data, &s->size, &s->ts)) {
			/* None on this page: second starts on the next. */
			f->npages = lo;
			s->have = false;
			return (0);
		}
		if (s->ts >= t)
			break;
	}
	s->have = true;
	if (off == 0) {
		/* The page's first record: the page and its loss second's. */
		count_missed(&second->loss[s->cpu], &info);
		f->npages = lo - 1;
	} else {
		s->after_loss = false;
		f->npages = lo;
		f->last_commit = off;
	}
	return (0);
}

int
cpu_streams_halve(const struct cpu_streams *whole, uint64_t at,
    struct cpu_streams *first, struct cpu_streams *second,
    struct kt_error *e)
{
	uint64_t t = at;
	int rc = 1;

	if (t == 0 && (rc = middle_time(whole, &t)) != 0)
		return (rc < 0 ? kt_fail(e, "out of memory") : 1);
	if (streams_like(whole, first, e) != 0 ||
	    streams_like(whole, second, e) != 0 ||
	    cpu_streams_batches(second, e) != 0) {
		rc = -1;
		goto fail;
	}
	for (int cpu = 0; cpu < whole->ncpus; cpu++)
		if ((rc = cut_stream(second, &second->cpus[cpu],
		    &first->cpus[cpu], t, e)) != 0)
			goto fail;
	/* The first reads where the whole would have: its batches. */
	first->borrowed = true;
	for (int cpu = 0; cpu < whole->ncpus; cpu++) {
		first->cpus[cpu].batch = whole->cpus[cpu].batch;
		first->cpus[cpu].batch_pages = whole->cpus[cpu].batch_pages;
		first->cpus[cpu].batch_at = whole->cpus[cpu].batch_pages;
	}
	first->from = 0;
	first->to = t;
	second->from = t;
	second->to = UINT64_MAX;
	return (0);
fail:
	cpu_streams_free(first);
	cpu_streams_free(second);
	return (rc);
}

bool
cpu_streams_halves_met(const struct cpu_streams *first,
    const struct cpu_streams *second)
{
	return (!first->outside && !second->outside);
}
