/*
 * report_outstanding.h: kmemtrace report --outstanding, Akaros's
 * slab_trace on Linux: the allocations not freed by the end of the
 * recording, with who made them and their kernel stacks (record -g),
 * grouped by stack (memleak's form, with what it leaves out), by call
 * site, by process, or one by one (slab_trace's form).  What a lost event
 * or an untraced free could explain is marked, never called a leak.
 */
#ifndef REPORT_OUTSTANDING_H
#define REPORT_OUTSTANDING_H

#include <stdbool.h>
#include <stdio.h>

#include <json-c/json.h>

#include "outstanding_set.h"

enum outstanding_by {
	BY_STACK,
	BY_CALLSITE,
	BY_PID,
	BY_OBJECT,
};

struct outstanding_options {
	enum outstanding_by by;
	bool		 pages;		/* pages, not slab objects */
	uint64_t	 older_ns;	/* only what is at least this old */
	const char *const *caches;	/* only these caches, or none */
	size_t		 ncaches;
	long		 limit;		/* groups (objects), or -1 */
	bool		 folded;	/* folded stacks, not the report */
};

/* "stack", ...: the --by value's enum; -1 if it is none. */
int	report_outstanding_by(const char *name);

struct outstanding_model;

/* The report, text or JSON; -1 when out of memory. */
int	report_outstanding_text(FILE *f, const struct outstanding_model *r);
/*
 * Folded stacks, as flame graph tools read them: a line per stack, its
 * frames outermost first and the cache (or page order) last in brackets,
 * then its bytes.
 */
int	report_outstanding_folded(FILE *f,
	    const struct outstanding_model *r);
int	report_outstanding_json(struct json_object *parent,
	    const struct outstanding_model *r);

#endif /* !REPORT_OUTSTANDING_H */
