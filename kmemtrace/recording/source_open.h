/*
 * source_open.h: a report's input opened as what its content says it is.
 */
#ifndef SOURCE_OPEN_H
#define SOURCE_OPEN_H

#include "source.h"

/* Opens path, a recording directory or a trace.dat. */
int	kt_source_open(struct kt_source *src, const char *path,
	    struct kt_error *e);

#endif /* !SOURCE_OPEN_H */
