/*
 * kvm_flat.c: makedumpfile's flattened format (-F), which Debian's
 * kdump-tools always writes and libkdumpfile 0.5.1 cannot open.  It is a
 * 4096-byte header ("makedumpfile", type 1, version 1, big-endian) and
 * then records {be64 offset, be64 size, size bytes} that place data in
 * the real (kdump-compressed) file, ending with offset -1.  Reassembly
 * writes each record at its offset in an unlinked temporary file, copied
 * by the kernel (copy_file_range), so the dump is never held in memory.
 */
/* O_TMPFILE and copy_file_range(2) are Linux's. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kvm/kvm_file.h"

#define FLAT_SIGNATURE	"makedumpfile"
#define FLAT_HEADER	4096
#define FLAT_END	UINT64_MAX
/* A dump file no bigger than this: far beyond any RAM, bounds a bad size. */
#define FLAT_MAX_OFFSET	((uint64_t)1 << 48)

static uint64_t
be64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return (v);
}

static int
temp_file(void)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	int fd;

	if (dir == NULL || *dir == '\0')
		dir = "/tmp";
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd != -1 || errno != EOPNOTSUPP)
		return (fd);
	/* A file system without O_TMPFILE: a named file, unlinked at once. */
	snprintf(path, sizeof(path), "%s/memstat-flat-XXXXXX", dir);
	if ((fd = mkstemp(path)) != -1)
		unlink(path);
	return (fd);
}

/* Copy len bytes from in at inoff to out at outoff: 0 or an errno. */
static int
copy_range(int in, off_t inoff, int out, off_t outoff, uint64_t len)
{
	char buf[65536];
	ssize_t n, w;

	while (len > 0) {
		n = copy_file_range(in, &inoff, out, &outoff,
		    len > (1u << 30) ? (1u << 30) : (size_t)len, 0);
		if (n > 0) {
			len -= (uint64_t)n;
			continue;
		}
		if (n == 0)
			return (EIO);	/* the stream ended inside a record */
		if (errno != EXDEV && errno != EINVAL && errno != ENOSYS &&
		    errno != EOPNOTSUPP)
			return (errno);
		/* No kernel copy between these files: through a buffer. */
		n = pread(in, buf, len < sizeof(buf) ? (size_t)len :
		    sizeof(buf), inoff);
		if (n <= 0)
			return (n == 0 ? EIO : errno);
		if ((w = pwrite(out, buf, (size_t)n, outoff)) != n)
			return (w < 0 ? errno : EIO);
		inoff += n;
		outoff += n;
		len -= (uint64_t)n;
	}
	return (0);
}

/* Reassemble the flattened stream on fd: a new descriptor, or -1. */
static int
unflatten(struct memstat_kvm *kvm, int fd)
{
	unsigned char hdr[32], rec[16];
	uint64_t off, size, pos, end;
	struct stat st;
	ssize_t n;
	int out, error;

	if ((n = pread(fd, hdr, sizeof(hdr), 0)) != (ssize_t)sizeof(hdr))
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM,
		    "flattened dump header cut short: %s", n < 0 ?
		    strerror(errno) : "end of file"));
	if (be64(hdr + 16) != 1 || be64(hdr + 24) != 1)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM,
		    "flattened dump of unknown type %" PRIu64 " version %"
		    PRIu64, be64(hdr + 16), be64(hdr + 24)));
	if (fstat(fd, &st) != 0)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM, "%s",
		    strerror(errno)));
	end = (uint64_t)st.st_size;
	if ((out = temp_file()) == -1)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM,
		    "flattened dump: temporary file: %s", strerror(errno)));
	/* Each record takes 16 bytes or more, so the loop ends. */
	for (pos = FLAT_HEADER;; pos += 16 + size) {
		if (pos > end - 16 || end < 16 ||
		    pread(fd, rec, sizeof(rec), (off_t)pos) != (ssize_t)sizeof(rec)) {
			error = EIO;
			break;
		}
		off = be64(rec);
		size = be64(rec + 8);
		if (off == FLAT_END) {
			error = 0;
			break;
		}
		if (size > end - pos - 16 || off > FLAT_MAX_OFFSET ||
		    size > FLAT_MAX_OFFSET - off) {
			error = EIO;
			break;
		}
		if ((error = copy_range(fd, (off_t)(pos + 16), out, (off_t)off,
		    size)) != 0)
			break;
	}
	if (error != 0) {
		close(out);
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM,
		    "flattened dump cut short or corrupt at byte %" PRIu64
		    " (%s)", pos, strerror(error)));
	}
	return (out);
}

int
_memstat_kvm_unflatten(struct memstat_kvm *kvm, int fd)
{
	char sig[sizeof(FLAT_SIGNATURE)];
	int out;

	if (pread(fd, sig, sizeof(sig), 0) != (ssize_t)sizeof(sig) ||
	    memcmp(sig, FLAT_SIGNATURE, sizeof(sig)) != 0)
		return (fd);
	out = unflatten(kvm, fd);
	close(fd);
	return (out);
}
