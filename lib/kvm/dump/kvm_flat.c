/*
 * kvm_flat.c: makedumpfile's flattened stream, read in place (see
 * kvm_flat.h).  The stream is a 4096-byte header ("makedumpfile", type
 * 1, version 1, big-endian) and then records {be64 offset, be64 size,
 * size bytes} that place data in the real (kdump-compressed) file,
 * ending with offset -1.  Only the records' 16-byte heads are read to
 * index them: reassembling a 16 GiB guest's 0.5 GB stream into a file
 * (its every byte read and written again) cost 5 to 14 times the report
 * on the file.  The index is by offset in the file, so a read is a
 * search and a pread(2) of the stream for each record it covers.  A
 * stream whose records place a byte twice (the later one wins) is read
 * only reassembled, its records written in their order.
 */
/* O_TMPFILE is Linux's. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <sys/mman.h>
#include <sys/stat.h>

#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kvm/dump/kvm_bytes.h"
#include "kvm/dump/kvm_flat.h"

#define FLAT_SIGNATURE	"makedumpfile"
#define FLAT_HEADER	4096
#define FLAT_HEAD	16		/* a record's offset and size */
#define FLAT_END	UINT64_MAX
/* A dump file no bigger than this: far beyond any RAM, bounds a bad size. */
#define FLAT_MAX_OFFSET	((uint64_t)1 << 48)
/* The stream is read this much at a time to find its records. */
#define SCAN_BLOCK	((size_t)1 << 18)
/* A reassembly writes this much at a time. */
#define COPY_BLOCK	((size_t)1 << 18)

/* A record: len bytes of the file at off, in the stream at from. */
struct flat_extent {
	uint64_t	 off, len, from;
};

struct kvm_flat {
	struct flat_extent *ext;	/* by off; by from when not in place */
	size_t		 n, cap;
	uint64_t	 size;		/* the file's: its last byte's end */
	bool		 in_place;	/* no byte placed twice */
};

static uint64_t
be64(const unsigned char *p)
{
	return (_memstat_uint_in(p, 8, true));
}

/* All of [off, off + len) of fd: 0, or -1 with errno (EIO at its end). */
static int
pread_all(int fd, void *buf, size_t len, uint64_t off)
{
	ssize_t n;

	for (size_t done = 0; done < len; done += (size_t)n) {
		n = pread(fd, (char *)buf + done, len - done,
		    (off_t)(off + done));
		if (n < 0 && errno == EINTR)
			n = 0;
		else if (n <= 0) {
			if (n == 0)
				errno = EIO;
			return (-1);
		}
	}
	return (0);
}

static int
add_extent(struct kvm_flat *flat, uint64_t off, uint64_t len, uint64_t from)
{
	if (flat->n == flat->cap) {
		size_t cap = flat->cap == 0 ? 1024 : flat->cap * 2;
		struct flat_extent *ext;

		if (cap > SIZE_MAX / sizeof(*ext) ||
		    (ext = realloc(flat->ext, cap * sizeof(*ext))) == NULL) {
			errno = ENOMEM;
			return (-1);
		}
		flat->ext = ext;
		flat->cap = cap;
	}
	flat->ext[flat->n++] = (struct flat_extent){ off, len, from };
	if (off + len > flat->size)
		flat->size = off + len;
	return (0);
}

/*
 * The stream read in order, a block at a time, by two readers in turn:
 * this thread reads the even blocks, a helper the odd ones ahead into a
 * ring of its own.  A pread(2) of each record's head cost 1.7 us a
 * record where system calls are slow (a virtual machine's): 56 ms for a
 * 16 GiB guest's 34,000 records, more than half the report on the
 * reassembled file.  Reading every byte a MiB at a time cost 39 ms on
 * one CPU and 28 on two.
 */
#define RING		8		/* odd blocks read ahead */

struct blocks {
	int		 fd;
	uint64_t	 end;		/* the stream's size */
	unsigned char	*mem;		/* every buffer, one mapping */
	unsigned char	*even;		/* this thread's */
	unsigned char	*ring[RING];	/* the helper's */
	ssize_t		 ring_len[RING];	/* what each read gave */
	uint64_t	 next;		/* the block to hand out next */
	/* The odd blocks between the helper and the scan, by count. */
	pthread_t	 tid;
	pthread_mutex_t	 lock;
	pthread_cond_t	 cond;
	uint64_t	 odd_read, odd_used;
	bool		 helper, stop, scan_waits, helper_waits;
};

