/*
 * stream_malloc.c: decode a kern.malloc_stats stream into malloc entries,
 * with FreeBSD's libmemstat arithmetic (lib/libmemstat/memstat_malloc.c).
 */
#include "memstat_internal.h"
#include "stream_layout.h"

static inline void
malloc_fill(struct memory_type *mtp, const unsigned char *rec,
    uint32_t maxcpus, bool swap)
{
	struct mt_percpu_alloc *mpa;
	const unsigned char *pc;
	uint32_t cpu;

	pc = rec + MTH_SIZE;
	for (cpu = 0; cpu < maxcpus; cpu++, pc += MTS_SIZE) {
		mpa = &mtp->mt_percpu_alloc[cpu];
		mpa->mtp_memalloced = stream_u64(pc + MTS_MEMALLOCED, swap);
		mpa->mtp_memfreed = stream_u64(pc + MTS_MEMFREED, swap);
		mpa->mtp_numallocs = stream_u64(pc + MTS_NUMALLOCS, swap);
		mpa->mtp_numfrees = stream_u64(pc + MTS_NUMFREES, swap);
		mpa->mtp_sizemask = stream_u64(pc + MTS_SIZEMASK, swap);
		mtp->mt_memalloced += mpa->mtp_memalloced;
		mtp->mt_memfreed += mpa->mtp_memfreed;
		mtp->mt_numallocs += mpa->mtp_numallocs;
		mtp->mt_numfrees += mpa->mtp_numfrees;
		mtp->mt_sizemask |= mpa->mtp_sizemask;
	}
	/*
	 * No clamp here, as in FreeBSD: a racy snapshot wraps, and vmstat -m
	 * prints what FreeBSD's would.
	 */
	mtp->mt_bytes = mtp->mt_memalloced - mtp->mt_memfreed;
	mtp->mt_count = mtp->mt_numallocs - mtp->mt_numfrees;
}

int
memstat_stream_malloc(struct memory_type_list *list, const void *buf,
    size_t len)
{
	const unsigned char *rec;
	struct stream_header sh;
	struct memory_type *mtp;
	char name[MEMTYPE_MAXNAME];
	uint32_t i;
	int error;

	error = _memstat_stream_header_check(buf, len, MTH_SIZE, MTS_SIZE, &sh);
	if (error != 0)
		return (_memstat_mtl_fail(list, error));
	_memstat_mtl_begin_pass(list);
	rec = (const unsigned char *)buf + SH_SIZE;
	for (i = 0; i < sh.count; i++, rec += sh.record_size) {
		_memstat_stream_name(name, rec + MTH_NAME);
		mtp = _memstat_mtl_lookup(list, ALLOCATOR_MALLOC, name, sh.maxcpus);
		if (mtp == NULL)
			return (_memstat_mtl_fail_empty(list, MEMSTAT_ERROR_NOMEMORY));
		if (sh.swap)
			malloc_fill(mtp, rec, sh.maxcpus, true);
		else
			malloc_fill(mtp, rec, sh.maxcpus, false);
	}
	list->mtl_error = MEMSTAT_ERROR_UNDEFINED;
	return (0);
}
