/*
 * kvm_diskdump_phys.c: a kdump-compressed file's physical memory, page by
 * page (see kvm_diskdump_phys.h).  The file is makedumpfile's layout: a
 * header block, sub_hdr_size blocks of sub-header, bitmap_blocks blocks
 * of bitmap (two when they hold twice the pages: which pages the machine
 * had, then which the dump kept), and then a 24-byte descriptor for each
 * kept page, in frame order: so a page's descriptor is its bit's rank
 * among the kept.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libdeflate.h>

#include "kvm/dump/kvm_bytes.h"
#include "kvm/dump/kvm_diskdump_phys.h"
#include "kvm/dump/kvm_dump_file.h"
#include "kvm/dump/kvm_vmcoreinfo_text.h"

/* struct disk_dump_header of a 64-bit kernel, and kdump_sub_header's. */
#define DH_VERSION	8
#define DH_BLOCK_SIZE	428
#define DH_SUB_BLOCKS	432
#define DH_BITMAP_BLOCKS 436
#define DH_MAX_MAPNR	440
#define DH_SIZE		464
#define SUB_SPLIT	12
#define SUB_VMCOREINFO	32		/* offset, size: header_version 3 on */
#define SUB_NOTES	48		/* offset, size: header_version 4 on */
#define SUB_MAX_MAPNR64	96		/* header_version 6 and later */
#define SUB_SIZE	104
#define DESC_SIZE	24		/* offset, size, flags, page_flags */
#define DESC_ZLIB	0x1		/* DUMP_DH_COMPRESSED_ZLIB */
/* Beyond any page size, or a bitmap of 8 TiB of memory: libkdumpfile's. */
#define MAX_PAGE	(64 * 1024)
#define MAX_BITMAP	((uint64_t)256 << 20)
/* Notes of far more CPUs than any machine has (PRSTATUS: 336 bytes). */
#define MAX_NOTES	((uint64_t)16 << 20)
/*
 * Decompressed pages kept, by frame number, 1 MiB of them (256 4 KiB
 * pages): the walk reads a cache's structures, its nodes' and their
 * slabs' page structures again and again, and with 64 kept a quarter of
 * its inflating was of pages it had inflated before.  A read of whole
 * pages (the BTF, the kallsyms) is inflated straight where it goes and
 * keeps none.
 */
#define CACHE_BYTES	(1u << 20)
#define RUN_MAX		16		/* pages read in one go: 64 KiB */
#define GROUP_WORDS	8		/* bits counted once per 512 */
/*
 * The file is read ahead, through a window on the descriptors and one on
 * the pages (a run's worth): a cache's slabs are walked in frame order,
 * so the next slab's descriptors and bytes most often follow the last's.
 */
#define DESC_WINDOW	4096		/* 170 pages' descriptors */
#define DATA_AHEAD	(16 * 1024)	/* 4 to 32 KiB: all alike */
/*
 * A read of this many whole pages or more is inflated by every CPU, a
 * share each: the BTF (4 to 6 MiB) is the most of what a report reads
 * of a filtered dump, and a thread costs tens of microseconds.
 */
#define SHARED_MIN	128
#define PAGERS_MAX	8

/* Bytes of the file from off, as the last read of them left them. */
struct window {
	uint64_t	 off;
	size_t		 len, size;	/* held, and room for */
	size_t		 ahead;		/* read at least this much */
	unsigned char	*buf;
};

/* What reads pages from the file: its windows on it, its inflater. */
struct pager {
	struct libdeflate_decompressor *inflater;
	struct window	 descs, data;
};