static ssize_t
block_read(const struct blocks *b, unsigned char *buf, uint64_t k)
{
	uint64_t at = FLAT_HEADER + k * SCAN_BLOCK;
	ssize_t n;

	if (at >= b->end)
		return (0);
	while ((n = pread(b->fd, buf, SCAN_BLOCK, (off_t)at)) < 0 &&
	    errno == EINTR)
		;
	return (n);
}

/*
 * The helper: the odd blocks, as far ahead of the scan as its ring.
 * Once the ring is full it sleeps until half of it is scanned, and each
 * side wakes the other only when that one sleeps: a wake-up a block
 * cost more than the second reader saved.
 */
static void *
odd_blocks(void *arg)
{
	struct blocks *b = arg;
	bool stop;
	ssize_t n;

	for (uint64_t j = 0; ; j++) {
		pthread_mutex_lock(&b->lock);
		if (j - b->odd_used >= RING)
			while (j - b->odd_used > RING / 2 && !b->stop) {
				b->helper_waits = true;
				pthread_cond_wait(&b->cond, &b->lock);
			}
		b->helper_waits = false;
		stop = b->stop;
		pthread_mutex_unlock(&b->lock);
		if (stop)
			return (NULL);
		n = block_read(b, b->ring[j % RING], 2 * j + 1);
		pthread_mutex_lock(&b->lock);
		b->ring_len[j % RING] = n;
		b->odd_read = j + 1;
		if (b->scan_waits)
			pthread_cond_broadcast(&b->cond);
		pthread_mutex_unlock(&b->lock);
		if (n <= 0)
			return (NULL);
	}
}

/*
 * The next block's bytes, *len of them (0 at the stream's end, -1 when
 * it cannot be read), and *at, where it starts in the stream.
 */
static const unsigned char *
block_next(struct blocks *b, ssize_t *len, uint64_t *at)
{
	uint64_t k = b->next++, j = k / 2;
	unsigned char *p;

	*at = FLAT_HEADER + k * SCAN_BLOCK;
	if (k % 2 == 0 || !b->helper) {
		p = k % 2 == 0 ? b->even : b->ring[0];
		*len = block_read(b, p, k);
		return (p);
	}
	pthread_mutex_lock(&b->lock);
	/* The odd block before is scanned: its slot is the helper's. */
	b->odd_used = j;
	if (b->helper_waits && b->odd_read - j <= RING / 2)
		pthread_cond_broadcast(&b->cond);
	while (b->odd_read <= j) {
		b->scan_waits = true;
		pthread_cond_wait(&b->cond, &b->lock);
	}
	b->scan_waits = false;
	*len = b->ring_len[j % RING];
	pthread_mutex_unlock(&b->lock);
	return (b->ring[j % RING]);
}

/*
 * The buffers, and the helper where the stream is long enough: 0, or -1
 * when memory runs out.  They are mapped populated: a first touch of
 * each page cost about what reading into it did where page faults are
 * slow.
 */
static int
blocks_start(struct blocks *b, int fd, uint64_t end)
{
	*b = (struct blocks){ .fd = fd, .end = end };
	if ((b->mem = mmap(NULL, (1 + RING) * SCAN_BLOCK, PROT_READ |
	    PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1,
	    0)) == MAP_FAILED)
		return (-1);
	b->even = b->mem;
	for (size_t i = 0; i < RING; i++)
		b->ring[i] = b->mem + (1 + i) * SCAN_BLOCK;
	/* Without a helper (a short stream), this thread reads every block. */
	if (end <= FLAT_HEADER + 2 * SCAN_BLOCK ||
	    pthread_mutex_init(&b->lock, NULL) != 0)
		return (0);
	if (pthread_cond_init(&b->cond, NULL) != 0) {
		pthread_mutex_destroy(&b->lock);
		return (0);
	}
	if (!(b->helper = pthread_create(&b->tid, NULL, odd_blocks, b) ==
	    0)) {
		pthread_cond_destroy(&b->cond);
		pthread_mutex_destroy(&b->lock);
	}
	return (0);
}

