/*
 * kvm_image.c: a kernel image named by -N, as memory at its link-time
 * addresses: a vmlinuz (an x86 bzImage: its payload, the kernel's ELF
 * image compressed with xz, zstd or gzip as Debian's kernels are,
 * decompressed here) or a vmlinux.  An arm64 or riscv64 Image is known
 * by its header and said to be what it is: where a kernel's VMCOREINFO
 * names its kallsyms tables (6.0 on) it is not needed.  kvm_kallsyms_find.c finds the
 * kallsyms tables in it as in a dump.  Every length the file gives is
 * bounded before it is used.
 */
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "kvm/dump/kvm_elf_headers.h"
#include "kvm/kernel/kvm_image.h"

/*
 * The arm64 and riscv64 Image headers' second magic
 * (Documentation/arch/arm64/booting.rst, arch/riscv/boot-image-header.rst).
 */
#define IMAGE_MAGIC	56
/* A kernel image is tens of MiB; no more than this is decompressed. */
#define MAX_IMAGE	((size_t)512 << 20)
/* The x86 boot protocol's setup header (Documentation/arch/x86/boot.rst). */
#define SETUP_SECTS	0x1f1
#define HDRS_MAGIC	0x202
#define PAYLOAD_OFFSET	0x248
#define PAYLOAD_LENGTH	0x24c
#define MAX_SEGMENTS	64

struct kvm_image {
	unsigned char	*elf;
	size_t		 len;
	struct {
		uint64_t vaddr, size, offset;
	}		 seg[MAX_SEGMENTS];
	size_t		 nseg;
};

void
_memstat_kvm_image_free(struct kvm_image *img)
{
	if (img == NULL)
		return;
	free(img->elf);
	free(img);
}

/* A bzImage's header is x86's: little-endian. */
static uint32_t
le32(const unsigned char *p)
{
	return ((uint32_t)_memstat_uint_in(p, 4, false));
}

bool
_memstat_kvm_is_bzimage(const unsigned char *h, size_t n)
{
	return (n > PAYLOAD_LENGTH + 4 && h[0] == 'M' && h[1] == 'Z' &&
	    memcmp(h + HDRS_MAGIC, "HdrS", 4) == 0);
}

const char *
_memstat_kvm_boot_image(const unsigned char *h, size_t n)
{
	if (n < IMAGE_MAGIC + 4)
		return (NULL);
	if (memcmp(h + IMAGE_MAGIC, "ARM\x64", 4) == 0)
		return ("arm64");
	if (memcmp(h + IMAGE_MAGIC, "RSC\x05", 4) == 0)
		return ("riscv64");
	return (NULL);
}

/* The payload decompressed, into a buffer of up to MAX_IMAGE bytes. */
static int
inflate_xz(const unsigned char *in, size_t n, unsigned char *out, size_t *len)
{
	size_t in_pos = 0, out_pos = 0;
	uint64_t memlimit = UINT64_MAX;

	lzma_ret r = lzma_stream_buffer_decode(&memlimit, 0, NULL, in, &in_pos,
	    n, out, &out_pos, MAX_IMAGE);

	*len = out_pos;
	return (r == LZMA_OK ? 0 : -1);
}

static int
inflate_zstd(const unsigned char *in, size_t n, unsigned char *out,
    size_t *len)
{
	size_t r = ZSTD_decompress(out, MAX_IMAGE, in, n);

	if (ZSTD_isError(r))
		return (-1);
	*len = r;
	return (0);
}

static int
inflate_gzip(const unsigned char *in, size_t n, unsigned char *out,
    size_t *len)
{
	z_stream z = { 0 };
	int r;

	if (n > UINT32_MAX || inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return (-1);
	z.next_in = (unsigned char *)(uintptr_t)in;
	z.avail_in = (uInt)n;
	z.next_out = out;
	z.avail_out = (uInt)MAX_IMAGE;
	r = inflate(&z, Z_FINISH);
	*len = z.total_out;
	inflateEnd(&z);
	return (r == Z_STREAM_END ? 0 : -1);
}

/* The bzImage's payload, decompressed: the kernel's ELF image. */
static int
decompress(struct memstat_kvm *kvm, const unsigned char *f, size_t n,
    struct kvm_image *img)
{
	size_t start, off, plen;
	const unsigned char *p;
	int rc = -1;

	start = ((size_t)(f[SETUP_SECTS] ? f[SETUP_SECTS] : 4) + 1) * 512;
	off = le32(f + PAYLOAD_OFFSET);
	plen = le32(f + PAYLOAD_LENGTH);
	if (start > n || off > n - start || plen > n - start - off || plen < 8)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "%s: a bzImage whose payload is not within it",
		    kvm->system));
	p = f + start + off;
	/* The kernel's build appends the image's size (size_append). */
	plen -= 4;
	if ((img->elf = malloc(MAX_IMAGE)) == NULL)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_NOMEMORY, "%s",
		    strerror(ENOMEM)));
	if (memcmp(p, "\3757zXZ", 6) == 0)
		rc = inflate_xz(p, plen, img->elf, &img->len);
	else if (memcmp(p, "\050\265\057\375", 4) == 0)
		rc = inflate_zstd(p, plen, img->elf, &img->len);
	else if (p[0] == 0x1f && p[1] == 0x8b)
		rc = inflate_gzip(p, plen, img->elf, &img->len);
	else
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "%s: a bzImage compressed other than with xz, zstd or "
		    "gzip: decompress it (the kernel's extract-vmlinux) and "
		    "name the vmlinux", kvm->system));
	if (rc != 0)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "%s: its payload does not decompress", kvm->system));
	return (0);
}

