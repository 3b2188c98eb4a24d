/*
 * pages_present.c: MADV_POPULATE_WRITE, where the kernel has it.
 */
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "pages_present.h"

#define HUGE_PAGE	((uintptr_t)2 << 20)	/* x86-64's; arm64's with 4 KiB */

void
pages_present(void *p, size_t len)
{
#ifdef MADV_POPULATE_WRITE
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), start, end;

	start = ((uintptr_t)p + page - 1) & ~(page - 1);
	end = ((uintptr_t)p + len) & ~(page - 1);
	if (end <= start)
		return;
#ifdef MADV_HUGEPAGE
	if (end - start >= HUGE_PAGE)
		(void)madvise((void *)start, end - start, MADV_HUGEPAGE);
#endif
	(void)madvise((void *)start, end - start, MADV_POPULATE_WRITE);
#else
	(void)p;
	(void)len;
#endif
}
