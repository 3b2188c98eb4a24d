/*
 * kvm_image.c: a dump in memory, read through the same reader interface
 * as libkdumpfile (kvm/dump/kvm_handle.h).  Memory records are sorted and merged
 * into disjoint segments, so a read is one binary search.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "kvm_image.h"
#include "kvm/dump/kvm_handle.h"

#define MAX_RECORDS	65536

struct segment {
	uint64_t	 addr;
	size_t		 len;
	const uint8_t	*data;		/* into the image's copy */
};

struct image_symbol {
	char		 name[256];
	uint64_t	 addr;
};

struct kvm_image {
	struct segment		*segs;
	size_t			 nsegs;
	struct image_symbol	*syms;
	size_t			 nsyms;
	uint8_t			*merged;	/* the segments' bytes */
};

static uint64_t
get_le(const uint8_t *p, int n)
{
	uint64_t v = 0;

	while (n-- > 0)
		v = v << 8 | p[n];
	return (v);
}

static int
cmp_seg(const void *a, const void *b)
{
	const struct segment *x = a, *y = b;

	return (x->addr < y->addr ? -1 : x->addr > y->addr);
}

/* Sorted, overlapping and touching records made one (the first wins). */
static void
merge(struct kvm_image *img)
{
	struct segment *out = img->segs;
	uint8_t *dst = img->merged;
	size_t n = 0;

	qsort(img->segs, img->nsegs, sizeof(*img->segs), cmp_seg);
	for (size_t i = 0; i < img->nsegs; i++) {
		struct segment s = img->segs[i];
		struct segment *last = n > 0 ? &out[n - 1] : NULL;

		if (last != NULL && s.addr <= last->addr + last->len) {
			uint64_t end = s.addr + s.len;

			if (end > last->addr + last->len) {
				size_t skip = (size_t)(last->addr +
				    last->len - s.addr);

				memcpy(dst, s.data + skip, s.len - skip);
				dst += s.len - skip;
				last->len += s.len - skip;
			}
			continue;
		}
		memcpy(dst, s.data, s.len);
		out[n++] = (struct segment){ s.addr, s.len, dst };
		dst += s.len;
	}
	img->nsegs = n;
}

struct kvm_image *
kvm_image_parse(const uint8_t *data, size_t len)
{
	struct kvm_image *img;
	size_t pos = 0;

	if ((img = calloc(1, sizeof(*img))) == NULL ||
	    (img->segs = calloc(MAX_RECORDS, sizeof(*img->segs))) == NULL ||
	    (img->syms = calloc(64, sizeof(*img->syms))) == NULL ||
	    (img->merged = malloc(len + 1)) == NULL)
		abort();
	while (pos < len) {
		if (data[pos] == 'S' && pos + 2 <= len &&
		    pos + 2 + data[pos + 1] + 8 <= len && img->nsyms < 64) {
			size_t n = data[pos + 1];
			struct image_symbol *s = &img->syms[img->nsyms++];

			memcpy(s->name, data + pos + 2, n);
			s->name[n] = '\0';
			s->addr = get_le(data + pos + 2 + n, 8);
			pos += 2 + n + 8;
		} else if (data[pos] == 'M' && pos + 13 <= len &&
		    img->nsegs < MAX_RECORDS) {
			uint64_t addr = get_le(data + pos + 1, 8);
			size_t n = (size_t)get_le(data + pos + 9, 4);

			if (n > len - pos - 13 || addr + n < addr)
				break;
			img->segs[img->nsegs++] = (struct segment){ addr, n,
			    data + pos + 13 };
			pos += 13 + n;
		} else
			break;
	}
	merge(img);
	return (img);
}

void
kvm_image_free(struct kvm_image *img)
{
	if (img == NULL)
		return;
	free(img->segs);
	free(img->syms);
	free(img->merged);
	free(img);
}

