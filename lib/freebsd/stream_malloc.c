/*
 * stream_malloc.c: decode a kern.malloc_stats stream into malloc entries,
 * with FreeBSD's libmemstat arithmetic (lib/libmemstat/memstat_malloc.c).
 */
#include "model/memstat_internal.h"
#include "freebsd/stream_layout.h"

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
	mtp->mt_allocated = mtp->mt_count;
}

static void
malloc_fill_native(struct memory_type *mtp, const unsigned char *rec,
    uint32_t maxcpus)
{
	malloc_fill(mtp, rec, maxcpus, false);
}

static void
malloc_fill_swapped(struct memory_type *mtp, const unsigned char *rec,
    uint32_t maxcpus)
{
	malloc_fill(mtp, rec, maxcpus, true);
}

static const struct stream_kind malloc_stream = {
	.allocator = ALLOCATOR_MALLOC,
	.type_size = MTH_SIZE,
	.percpu_size = MTS_SIZE,
	.fill_native = malloc_fill_native,
	.fill_swapped = malloc_fill_swapped,
};

int
memstat_stream_malloc(struct memory_type_list *list, const void *buf, size_t len)
{
	return (_memstat_stream_decode(list, buf, len, &malloc_stream));
}
