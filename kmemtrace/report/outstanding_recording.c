/*
 * outstanding_recording.c: a recording's live allocations as the
 * outstanding report reads them.
 */
#include <stdlib.h>

#include "kmem_frames.h"
#include "outstanding_set.h"

static const uint64_t *
recording_frames(const struct outstanding_set *set, uint32_t id, size_t *n)
{
	const struct kmem_stats *st = set->arg;
	const uint64_t *f;

	if (id == KMEM_NO_STACK) {
		*n = 0;
		return (NULL);
	}
	f = kmem_stacks_get(&st->stacks, id, n);
	return (kmem_frames_past_tracing(st->events.tep, f, n));
}

static const char *
recording_comm(const struct outstanding_set *set, const struct kmem_live *l)
{
	return (kmem_stats_comm(set->arg, l));
}

/* Lost events are placed in time only if the ring said where. */
static bool
loss_unplaced(const struct kt_source *src)
{
	for (int c = 0; c < src->ncpus; c++) {
		const struct kt_loss *l = &src->loss[c];

		/* Pages flagged "missed" place an overrun; drops are not. */
		if ((l->dropped != KT_UNKNOWN && l->dropped > 0) ||
		    (l->commit_overrun != KT_UNKNOWN &&
		    l->commit_overrun > 0) ||
		    (l->overrun != KT_UNKNOWN && l->overrun > 0 &&
		    l->missed_pages == 0))
			return (true);
	}
	return (false);
}

int
outstanding_from_recording(struct outstanding_set *set,
    const struct kmem_stats *st, bool pages)
{
	*set = (struct outstanding_set){ .end = st->totals.last_ts,
	    .tep = st->events.tep, .caches = st->caches,
	    .ncaches = st->ncaches, .stacks = kmem_stats_stacks(st),
	    .no_stacks = "no stacks were recorded (kmemtrace record -g)",
	    .loss_unplaced = loss_unplaced(st->src), .loss_ts = st->loss_ts,
	    .frames = recording_frames, .comm = recording_comm, .arg = st };
	set->live = kmem_stats_live(st, pages, &set->nlive);
	if (set->nlive == SIZE_MAX)
		return (-1);
	/* A page's call site: the first frame outside the page allocator. */
	for (size_t i = 0; pages && i < set->nlive; i++) {
		struct kmem_live *l = &set->live[i];
		const uint64_t *f;
		size_t n;

		if (l->stack == KMEM_NO_STACK)
			continue;
		f = kmem_stacks_get(&st->stacks, l->stack, &n);
		l->call_site = kmem_frames_page_caller(st->events.tep, f, n);
	}
	return (0);
}

void
outstanding_set_free(struct outstanding_set *set)
{
	free(set->live);
	set->live = NULL;
	set->nlive = 0;
}