static void
blocks_stop(struct blocks *b)
{
	if (b->helper) {
		pthread_mutex_lock(&b->lock);
		b->stop = true;
		pthread_cond_broadcast(&b->cond);
		pthread_mutex_unlock(&b->lock);
		(void)pthread_join(b->tid, NULL);
		pthread_cond_destroy(&b->cond);
		pthread_mutex_destroy(&b->lock);
	}
	munmap(b->mem, (1 + RING) * SCAN_BLOCK);
}

/*
 * The records from the header on into flat, block by block: a record's
 * head may lie across two blocks, and a record's bytes across many.  0,
 * or -1 with why (and errno ENOMEM when memory ran out).
 */
static int
scan(struct kvm_flat *flat, struct blocks *b, char *why, size_t len)
{
	unsigned char head[FLAT_HEAD];
	const unsigned char *p;
	uint64_t pos = FLAT_HEADER, at, off, size, k;
	size_t have = 0;	/* bytes of the head at pos gathered */
	ssize_t n;

	/* Each record takes 16 bytes or more: pos moves, the loop ends. */
	while (b->end >= FLAT_HEAD && pos <= b->end - FLAT_HEAD &&
	    (p = block_next(b, &n, &at)) != NULL && n > 0) {
		/* A block cut short (the file under us) leaves a gap. */
		if (pos + have < at)
			break;
		while (pos + have < at + (uint64_t)n) {
			k = at + (uint64_t)n - (pos + have);
			if (k > FLAT_HEAD - have)
				k = FLAT_HEAD - have;
			memcpy(head + have, p + (pos + have - at), (size_t)k);
			if ((have += (size_t)k) < FLAT_HEAD)
				break;
			have = 0;
			off = be64(head);
			size = be64(head + 8);
			if (off == FLAT_END)
				return (0);
			if (size > b->end - pos - FLAT_HEAD ||
			    off > FLAT_MAX_OFFSET ||
			    size > FLAT_MAX_OFFSET - off)
				goto corrupt;
			if (size > 0 && add_extent(flat, off, size,
			    pos + FLAT_HEAD) != 0) {
				snprintf(why, len, "flattened dump: %s",
				    strerror(ENOMEM));
				return (-1);
			}
			pos += FLAT_HEAD + size;
			if (pos > b->end - FLAT_HEAD)
				break;
		}
	}
corrupt:
	snprintf(why, len, "flattened dump cut short or corrupt at byte %"
	    PRIu64 " (%s)", pos, strerror(EIO));
	errno = EIO;
	return (-1);
}

static int
by_off(const void *a, const void *b)
{
	const struct flat_extent *x = a, *y = b;

	if (x->off != y->off)
		return ((x->off > y->off) - (x->off < y->off));
	return ((x->from > y->from) - (x->from < y->from));
}

static int
by_from(const void *a, const void *b)
{
	const struct flat_extent *x = a, *y = b;

	return ((x->from > y->from) - (x->from < y->from));
}

int
_memstat_flat_index(int fd, struct kvm_flat **flatp, char *why, size_t len)
{
	char sig[sizeof(FLAT_SIGNATURE)];
	unsigned char hdr[32];
	struct kvm_flat *flat;
	struct blocks b;
	struct stat st;
	ssize_t n;
	int rc;

	*flatp = NULL;
	if (pread(fd, sig, sizeof(sig), 0) != (ssize_t)sizeof(sig) ||
	    memcmp(sig, FLAT_SIGNATURE, sizeof(sig)) != 0)
		return (0);
	if ((n = pread(fd, hdr, sizeof(hdr), 0)) != (ssize_t)sizeof(hdr)) {
		snprintf(why, len, "flattened dump header cut short: %s",
		    n < 0 ? strerror(errno) : "end of file");
		return (-1);
	}
	if (be64(hdr + 16) != 1 || be64(hdr + 24) != 1) {
		snprintf(why, len, "flattened dump of unknown type %" PRIu64
		    " version %" PRIu64, be64(hdr + 16), be64(hdr + 24));
		return (-1);
	}
	if (fstat(fd, &st) != 0) {
		snprintf(why, len, "%s", strerror(errno));
		return (-1);
	}
	if ((flat = calloc(1, sizeof(*flat))) == NULL) {
		snprintf(why, len, "flattened dump: %s", strerror(ENOMEM));
		return (-1);
	}
	if (blocks_start(&b, fd, (uint64_t)st.st_size) != 0) {
		_memstat_flat_free(flat);
		snprintf(why, len, "flattened dump: %s", strerror(ENOMEM));
		errno = ENOMEM;
		return (-1);
	}
	rc = scan(flat, &b, why, len);
	blocks_stop(&b);
	if (rc != 0) {
		_memstat_flat_free(flat);
		return (-1);
	}
	/* From the stream's order to the file's; the stream's breaks ties. */
	qsort(flat->ext, flat->n, sizeof(*flat->ext), by_off);
	flat->in_place = true;
	for (size_t i = 1; i < flat->n && flat->in_place; i++)
		flat->in_place = flat->ext[i].off >= flat->ext[i - 1].off +
		    flat->ext[i - 1].len;
	*flatp = flat;
	return (0);
}

