/*
 * mtdump: decode a FreeBSD stream with libmemstat and print every accessor
 * of every entry, in list order.  The golden tests compare this against the
 * .expect file beside each fixture.
 *
 *	mtdump uma|malloc file.bin
 */
#include <err.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "memstat.h"
#include "mtprint.h"

int
main(int argc, char *argv[])
{
	struct memory_type_list *mtlp;
	struct memory_type *mtp;
	void *buf;
	size_t len;
	int error;

	if (argc != 3 || (strcmp(argv[1], "uma") != 0 &&
	    strcmp(argv[1], "malloc") != 0)) {
		fprintf(stderr, "usage: mtdump uma|malloc file.bin\n");
		return (1);
	}
	buf = fixture_load(argv[2], &len);
	if ((mtlp = memstat_mtl_alloc()) == NULL)
		err(1, "memstat_mtl_alloc");
	if (strcmp(argv[1], "uma") == 0)
		error = memstat_stream_uma(mtlp, buf, len);
	else
		error = memstat_stream_malloc(mtlp, buf, len);
	if (error != 0) {
		error = memstat_mtl_geterror(mtlp);
		printf("error %d %s\n", error, memstat_strerror(error));
	} else
		for (mtp = memstat_mtl_first(mtlp); mtp != NULL;
		    mtp = memstat_mtl_next(mtp))
			mt_print(stdout, mtp);
	memstat_mtl_free(mtlp);
	free(buf);
	return (0);
}