struct diskdump_phys {
	uint64_t	*bits;		/* the kept pages, a bit each */
	uint64_t	*rank;		/* bits set before each group */
	uint64_t	 npfn;		/* frames the bitmap covers */
	uint64_t	 desc_off;	/* descriptor 0, in the file */
	uint64_t	 info_off, info_len;	/* VMCOREINFO, in the file */
	uint64_t	 notes_off, notes_len;	/* the ELF notes, in the file */
	uint64_t	 file_size;
	uint32_t	 page, shift;
	bool		 big;		/* the dumped machine's byte order */
	struct pager	 pager;
	struct pager	*helpers;	/* the other CPUs', once shared */
	size_t		 nhelpers;
	bool		 shared;	/* helpers made, or found not to be */
	size_t		 nslots;	/* the cache's pages, a power of 2 */
	unsigned char	*pages;		/* the cache's */
	uint64_t	*cached;	/* each slot's pfn + 1, or 0 */
};

/* A kept page: where its bytes are, how many, and how kept. */
struct page_desc {
	uint64_t	 off;
	uint32_t	 size, flags;
};

/*
 * [off, off + len) of the file: from the window, or read into it from off
 * on, as far as it holds.  NULL when the file holds less.
 */
static const unsigned char *
window_read(struct window *w, const struct kvm_dump_file *f, uint64_t off,
    size_t len)
{
	ssize_t n;

	if (off >= w->off && len <= w->len && off - w->off <= w->len - len)
		return (w->buf + (off - w->off));
	w->len = 0;
	if (len > w->size || (n = _memstat_dump_pread(f, w->buf,
	    len > w->ahead ? len : w->ahead, off)) < 0 || (size_t)n < len)
		return (NULL);
	w->off = off;
	w->len = (size_t)n;
	return (w->buf);
}

/* A header's or descriptor's field, in the dumped machine's order. */
static uint64_t
field(const struct diskdump_phys *dd, const unsigned char *p, int n)
{
	return (_memstat_uint_in(p, (size_t)n, dd->big));
}

/*
 * The header's geometry, if this reads the dump: its page size, where
 * its kept-page bitmap is and how many frames it covers.
 */
static bool
geometry(struct diskdump_phys *dd, const struct kvm_dump_file *f,
    uint64_t *bitmap_off,
    uint64_t *bitmap_len)
{
	unsigned char h[DH_SIZE], sub[SUB_SIZE];
	uint64_t version, block, nsub, nbitmap, npfn;

	if (_memstat_dump_pread_all(f, h, sizeof(h), 0) != 0 ||
	    memcmp(h, "KDUMP   ", 8) != 0)
		return (false);
	version = field(dd, h + DH_VERSION, 4);
	block = field(dd, h + DH_BLOCK_SIZE, 4);
	nsub = field(dd, h + DH_SUB_BLOCKS, 4);
	nbitmap = field(dd, h + DH_BITMAP_BLOCKS, 4);
	npfn = field(dd, h + DH_MAX_MAPNR, 4);
	if (block < 512 || block > MAX_PAGE || (block & (block - 1)) != 0 ||
	    version < 1 || version > 0x7fffffff || nbitmap == 0 ||
	    _memstat_dump_pread_all(f, sub, sizeof(sub), block) != 0 ||
	    field(dd, sub + SUB_SPLIT, 4) != 0)
		return (false);
	if (version >= 6)
		npfn = field(dd, sub + SUB_MAX_MAPNR64, 8);
	if (version >= 3) {
		dd->info_off = field(dd, sub + SUB_VMCOREINFO, 8);
		dd->info_len = field(dd, sub + SUB_VMCOREINFO + 8, 8);
	}
	if (version >= 4) {
		dd->notes_off = field(dd, sub + SUB_NOTES, 8);
		dd->notes_len = field(dd, sub + SUB_NOTES + 8, 8);
	}
	dd->page = (uint32_t)block;
	for (dd->shift = 0; (1U << dd->shift) < dd->page; dd->shift++)
		;
	/* Each factor is below 2^32, block below 2^17: no overflow. */
	*bitmap_off = (1 + nsub) * block;
	*bitmap_len = nbitmap * block;
	dd->desc_off = (1 + nsub + nbitmap) * block;
	/* Two bitmaps when both fit: the second is of the pages kept. */
	if (npfn <= *bitmap_len * 8 / 2) {
		*bitmap_len /= 2;
		*bitmap_off += *bitmap_len;
	}
	dd->npfn = npfn < *bitmap_len * 8 ? npfn : *bitmap_len * 8;
	return (*bitmap_len % 8 == 0 && *bitmap_len <= MAX_BITMAP &&
	    dd->desc_off <= dd->file_size);
}

