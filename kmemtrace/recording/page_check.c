/*
 * page_check.c: a page walked as kbuffer will walk it (kbuffer-parse.c:
 * kbuffer_load_subbuffer, translate_data, update_pointers).
 *
 * The page: u64 timestamp, a long commit word (length in the low 27 bits,
 * bit 31 "events missed", bit 30 "their count is stored after the data"),
 * then the records.  A record starts with a u32 holding type_len (5 bits)
 * and time_delta (27): type_len 29 padding, 30 time extend, 31 time stamp,
 * 0 a data record whose length is the next u32, 1..28 a data record of
 * type_len * 4 bytes.
 */
#include <stdint.h>
#include <string.h>

#include "page_check.h"

#define COMMIT_MASK	((1U << 27) - 1)
#define MISSED_EVENTS	(1ULL << 31)
#define MISSED_STORED	(1ULL << 30)

enum {
	TYPE_PADDING = 29,
	TYPE_TIME_EXTEND = 30,
	TYPE_TIME_STAMP = 31,
};

/* The common header every event's data starts with. */
#define MIN_EVENT	8

static uint32_t
read_u32(const struct page_format *f, const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	if (f->big_endian != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__))
		v = __builtin_bswap32(v);
	return (v);
}

static uint64_t
read_u64(const struct page_format *f, const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	if (f->big_endian != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__))
		v = __builtin_bswap64(v);
	return (v);
}

static uint64_t
read_long(const struct page_format *f, const uint8_t *p)
{
	return (f->long_size == 8 ? read_u64(f, p) : read_u32(f, p));
}

int
page_check(const struct page_format *f, const uint8_t *page,
    struct page_info *info, const char **why)
{
	size_t start = 8 + (size_t)f->long_size, size, off;
	uint64_t commit;

	memset(info, 0, sizeof(*info));
	info->timestamp = read_u64(f, page);
	commit = read_long(f, page + 8);
	size = (size_t)(commit & COMMIT_MASK);
	info->commit = size;
	info->missed = (commit & MISSED_EVENTS) != 0;
	if (start + size > f->page_size) {
		*why = "its commit length runs past the page";
		return (-1);
	}
	if (info->missed && (commit & MISSED_STORED)) {
		if (start + size + (size_t)f->long_size > f->page_size) {
			*why = "its missed-events count lies past the page";
			return (-1);
		}
		info->missed_stored = true;
		info->missed_count = read_long(f, page + start + size);
	}

	/*
	 * Each step moves at least 4 bytes: the walk ends.  kbuffer reads a
	 * record's first 8 bytes wherever it starts before the commit's end,
	 * so those must be on the page.
	 */
	for (off = 0; off < size;) {
		const uint8_t *rec = page + start + off;
		uint32_t word, len32;
		unsigned type;
		size_t len;

		if (start + off + 8 > f->page_size) {
			*why = "a record header runs past the page";
			return (-1);
		}
		word = read_u32(f, rec);
		type = f->big_endian ? (word >> 27) & 31 : word & 31;
		switch (type) {
		case TYPE_PADDING:
			/* kbuffer takes the length as an int: never negative. */
			if ((len32 = read_u32(f, rec + 4)) > INT32_MAX) {
				*why = "a padding record's length is negative";
				return (-1);
			}
			off += 4 + (size_t)len32;
			break;
		case TYPE_TIME_EXTEND:
		case TYPE_TIME_STAMP:
			if (off + 8 > size) {
				*why = "a time record runs past the commit";
				return (-1);
			}
			off += 8;
			break;
		case 0:
			if (off + 8 > size) {
				*why = "a record's length runs past the commit";
				return (-1);
			}
			len = read_u32(f, rec + 4);
			if (len < 4 + MIN_EVENT) {
				*why = "a record is shorter than an event header";
				return (-1);
			}
			len = ((len - 4) + 3) & ~(size_t)3;
			if (len > size - off - 8) {
				*why = "a record runs past the commit";
				return (-1);
			}
			off += 8 + len;
			info->events++;
			break;
		default:
			len = (size_t)type * 4;
			if (len < MIN_EVENT) {
				*why = "a record is shorter than an event header";
				return (-1);
			}
			if (off + 4 > size || len > size - off - 4) {
				*why = "a record runs past the commit";
				return (-1);
			}
			off += 4 + len;
			info->events++;
			break;
		}
	}
	return (0);
}
