/*
 * kvm_kallsyms_find.c: the kallsyms tables of a kernel before 6.0, whose
 * VMCOREINFO names none, found by their structure in its memory (a
 * dump's, or the image of a vmlinuz named by -N: struct kallsyms_memory).
 * They are still there: scripts/kallsyms.c wrote them into the kernel's
 * read-only data, one after the other, each 8-byte aligned:
 *
 *	kallsyms_offsets	s32[num], one per symbol, sorted by address
 *	kallsyms_relative_base	u64, a kernel address
 *	kallsyms_num_syms	u32 (num)
 *	kallsyms_names		per symbol a length byte and that many tokens
 *	kallsyms_markers	u32 or u64[(num + 255) / 256]: where every
 *				256th name starts
 *	kallsyms_token_table	256 NUL-terminated strings
 *	kallsyms_token_index	u16[256]: where each string starts
 *
 * The offsets are the one table large enough to hit by sampling: a page
 * of them is 1,024 numbers moving one way by small steps, which code and
 * most data are not.  The image is sampled one page every PROBE_STEP,
 * from .data (init_uts_ns, which VMCOREINFO names) down to _stext, until
 * a page looks like offsets; then each table is held to the next: the
 * run's end, the count after the base, every marker against the names
 * walked, every token index against the token table.  A candidate that
 * fails any link is passed over, and the sampling goes on.  The same
 * structure is what vmlinux-to-elf finds in kernel images.  Later kernels
 * write the offsets after the token index; their VMCOREINFO names every
 * table (6.0 and later), so nothing needs finding there.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kvm/kernel/kvm_kallsyms_find.h"

/* The dump's memory, for a kallsyms_memory. */
static int
dump_read(void *kvm, uint64_t addr, void *buf, size_t len)
{
	return (_memstat_kvm_read(kvm, addr, buf, len));
}

void
_memstat_kallsyms_ints(const struct kallsyms_memory *m, void *v, size_t n,
    size_t size)
{
	unsigned char *b = v;

	for (size_t i = 0; i < n; i++, b += size) {
		uint64_t x = _memstat_uint_in(b, size, m->big_endian);
		uint32_t x32 = (uint32_t)x;
		uint16_t x16 = (uint16_t)x;

		memcpy(b, size == 8 ? (void *)&x : size == 4 ? (void *)&x32 :
		    (void *)&x16, size);
	}
}

/* n integers of size bytes at addr into v (_memstat_kallsyms_ints). */
static int
read_ints(const struct kallsyms_memory *m, uint64_t addr, void *v, size_t n,
    size_t size)
{
	if (m->read(m->arg, addr, v, n * size) != 0)
		return (-1);
	_memstat_kallsyms_ints(m, v, n, size);
	return (0);
}

#define PAGE		4096u
/* Less than the offsets of any kernel with KALLSYMS_ALL (> 64k symbols). */
#define PROBE_STEP	(64u * 1024)
/* KERNEL_IMAGE_SIZE: the image is never larger. */
#define MAX_IMAGE	(1ULL << 30)
/* Neighbouring symbols are closer than this. */
#define MAX_GAP		(1 << 24)
#define KERNEL_HALF	(1ULL << 63)
#define ALIGN8(a)	(((a) + 7) & ~7ULL)

/*
 * +1 or -1 when n offsets move that way by steps below MAX_GAP, most of
 * them moving (symbols rarely share an address); else 0.
 */
static int
run_direction(const int32_t *v, size_t n)
{
	size_t moves = 0;
	int dir = 0, s;

	for (size_t i = 1; i < n; i++) {
		int64_t d = (int64_t)v[i] - v[i - 1];

		if (d == 0)
			continue;
		if (d >= MAX_GAP || d <= -MAX_GAP)
			return (0);
		s = d > 0 ? 1 : -1;
		if (dir != 0 && s != dir)
			return (0);
		dir = s;
		moves++;
	}
	return (moves >= n / 2 ? dir : 0);
}

/* Whether b follows a in a run of direction dir. */
static bool
continues(int32_t a, int32_t b, int dir)
{
	int64_t d = ((int64_t)b - a) * dir;

	return (d >= 0 && d < MAX_GAP);
}

/*
 * The end of the run of offsets through the page at page: the address of
 * the first value that does not continue it.
 */
