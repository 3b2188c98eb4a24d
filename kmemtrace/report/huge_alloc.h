/*
 * huge_alloc.h: zeroed tables of megabytes, on transparent huge pages
 * where the kernel gives them.  A report's live-object map and objects
 * are read at random, an event at a time: with 4 KiB pages each read
 * misses the TLB too, and the tables' first touches fault a page each.
 */
#ifndef HUGE_ALLOC_H
#define HUGE_ALLOC_H

#include <stddef.h>

/* size bytes, zeroed, or NULL; small sizes come from calloc(). */
void	*huge_zalloc(size_t size);
/* p of huge_zalloc(size), or NULL. */
void	 huge_free(void *p, size_t size);

#endif /* !HUGE_ALLOC_H */
