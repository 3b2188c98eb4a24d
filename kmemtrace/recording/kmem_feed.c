/*
 * kmem_feed.c: the producer fills a batch (each record's bytes copied into
 * the batch's arena, then decoded there, so the event's pointers live as
 * long as the batch), the consumer takes batches in order.  A few batches
 * circulate: memory does not grow with the recording.  A side that waits
 * is woken when half the ring is ready for it, not at each batch: a
 * wake-up costs microseconds, and the two sides, about as fast, would
 * otherwise sleep and wake at every batch.
 *
 * A source that cannot be read beside its user (kt_source_apart()) is
 * fed on the caller's thread: each batch, when full, goes to fn at once.
 */
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "kmem_feed.h"

#define NBATCH		8
#define BATCH_RECORDS	1024
#define BATCH_ARENA	(128 * 1024)

struct batch {
	struct kmem_fed	*fed;
	size_t		 n;
	uint8_t		*arena;
	size_t		 used, cap;
};

struct feed {
	struct kt_source *src;
	const struct kmem_events *events;
	kmem_feed_fn	 fn;
	void		*arg;
	bool		 threaded;
	int		 fn_rc;		/* fn's, when on this thread */
	pthread_mutex_t	 lock;
	pthread_cond_t	 room, full;	/* the producer's wait, the consumer's */
	bool		 producer_waits, consumer_waits;
	struct batch	 b[NBATCH];
	/* Batches tail..head-1 are full; the producer fills b[head]. */
	size_t		 head, tail;
	bool		 stop;		/* the consumer wants no more */
	bool		 done;		/* the producer's last is published */
	int		 rc;		/* the producer's kt_source_each() */
	struct kt_error	 e;
};

static struct batch *
filling(struct feed *f)
{
	return (&f->b[f->head % NBATCH]);
}

/* The batch being filled goes to the consumer: 0, or -1 to stop. */
static int
publish(struct feed *f)
{
	int rc = 0;

	if (!f->threaded) {
		if ((f->fn_rc = f->fn(filling(f)->fed, filling(f)->n,
		    f->arg)) != 0)
			rc = -1;
	} else {
		pthread_mutex_lock(&f->lock);
		f->head++;
		if (f->consumer_waits && f->head - f->tail >= NBATCH / 2)
			pthread_cond_signal(&f->full);
		if (f->head - f->tail == NBATCH) {
			f->producer_waits = true;
			while (f->head - f->tail > NBATCH / 2 && !f->stop)
				pthread_cond_wait(&f->room, &f->lock);
			f->producer_waits = false;
		}
		if (f->stop)
			rc = -1;
		pthread_mutex_unlock(&f->lock);
	}
	filling(f)->n = 0;
	filling(f)->used = 0;
	return (rc);
}

static int
take(const struct kt_record *rec, void *arg)
{
	struct feed *f = arg;
	struct batch *b = filling(f);
	struct kmem_fed *fed;

	if ((b->n == BATCH_RECORDS || b->used + rec->size > b->cap) &&
	    b->n > 0) {
		if (publish(f) != 0)
			return (1);
		b = filling(f);
	}
	/* One record larger than an arena: room for it. */
	if (rec->size > b->cap) {
		uint8_t *p = realloc(b->arena, rec->size);

		if (p == NULL)
			return (kt_fail(&f->e, "out of memory"));
		b->arena = p;
		b->cap = rec->size;
	}
	fed = &b->fed[b->n++];
	fed->rec = *rec;
	fed->rec.data = memcpy(b->arena + b->used, rec->data, rec->size);
	b->used += rec->size;
	fed->decoded = kmem_events_decode(f->events, &fed->rec, &fed->ev);
	return (0);
}

/* The producer: every record, then the last batch, maybe empty. */
static void *
produce(void *arg)
{
	struct feed *f = arg;
	int rc = kt_source_each(f->src, take, f, &f->e);

	if (!f->threaded) {
		f->rc = rc;
		if (rc == 0 && filling(f)->n > 0)
			(void)publish(f);
		return (NULL);
	}
	pthread_mutex_lock(&f->lock);
	f->rc = rc;
	f->head++;
	f->done = true;
	pthread_cond_signal(&f->full);
	pthread_mutex_unlock(&f->lock);
	return (NULL);
}

/* The consumer: batches in order until the last, or fn stops. */
static int
consume(struct feed *f)
{
	int rc = 0;

	for (;;) {
		struct batch *b;

		pthread_mutex_lock(&f->lock);
		if (f->tail == f->head) {
			f->consumer_waits = true;
			while (f->head - f->tail < NBATCH / 2 && !f->done)
				pthread_cond_wait(&f->full, &f->lock);
			f->consumer_waits = false;
		}
		b = &f->b[f->tail % NBATCH];
		pthread_mutex_unlock(&f->lock);

		if (b->n > 0)
			rc = f->fn(b->fed, b->n, f->arg);

		pthread_mutex_lock(&f->lock);
		f->tail++;
		if (rc != 0)
			f->stop = true;
		if (f->producer_waits && (f->head - f->tail <= NBATCH / 2 ||
		    f->stop))
			pthread_cond_signal(&f->room);
		if (rc != 0 || (f->done && f->tail == f->head)) {
			pthread_mutex_unlock(&f->lock);
			return (rc);
		}
		pthread_mutex_unlock(&f->lock);
	}
}

static void
feed_unsync(struct feed *f)
{
	if (f->threaded) {
		pthread_mutex_destroy(&f->lock);
		pthread_cond_destroy(&f->room);
		pthread_cond_destroy(&f->full);
		f->threaded = false;
	}
}

static void
feed_free(struct feed *f)
{
	for (int i = 0; i < NBATCH; i++) {
		free(f->b[i].fed);
		free(f->b[i].arena);
	}
	feed_unsync(f);
}

int
kmem_feed(struct kt_source *src, const struct kmem_events *events,
    kmem_feed_fn fn, void *arg, struct kt_error *e)
{
	struct feed f = { .src = src, .events = events, .fn = fn,
	    .arg = arg, .threaded = kt_source_apart(src) };
	pthread_t thread;
	sigset_t all, old;
	int rc;

	for (int i = 0; i < NBATCH; i++) {
		f.b[i].cap = BATCH_ARENA;
		if ((f.b[i].fed = malloc(BATCH_RECORDS *
		    sizeof(*f.b[i].fed))) == NULL ||
		    (f.b[i].arena = malloc(BATCH_ARENA)) == NULL) {
			f.threaded = false;	/* nothing made yet */
			feed_free(&f);
			return (kt_fail(e, "out of memory"));
		}
	}
	/* Where no thread can be made, the feed runs here. */
	if (f.threaded) {
		pthread_mutex_init(&f.lock, NULL);
		pthread_cond_init(&f.room, NULL);
		pthread_cond_init(&f.full, NULL);
		/* Signals are the caller's thread's to take. */
		sigfillset(&all);
		pthread_sigmask(SIG_SETMASK, &all, &old);
		if (pthread_create(&thread, NULL, produce, &f) != 0)
			feed_unsync(&f);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
	if (f.threaded) {
		rc = consume(&f);
		pthread_join(thread, NULL);
	} else {
		produce(&f);
		rc = f.fn_rc;
	}
	if (rc == 0 && f.rc != 0) {
		rc = f.rc;
		if (rc < 0)
			*e = f.e;
	}
	feed_free(&f);
	return (rc);
}