/* The bitmap, and each group's count of the bits before it. */
static int
index_bitmap(struct diskdump_phys *dd, const struct kvm_dump_file *f,
    uint64_t off, uint64_t len,
    bool *usable)
{
	size_t nwords = (size_t)(len / 8), ngroups;
	uint64_t total = 0;

	ngroups = (nwords + GROUP_WORDS - 1) / GROUP_WORDS;
	if ((dd->bits = calloc(ngroups * GROUP_WORDS, 8)) == NULL ||
	    (dd->rank = calloc(ngroups + 1, sizeof(*dd->rank))) == NULL)
		return (-1);
	*usable = _memstat_dump_pread_all(f, dd->bits, (size_t)len, off) == 0;
	for (size_t i = 0; *usable && i < ngroups * GROUP_WORDS; i++) {
		if (i % GROUP_WORDS == 0)
			dd->rank[i / GROUP_WORDS] = total;
		/* Bytes of bits, pfn % 8 the low one, whatever the order. */
		dd->bits[i] = _memstat_uint_in((const unsigned char *)
		    &dd->bits[i], 8, false);
		total += (uint64_t)__builtin_popcountll(dd->bits[i]);
	}
	return (0);
}

static int
pager_init(struct pager *pg, uint32_t page)
{
	pg->descs = (struct window){ .size = DESC_WINDOW,
	    .ahead = DESC_WINDOW };
	pg->data = (struct window){ .size = (size_t)page * RUN_MAX,
	    .ahead = DATA_AHEAD };
	if ((pg->descs.buf = malloc(pg->descs.size)) == NULL ||
	    (pg->data.buf = malloc(pg->data.size)) == NULL ||
	    (pg->inflater = libdeflate_alloc_decompressor()) == NULL)
		return (-1);
	return (0);
}

static void
pager_free(struct pager *pg)
{
	if (pg->inflater != NULL)
		libdeflate_free_decompressor(pg->inflater);
	free(pg->descs.buf);
	free(pg->data.buf);
}

int
_memstat_diskdump_phys_load(struct diskdump_phys **ddp,
    const struct kvm_dump_file *f, bool big)
{
	struct diskdump_phys *dd;
	uint64_t off, len;
	uint64_t size;
	bool usable = false;

	*ddp = NULL;
	if (_memstat_dump_size(f, &size) != 0)
		return (0);
	if ((dd = calloc(1, sizeof(*dd))) == NULL)
		return (-1);
	dd->file_size = size;
	dd->big = big;
	if (!geometry(dd, f, &off, &len)) {
		free(dd);
		return (0);
	}
	dd->nslots = CACHE_BYTES / dd->page;
	if (index_bitmap(dd, f, off, len, &usable) != 0 ||
	    pager_init(&dd->pager, dd->page) != 0 ||
	    (dd->pages = malloc((size_t)dd->page * dd->nslots)) == NULL ||
	    (dd->cached = calloc(dd->nslots, sizeof(*dd->cached))) == NULL) {
		_memstat_diskdump_phys_free(dd);
		return (-1);
	}
	if (!usable) {
		_memstat_diskdump_phys_free(dd);
		return (0);
	}
	*ddp = dd;
	return (0);
}

/* Whether the dump kept pfn (else it left the page out). */
static bool
kept(const struct diskdump_phys *dd, uint64_t pfn)
{
	return (pfn < dd->npfn && (dd->bits[pfn / 64] >> (pfn % 64) & 1));
}