static int
image_read(struct memstat_kvm *kvm, uint64_t addr, void *buf, size_t len)
{
	const struct kvm_image *img = kvm->reader_arg;
	size_t lo = 0, hi = img->nsegs;

	/* The last segment starting at or before addr. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (img->segs[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo > 0) {
		const struct segment *s = &img->segs[lo - 1];

		if (addr - s->addr <= s->len && len <= s->len -
		    (addr - s->addr)) {
			memcpy(buf, s->data + (addr - s->addr), len);
			return (0);
		}
	}
	return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM_SHORTREAD,
	    "cannot read %zu bytes at 0x%" PRIx64 ": not in the image", len,
	    addr));
}

static int
image_symbol(struct memstat_kvm *kvm, const char *name, uint64_t *addr)
{
	const struct kvm_image *img = kvm->reader_arg;

	for (size_t i = 0; i < img->nsyms; i++)
		if (strcmp(img->syms[i].name, name) == 0) {
			*addr = img->syms[i].addr;
			return (0);
		}
	return (-1);
}

static const struct kvm_reader image_reader = {
	.name = "image",
	.read = image_read,
	.vmcoreinfo_symbol = image_symbol,
};

struct memstat_kvm *
kvm_image_handle(struct kvm_image *img)
{
	struct memstat_kvm *kvm;

	if ((kvm = calloc(1, sizeof(*kvm))) == NULL)
		abort();
	kvm->reader = &image_reader;
	kvm->reader_arg = img;
	return (kvm);
}

/* Recording: the real reader underneath, and where the records go. */
struct recorder {
	const struct kvm_reader	*inner;
	void			*inner_arg;
	FILE			*out;
	char			 patch_name[256];
	uint64_t		 patch_addr;
	bool			 patch_known;
	uint32_t		 patch_max;
};

static void
put_le(FILE *out, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		fputc((int)(v >> (8 * i) & 0xff), out);
}

/* The real reader, for one call through the handle's own functions. */
static struct recorder *
to_inner(struct memstat_kvm *kvm)
{
	struct recorder *r = kvm->reader_arg;

	kvm->reader = r->inner;
	kvm->reader_arg = r->inner_arg;
	return (r);
}

static const struct kvm_reader recording_reader;

static void
back_to_recording(struct memstat_kvm *kvm, struct recorder *r)
{
	kvm->reader = &recording_reader;
	kvm->reader_arg = r;
}

static int
recording_read(struct memstat_kvm *kvm, uint64_t addr, void *buf, size_t len)
{
	struct recorder *r;
	uint32_t v;
	int rc;

	r = to_inner(kvm);
	rc = _memstat_kvm_read(kvm, addr, buf, len);
	back_to_recording(kvm, r);
	if (rc != 0)
		return (rc);
	if (r->patch_known && addr == r->patch_addr && len == 4) {
		memcpy(&v, buf, 4);
		if (v > r->patch_max)
			v = r->patch_max;
		memcpy(buf, &v, 4);
	}
	fputc('M', r->out);
	put_le(r->out, addr, 8);
	put_le(r->out, len, 4);
	fwrite(buf, 1, len, r->out);
	return (0);
}

static int
recording_symbol(struct memstat_kvm *kvm, const char *name, uint64_t *addr)
{
	struct recorder *r;
	int rc;

	r = to_inner(kvm);
	rc = _memstat_kvm_vmcoreinfo_symbol(kvm, name, addr);
	back_to_recording(kvm, r);
	if (rc != 0)
		return (rc);
	if (strcmp(name, r->patch_name) == 0) {
		r->patch_addr = *addr;
		r->patch_known = true;
	}
	fputc('S', r->out);
	fputc((int)strlen(name), r->out);
	fputs(name, r->out);
	put_le(r->out, *addr, 8);
	return (0);
}

/* The real reader closes what it opened; the recorder goes with it. */
static void
recording_close(struct memstat_kvm *kvm)
{
	struct recorder *r = to_inner(kvm);

	if (kvm->reader->close != NULL)
		kvm->reader->close(kvm);
	free(r);
}

static const struct kvm_reader recording_reader = {
	.name = "recorder",
	.read = recording_read,
	.vmcoreinfo_symbol = recording_symbol,
	.close = recording_close,
};

void
kvm_image_record(struct memstat_kvm *kvm, FILE *out, const char *patch_name,
    uint32_t patch_max)
{
	struct recorder *r;

	if ((r = calloc(1, sizeof(*r))) == NULL)
		abort();
	r->inner = kvm->reader;
	r->inner_arg = kvm->reader_arg;
	r->out = out;
	if (patch_name != NULL)
		snprintf(r->patch_name, sizeof(r->patch_name), "%s",
		    patch_name);
	r->patch_max = patch_max;
	back_to_recording(kvm, r);
}