static int
run_end(const struct kallsyms_memory *mem, uint64_t page, int dir,
    uint64_t *end)
{
	int32_t v[PAGE / 4], last;
	uint64_t at = page;

	if (read_ints(mem, at, v, PAGE / 4, 4) != 0)
		return (-1);
	last = v[0];
	for (uint64_t n = 0; n < (uint64_t)KVM_MAX_SYMS * 4; n += PAGE) {
		for (size_t i = 0; i < PAGE / 4; i++) {
			if (!continues(last, v[i], dir)) {
				*end = at + i * 4;
				return (0);
			}
			last = v[i];
		}
		at += PAGE;
		/* The page after the tables may not be mapped: they end. */
		if (read_ints(mem, at, v, PAGE / 4, 4) !=
		    0) {
			*end = at;
			return (0);
		}
	}
	return (-1);
}

/*
 * Every offset from start to end stands for an address no lower than the
 * one before, under one of the two encodings with a base: relative to it,
 * or (KALLSYMS_ABSOLUTE_PERCPU, before 6.15) absolute when not negative,
 * which puts the per-CPU symbols' small positive offsets before the rest.
 */
static int
run_holds(const struct kallsyms_memory *mem, uint64_t start, uint64_t end,
    uint64_t base)
{
	int32_t v[PAGE / 4];
	uint64_t abs, rel, last_abs = 0, last_rel = 0;
	bool abs_ok = true, rel_ok = true;
	size_t n;

	for (uint64_t at = start; at < end && (abs_ok || rel_ok);
	    at += n * 4) {
		n = (end - at) / 4 < PAGE / 4 ? (size_t)(end - at) / 4 :
		    PAGE / 4;
		if (read_ints(mem, at, v, n, 4) != 0)
			return (-1);
		for (size_t i = 0; i < n; i++) {
			abs = v[i] >= 0 ? (uint64_t)v[i] :
			    base - 1 - (uint64_t)(int64_t)v[i];
			rel = base + (uint32_t)v[i];
			abs_ok = abs_ok && abs >= last_abs;
			rel_ok = rel_ok && rel >= last_rel;
			last_abs = abs;
			last_rel = rel;
		}
	}
	return (abs_ok || rel_ok ? 0 : -1);
}

/* Names read a page at a time, walked for their lengths only. */
struct byte_reader {
	const struct kallsyms_memory *mem;
	uint64_t	 base;
	unsigned char	 buf[PAGE];
	bool		 loaded;
};

static int
next_byte(struct byte_reader *r, uint64_t addr, unsigned char *c)
{
	if (!r->loaded || addr < r->base || addr >= r->base + PAGE) {
		r->base = addr & ~(uint64_t)(PAGE - 1);
		if (r->mem->read(r->mem->arg, r->base, r->buf, PAGE) != 0)
			return (-1);
		r->loaded = true;
	}
	*c = r->buf[addr - r->base];
	return (0);
}

/*
 * Walk num names from t->names: their end, and where each 256th starts
 * (marks, (num + 255) / 256 of them, relative to the first).
 */
static int
walk_names(const struct kallsyms_memory *mem, const struct kallsyms_tables *t,
    uint32_t num, uint64_t *marks, uint64_t *end)
{
	struct byte_reader *r;
	uint64_t pos = t->names;
	unsigned char c, b;
	uint32_t len;
	int rc = -1;

	if ((r = calloc(1, sizeof(*r))) == NULL)
		return (-1);
	r->mem = mem;
	for (uint32_t i = 0; i < num; i++) {
		if (i % 256 == 0)
			marks[i / 256] = pos - t->names;
		if (next_byte(r, pos++, &c) != 0)
			goto out;
		len = c;
		if (t->long_names && (len & 0x80)) {
			if (next_byte(r, pos++, &b) != 0)
				goto out;
			len = (len & 0x7f) | (uint32_t)b << 7;
		}
		if (len == 0)
			goto out;
		pos += len;
	}
	*end = pos;
	rc = 0;
out:
	free(r);
	return (rc);
}

/* The markers at addr, of esize bytes each, are marks. */
static bool
markers_match(const struct kallsyms_memory *mem, uint64_t addr,
    const uint64_t *marks, uint32_t nmarks, unsigned esize)
{
	uint64_t v;
	uint32_t v32;

	for (uint32_t i = 0; i < nmarks; i++) {
		if (esize == 8 ? read_ints(mem,
		    addr + i * 8ULL, &v, 1, 8) != 0 :
		    read_ints(mem, addr + i * 4ULL, &v32, 1,
		    4) != 0)
			return (false);
		if (esize == 4)
			v = v32;
		if (v != marks[i])
			return (false);
	}
	return (true);
}

