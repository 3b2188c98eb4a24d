/*
 * report_dump.h: kmemtrace report --outstanding -M CORE [-N SYSTEM]: a core
 * image's allocated slab objects, with their owners where the kernel kept
 * them, in the outstanding report's forms.
 */
#ifndef REPORT_DUMP_H
#define REPORT_DUMP_H

#include "report_outstanding.h"
#include "tool_options.h"

/* The report on stdout, whole; errors end the program (one line). */
void	report_dump(const char *core, const char *system,
	    enum tool_style style, struct outstanding_options *o,
	    const int *pids, size_t npids);

#endif /* !REPORT_DUMP_H */
