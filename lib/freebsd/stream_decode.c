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

static void
stream_name(char *dst, const unsigned char *src)
{
	size_t n;

	for (n = 0; n < STREAM_NAME_MAX - 1 && src[n] != '\0'; n++)
		dst[n] = (char)src[n];
	dst[n] = '\0';
}

int
_memstat_stream_decode(struct memory_type_list *list, const void *buf,
    size_t len, const struct stream_kind *kind)
{
	const unsigned char *rec;
	struct stream_header sh;
	struct memory_type *mtp;
	char name[MEMTYPE_MAXNAME];
	uint32_t i;
	int error;

	error = stream_header_check(buf, len, kind->type_size,
	    kind->percpu_size, &sh);
	if (error != 0)
		return (_memstat_mtl_fail(list, error));
	_memstat_mtl_begin_pass(list);
	rec = (const unsigned char *)buf + SH_SIZE;
	for (i = 0; i < sh.count; i++, rec += sh.record_size) {
		stream_name(name, rec);
		mtp = _memstat_mtl_lookup(list, kind->allocator, name,
		    sh.maxcpus);
		if (mtp == NULL)
			return (_memstat_mtl_fail_empty(list,
			    MEMSTAT_ERROR_NOMEMORY));
		(sh.swap ? kind->fill_swapped : kind->fill_native)(mtp, rec,
		    sh.maxcpus);
	}
	_memstat_err_code(&list->mtl_err, MEMSTAT_ERROR_UNDEFINED);
	return (0);
}
