/*
 * stream_uma.c: decode a vm.zone_stats stream into UMA entries, with
 * FreeBSD's libmemstat arithmetic (lib/libmemstat/memstat_uma.c).
 */
#include "model/memstat_internal.h"
#include "freebsd/stream_layout.h"

/* Inlined twice, so each byte order gets a loop with no swap test in it. */
static inline void
uma_fill(struct memory_type *mtp, const unsigned char *rec, uint32_t maxcpus,
    bool swap)
{
	const unsigned char *pc;
	uint64_t allocs, frees, cache_free, limit, keg_free;
	uint32_t cpu;

	allocs = stream_u64(rec + UTH_ALLOCS, swap);
	frees = stream_u64(rec + UTH_FREES, swap);
	cache_free = 0;
	pc = rec + UTH_SIZE;
	for (cpu = 0; cpu < maxcpus; cpu++, pc += UPS_SIZE) {
		allocs += stream_u64(pc + UPS_ALLOCS, swap);
		frees += stream_u64(pc + UPS_FREES, swap);
		mtp->mt_percpu_free[cpu] = stream_u64(pc + UPS_CACHE_FREE, swap);
		cache_free += mtp->mt_percpu_free[cpu];
	}
	/*
	 * counter(9) snapshots (FreeBSD 12+) can show more frees than
	 * allocations; FreeBSD clamps so that count cannot wrap.
	 */
	if (allocs < frees)
		allocs = frees;

	mtp->mt_numallocs = allocs;
	mtp->mt_numfrees = frees;
	mtp->mt_failures = stream_u64(rec + UTH_FAILS, swap);
	mtp->mt_sleeps = stream_u64(rec + UTH_SLEEPS, swap);
	mtp->mt_xdomain = stream_u64(rec + UTH_XDOMAIN, swap);
	mtp->mt_size = stream_u32(rec + UTH_SIZE_FIELD, swap);
	mtp->mt_rsize = stream_u32(rec + UTH_RSIZE, swap);
	mtp->mt_memalloced = allocs * mtp->mt_size;
	mtp->mt_memfreed = frees * mtp->mt_size;
	mtp->mt_bytes = mtp->mt_memalloced - mtp->mt_memfreed;
	limit = stream_u32(rec + UTH_LIMIT, swap);
	mtp->mt_countlimit = limit;
	mtp->mt_byteslimit = limit * mtp->mt_size;
	mtp->mt_count = allocs - frees;
	mtp->mt_allocated = mtp->mt_count;
	mtp->mt_zonefree = stream_u32(rec + UTH_ZONE_FREE, swap);

	/*
	 * The keg rule.  Every zone of a keg reports the whole keg's free
	 * items; only the primary zone may count them, or items freed to a
	 * shared keg (mbuf_packet on the mbuf keg) are counted twice.
	 */
	keg_free = stream_u32(rec + UTH_KEG_FREE, swap);
	if (!(stream_u32(rec + UTH_ZONE_FLAGS, swap) & UTH_ZONE_SECONDARY))
		mtp->mt_kegfree = keg_free;
	mtp->mt_free = cache_free + mtp->mt_zonefree + mtp->mt_kegfree;
}

static void
uma_fill_native(struct memory_type *mtp, const unsigned char *rec,
    uint32_t maxcpus)
{
	uma_fill(mtp, rec, maxcpus, false);
}

static void
uma_fill_swapped(struct memory_type *mtp, const unsigned char *rec,
    uint32_t maxcpus)
{
	uma_fill(mtp, rec, maxcpus, true);
}

static const struct stream_kind uma_stream = {
	.allocator = ALLOCATOR_UMA,
	.type_size = UTH_SIZE,
	.percpu_size = UPS_SIZE,
	.fill_native = uma_fill_native,
	.fill_swapped = uma_fill_swapped,
};

int
memstat_stream_uma(struct memory_type_list *list, const void *buf, size_t len)
{
	return (_memstat_stream_decode(list, buf, len, &uma_stream));
}