/* A kept pfn's bit's rank among the kept: its descriptor's index. */
static uint64_t
rank_of(const struct diskdump_phys *dd, uint64_t pfn)
{
	uint64_t w = pfn / 64, bit = 1ULL << (pfn % 64), rank;

	rank = dd->rank[w / GROUP_WORDS];
	for (uint64_t i = w - w % GROUP_WORDS; i < w; i++)
		rank += (uint64_t)__builtin_popcountll(dd->bits[i]);
	return (rank + (uint64_t)__builtin_popcountll(dd->bits[w] &
	    (bit - 1)));
}

/*
 * The descriptors of the kept pages from pfn on, at most n of them, read
 * in one go, up to the first that is not one this reads: how many.
 */
static size_t
descriptors(const struct diskdump_phys *dd, struct pager *pg,
    const struct kvm_dump_file *f,
    uint64_t pfn, size_t n, struct page_desc *pd)
{
	const unsigned char *d;
	size_t k = 1;

	if (!kept(dd, pfn))
		return (0);
	while (k < n && k < RUN_MAX && kept(dd, pfn + k))
		k++;
	if ((d = window_read(&pg->descs, f, dd->desc_off + rank_of(dd, pfn) *
	    DESC_SIZE, k * DESC_SIZE)) == NULL)
		return (0);
	for (size_t i = 0; i < k; i++) {
		const unsigned char *e = d + i * DESC_SIZE;

		pd[i].off = field(dd, e, 8);
		pd[i].size = (uint32_t)field(dd, e + 8, 4);
		pd[i].flags = (uint32_t)field(dd, e + 12, 4);
		if (pd[i].off > dd->file_size ||
		    pd[i].size > dd->file_size - pd[i].off ||
		    (pd[i].flags == 0 ? pd[i].size != dd->page :
		    pd[i].flags != DESC_ZLIB || pd[i].size == 0 ||
		    pd[i].size > dd->page))
			return (i);
	}
	return (k);
}

/*
 * The pages from pfn on, at most n, into to, page after page, or where
 * to is NULL into the cache: how many, 0 when pfn's cannot be read
 * here.  Pages whose bytes follow each other in the file (a slab's, as
 * makedumpfile writes in frame order) are one read.
 */
static size_t
load_run(struct diskdump_phys *dd, struct pager *pg,
    const struct kvm_dump_file *f, uint64_t pfn,
    size_t n, unsigned char *to)
{
	struct page_desc pd[RUN_MAX];
	size_t k = descriptors(dd, pg, f, pfn, n, pd), done = 0, end;
	const unsigned char *p;
	uint64_t bytes;

	for (; done < k; done = end) {
		bytes = pd[done].size;
		for (end = done + 1; end < k && pd[end].off == pd[end - 1].off +
		    pd[end - 1].size; end++)
			bytes += pd[end].size;
		if ((p = window_read(&pg->data, f, pd[done].off,
		    (size_t)bytes)) == NULL)
			return (done);
		for (size_t i = done; i < end; p += pd[i++].size) {
			size_t slot = (size_t)((pfn + i) & (dd->nslots - 1));
			unsigned char *page = to != NULL ? to + i * dd->page :
			    dd->pages + slot * dd->page;

			if (to == NULL)
				dd->cached[slot] = 0;
			/* The whole page, its checksum checked, or nothing. */
			if (pd[i].flags == 0)
				memcpy(page, p, dd->page);
			else if (libdeflate_zlib_decompress(pg->inflater, p,
			    pd[i].size, page, dd->page, NULL) !=
			    LIBDEFLATE_SUCCESS)
				return (i);
			if (to == NULL)
				dd->cached[slot] = pfn + i + 1;
		}
	}
	return (done);
}