bool
_memstat_flat_in_place(const struct kvm_flat *flat)
{
	return (flat->in_place);
}

uint64_t
_memstat_flat_size(const struct kvm_flat *flat)
{
	return (flat->size);
}

ssize_t
_memstat_flat_pread(const struct kvm_flat *flat, int fd, void *buf,
    size_t len, uint64_t off)
{
	const struct flat_extent *e = flat->ext;
	size_t lo = 0, hi = flat->n, done = 0;
	uint64_t at, k;

	if (off >= flat->size)
		return (0);
	if (len > flat->size - off)
		len = (size_t)(flat->size - off);
	if (len > SSIZE_MAX)
		len = SSIZE_MAX;
	/* The first record that ends past off. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (e[mid].off + e[mid].len <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; done < len; ) {
		at = off + done;
		if (i == flat->n || e[i].off > at) {
			/* No record holds these: zeros, as in a sparse file. */
			k = i == flat->n || e[i].off - at > len - done ?
			    len - done : e[i].off - at;
			memset((char *)buf + done, 0, (size_t)k);
		} else {
			k = e[i].off + e[i].len - at;
			if (k > len - done)
				k = len - done;
			if (pread_all(fd, (char *)buf + done, (size_t)k,
			    e[i].from + (at - e[i].off)) != 0)
				return (-1);
			i++;
		}
		done += (size_t)k;
	}
	return ((ssize_t)len);
}

/* The buffered run of the file, written at off once it is done. */
struct flat_run {
	int		 fd;
	unsigned char	*buf;
	size_t		 len;
	uint64_t	 off;
};

static int
flush(struct flat_run *run)
{
	size_t done = 0;
	ssize_t w;

	while (done < run->len) {
		w = pwrite(run->fd, run->buf + done, run->len - done,
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

/* Each record's bytes, in the index's order, from fd into run's file. */
static int
copy(const struct kvm_flat *flat, int fd, struct flat_run *run)
{
	int error;

	for (size_t i = 0; i < flat->n; i++) {
		const struct flat_extent *e = &flat->ext[i];

		if (run->len > 0 && run->off + run->len != e->off &&
		    (error = flush(run)) != 0)
			return (error);
		if (run->len == 0)
			run->off = e->off;
		for (uint64_t done = 0, k; done < e->len; done += k) {
			k = e->len - done < COPY_BLOCK - run->len ?
			    e->len - done : COPY_BLOCK - run->len;
			if (pread_all(fd, run->buf + run->len, (size_t)k,
			    e->from + done) != 0)
				return (errno);
			run->len += (size_t)k;
			if (run->len == COPY_BLOCK && (error = flush(run)) != 0)
				return (error);
		}
	}
	return (flush(run));
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

int
_memstat_flat_reassemble(struct kvm_flat *flat, int fd)
{
	struct flat_run run = { .fd = -1 };
	int error;

	/* The records' own order: where two place a byte, the later wins. */
	if (!flat->in_place)
		qsort(flat->ext, flat->n, sizeof(*flat->ext), by_from);
	if ((run.buf = malloc(COPY_BLOCK)) == NULL) {
		errno = ENOMEM;
		return (-1);
	}
	if ((run.fd = temp_file()) == -1)
		error = errno;
	else
		error = copy(flat, fd, &run);
	free(run.buf);
	if (error != 0) {
		if (run.fd != -1)
			close(run.fd);
		errno = error;
		return (-1);
	}
	return (run.fd);
}

void
_memstat_flat_free(struct kvm_flat *flat)
{
	if (flat == NULL)
		return;
	free(flat->ext);
	free(flat);
}
