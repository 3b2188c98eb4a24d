/*
 * streambuild.h: FreeBSD's sysctl stream records as FreeBSD declares them
 * (sys/vm/uma.h, sys/sys/malloc.h), and a buffer that writes them in either
 * byte order.  The fixture generator, the tests and the benchmarks build
 * streams with it.  It deliberately does not use the library's offset
 * table, so a wrong offset there cannot hide behind the same mistake here.
 */
#ifndef STREAMBUILD_H
#define STREAMBUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sb_stream_header {		/* uma_stream_header, malloc_type_stream_header */
	uint32_t	version;
	uint32_t	maxcpus;
	uint32_t	count;
	uint32_t	pad;
};

struct sb_uma_type_header {		/* uma_type_header, FreeBSD 13+ names */
	char		name[32];
	uint32_t	align;
	uint32_t	size;
	uint32_t	rsize;
	uint32_t	maxpages;
	uint32_t	limit;
	uint32_t	pages;
	uint32_t	keg_free;
	uint32_t	zone_free;
	uint32_t	bucketsize;
	uint32_t	zone_flags;
	uint64_t	allocs;
	uint64_t	frees;
	uint64_t	fails;
	uint64_t	sleeps;
	uint64_t	xdomain;
	uint64_t	reserved1;
};

struct sb_uma_percpu_stat {
	uint64_t	allocs;
	uint64_t	frees;
	uint64_t	cache_free;
	uint64_t	reserved[5];
};

struct sb_malloc_type_header {
	char		name[32];
};

struct sb_malloc_type_stats {
	uint64_t	memalloced;
	uint64_t	memfreed;
	uint64_t	numallocs;
	uint64_t	numfrees;
	uint64_t	sizemask;
	uint64_t	reserved[3];
};

_Static_assert(sizeof(struct sb_stream_header) == 16, "stream header");
_Static_assert(sizeof(struct sb_uma_type_header) == 120, "uma_type_header");
_Static_assert(sizeof(struct sb_uma_percpu_stat) == 64, "uma_percpu_stat");
_Static_assert(sizeof(struct sb_malloc_type_header) == 32, "malloc_type_header");
_Static_assert(sizeof(struct sb_malloc_type_stats) == 64, "malloc_type_stats");

/* A growing byte buffer; big = write big-endian. */
struct streambuf {
	unsigned char	*data;
	size_t		 len;
	size_t		 cap;
	bool		 big;
};

void	sb_init(struct streambuf *sb, bool big);
void	sb_reserve(struct streambuf *sb, size_t total);
void	sb_free(struct streambuf *sb);
void	sb_header(struct streambuf *sb, const struct sb_stream_header *h);
void	sb_uma_type(struct streambuf *sb, const struct sb_uma_type_header *t);
void	sb_uma_cpu(struct streambuf *sb, const struct sb_uma_percpu_stat *c);
void	sb_malloc_type(struct streambuf *sb,
	    const struct sb_malloc_type_header *t);
void	sb_malloc_cpu(struct streambuf *sb,
	    const struct sb_malloc_type_stats *s);

/* Reading records back (the dumper); p must hold the whole record. */
void	sb_read_header(const unsigned char *p, bool big,
	    struct sb_stream_header *h);
void	sb_read_uma_type(const unsigned char *p, bool big,
	    struct sb_uma_type_header *t);
void	sb_read_uma_cpu(const unsigned char *p, bool big,
	    struct sb_uma_percpu_stat *c);
void	sb_read_malloc_type(const unsigned char *p, bool big,
	    struct sb_malloc_type_header *t);
void	sb_read_malloc_cpu(const unsigned char *p, bool big,
	    struct sb_malloc_type_stats *s);

/* True when this host is big-endian. */
bool	sb_host_big(void);

#endif /* !STREAMBUILD_H */