/* n pages from pfn on into to: how many from pfn on, as load_run. */
static size_t
load_pages(struct diskdump_phys *dd, struct pager *pg,
    const struct kvm_dump_file *f, uint64_t pfn,
    size_t n, unsigned char *to)
{
	size_t done = 0, k;

	while (done < n && (k = load_run(dd, pg, f, pfn + done, n - done <
	    RUN_MAX ? n - done : RUN_MAX, to + done * dd->page)) > 0)
		done += k;
	return (done);
}

/* One pager's share of a read, and how much of it was read. */
struct share {
	struct diskdump_phys *dd;
	struct pager	*pg;
	const struct kvm_dump_file *f;
	uint64_t	 pfn;
	size_t		 n, done;
	unsigned char	*to;
};

static void *
share_load(void *arg)
{
	struct share *sh = arg;

	sh->done = load_pages(sh->dd, sh->pg, sh->f, sh->pfn, sh->n, sh->to);
	return (NULL);
}

/* A pager for each other online CPU, made at the first shared read. */
static void
make_helpers(struct diskdump_phys *dd)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t want;

	dd->shared = true;
	if (cpus < 2)
		return;
	want = (size_t)cpus - 1 < PAGERS_MAX - 1 ? (size_t)cpus - 1 :
	    PAGERS_MAX - 1;
	if ((dd->helpers = calloc(want, sizeof(*dd->helpers))) == NULL)
		return;
	while (dd->nhelpers < want &&
	    pager_init(&dd->helpers[dd->nhelpers], dd->page) == 0)
		dd->nhelpers++;
	/* One that could not be made is freed too. */
	if (dd->nhelpers < want)
		pager_free(&dd->helpers[dd->nhelpers]);
}

/*
 * n whole pages from pfn on into to, a share for each pager, each but
 * ours in a thread of its own (one that cannot be started is ours too):
 * how many from pfn on were read.
 */
static size_t
load_shared(struct diskdump_phys *dd, const struct kvm_dump_file *f,
    uint64_t pfn, size_t n,
    unsigned char *to)
{
	struct share sh[PAGERS_MAX];
	pthread_t tid[PAGERS_MAX];
	bool started[PAGERS_MAX] = { false };
	size_t np = dd->nhelpers + 1, per = (n + np - 1) / np, done = 0;

	for (size_t i = 0; i < np; i++) {
		size_t first = i * per < n ? i * per : n;

		sh[i] = (struct share){ .dd = dd, .f = f, .pfn = pfn + first,
		    .pg = i == 0 ? &dd->pager : &dd->helpers[i - 1],
		    .n = n - first < per ? n - first : per,
		    .to = to + first * dd->page };
		if (i > 0 && sh[i].n > 0)
			started[i] = pthread_create(&tid[i], NULL, share_load,
			    &sh[i]) == 0;
	}
	for (size_t i = 0; i < np; i++) {
		if (started[i])
			(void)pthread_join(tid[i], NULL);
		else
			share_load(&sh[i]);
	}
	for (size_t i = 0; i < np && done == i * per; i++)
		done += sh[i].done;
	return (done);
}

bool
_memstat_diskdump_phys_read(struct diskdump_phys *dd,
    const struct kvm_dump_file *f, uint64_t paddr, void *buf, size_t len)
{
	unsigned char *to = buf;

	if (dd == NULL)
		return (false);
	while (len > 0) {
		uint64_t pfn = paddr >> dd->shift;
		size_t slot = (size_t)(pfn & (dd->nslots - 1));
		size_t at = (size_t)(paddr & (dd->page - 1));
		size_t n = dd->page - at < len ? dd->page - at : len;
		/* This page and those the rest of the read covers, a run's. */
		size_t rest = (len - n) / dd->page + ((len - n) % dd->page != 0);
		size_t pages = rest < RUN_MAX ? 1 + rest : RUN_MAX, k;

		/* Whole pages: inflated where they go, many by every CPU. */
		if (at == 0 && len >= dd->page && dd->cached[slot] != pfn + 1) {
			pages = len / dd->page;
			if (pages >= SHARED_MIN && !dd->shared)
				make_helpers(dd);
			if (pages >= SHARED_MIN && dd->nhelpers > 0)
				k = load_shared(dd, f, pfn, pages, to);
			else
				k = load_run(dd, &dd->pager, f, pfn, pages <
				    RUN_MAX ? pages : RUN_MAX, to);
			if (k == 0)
				return (false);
			to += k * dd->page;
			paddr += k * dd->page;
			len -= k * dd->page;
			continue;
		}
		if (dd->cached[slot] != pfn + 1 &&
		    load_run(dd, &dd->pager, f, pfn, pages, NULL) == 0)
			return (false);
		memcpy(to, dd->pages + slot * dd->page + at, n);
		to += n;
		paddr += n;
		len -= n;
	}
	return (true);
}

