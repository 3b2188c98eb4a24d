/*
 * frag_report.h: one look at the free lists, as text or JSON.  The
 * kernel's indices print as its debugfs files do (extfrag/unusable_index
 * and extfrag_index), the block counts as /proc/buddyinfo and, per
 * migrate type, /proc/pagetypeinfo: diff(1) against them passes.
 */
#ifndef FRAG_REPORT_H
#define FRAG_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include <json-c/json.h>

#include "memstat.h"

enum frag_index {
	INDEX_FMFI,
	INDEX_UNUSABLE,
	INDEX_EXTFRAG,
};

struct frag_view {
	enum frag_index	 index;
	bool		 blocks;	/* -b: the counts, not an index */
	bool		 types;		/* -t: per migrate type (list, pool) */
};

/* "fmfi", "unusable", "extfrag" -> the index; -1 if none. */
int	frag_index_parse(const char *name);
const char *frag_index_name(enum frag_index index);
/* Zone z's index at order o. */
int64_t	frag_index_value(const struct memstat_frag *frag, size_t z, int o,
	    enum frag_index index);

void	frag_report_text(FILE *f, const struct memstat_frag *frag,
	    const struct frag_view *v);
/* The report as an object: zones, their orders, indices and types. */
struct json_object *frag_report_json(const struct memstat_frag *frag,
	    const struct frag_view *v);

#endif /* !FRAG_REPORT_H */
