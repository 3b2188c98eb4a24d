/*
 * siphash.c: SipHash-1-3 (Aumasson and Bernstein), the keyed hash behind a
 * list's name index.  Names come from files other people made; with a
 * per-list random key nobody can choose names that pile into one bucket.
 */
#include <endian.h>
#include <string.h>

#include "model/memstat_internal.h"

#define ROTL(x, b)	(((x) << (b)) | ((x) >> (64 - (b))))

/* Inlined: a call per round cost as much as the rounds (names are short). */
static inline __attribute__((always_inline)) void
sipround(uint64_t v[4])
{
	v[0] += v[1]; v[1] = ROTL(v[1], 13); v[1] ^= v[0];
	v[0] = ROTL(v[0], 32);
	v[2] += v[3]; v[3] = ROTL(v[3], 16); v[3] ^= v[2];
	v[0] += v[3]; v[3] = ROTL(v[3], 21); v[3] ^= v[0];
	v[2] += v[1]; v[1] = ROTL(v[1], 17); v[1] ^= v[2];
	v[2] = ROTL(v[2], 32);
}

static inline uint64_t
le64(const unsigned char *p)
{
	uint64_t x;

	memcpy(&x, p, 8);
	return (le64toh(x));
}

uint64_t
_memstat_siphash(const uint64_t key[2], const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t v[4], m;
	size_t i;

	v[0] = key[0] ^ 0x736f6d6570736575ULL;
	v[1] = key[1] ^ 0x646f72616e646f6dULL;
	v[2] = key[0] ^ 0x6c7967656e657261ULL;
	v[3] = key[1] ^ 0x7465646279746573ULL;
	for (i = 0; i + 8 <= len; i += 8) {
		m = le64(p + i);
		v[3] ^= m;
		sipround(v);
		v[0] ^= m;
	}
	/* The last 0-7 bytes, a byte at a time: no copy to reload. */
	m = (uint64_t)len << 56;
	for (size_t j = 0; j < (len & 7); j++)
		m |= (uint64_t)p[i + j] << (8 * j);
	v[3] ^= m;
	sipround(v);
	v[0] ^= m;
	v[2] ^= 0xff;
	sipround(v);
	sipround(v);
	sipround(v);
	return (v[0] ^ v[1] ^ v[2] ^ v[3]);
}
