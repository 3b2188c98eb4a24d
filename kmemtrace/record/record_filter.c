/*
 * record_filter.c: -c CACHE as event filters.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "record_filter.h"

#define SLAB_SYSFS	"/sys/kernel/slab"

/* A slab cache's name: what the kernel names caches with, no quotes. */
static bool
cache_name(const char *s)
{
	size_t n = 0;

	for (; s[n] != '\0'; n++)
		if (!isalnum((unsigned char)s[n]) && strchr("_-.:", s[n]) ==
		    NULL)
			return (false);
	return (n > 0 && n < 64);
}

/* kmalloc-N's size N ("kmalloc-96", "kmalloc-cg-2k", "dma-kmalloc-8k"). */
static long
kmalloc_size(const char *s)
{
	const char *dash = strrchr(s, '-');
	char *end;
	long n;

	if (strstr(s, "kmalloc-") == NULL || dash == NULL ||
	    !isdigit((unsigned char)dash[1]))
		return (-1);
	n = strtol(dash + 1, &end, 10);
	if (*end == 'k') {
		n *= 1024;
		end++;
	}
	return (*end == '\0' && n > 0 && n <= (1L << 22) ? n : -1);
}

/* A cache's object size, from sysfs: -1 if the kernel has no such cache. */
static long
slab_size(const char *name)
{
	char path[128], buf[32];
	FILE *f;
	long n = -1;

	snprintf(path, sizeof(path), SLAB_SYSFS "/%s/slab_size", name);
	if ((f = fopen(path, "r")) == NULL)
		return (-1);
	if (fgets(buf, sizeof(buf), f) != NULL)
		n = strtol(buf, NULL, 10);
	fclose(f);
	return (n > 0 ? n : -1);
}

/* filter ||= term */
static void
add(char *filter, size_t len, const char *term)
{
	if (filter[0] != '\0')
		strlcat(filter, " || ", len);
	strlcat(filter, term, len);
}

int
record_filter_make(struct record_filter *f, bool cache_has_name, char *why,
    size_t len)
{
	char term[96];
	struct stat st;

	f->kmalloc[0] = f->cache[0] = '\0';
	for (size_t i = 0; i < f->ncaches; i++) {
		const char *c = f->caches[i];
		long n;

		if (!cache_name(c)) {
			snprintf(why, len, "-c %s: not a slab cache's name", c);
			return (-1);
		}
		/* Where sysfs has the caches, the name must be one. */
		if (stat(SLAB_SYSFS, &st) == 0 && slab_size(c) < 0) {
			snprintf(why, len, "-c %s: no such slab cache", c);
			return (-1);
		}
		if ((n = kmalloc_size(c)) > 0) {
			snprintf(term, sizeof(term), "bytes_alloc == %ld", n);
			add(f->kmalloc, sizeof(f->kmalloc), term);
		} else if (cache_has_name) {
			snprintf(term, sizeof(term), "name == \"%s\"", c);
			add(f->cache, sizeof(f->cache), term);
		} else if ((n = slab_size(c)) > 0) {
			snprintf(term, sizeof(term), "bytes_alloc == %ld", n);
			add(f->cache, sizeof(f->cache), term);
		} else {
			snprintf(why, len, "-c %s: this kernel names no cache "
			    "in its events and has no %s/%s", c, SLAB_SYSFS, c);
			return (-1);
		}
	}
	return (0);
}
