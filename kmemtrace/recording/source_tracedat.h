/*
 * source_tracedat.h: trace-cmd's trace.dat as a source.
 */
#ifndef SOURCE_TRACEDAT_H
#define SOURCE_TRACEDAT_H

#include "source.h"

int	kt_tracedat_open(struct kt_source *src, const char *path,
	    struct kt_error *e);

#endif /* !SOURCE_TRACEDAT_H */
