/*
 * fuzz_stream.c: the FreeBSD stream decoders (built twice: STREAM_UMA and
 * STREAM_MALLOC).  Each input is decoded into a fresh list and over a list
 * already holding a good fixture: a decode that fails must leave that
 * list exactly as it was; one that succeeds must have every name bounded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_support.h"
#include "memstat.h"

#ifdef STREAM_UMA
#define DECODE		memstat_stream_uma
#define FIXTURE		"fixtures/freebsd/streams/fbsd14-mbuf.uma.bin"
#else
#define DECODE		memstat_stream_malloc
#define FIXTURE		"fixtures/freebsd/streams/fbsd14.malloc.bin"
#endif

static unsigned char	*good;
static size_t		 good_len;

int	LLVMFuzzerInitialize(int *argc, char ***argv);
int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char path[4096];
	FILE *f;

	(void)argc;
	(void)argv;
	snprintf(path, sizeof(path), "%s/%s", fuzz_repo(), FIXTURE);
	if ((f = fopen(path, "rb")) == NULL || (good = malloc(1 << 20)) == NULL)
		abort();
	good_len = fread(good, 1, 1 << 20, f);
	fclose(f);
	return (0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct memory_type_list *fresh, *held;
	uint64_t before, after;
	size_t n_before, n_after;

	if ((fresh = memstat_mtl_alloc()) == NULL ||
	    (held = memstat_mtl_alloc()) == NULL)
		abort();
	if (DECODE(fresh, data, size) == 0)
		fuzz_list_digest(fresh, &n_after);
	if (DECODE(held, good, good_len) != 0)
		abort();
	before = fuzz_list_digest(held, &n_before);
	if (DECODE(held, data, size) != 0) {
		after = fuzz_list_digest(held, &n_after);
		if (after != before || n_after != n_before)
			abort();
	}
	memstat_mtl_free(fresh);
	memstat_mtl_free(held);
	return (0);
}
