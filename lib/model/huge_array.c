/*
 * huge_array.c: an array that grows to millions of elements (a dump's
 * objects) without a page fault for each 4 KiB of it.  Past HUGE bytes it
 * is a mapping of its own, aligned to the huge page and marked for huge
 * pages (MADV_HUGEPAGE: the kernel's default, "madvise", gives them only
 * to those asking), so that a first touch maps 2 MiB at once.  A fault
 * costs microseconds, 15 under this machine's hypervisor: 1.4 million
 * objects were 14,000 of them, a quarter of the walk's time.  Where the
 * kernel gives no huge pages, the mapping serves as it is.
 */
#include <sys/mman.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/memstat_internal.h"

#define HUGE	((size_t)2 << 20)

static size_t
rounded(size_t bytes)
{
	return ((bytes + HUGE - 1) & ~(HUGE - 1));
}

/* len bytes (a multiple of HUGE) at a HUGE boundary, or NULL. */
static void *
map_huge(size_t len)
{
	uint8_t *p, *at;

	if (len + HUGE < len)
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
_memstat_huge_array_free(void *a, size_t cap, size_t size)
{
	if (a == NULL)
		return;
	if (cap * size < HUGE)
		free(a);
	else
		munmap(a, rounded(cap * size));
}

/*
 * MADV_POPULATE_WRITE (Linux 5.14) maps the pages for 0.7 us each here;
 * an older kernel refuses it, and the pages fault as they would have.
 */
void
_memstat_prefault(void *p, size_t len)
{
#ifdef MADV_POPULATE_WRITE
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), start, end;

	start = ((uintptr_t)p + page - 1) & ~(page - 1);
	end = ((uintptr_t)p + len) & ~(page - 1);
	if (end > start)
		(void)madvise((void *)start, end - start, MADV_POPULATE_WRITE);
#else
	(void)p;
	(void)len;
#endif
}

void *
_memstat_zalloc(size_t n, size_t size)
{
	void *p;

	if (size != 0 && n > SIZE_MAX / size)
		return (NULL);
	if ((p = malloc(n * size)) != NULL) {
		_memstat_prefault(p, n * size);
		memset(p, 0, n * size);
	}
	return (p);
}

int
_memstat_huge_array_grow(void **a, size_t n, size_t *cap, size_t size)
{
	size_t c;
	void *p;

	if (n < *cap)
		return (0);
	c = *cap != 0 ? *cap * 2 : 64;
	if (c > SIZE_MAX / 2 / size)
		return (-1);
	if (c * size < HUGE) {
		if ((p = reallocarray(*a, c, size)) == NULL)
			return (-1);
	} else {
		/* The mapping's rounding is room too. */
		c = rounded(c * size) / size;
		if ((p = map_huge(rounded(c * size))) == NULL)
			return (-1);
		if (n > 0)
			memcpy(p, *a, n * size);
		_memstat_huge_array_free(*a, *cap, size);
	}
	*a = p;
	*cap = c;
	return (0);
}
