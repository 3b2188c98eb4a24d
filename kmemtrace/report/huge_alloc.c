/*
 * huge_alloc.c: a mapping of its own, aligned to the huge page so that
 * every 2 MiB of it can be one, and marked so (MADV_HUGEPAGE: the
 * kernel's default, "madvise", gives huge pages only to those asking).
 * Where the kernel gives none, the mapping is used as it is.
 */
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "huge_alloc.h"

#define HUGE	((size_t)2 << 20)

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

	if (size < HUGE)
		return (calloc(1, size));
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
