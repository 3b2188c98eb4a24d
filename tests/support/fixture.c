/* fixture.c: read a fixture file whole. */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>

#include "fixture.h"

void *
fixture_load(const char *path, size_t *lenp)
{
	unsigned char *buf = NULL, *p;
	size_t len = 0, cap = 0, n;
	FILE *f;

	if ((f = fopen(path, "rb")) == NULL)
		err(1, "%s", path);
	do {
		if (len == cap) {
			cap = cap ? cap * 2 : 65536;
			if ((p = realloc(buf, cap)) == NULL)
				err(1, "%s", path);
			buf = p;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n > 0);
	if (ferror(f))
		err(1, "%s", path);
	fclose(f);
	*lenp = len;
	return (buf);
}
