/*
 * page_check.h: a ring-buffer page from a file, checked before kbuffer
 * sees it.  kbuffer (libtraceevent) trusts the page: its commit length,
 * each record's length, the stored missed-events count; a lie sends it
 * past the page or round in circles.  This walks the page by kbuffer's
 * own rules and accepts it only if every read kbuffer will make stays
 * inside it.
 */
#ifndef PAGE_CHECK_H
#define PAGE_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct page_format {
	size_t	 page_size;	/* the sub-buffer, header included */
	int	 long_size;	/* 4 or 8: the commit word */
	bool	 big_endian;
};

struct page_info {
	uint64_t timestamp;
	size_t	 commit;	/* bytes of records */
	bool	 missed;	/* events were lost before this page */
	bool	 missed_stored;	/* and their count is stored */
	uint64_t missed_count;
	unsigned events;	/* data records */
};

/* 0, or -1 with why set to a short reason. */
int	page_check(const struct page_format *f, const uint8_t *page,
	    struct page_info *info, const char **why);

#endif /* !PAGE_CHECK_H */
