/*
 * record_filter.h: -c CACHE, the caches whose allocations a recording
 * keeps, as tracefs event filters.  A kmalloc-N cache (any kmalloc
 * family: -cg, -rcl, dma-, -rnd-NN) is known by the size kmalloc gave,
 * bytes_alloc; another cache by kmem_cache_alloc's name where the kernel
 * records it (2025 on), else by its object size, /sys/kernel/slab/CACHE/
 * slab_size, which other caches of that size pass too.  Frees are never
 * filtered: an allocation outside the window must not look outstanding.
 */
#ifndef RECORD_FILTER_H
#define RECORD_FILTER_H

#include <stdbool.h>
#include <stddef.h>

#define RECORD_MAX_CACHES	16

struct record_filter {
	const char	*caches[RECORD_MAX_CACHES];
	size_t		 ncaches;
	/* The filters; an empty one: no cache of that kind was asked for. */
	char		 kmalloc[1024];
	char		 cache[4096];
};

/*
 * The filters for f->caches; cache_has_name: kmem_cache_alloc's format
 * has the name field.  -1 with a reason in why (a cache this kernel does
 * not have, a name that is no cache's).
 */
int	record_filter_make(struct record_filter *f, bool cache_has_name,
	    char *why, size_t len);

#endif /* !RECORD_FILTER_H */
