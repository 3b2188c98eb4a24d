/*
 * source.c: what every source does, through its backend's operations.
 */
#include <stdlib.h>
#include <string.h>

#include "cpu_streams.h"
#include "source.h"

int
kt_source_each(struct kt_source *src, kt_record_fn fn, void *arg,
    struct kt_error *e)
{
	return (src->ops->each(src, fn, arg, e));
}

void
kt_source_close(struct kt_source *src)
{
	if (src->ops != NULL)
		src->ops->close(src);
	if (src->tep != NULL)
		tep_free(src->tep);
	free(src->loss);
	free(src->facts.cpu_node);
	free(src->tasks);
	memset(src, 0, sizeof(*src));
}

int
kt_source_halve(struct kt_source *src, uint64_t at, struct kt_halves **h,
    struct kt_error *e)
{
	*h = NULL;
	return (src->ops->halve != NULL ? src->ops->halve(src, at, h, e) :
	    1);
}

int
kt_halves_each(struct kt_halves *h, int half, kt_record_fn fn, void *arg,
    struct kt_error *e)
{
	return (cpu_streams_each(&h->half[half], fn, arg, e));
}

int
kt_halves_join(struct kt_source *src, struct kt_halves *h, bool *met,
    struct kt_error *e)
{
	*met = cpu_streams_halves_met(&h->half[0], &h->half[1]);
	for (int cpu = 0; *met && cpu < src->ncpus; cpu++)
		for (int i = 0; i < 2; i++) {
			const struct kt_loss *l = &h->half[i].loss[cpu];

			src->loss[cpu].missed_pages += l->missed_pages;
			src->loss[cpu].missed_events += l->missed_events;
			src->loss[cpu].missed_uncounted |= l->missed_uncounted;
		}
	return (src->ops->join(src, e));
}

void
kt_halves_free(struct kt_halves *h)
{
	if (h == NULL)
		return;
	cpu_streams_free(&h->half[0]);
	cpu_streams_free(&h->half[1]);
	free(h);
}
