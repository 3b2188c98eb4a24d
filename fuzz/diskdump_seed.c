/*
 * diskdump_seed: write a small kdump-compressed file, a fuzz seed for
 * fuzz_diskdump.c, from a real one: the dump's own header and sub-header
 * blocks, a bitmap of one block each (pages kept, pages present) that
 * keeps frames 0 to SEED_PAGES - 1, and as those frames the first pages
 * the dump holds, deflated again by libdeflate with zlib's wrapper, one
 * of them stored whole.  The real dump is 18 MiB, its page data 1.7 MiB
 * in: past what a fuzzer reaches; this one is tens of KiB.
 *
 *	diskdump_seed dump.kdump out
 */
#include <err.h>
#include <fcntl.h>
#include <libdeflate.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kvm/dump/kvm_diskdump_phys.h"

#define PAGE		4096
#define SEED_PAGES	24
#define SCAN_PFNS	(1U << 20)	/* 4 GiB of frames, looking */

static void
put32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, 4);	/* little-endian host: as the dump's */
}

static void
put64(unsigned char *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

int
main(int argc, char *argv[])
{
	static unsigned char head[PAGE], sub[PAGE * 8], page[PAGE],
	    z[SEED_PAGES][PAGE + 64], desc[SEED_PAGES][24], bitmap[2 * PAGE];
	struct libdeflate_compressor *c;
	struct diskdump_phys *dd;
	size_t zlen[SEED_PAGES], n = 0;
	uint32_t nsub;
	struct kvm_dump_file file;
	uint64_t off;
	int fd;
	FILE *out;

	if (argc != 3)
		errx(1, "usage: diskdump_seed dump.kdump out");
	if ((fd = open(argv[1], O_RDONLY)) == -1 ||
	    pread(fd, head, PAGE, 0) != PAGE)
		err(1, "%s", argv[1]);
	file = (struct kvm_dump_file){ .fd = fd };
	memcpy(&nsub, head + 432, 4);
	if (nsub == 0 || nsub > 8 || pread(fd, sub, PAGE * nsub, PAGE) !=
	    (ssize_t)(PAGE * nsub) || _memstat_diskdump_phys_load(&dd,
	    &file, false) != 0 || dd == NULL || (c = libdeflate_alloc_compressor(6)) ==
	    NULL)
		errx(1, "%s: not a kdump-compressed file of 4 KiB pages",
		    argv[1]);
	for (uint64_t pfn = 0; pfn < SCAN_PFNS && n < SEED_PAGES; pfn++) {
		if (!_memstat_diskdump_phys_read(dd, &file, pfn * PAGE, page,
		    PAGE))
			continue;
		if (n == SEED_PAGES / 2) {	/* kept whole */
			memcpy(z[n], page, PAGE);
			zlen[n] = PAGE;
		} else if ((zlen[n] = libdeflate_zlib_compress(c, page, PAGE,
		    z[n], sizeof(z[n]))) == 0)
			errx(1, "cannot deflate a page");
		n++;
	}
	if (n < SEED_PAGES)
		errx(1, "%s: fewer than %d pages", argv[1], SEED_PAGES);
	/* One bitmap block of each kind: 32768 frames, as max_mapnr says. */
	put32(head + 436, 2);
	put32(head + 440, 8 * PAGE);
	put64(sub + 96, 8 * PAGE);		/* max_mapnr_64 */
	for (size_t i = 0; i < SEED_PAGES; i++) {
		bitmap[i / 8] |= 1u << (i % 8);
		bitmap[PAGE + i / 8] |= 1u << (i % 8);
	}
	off = (uint64_t)PAGE * (1 + nsub + 2) + sizeof(desc);
	for (size_t i = 0; i < SEED_PAGES; off += zlen[i++]) {
		put64(desc[i], off);
		put32(desc[i] + 8, (uint32_t)zlen[i]);
		put32(desc[i] + 12, zlen[i] == PAGE ? 0 : 1);
	}
	if ((out = fopen(argv[2], "wb")) == NULL ||
	    fwrite(head, PAGE, 1, out) != 1 ||
	    fwrite(sub, PAGE, nsub, out) != nsub ||
	    fwrite(bitmap, sizeof(bitmap), 1, out) != 1 ||
	    fwrite(desc, sizeof(desc), 1, out) != 1)
		err(1, "%s", argv[2]);
	for (size_t i = 0; i < SEED_PAGES; i++)
		if (fwrite(z[i], zlen[i], 1, out) != 1)
			err(1, "%s", argv[2]);
	if (fclose(out) != 0)
		err(1, "%s", argv[2]);
	libdeflate_free_compressor(c);
	_memstat_diskdump_phys_free(dd);
	close(fd);
	return (0);
}
