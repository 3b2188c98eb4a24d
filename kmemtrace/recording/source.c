/*
 * source.c: what every source does, through its backend's operations.
 */
#include <stdlib.h>
#include <string.h>

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
