/*
 * kvm_jiffies.c: the image's clock in ticks, how long a tick is, and the
 * time since boot as /proc/uptime says it (memstat_kvm_uptime()).
 *
 * HZ is a build option the image does not name, but the timekeeper
 * keeps the length of one tick for NTP: timekeeper.ntp_tick is
 * NSEC_PER_SEC / HZ in nanoseconds shifted left by NTP_SCALE_SHIFT (32),
 * moved by at most NTP's 500 ppm of frequency correction.  The
 * timekeeper is in tk_core (a struct tk_data since 6.13, before an
 * unnamed struct of a seqcount and the timekeeper) or, since the
 * auxiliary clocks, in timekeeper_data[0].
 */
#include <inttypes.h>
#include <stdlib.h>

#include "kvm/kernel/kvm_finders.h"

#define NTP_SCALE_SHIFT	32
#define NSEC_PER_SEC	1000000000ULL
#define HZ_MAX		100000

/* Where struct timekeeper starts in its container. */
static int
timekeeper_offset(struct memstat_kvm *kvm, uint32_t *off)
{
	struct kvm_member m;
	uint32_t seq;

	if (_memstat_kvm_member(kvm, "tk_data", "timekeeper", &m) == 0) {
		*off = m.offset;
		return (0);
	}
	/* The unnamed struct: the seqcount, then the 8-aligned timekeeper. */
	if (_memstat_kvm_struct_size(kvm, "seqcount_raw_spinlock", &seq) != 0)
		return (-1);
	*off = (seq + 7) & ~7u;
	return (0);
}

/* The timekeeper's address: 0, or -1 with the error recorded. */
static int
timekeeper(struct memstat_kvm *kvm, uint64_t *tk)
{
	uint32_t off;

	if (_memstat_kvm_symbol(kvm, "tk_core", tk) != 0 &&
	    _memstat_kvm_symbol(kvm, "timekeeper_data", tk) != 0)
		return (-1);
	if (timekeeper_offset(kvm, &off) != 0)
		return (-1);
	*tk += off;
	return (0);
}

/*
 * /proc/uptime's clock, the boot-based time, at the timekeeper's last
 * update (a tick ago at most): tkr_mono.base, the monotonic time in
 * whole seconds of xtime (tk_update_ktime_data() leaves xtime's
 * nanoseconds out), plus those nanoseconds (tkr_mono.xtime_nsec, shifted
 * left by tkr_mono.shift), plus the time spent suspended (offs_boot).
 */
int
memstat_kvm_uptime(void *kvm_handle, double *seconds)
{
	struct memstat_kvm *kvm = kvm_handle;
	struct kvm_member mono, base, xnsec, shift, boot;
	uint64_t tk, ns, offs, frac;
	uint32_t sh;

	if (timekeeper(kvm, &tk) != 0 ||
	    _memstat_kvm_member(kvm, "timekeeper", "tkr_mono", &mono) != 0 ||
	    _memstat_kvm_member(kvm, "tk_read_base", "base", &base) != 0 ||
	    _memstat_kvm_member(kvm, "tk_read_base", "xtime_nsec",
	    &xnsec) != 0 ||
	    _memstat_kvm_member(kvm, "tk_read_base", "shift", &shift) != 0 ||
	    _memstat_kvm_member(kvm, "timekeeper", "offs_boot", &boot) != 0 ||
	    base.size != 8 || boot.size != 8 || xnsec.size != 8 ||
	    shift.size != 4 ||
	    _memstat_kvm_read_u64(kvm, tk + mono.offset + base.offset,
	    &ns) != 0 || _memstat_kvm_read_u64(kvm, tk + mono.offset +
	    xnsec.offset, &frac) != 0 || _memstat_kvm_read_u32(kvm, tk +
	    mono.offset + shift.offset, &sh) != 0 ||
	    _memstat_kvm_read_u64(kvm, tk + boot.offset, &offs) != 0)
		return (-1);
	/* Less than a second of nanoseconds, shifted by less than 64. */
	if (sh >= 64 || (frac >> sh) >= NSEC_PER_SEC)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "the timekeeper's nanoseconds read %" PRIu64 " >> %" PRIu32,
		    frac, sh));
	ns += frac >> sh;
	/* ktime_t is signed; neither is negative, nor a century long. */
	if ((int64_t)ns < 0 || (int64_t)offs < 0 ||
	    ns + offs > 100ULL * 366 * 86400 * NSEC_PER_SEC)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "the timekeeper's clock reads %" PRId64 " + %" PRId64
		    " ns since boot", (int64_t)ns, (int64_t)offs));
	*seconds = (double)(ns + offs) / 1e9;
	return (0);
}

int
_memstat_kvm_hz(struct memstat_kvm *kvm, uint64_t *hz)
{
	struct kvm_member ntp_tick;
	uint64_t tk, tick, h;

	if (timekeeper(kvm, &tk) != 0 ||
	    _memstat_kvm_member(kvm, "timekeeper", "ntp_tick",
	    &ntp_tick) != 0 || ntp_tick.size != 8 ||
	    _memstat_kvm_read_u64(kvm, tk + ntp_tick.offset, &tick) != 0)
		return (-1);
	if (tick == 0)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "the timekeeper's tick is 0 ns"));
	h = ((NSEC_PER_SEC << NTP_SCALE_SHIFT) + tick / 2) / tick;
	/* Within 0.1 %: NTP moves a tick by 500 ppm at most. */
	if (h == 0 || h > HZ_MAX || llabs((long long)(tick * h -
	    (NSEC_PER_SEC << NTP_SCALE_SHIFT))) >
	    (long long)((NSEC_PER_SEC << NTP_SCALE_SHIFT) / 1000))
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "the timekeeper's tick (%" PRIu64 ") is no whole "
		    "fraction of a second", tick));
	*hz = h;
	return (0);
}

int
_memstat_kvm_jiffies(struct memstat_kvm *kvm, uint64_t *jiffies)
{
	uint64_t addr;

	if (_memstat_kvm_symbol(kvm, "jiffies_64", &addr) != 0 &&
	    _memstat_kvm_symbol(kvm, "jiffies", &addr) != 0)
		return (-1);
	return (_memstat_kvm_read_u64(kvm, addr, jiffies));
}
