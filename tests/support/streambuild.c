/*
 * streambuild.c: write and read FreeBSD stream records through their C
 * declarations, swapping each field when the target byte order differs.
 */
#include <err.h>
#include <stdlib.h>
#include <string.h>

#include "streambuild.h"

bool
sb_host_big(void)
{
	const uint16_t one = 1;

	return (*(const unsigned char *)&one == 0);
}

void
sb_init(struct streambuf *sb, bool big)
{
	*sb = (struct streambuf){ .big = big };
}

void
sb_reserve(struct streambuf *sb, size_t total)
{
	unsigned char *p;

	if (total <= sb->cap)
		return;
	p = realloc(sb->data, total);
	if (p == NULL)
		err(1, "streambuild: %zu bytes", total);
	sb->data = p;
	sb->cap = total;
}

void
sb_free(struct streambuf *sb)
{
	free(sb->data);
	*sb = (struct streambuf){ 0 };
}

static void
put(struct streambuf *sb, const void *p, size_t n)
{
	if (sb->len + n > sb->cap)
		sb_reserve(sb, sb->cap * 2 > sb->len + n ? sb->cap * 2 :
		    sb->len + n + 4096);
	memcpy(sb->data + sb->len, p, n);
	sb->len += n;
}

#define SWAP32(x)	((x) = __builtin_bswap32(x))
#define SWAP64(x)	((x) = __builtin_bswap64(x))

static void
swap_header(struct sb_stream_header *h)
{
	SWAP32(h->version);
	SWAP32(h->maxcpus);
	SWAP32(h->count);
	SWAP32(h->pad);
}

static void
swap_uma_type(struct sb_uma_type_header *t)
{
	SWAP32(t->align);
	SWAP32(t->size);
	SWAP32(t->rsize);
	SWAP32(t->maxpages);
	SWAP32(t->limit);
	SWAP32(t->pages);
	SWAP32(t->keg_free);
	SWAP32(t->zone_free);
	SWAP32(t->bucketsize);
	SWAP32(t->zone_flags);
	SWAP64(t->allocs);
	SWAP64(t->frees);
	SWAP64(t->fails);
	SWAP64(t->sleeps);
	SWAP64(t->xdomain);
	SWAP64(t->reserved1);
}

static void
swap_words(uint64_t *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		SWAP64(w[i]);
}

/* The per-CPU records are all 64-bit words, so swap them as an array. */
#define SWAP_WORDS(rec)	\
	swap_words((uint64_t *)(void *)(rec), sizeof(*(rec)) / 8)

void
sb_header(struct streambuf *sb, const struct sb_stream_header *h)
{
	struct sb_stream_header c = *h;

	if (sb->big != sb_host_big())
		swap_header(&c);
	put(sb, &c, sizeof(c));
}

void
sb_uma_type(struct streambuf *sb, const struct sb_uma_type_header *t)
{
	struct sb_uma_type_header c = *t;

	if (sb->big != sb_host_big())
		swap_uma_type(&c);
	put(sb, &c, sizeof(c));
}

void
sb_uma_cpu(struct streambuf *sb, const struct sb_uma_percpu_stat *s)
{
	struct sb_uma_percpu_stat c = *s;

	if (sb->big != sb_host_big())
		SWAP_WORDS(&c);
	put(sb, &c, sizeof(c));
}

void
sb_malloc_type(struct streambuf *sb, const struct sb_malloc_type_header *t)
{
	put(sb, t, sizeof(*t));
}

void
sb_malloc_cpu(struct streambuf *sb, const struct sb_malloc_type_stats *s)
{
	struct sb_malloc_type_stats c = *s;

	if (sb->big != sb_host_big())
		SWAP_WORDS(&c);
	put(sb, &c, sizeof(c));
}

void
sb_read_header(const unsigned char *p, bool big, struct sb_stream_header *h)
{
	memcpy(h, p, sizeof(*h));
	if (big != sb_host_big())
		swap_header(h);
}

void
sb_read_uma_type(const unsigned char *p, bool big,
    struct sb_uma_type_header *t)
{
	memcpy(t, p, sizeof(*t));
	if (big != sb_host_big())
		swap_uma_type(t);
}

void
sb_read_uma_cpu(const unsigned char *p, bool big,
    struct sb_uma_percpu_stat *c)
{
	memcpy(c, p, sizeof(*c));
	if (big != sb_host_big())
		SWAP_WORDS(c);
}

void
sb_read_malloc_type(const unsigned char *p, bool big,
    struct sb_malloc_type_header *t)
{
	(void)big;
	memcpy(t, p, sizeof(*t));
}

void
sb_read_malloc_cpu(const unsigned char *p, bool big,
    struct sb_malloc_type_stats *s)
{
	memcpy(s, p, sizeof(*s));
	if (big != sb_host_big())
		SWAP_WORDS(s);
}
