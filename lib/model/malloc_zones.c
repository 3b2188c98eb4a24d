/*
 * malloc_zones.c: the table that turns bit n of a malloc type's size mask
 * into a size.  FreeBSD keeps it as process-wide state behind
 * memstat_malloc_zone_get_count()/get_size(), so it is global here too.
 */
#include <errno.h>
#include <string.h>

#include "model/memstat_internal.h"

/* kmemzones[] of FreeBSD 13 and later, with its {0, NULL} terminator. */
#define DEFAULT_SIZES	16, 32, 64, 128, 256, 384, 512, 1024, 2048, 4096, \
			8192, 16384, 32768, 65536, 0
static const int default_sizes[] = { DEFAULT_SIZES };
#define DEFAULT_COUNT	(sizeof(default_sizes) / sizeof(default_sizes[0]))

static int	zone_sizes[MEMSTAT_MALLOC_ZONE_MAX] = { DEFAULT_SIZES };
static size_t	zone_count = DEFAULT_COUNT;

size_t
memstat_malloc_zone_get_count(void)
{
	return (zone_count);
}

size_t
memstat_malloc_zone_get_size(size_t n)
{
	if (n >= MEMSTAT_MALLOC_ZONE_MAX)
		return ((size_t)-1);
	return ((size_t)zone_sizes[n]);
}

int
memstat_malloc_zone_used(const struct memory_type *mtp, size_t n)
{
	if (n >= 64)
		return (0);
	return ((mtp->mt_sizemask & ((uint64_t)1 << n)) != 0);
}

int
memstat_malloc_zone_set_sizes(const int *sizes, size_t count)
{
	size_t i;

	if (sizes == NULL) {
		sizes = default_sizes;
		count = DEFAULT_COUNT;
	}
	if (count > MEMSTAT_MALLOC_ZONE_MAX) {
		errno = EINVAL;
		return (-1);
	}
	for (i = 0; i < count; i++)
		if (sizes[i] < 0) {
			errno = EINVAL;
			return (-1);
		}
	memset(zone_sizes, 0, sizeof(zone_sizes));
	memcpy(zone_sizes, sizes, count * sizeof(sizes[0]));
	zone_count = count;
	return (0);
}
