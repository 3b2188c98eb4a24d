/*
 * kvm_btf_find.c: the kernel's .BTF section found by its own header where
 * the symbols do not say where it is (no __start_BTF among them, as in
 * the kallsyms of some arm64 kernels, or a System.map that lacks it).
 * RO_DATA() puts .BTF among the read-only data, which lies between the
 * end of the text (_etext) and the end of the data (_edata) on x86-64 and
 * arm64 alike; before the init text (_sinittext) too, which kallsyms name
 * where they name the code only (no CONFIG_KALLSYMS_ALL, Debian's arm64
 * 5.10 and 6.1: no _edata among them).  A page at a time, each 4-byte
 * boundary is held to a BTF header (linux/btf.h): magic 0xeb9f, version
 * 1, a 24-byte header, the types first and the strings right after them,
 * whose first byte is the empty string's NUL, the whole no larger than a
 * kernel's.  A page the dump lacks is passed over.
 */
#include <inttypes.h>
#include <string.h>

#include "kvm/kernel/kvm_finders.h"

#define PAGE		4096
#define HDR_LEN		24
#define MAX_RANGE	((uint64_t)1 << 30)	/* no kernel's rodata is more */

/* BTF's magic, 0xeb9f in the image's byte order, at p. */
static bool
magic_at(const struct memstat_kvm *kvm, const unsigned char *p)
{
	return (_memstat_kvm_uint(kvm, p, 2) == 0xeb9f);
}

/* Whether a BTF blob of the kernel's starts at addr: its end too. */
static bool
btf_at(struct memstat_kvm *kvm, uint64_t addr, uint64_t end, uint64_t max,
    uint64_t *stop)
{
	unsigned char h[HDR_LEN], nul;
	uint64_t total;

	if (_memstat_kvm_read(kvm, addr, h, sizeof(h)) != 0 ||
	    !magic_at(kvm, h) || h[2] != 1 || h[3] != 0 ||
	    _memstat_kvm_u32(kvm, h + 4) != HDR_LEN ||
	    _memstat_kvm_u32(kvm, h + 8) != 0 ||
	    _memstat_kvm_u32(kvm, h + 16) != _memstat_kvm_u32(kvm, h + 12))
		return (false);
	total = (uint64_t)HDR_LEN + _memstat_kvm_u32(kvm, h + 16) +
	    _memstat_kvm_u32(kvm, h + 20);
	if (total > max || total > end - addr ||
	    _memstat_kvm_read(kvm, addr + HDR_LEN +
	    _memstat_kvm_u32(kvm, h + 16), &nul,
	    1) != 0 || nul != 0)
		return (false);
	*stop = addr + total;
	return (true);
}

int
_memstat_kvm_btf_find(struct memstat_kvm *kvm, uint64_t max, uint64_t *start,
    uint64_t *stop)
{
	unsigned char page[PAGE];
	uint64_t from, end;

	if (_memstat_kvm_symbol(kvm, "_etext", &from) != 0 ||
	    (_memstat_kvm_symbol(kvm, "_edata", &end) != 0 &&
	    _memstat_kvm_symbol(kvm, "_sinittext", &end) != 0))
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "neither __start_BTF nor _etext and _edata (or "
		    "_sinittext) are among the kernel's symbols: name its "
		    "types with -N, a vmlinux with a .BTF section or a raw BTF "
		    "file (pahole -J)"));
	if (end <= from || end - from > MAX_RANGE)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "_etext to _edata (or _sinittext) is not the kernel's "
		    "data"));
	for (uint64_t p = from & ~(uint64_t)(PAGE - 1); p < end; p += PAGE) {
		if (_memstat_kvm_read(kvm, p, page, sizeof(page)) != 0)
			continue;
		for (size_t i = 0; i < PAGE; i += 4)
			if (magic_at(kvm, page + i) && p + i >= from &&
			    btf_at(kvm, p + i, end, max, stop)) {
				*start = p + i;
				return (0);
			}
	}
	return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
	    "the kernel has no BTF (CONFIG_DEBUG_INFO_BTF): none in its "
	    "data, and no __start_BTF among its symbols; name its types with "
	    "-N, a vmlinux with a .BTF section or a raw BTF file (pahole -J)"));
}