/* [off, off + len) of the file into a new buffer, one byte more: NULL. */
static unsigned char *
read_new(const struct diskdump_phys *dd, const struct kvm_dump_file *f,
    uint64_t off, uint64_t len, bool *nomem)
{
	unsigned char *p;

	if (len == 0 || len > MAX_NOTES || off > dd->file_size ||
	    len > dd->file_size - off)
		return (NULL);
	if ((p = malloc((size_t)len + 1)) == NULL) {
		*nomem = true;
		return (NULL);
	}
	if (_memstat_dump_pread_all(f, p, (size_t)len, off) != 0) {
		free(p);
		return (NULL);
	}
	return (p);
}

int
_memstat_diskdump_phys_vmcoreinfo(const struct diskdump_phys *dd,
    const struct kvm_dump_file *f, char **text, bool *in_notes)
{
	unsigned char *p;
	bool nomem = false;

	*text = NULL;
	*in_notes = false;
	/*
	 * The header's VMCOREINFO if it is one: QEMU 7.2 puts it where the
	 * notes would have ended had every CPU's been the first's, and an
	 * arm64 guest's CPUs' SVE notes differ in length: there it points
	 * into zeros, and the note itself is among the notes.
	 */
	if ((p = read_new(dd, f, dd->info_off, dd->info_len, &nomem)) !=
	    NULL) {
		p[dd->info_len] = '\0';
		if (_memstat_vmcoreinfo_value((char *)p, "OSRELEASE",
		    &(size_t){ 0 }) != NULL) {
			*text = (char *)p;
			return (0);
		}
		free(p);
	}
	if ((p = read_new(dd, f, dd->notes_off, dd->notes_len, &nomem)) !=
	    NULL && _memstat_vmcoreinfo_in_notes(p, (size_t)dd->notes_len,
	    dd->big, text) != 0)
		nomem = true;
	*in_notes = *text != NULL;
	free(p);
	return (nomem ? -1 : 0);
}

uint64_t
_memstat_diskdump_phys_end(const struct diskdump_phys *dd)
{
	return (dd->npfn << dd->shift);
}

bool
_memstat_diskdump_phys_left_out(const struct diskdump_phys *dd,
    uint64_t paddr, size_t len, uint64_t *left)
{
	uint64_t last;

	if (dd == NULL || len == 0 || paddr + len < paddr)
		return (false);
	last = (paddr + len - 1) >> dd->shift;
	for (uint64_t pfn = paddr >> dd->shift; pfn <= last; pfn++)
		if (pfn < dd->npfn && !kept(dd, pfn)) {
			*left = pfn << dd->shift;
			return (true);
		}
	return (false);
}

void
_memstat_diskdump_phys_free(struct diskdump_phys *dd)
{
	if (dd == NULL)
		return;
	pager_free(&dd->pager);
	for (size_t i = 0; i < dd->nhelpers; i++)
		pager_free(&dd->helpers[i]);
	free(dd->helpers);
	free(dd->bits);
	free(dd->rank);
	free(dd->cached);
	free(dd->pages);
	free(dd);
}
