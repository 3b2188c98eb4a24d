/*
 * huge_alloc.c: a mapping of its own, aligned to the huge page so that
 * every 2 MiB of it can be one, and marked so (MADV_HUGEPAGE: the
 * kernel's default, "madvise", gives huge pages only to those asking).
 * Where the kernel gives none, the mapping is used as it is.  Its pages
 * are made present at once.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "huge_alloc.h"
#include "recording/pages_present.h"

#define HUGE	((size_t)2 << 20)
#define SMALL	((size_t)64 << 10)

static size_t
mapped(size_t size)
{
	return ((size + HUGE - 1) & ~(HUGE - 1));
}

void *
huge_zalloc(size_t size)
{
	size_t len;
	uint8_t *p, *at;

	if (size < HUGE) {
		/* malloc's own mapping from 128 KiB on: present, then zeroed. */
		if (size >= SMALL && (p = malloc(size)) != NULL) {
			pages_present(p, size);
			memset(p, 0, size);
			return (p);
		}
		return (calloc(1, size));
	}
	if ((len = mapped(size)) < size || len + HUGE < len)
		return (NULL);
	p = mmap(NULL, len + HUGE, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return (NULL);
	at = (uint8_t *)(((uintptr_t)p + HUGE - 1) & ~(uintptr_t)(HUGE - 1));
	if (at > p)
		munmap(p, (size_t)(at - p));
	munmap(at + len, (size_t)(p + HUGE - at));
	(void)madvise(at, len, MADV_HUGEPAGE);
	/* Every page of a map or a chunk of objects is written soon. */
	pages_present(at, len);
	return (at);
}

void
huge_free(void *p, size_t size)
{
	if (p == NULL)
		return;
	if (size < HUGE)
		free(p);
	else
		munmap(p, mapped(size));
}
