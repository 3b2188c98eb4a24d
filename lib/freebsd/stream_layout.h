/*
 * stream_layout.h: the byte layout of FreeBSD's vm.zone_stats and
 * kern.malloc_stats streams (sys/vm/uma.h, sys/sys/malloc.h).  No compiler
 * padding exists in either, so one table of offsets serves ILP32 and LP64
 * kernels alike; only the byte order varies.
 */
#ifndef STREAM_LAYOUT_H
#define STREAM_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define STREAM_VERSION		1	/* UMA_STREAM_VERSION, MALLOC_TYPE_STREAM_VERSION */
#define STREAM_NAME_MAX		32	/* UTH_MAX_NAME, MALLOC_MAX_NAME */

/* struct uma_stream_header and struct malloc_type_stream_header */
#define SH_SIZE			16
#define SH_VERSION		0
#define SH_MAXCPUS		4
#define SH_COUNT		8

/* struct uma_type_header */
#define UTH_SIZE		120
#define UTH_NAME		0
#define UTH_ALIGN		32
#define UTH_SIZE_FIELD		36
#define UTH_RSIZE		40
#define UTH_MAXPAGES		44
#define UTH_LIMIT		48
#define UTH_PAGES		52
#define UTH_KEG_FREE		56
#define UTH_ZONE_FREE		60
#define UTH_BUCKETSIZE		64
#define UTH_ZONE_FLAGS		68
#define UTH_ALLOCS		72
#define UTH_FREES		80
#define UTH_FAILS		88
#define UTH_SLEEPS		96	/* reserved (zero) before FreeBSD 9 */
#define UTH_XDOMAIN		104	/* reserved (zero) before FreeBSD 13 */
#define UTH_ZONE_SECONDARY	0x00000001

/* struct uma_percpu_stat */
#define UPS_SIZE		64
#define UPS_ALLOCS		0
#define UPS_FREES		8
#define UPS_CACHE_FREE		16

/* struct malloc_type_header */
#define MTH_SIZE		32
#define MTH_NAME		0

/* struct malloc_type_stats */
#define MTS_SIZE		64
#define MTS_MEMALLOCED		0
#define MTS_MEMFREED		8
#define MTS_NUMALLOCS		16
#define MTS_NUMFREES		24
#define MTS_SIZEMASK		32

static inline uint32_t
stream_u32(const unsigned char *p, bool swap)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return (swap ? __builtin_bswap32(v) : v);
}

static inline uint64_t
stream_u64(const unsigned char *p, bool swap)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return (swap ? __builtin_bswap64(v) : v);
}

/* A stream header, checked against the length of the whole stream. */
struct stream_header {
	bool		swap;		/* stream is in the other byte order */
	uint32_t	maxcpus;
	uint32_t	count;
	size_t		record_size;	/* type header + maxcpus per-CPU records */
};

struct memory_type;
struct memory_type_list;

/*
 * One kind of stream.  Each record starts with its name; fill_native and
 * fill_swapped store one record into an entry whose statistics are reset,
 * for a stream in this host's byte order and in the other one.
 */
struct stream_kind {
	int	allocator;
	size_t	type_size;
	size_t	percpu_size;
	void	(*fill_native)(struct memory_type *, const unsigned char *rec,
		    uint32_t maxcpus);
	void	(*fill_swapped)(struct memory_type *, const unsigned char *rec,
		    uint32_t maxcpus);
};

/*
 * Decode a stream into a list.  The header is checked before anything is
 * allocated: version 1 in either byte order, then a length of exactly
 * header + count * record.  An empty stream is valid and holds no types.
 */
int	_memstat_stream_decode(struct memory_type_list *list, const void *buf,
	    size_t len, const struct stream_kind *kind);

#endif /* !STREAM_LAYOUT_H */
