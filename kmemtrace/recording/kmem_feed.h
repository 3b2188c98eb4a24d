/*
 * kmem_feed.h: a source's records, read, merged and decoded on a second
 * thread, handed to the caller's thread in batches, in the source's
 * order.  A report's matching of frees to allocations is one sequential
 * pass; reading, merging and decoding the records is the other half of
 * its work, and runs beside it.
 */
#ifndef KMEM_FEED_H
#define KMEM_FEED_H

#include <stddef.h>

#include "kmem_events.h"
#include "kt_error.h"
#include "source.h"

/* A record and its decoding; rec.data and ev's pointers: the batch's copy. */
struct kmem_fed {
	struct kt_record rec;
	struct kmem_event ev;
	int		 decoded;	/* kmem_events_decode()'s return */
};

/*
 * The batch fed[0..n), valid during the call: 0 to go on; non-zero stops
 * the feed and is returned.
 */
typedef int (*kmem_feed_fn)(const struct kmem_fed *fed, size_t n, void *arg);

/*
 * Every record of src, decoded by ev, to fn in batches; as
 * kt_source_each(): -1 with e set on bad data (after fn had every record
 * before it), or fn's non-zero return.
 */
int	kmem_feed(struct kt_source *src, const struct kmem_events *ev,
	    kmem_feed_fn fn, void *arg, struct kt_error *e);

#endif /* !KMEM_FEED_H */
