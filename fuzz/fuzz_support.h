/*
 * fuzz_support.h: what the fuzz targets share: cutting one input into
 * parts, a scratch directory to write them into as files, and a digest of
 * a list to tell whether a failed query changed it.
 */
#ifndef FUZZ_SUPPORT_H
#define FUZZ_SUPPORT_H

#include <stddef.h>
#include <stdint.h>

/* Parts of a capture input are separated by this byte. */
#define FUZZ_SEP	0xff

struct fuzz_part {
	const uint8_t	*data;
	size_t		 len;
};

/* Cut data at each sep, into at most max parts (the last keeps the rest). */
size_t	fuzz_split(const uint8_t *data, size_t len, int sep,
	    struct fuzz_part *parts, size_t max);

/* A fresh private directory (made once, emptied on each call). */
const char *fuzz_scratch(void);

/* Write path (under dir) with the given bytes; mkdir -p its parents. */
void	fuzz_write(const char *dir, const char *path, const void *data,
	    size_t len);

/* The repository, for fixtures: FUZZ_REPO, set by the Makefile. */
const char *fuzz_repo(void);

struct memory_type_list;

/* Everything a report reads of every entry, folded into one value. */
uint64_t fuzz_list_digest(struct memory_type_list *list, size_t *entries);

#endif /* !FUZZ_SUPPORT_H */
