/*
 * testlib.h: what the cmocka tests share: decoding a fixture into a fresh
 * list, and building small streams in code.
 */
#ifndef TESTLIB_H
#define TESTLIB_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "memstat.h"
#include "streambuild.h"

#define FIXTURE_DIR	"fixtures/freebsd/streams/"
#define BAD_DIR		"fixtures/bad/stream/"

typedef int (*decoder_fn)(struct memory_type_list *, const void *, size_t);

/* Decode a fixture file into a new list; asserts success. */
struct memory_type_list	*decode_fixture(decoder_fn decode, const char *path);

/* The decoder must fail with this error and leave a new list empty. */
void	assert_stream_rejected(decoder_fn decode, const void *buf, size_t len,
	    int error);

/*
 * Every cut of a fixture short of its whole length (inside each header and
 * record, and at each boundary) is a data error.  Each cut is decoded from
 * a buffer of exactly that size, so a read past it is caught by ASan.
 */
void	assert_truncations_rejected(decoder_fn decode, const char *path);

/* v written as an n-byte little-endian field at p (a fixture edited). */
void	put_le(unsigned char *p, uint64_t v, int n);

/* One UMA zone for build_uma(): header fields plus per-CPU records. */
struct test_zone {
	const char	*name;
	uint32_t	 size, limit, keg_free, zone_free, flags;
	uint64_t	 allocs, frees, fails, sleeps, xdomain;
	struct sb_uma_percpu_stat cpu[4];
};

/* A UMA stream of n zones with ncpus (at most 4) per-CPU records. */
void	build_uma(struct streambuf *sb, bool big, uint32_t ncpus,
	    const struct test_zone *zones, size_t n);

#endif
