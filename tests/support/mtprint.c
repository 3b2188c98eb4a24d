/*
 * mtprint.c: print every accessor of an entry, so that tests can compare
 * whole lists as text (mtdump's output, the .expect files).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "memstat.h"
#include "mtprint.h"

/* Highest CPU index to probe: past any stream the fixtures hold. */
#define PROBE_CPUS	1100

void
mt_print(FILE *f, const struct memory_type *mtp)
{
	int cpu;

	fprintf(f, "%s \"%s\"\n", memstat_get_allocator(mtp) == ALLOCATOR_UMA ?
	    "uma" : "malloc", memstat_get_name(mtp));
	fprintf(f, "  size=%" PRIu64 " rsize=%" PRIu64 " countlimit=%" PRIu64
	    " byteslimit=%" PRIu64 " sizemask=%#" PRIx64 "\n",
	    memstat_get_size(mtp), memstat_get_rsize(mtp),
	    memstat_get_countlimit(mtp), memstat_get_byteslimit(mtp),
	    memstat_get_sizemask(mtp));
	fprintf(f, "  numallocs=%" PRIu64 " numfrees=%" PRIu64 " count=%" PRIu64
	    " memalloced=%" PRIu64 " memfreed=%" PRIu64 " bytes=%" PRIu64 "\n",
	    memstat_get_numallocs(mtp), memstat_get_numfrees(mtp),
	    memstat_get_count(mtp), memstat_get_memalloced(mtp),
	    memstat_get_memfreed(mtp), memstat_get_bytes(mtp));
	fprintf(f, "  free=%" PRIu64 " zonefree=%" PRIu64 " kegfree=%" PRIu64
	    " failures=%" PRIu64 " sleeps=%" PRIu64 " xdomain=%" PRIu64 "\n",
	    memstat_get_free(mtp), memstat_get_zonefree(mtp),
	    memstat_get_kegfree(mtp), memstat_get_failures(mtp),
	    memstat_get_sleeps(mtp), memstat_get_xdomain(mtp));
	for (cpu = 0; cpu < PROBE_CPUS; cpu++) {
		if (memstat_get_percpu_free(mtp, cpu) != 0)
			fprintf(f, "  cpu%d free=%" PRIu64 "\n", cpu,
			    memstat_get_percpu_free(mtp, cpu));
		if (memstat_get_percpu_numallocs(mtp, cpu) != 0 ||
		    memstat_get_percpu_numfrees(mtp, cpu) != 0 ||
		    memstat_get_percpu_memalloced(mtp, cpu) != 0 ||
		    memstat_get_percpu_memfreed(mtp, cpu) != 0 ||
		    memstat_get_percpu_sizemask(mtp, cpu) != 0)
			fprintf(f, "  cpu%d memalloced=%" PRIu64 " memfreed=%"
			    PRIu64 " numallocs=%" PRIu64 " numfrees=%" PRIu64
			    " sizemask=%#" PRIx64 "\n", cpu,
			    memstat_get_percpu_memalloced(mtp, cpu),
			    memstat_get_percpu_memfreed(mtp, cpu),
			    memstat_get_percpu_numallocs(mtp, cpu),
			    memstat_get_percpu_numfrees(mtp, cpu),
			    memstat_get_percpu_sizemask(mtp, cpu));
	}
}

char *
mtl_snapshot(struct memory_type_list *mtlp)
{
	struct memory_type *mtp;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	if ((f = open_memstream(&text, &len)) == NULL)
		abort();
	for (mtp = memstat_mtl_first(mtlp); mtp != NULL;
	    mtp = memstat_mtl_next(mtp))
		mt_print(f, mtp);
	if (fclose(f) != 0)
		abort();
	return (text);
}