/*
 * The token table at t->token_table: 256 strings, then (8-aligned) the
 * index of where each starts.
 */
static bool
tokens_match(const struct kallsyms_memory *mem, struct kallsyms_tables *t)
{
	unsigned char tab[PAGE * 4];
	uint16_t index[256], start[256];
	size_t at = 0;

	if (mem->read(mem->arg, t->token_table, tab, sizeof(tab)) != 0)
		return (false);
	for (int i = 0; i < 256; i++) {
		start[i] = (uint16_t)at;
		while (at < sizeof(tab) && tab[at] != '\0')
			at++;
		if (at++ >= sizeof(tab))
			return (false);
	}
	t->token_index = ALIGN8(t->token_table + at);
	if (read_ints(mem, t->token_index, index, 256, 2) !=
	    0)
		return (false);
	return (memcmp(index, start, sizeof(index)) == 0);
}

/*
 * The tables, if the run of offsets ending at end is kallsyms_offsets:
 * 0, or -1 when a link does not hold.
 */
static int
tables_after(const struct kallsyms_memory *mem, uint64_t page, uint64_t end,
    struct kallsyms_tables *t)
{
	uint64_t base, names_end, marker_at, *marks;
	uint32_t num, nmarks;
	int rc = -1;

	*t = (struct kallsyms_tables){ 0 };
	t->relative_base = ALIGN8(end);
	t->num_syms = t->relative_base + 8;
	t->names = ALIGN8(t->num_syms + 4);
	if (read_ints(mem, t->relative_base, &base, 1, 8) !=
	    0 || read_ints(mem, t->num_syms, &num, 1, 4) !=
	    0 ||
	    (base & KERNEL_HALF) == 0 || num == 0 || num > KVM_MAX_SYMS ||
	    (uint64_t)num * 4 > end || (t->offsets = end - num * 4ULL) > page ||
	    run_holds(mem, t->offsets, end, base) != 0)
		return (-1);
	nmarks = (num + 255) / 256;
	if ((marks = calloc(nmarks, sizeof(*marks))) == NULL)
		return (-1);
	/* Lengths of two bytes (6.1's big symbols), or one. */
	for (int big = 0; big < 2 && rc != 0; big++) {
		t->long_names = big;
		if (walk_names(mem, t, num, marks, &names_end) != 0)
			continue;
		marker_at = ALIGN8(names_end);
		for (unsigned esize = 4; esize <= 8 && rc != 0; esize += 4) {
			if (!markers_match(mem, marker_at, marks, nmarks,
			    esize))
				continue;
			t->token_table = ALIGN8(marker_at +
			    (uint64_t)nmarks * esize);
			if (tokens_match(mem, t))
				rc = 0;
		}
	}
	free(marks);
	return (rc);
}

int
_memstat_kvm_kallsyms_memory(struct memstat_kvm *kvm, struct kallsyms_memory *m)
{
	*m = (struct kallsyms_memory){ .read = dump_read, .arg = kvm,
	    .big_endian = kvm->arch.big_endian };
	if (_memstat_kvm_vmcoreinfo_symbol(kvm, "_stext", &m->stext) != 0)
		return (-1);
	if (_memstat_kvm_vmcoreinfo_symbol(kvm, "init_uts_ns", &m->data) != 0)
		m->data = 0;
	return (0);
}

int
_memstat_kvm_kallsyms_find(const struct kallsyms_memory *mem,
    struct kallsyms_tables *t)
{
	uint64_t data = mem->data, page, end;
	int32_t v[PAGE / 4];
	int dir;

	if (data <= mem->stext || data - mem->stext > MAX_IMAGE)
		data = mem->stext + MAX_IMAGE;
	/* Down from .data: the tables sit at the end of the read-only data. */
	for (page = (data & ~(uint64_t)(PAGE - 1)) - PAGE; page >= mem->stext &&
	    page < data; page -= PROBE_STEP) {
		if (read_ints(mem, page, v, PAGE / 4, 4) !=
		    0 || (dir = run_direction(v, PAGE / 4)) == 0)
			continue;
		if (run_end(mem, page, dir, &end) == 0 &&
		    tables_after(mem, page, end, t) == 0)
			return (0);
	}
	return (-1);
}
