/*
 * kvm_flat.c: makedumpfile's flattened format (-F), which Debian's
 * kdump-tools always writes and libkdumpfile 0.5.1 cannot open.  It is a
 * 4096-byte header ("makedumpfile", type 1, version 1, big-endian) and
 * then records {be64 offset, be64 size, size bytes} that place data in
 * the real (kdump-compressed) file, ending with offset -1.  Reassembly
 * writes each record at its offset in an unlinked temporary file, so the
 * dump is never held in memory.  The records are small (makedumpfile
 * writes a few pages at a time) and mostly follow one another in the
 * file: the stream is read a block at a time and each run of records
 * that follow one another written at once, as a copy or a write for
 * each record was most of a large dump's report.
 */
/* O_TMPFILE is Linux's. */
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

#include "kvm/dump/kvm_file.h"

#define FLAT_SIGNATURE	"makedumpfile"
#define FLAT_HEADER	4096
#define FLAT_END	UINT64_MAX
/* A dump file no bigger than this: far beyond any RAM, bounds a bad size. */
#define FLAT_MAX_OFFSET	((uint64_t)1 << 48)
/* The stream read, and a run written, this much at a time. */
#define FLAT_BLOCK	((size_t)1 << 18)

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

/* The stream, read in order a block at a time. */
struct flat_in {
	int		 fd;
	unsigned char	*buf;
	size_t		 len, at;	/* bytes in buf; the next one */
	uint64_t	 pos;		/* the stream's offset of buf[at] */
};

/* The next n bytes of the stream into dst: 0 or an errno. */
static int
flat_read(struct flat_in *in, unsigned char *dst, size_t n)
{
	while (n > 0) {
		if (in->at == in->len) {
			ssize_t got = pread(in->fd, in->buf, FLAT_BLOCK,
			    (off_t)in->pos);

			if (got <= 0)
				return (got == 0 ? EIO : errno);
			in->len = (size_t)got;
			in->at = 0;
		}
		size_t k = in->len - in->at < n ? in->len - in->at : n;

		memcpy(dst, in->buf + in->at, k);
		in->at += k;
		in->pos += k;
		dst += k;
		n -= k;
	}
	return (0);
}

/* The run of the file gathered so far, to be written at off. */
struct flat_run {
	int		 fd;
	unsigned char	*buf;
	size_t		 len;
	uint64_t	 off;
};

static int
flat_flush(struct flat_run *run)
{
	size_t done = 0;

	while (done < run->len) {
		ssize_t w = pwrite(run->fd, run->buf + done, run->len - done,
		    (off_t)(run->off + done));

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return (w < 0 ? errno : EIO);
		done += (size_t)w;
	}
	run->off += run->len;
	run->len = 0;
	return (0);
}

/*
 * One record's size bytes, from the stream, at off in the file: added to
 * the run if they follow it, else after it is written.  0 or an errno.
 */
static int
flat_place(struct flat_in *in, struct flat_run *run, uint64_t off,
    uint64_t size)
{
	int error;

	if (run->len > 0 && run->off + run->len != off &&
	    (error = flat_flush(run)) != 0)
		return (error);
	if (run->len == 0)
		run->off = off;
	while (size > 0) {
		size_t k = FLAT_BLOCK - run->len < size ?
		    FLAT_BLOCK - run->len : (size_t)size;

		if ((error = flat_read(in, run->buf + run->len, k)) != 0)
			return (error);
		run->len += k;
		size -= k;
		if (run->len == FLAT_BLOCK && (error = flat_flush(run)) != 0)
			return (error);
	}
	return (0);
}

/* The records after the header, from in into run: 0 or an errno. */
static int
flat_records(struct flat_in *in, struct flat_run *run, uint64_t end,
    uint64_t *pos)
{
	unsigned char rec[16];
	uint64_t off, size;
	int error;

	/* Each record takes 16 bytes or more, so the loop ends. */
	for (;;) {
		*pos = in->pos;
		if (end < 16 || *pos > end - 16 ||
		    flat_read(in, rec, sizeof(rec)) != 0)
			return (EIO);
		off = be64(rec);
		size = be64(rec + 8);
		if (off == FLAT_END)
			return (flat_flush(run));
		if (size > end - *pos - 16 || off > FLAT_MAX_OFFSET ||
		    size > FLAT_MAX_OFFSET - off)
			return (EIO);
		if ((error = flat_place(in, run, off, size)) != 0)
			return (error);
	}
}

/* Reassemble the flattened stream on fd: a new descriptor, or -1. */
static int
unflatten(struct memstat_kvm *kvm, int fd)
{
	unsigned char hdr[32];
	struct flat_in in = { .fd = fd, .pos = FLAT_HEADER };
	struct flat_run run = { .fd = -1 };
	uint64_t pos = FLAT_HEADER;
	struct stat st;
	ssize_t n;
	int error;

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
	if ((in.buf = malloc(FLAT_BLOCK)) == NULL ||
	    (run.buf = malloc(FLAT_BLOCK)) == NULL) {
		free(in.buf);
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_NOMEMORY, "%s",
		    memstat_strerror(MEMSTAT_ERROR_NOMEMORY)));
	}
	if ((run.fd = temp_file()) == -1)
		error = errno;
	else
		error = flat_records(&in, &run, (uint64_t)st.st_size, &pos);
	free(in.buf);
	free(run.buf);
	if (run.fd == -1)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM,
		    "flattened dump: temporary file: %s", strerror(error)));
	if (error != 0) {
		close(run.fd);
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM,
		    "flattened dump cut short or corrupt at byte %" PRIu64
		    " (%s)", pos, strerror(error)));
	}
	return (run.fd);
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
