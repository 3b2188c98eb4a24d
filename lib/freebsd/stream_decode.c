/*
 * stream_decode.c: what the UMA and malloc stream decoders share: the
 * 16-byte stream header, the fixed-width type names, and the record loop.
 */
#include "model/memstat_internal.h"
#include "freebsd/stream_layout.h"

static int
stream_header_check(const void *buf, size_t len, size_t type_size,
    size_t percpu_size, struct stream_header *sh)
{
	const unsigned char *p = buf;
	uint64_t record, total;
	uint32_t version;

	*sh = (struct stream_header){ 0 };
	if (len == 0)
		return (0);
	if (len < SH_SIZE)
		return (MEMSTAT_ERROR_DATAERROR);
	version = stream_u32(p + SH_VERSION, false);
	if (version != STREAM_VERSION) {
		if (__builtin_bswap32(version) != STREAM_VERSION)
			return (MEMSTAT_ERROR_VERSION);
		sh->swap = true;
	}
	sh->maxcpus = stream_u32(p + SH_MAXCPUS, sh->swap);
	sh->count = stream_u32(p + SH_COUNT, sh->swap);

	/* Both are below 2^32, so only the multiplication by count can wrap. */
	record = type_size + (uint64_t)percpu_size * sh->maxcpus;
	if (__builtin_mul_overflow(record, (uint64_t)sh->count, &total) ||
	    total != len - SH_SIZE)
		return (MEMSTAT_ERROR_DATAERROR);
	sh->record_size = (size_t)record;
	return (0);
}

/*
 * A record's name, cut at 31 bytes as FreeBSD's libmemstat cuts it.  The
 * length is found in the record and the field copied whole (a fixed-size
 * copy the compiler inlines): measuring the fresh copy stalled on it.
 */
static size_t
stream_name(char *dst, const unsigned char *src)
{
	const unsigned char *nul;
	size_t n;

	nul = memchr(src, '\0', STREAM_NAME_MAX - 1);
	n = nul != NULL ? (size_t)(nul - src) : STREAM_NAME_MAX - 1;
	memcpy(dst, src, STREAM_NAME_MAX - 1);
	dst[n] = '\0';
	return (n);
}

/*
 * The names of the next AHEAD records, taken and hashed before their
 * lookups (see _memstat_mtl_name()): a few memory latencies' worth.
 */
#define AHEAD	8

struct name_ring {
	char		name[AHEAD][STREAM_NAME_MAX];
	struct mt_name	key[AHEAD];
};

static void
name_ring_take(struct name_ring *r, const struct memory_type_list *list,
    int allocator, const unsigned char *rec, uint32_t i)
{
	size_t n;

	n = stream_name(r->name[i % AHEAD], rec);
	_memstat_mtl_name(list, allocator, r->name[i % AHEAD], n,
	    &r->key[i % AHEAD]);
}

static void
prefetch_record(const unsigned char *rec, size_t size)
{
	for (size_t off = 0; off < size && off < 4096; off += 64)
		__builtin_prefetch(rec + off);
}

int
_memstat_stream_decode(struct memory_type_list *list, const void *buf,
    size_t len, const struct stream_kind *kind)
{
	const unsigned char *rec;
	struct stream_header sh;
	struct memory_type *mtp;
	struct name_ring ring;
	uint32_t i;
	int error;

	error = stream_header_check(buf, len, kind->type_size,
	    kind->percpu_size, &sh);
	if (error != 0)
		return (_memstat_mtl_fail(list, error));
	_memstat_mtl_begin_pass(list, sh.count);
	rec = (const unsigned char *)buf + SH_SIZE;
	for (i = 0; i < sh.count && i < AHEAD; i++)
		name_ring_take(&ring, list, kind->allocator,
		    rec + (size_t)i * sh.record_size, i);
	for (i = 0; i < sh.count; i++, rec += sh.record_size) {
		mtp = _memstat_mtl_lookup_name(list, kind->allocator,
		    &ring.key[i % AHEAD], sh.maxcpus);
		if (mtp == NULL)
			return (_memstat_mtl_fail_empty(list,
			    MEMSTAT_ERROR_NOMEMORY));
		/* The slot just used takes the name AHEAD records on. */
		if (sh.count - i > AHEAD)
			name_ring_take(&ring, list, kind->allocator,
			    rec + AHEAD * sh.record_size, i + AHEAD);
		/*
		 * And the record whose name comes next after those: its
		 * memory is on its way when the name and then the fill read
		 * it.  The hardware's own prefetch lags behind this pattern.
		 */
		if (sh.count - i > 2 * AHEAD)
			prefetch_record(rec + 2 * AHEAD * sh.record_size,
			    sh.record_size);
		(sh.swap ? kind->fill_swapped : kind->fill_native)(mtp, rec,
		    sh.maxcpus);
	}
	_memstat_err_code(&list->mtl_err, MEMSTAT_ERROR_UNDEFINED);
	return (0);
}
