/*
 * mutate: write a damaged copy of a file, the damage chosen by a seed (the
 * same seed, the same damage): bits flipped, bytes set to edge values, a
 * cut, a block dropped or repeated, a number in text made huge or
 * negative.  tests/mutate-check feeds the copies to the tools.
 *
 *	mutate SEED IN OUT [LIMIT]
 *
 * With LIMIT, only the first LIMIT bytes are damaged (a dump's headers).
 */
#include <ctype.h>
#include <err.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"

static uint64_t state;

static uint64_t
next(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return (state);
}

static size_t
below(size_t n)
{
	return (n == 0 ? 0 : (size_t)(next() % n));
}

/* Up to 64 bytes starting in the first limit, within the n there are. */
static void
pick_block(size_t limit, size_t n, size_t *at, size_t *span)
{
	*at = below(limit);
	*span = 1 + below(64);
	if (*at + *span > n)
		*span = n - *at;
}

int
main(int argc, char *argv[])
{
	static const unsigned char edge[] = { 0x00, 0xff, 0x7f, 0x80, 0x01,
	    '\n', ' ', '-', '9', 0xfe };
	static const char *numbers[] = { "18446744073709551616", "-1",
	    "99999999999999999999999", "0", "4294967296", "" };
	unsigned char *buf, *out;
	size_t len, n, limit, at, span, i;
	FILE *f;

	if (argc != 4 && argc != 5)
		errx(2, "usage: mutate SEED IN OUT [LIMIT]");
	state = strtoull(argv[1], NULL, 10) * 0x9e3779b97f4a7c15ULL + 1;
	buf = fixture_load(argv[2], &len);
	limit = argc == 5 ? strtoull(argv[4], NULL, 10) : len;
	if (limit > len)
		limit = len;
	/* Room for a repeated block and a long number. */
	if ((out = malloc(len * 2 + 64)) == NULL)
		err(1, "malloc");
	memcpy(out, buf, len);
	n = len;
	switch (below(6)) {
	case 0:		/* a few bits */
		for (i = 1 + below(8); i > 0 && limit > 0; i--)
			out[below(limit)] ^= (unsigned char)(1u << below(8));
		break;
	case 1:		/* a few bytes to edge values */
		for (i = 1 + below(4); i > 0 && limit > 0; i--)
			out[below(limit)] = edge[below(sizeof(edge))];
		break;
	case 2:		/* cut */
		n = below(limit + 1);
		break;
	case 3:		/* a block dropped */
		pick_block(limit, n, &at, &span);
		memmove(out + at, out + at + span, n - at - span);
		n -= span;
		break;
	case 4:		/* a block repeated */
		pick_block(limit, n, &at, &span);
		memmove(out + at + span, out + at, n - at);
		n += span;
		break;
	default:	/* a number in text replaced */
		for (i = 0, at = below(limit); i < limit &&
		    !isdigit(out[at]); i++)
			at = (at + 1) % (limit > 0 ? limit : 1);
		if (limit == 0 || !isdigit(out[at]))
			break;
		for (span = 0; at + span < n && isdigit(out[at + span]); span++)
			;
		{
			const char *s = numbers[below(sizeof(numbers) /
			    sizeof(numbers[0]))];
			size_t sl = strlen(s);

			memmove(out + at + sl, out + at + span, n - at - span);
			memcpy(out + at, s, sl);
			n = n - span + sl;
		}
		break;
	}
	if ((f = fopen(argv[3], "wb")) == NULL ||
	    fwrite(out, 1, n, f) != n || fclose(f) != 0)
		err(1, "%s", argv[3]);
	free(out);
	free(buf);
	return (0);
}
