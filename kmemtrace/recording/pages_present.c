/*
 * pages_present.c: MADV_POPULATE_WRITE, where the kernel has it.
 */
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "pages_present.h"

void
pages_present(void *p, size_t len)
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
