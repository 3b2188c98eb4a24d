/*
 * page_walk.h: the data records of a ring-buffer page that page_check()
 * accepted, with their timestamps, as kbuffer would give them
 * (kbuffer-parse.c: translate_data, update_pointers) but in line: a
 * report walks millions of records, and kbuffer's calls through
 * function pointers per record cost more than the report's own work.
 *
 * The page's layout is page_check.c's.  A time-extend record adds its
 * 59-bit delta; an absolute time stamp replaces the time but for its top
 * 5 bits, which it does not store.
 */
#ifndef PAGE_WALK_H
#define PAGE_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "page_check.h"

struct page_walk {
	const uint8_t	*data;		/* the first record */
	size_t		 size, off;	/* the commit; the next record */
	uint64_t	 ts;
	bool		 swap;
	bool		 big_endian;
	/*
	 * A time went back (an absolute time stamp) or past 2^62 ns (its
	 * records' deltas could wrap it): set, never cleared.  Checked where
	 * a time is set, not for every record's delta: those cannot.
	 */
	bool		 odd_time;
};

#define PAGE_WALK_TIME_MAX	(1ULL << 62)

static inline uint32_t
page_walk_u32(const struct page_walk *w, const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return (w->swap ? __builtin_bswap32(v) : v);
}

/* page, accepted by page_check() with info, from its first record. */
static inline void
page_walk_begin(struct page_walk *w, const struct page_format *f,
    const uint8_t *page, const struct page_info *info)
{
	w->data = page + 8 + f->long_size;
	w->size = info->commit;
	w->off = 0;
	w->ts = info->timestamp;
	w->odd_time |= w->ts >= PAGE_WALK_TIME_MAX;
	w->big_endian = f->big_endian;
	w->swap = f->big_endian != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
}

/* The next data record (its event's bytes) and its time: false at the end. */
static inline bool
page_walk_next(struct page_walk *w, const void **event, size_t *len,
    uint64_t *ts)
{
	while (w->off < w->size) {
		const uint8_t *rec = w->data + w->off;
		uint32_t word = page_walk_u32(w, rec);
		unsigned type = w->big_endian ? word >> 27 : word & 31;
		uint64_t delta = w->big_endian ? word & ((1U << 27) - 1) :
		    word >> 5;
		size_t n;

		switch (type) {
		case 29:			/* padding */
			w->off += 4 + (size_t)page_walk_u32(w, rec + 4);
			continue;
		case 30:			/* time extend */
			w->ts += ((uint64_t)page_walk_u32(w, rec + 4) << 27) +
			    delta;
			w->odd_time |= w->ts >= PAGE_WALK_TIME_MAX;
			w->off += 8;
			continue;
		case 31: {			/* absolute time stamp */
			uint64_t was = w->ts;

			w->ts = (((uint64_t)page_walk_u32(w, rec + 4) << 27) +
			    delta) | (w->ts & (0xf8ULL << 56));
			w->odd_time |= w->ts < was ||
			    w->ts >= PAGE_WALK_TIME_MAX;
			w->off += 8;
			continue;
		}
		case 0:
			n = ((size_t)page_walk_u32(w, rec + 4) - 4 + 3) &
			    ~(size_t)3;
			*event = rec + 8;
			w->off += 8 + n;
			break;
		default:
			n = (size_t)type * 4;
			*event = rec + 4;
			w->off += 4 + n;
			break;
		}
		w->ts += delta;
		*len = n;
		*ts = w->ts;
		return (true);
	}
	return (false);
}

#endif /* !PAGE_WALK_H */