/* The ELF image's PT_LOADs, each within it. */
static int
segments(struct memstat_kvm *kvm, struct kvm_image *img)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;

	if (img->len < sizeof(eh))
		goto bad;
	memcpy(&eh, img->elf, sizeof(eh));
	if (!_memstat_elf_ehdr(&eh) || eh.e_phentsize != sizeof(ph) ||
	    eh.e_phoff > img->len ||
	    (size_t)eh.e_phnum * sizeof(ph) > img->len - eh.e_phoff)
		goto bad;
	for (size_t i = 0; i < eh.e_phnum; i++) {
		memcpy(&ph, img->elf + eh.e_phoff + i * sizeof(ph), sizeof(ph));
		_memstat_elf_phdrs(&ph, 1, _memstat_elf_big(&eh));
		if (ph.p_type != PT_LOAD || ph.p_filesz == 0)
			continue;
		if (img->nseg == MAX_SEGMENTS || ph.p_offset > img->len ||
		    ph.p_filesz > img->len - ph.p_offset)
			goto bad;
		img->seg[img->nseg].vaddr = ph.p_vaddr;
		img->seg[img->nseg].size = ph.p_filesz;
		img->seg[img->nseg++].offset = ph.p_offset;
	}
	if (img->nseg > 0)
		return (0);
bad:
	return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
	    "%s: not a 64-bit kernel image", kvm->system));
}

int
_memstat_kvm_image_load(struct memstat_kvm *kvm, FILE *f,
    struct kvm_image **imgp)
{
	struct kvm_image *img;
	unsigned char *file = NULL;
	size_t n = 0, cap = 0, got;
	int rc = -1;

	if ((img = calloc(1, sizeof(*img))) == NULL)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_NOMEMORY, "%s",
		    strerror(ENOMEM)));
	rewind(f);
	do {
		if (n == cap) {
			unsigned char *p;

			cap = cap ? cap * 2 : (size_t)16 << 20;
			if (cap > MAX_IMAGE ||
			    (p = realloc(file, cap)) == NULL) {
				_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
				    "%s: larger than any kernel image",
				    kvm->system);
				goto out;
			}
			file = p;
		}
		n += got = fread(file + n, 1, cap - n, f);
	} while (got > 0);
	if (_memstat_kvm_is_bzimage(file, n))
		rc = decompress(kvm, file, n, img);
	else if (_memstat_kvm_boot_image(file, n) != NULL)
		_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR, "%s: a "
		    "kernel Image (%s's boot format), whose kallsyms are not "
		    "read: VMCOREINFO names no kallsyms tables here (Linux "
		    "before 6.0); name the -dbg package's vmlinux or its "
		    "System.map with -N",
		    kvm->system, _memstat_kvm_boot_image(file, n));
	else {
		img->elf = file;
		img->len = n;
		file = NULL;
		rc = 0;
	}
	if (rc == 0)
		rc = segments(kvm, img);
out:
	free(file);
	if (rc != 0)
		_memstat_kvm_image_free(img);
	else
		*imgp = img;
	return (rc);
}

int
_memstat_kvm_image_read(void *arg, uint64_t addr, void *buf, size_t len)
{
	const struct kvm_image *img = arg;

	for (size_t i = 0; i < img->nseg; i++)
		if (addr >= img->seg[i].vaddr &&
		    addr - img->seg[i].vaddr <= img->seg[i].size &&
		    len <= img->seg[i].size - (addr - img->seg[i].vaddr)) {
			memcpy(buf, img->elf + img->seg[i].offset +
			    (addr - img->seg[i].vaddr), len);
			return (0);
		}
	return (-1);
}
