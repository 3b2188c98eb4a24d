/*
 * record_cpu.c: a CPU's reader.  It sleeps in poll(2) until the kernel
 * says the CPU's buffer is buffer_percent full, then splices every full
 * page out (trace_pipe_raw -> pipe -> file, no copy through user space).
 * Polling without blocking would be handed pages the writer has not filled,
 * again and again (spec/tracing.md 2.1).  At the stop, with tracing off,
 * it splices the full pages left and reads the last partial ones.
 *
 * libtracefs 1.6.4 has tracefs_cpu_write() for this, but a short splice
 * into the file leaves bytes in its pipe that tracefs_cpu_flush_write()
 * never writes, and a full disk shows only as a short count: the loop is
 * here, on the descriptor libtracefs opens.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record_cpu.h"

#define COPY_BUF	65536
/*
 * Written bytes are handed to the disk every WRITEBACK_BYTES, without
 * waiting: the wait at the stop (written_back()) is then for the last of
 * them only, not for all the recording at once.
 */
#define WRITEBACK_BYTES	(8U << 20)

static int
fail(struct cpu_reader *r, const char *what)
{
	r->error = errno != 0 ? errno : EIO;
	r->failed = what;
	return (-1);
}

/* Writes all of buf; a full disk is ENOSPC, never a short count. */
static int
write_all(struct cpu_reader *r, const char *buf, size_t n)
{
	while (n > 0) {
		ssize_t m = write(r->out, buf, n);

		if (m < 0 && errno == EINTR)
			continue;
		if (m <= 0) {
			if (m == 0)
				errno = ENOSPC;
			return (fail(r, "write"));
		}
		buf += m;
		n -= (size_t)m;
		r->bytes += (uint64_t)m;
	}
	return (0);
}

/* Moves n bytes from the pipe to the file. */
static int
pipe_to_file(struct cpu_reader *r, size_t n)
{
	static __thread char buf[COPY_BUF];

	while (n > 0) {
		ssize_t m;

		if (!r->no_splice) {
			m = splice(r->pipe[0], NULL, r->out, NULL, n,
			    SPLICE_F_MOVE);
			if (m < 0 && errno == EINVAL) {
				/* A file system without splice_write. */
				r->no_splice = true;
				continue;
			}
			if (m < 0 && errno == EINTR)
				continue;
			if (m <= 0) {
				if (m == 0)
					errno = ENOSPC;
				return (fail(r, "write"));
			}
			r->bytes += (uint64_t)m;
		} else {
			m = read(r->pipe[0], buf, n < COPY_BUF ? n : COPY_BUF);
			if (m < 0 && errno == EINTR)
				continue;
			if (m <= 0)
				return (fail(r, "read from pipe"));
			if (write_all(r, buf, (size_t)m) != 0)
				return (-1);
		}
		n -= (size_t)m;
	}
	return (0);
}

/* Starts the disk's writing of what was written since the last start. */
static void
start_writeback(struct cpu_reader *r)
{
	if (r->bytes - r->written_back < WRITEBACK_BYTES)
		return;
	/* Only a hint: a file system that cannot is written at the stop. */
	(void)sync_file_range(r->out, (off_t)r->written_back,
	    (off_t)(r->bytes - r->written_back), SYNC_FILE_RANGE_WRITE);
	r->written_back = r->bytes;
}

/*
 * After the last page: waits until the disk has every byte of the file,
 * and takes a failed write there (EIO, or ENOSPC where the file system
 * finds out only then) as the reader's failure.  Not fsync(2): that also
 * forces the file's metadata out, one block at a time on ext4 without a
 * journal (65 ms at the end of a 110 MB recording here, against 6 for
 * the data), and a crash of the machine loses the recording's other
 * files anyway, which are not forced out either.
 */
static int
written_back(struct cpu_reader *r)
{
	if (sync_file_range(r->out, 0, 0, SYNC_FILE_RANGE_WAIT_BEFORE |
	    SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER) != 0)
		return (fail(r, "write back"));
	return (0);
}

/*
 * Every full page the kernel has: splice hands out only full pages and
 * says EAGAIN when there is none.  Bounded: each round moves at least a
 * page, and the writer cannot outrun a reader that only moves pages for
 * long, as it stops at the buffer's end (overwrite off).
 */
static int
drain_full_pages(struct cpu_reader *r)
{
	for (;;) {
		ssize_t n = splice(r->raw, NULL, r->pipe[1], NULL,
		    r->pipe_size, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);

		if (n > 0) {
			if (pipe_to_file(r, (size_t)n) != 0)
				return (-1);
			start_writeback(r);
			continue;
		}
		if (n == 0 || errno == EAGAIN)
			return (0);
		if (errno != EINTR)
			return (fail(r, "splice trace_pipe_raw"));
	}
}

/* After the stop: the partial pages, one read each, at most max. */
static int
drain_partial_pages(struct cpu_reader *r, size_t max)
{
	char *page;
	int rc = 0;

	if ((page = malloc(r->page_size)) == NULL)
		return (fail(r, "malloc"));
	for (size_t i = 0; i < max; i++) {
		ssize_t n = read(r->raw, page, r->page_size);

		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0 || (n < 0 && errno == EAGAIN))
			break;
		if (n < 0) {
			rc = fail(r, "read trace_pipe_raw");
			break;
		}
		/* A short read is padded: the file holds whole pages. */
		if ((size_t)n < r->page_size)
			memset(page + n, 0, r->page_size - (size_t)n);
		if ((rc = write_all(r, page, r->page_size)) != 0)
			break;
	}
	free(page);
	return (rc);
}

static void *
reader_main(void *arg)
{
	struct cpu_reader *r = arg;
	struct pollfd p[2] = {
		{ .fd = r->raw, .events = POLLIN },
		{ .fd = r->stop, .events = POLLIN },
	};

	for (;;) {
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			fail(r, "poll trace_pipe_raw");
			goto failed;
		}
		if ((p[0].revents & POLLIN) && drain_full_pages(r) != 0)
			goto failed;
		if (p[1].revents != 0)
			break;
		if (p[0].revents & (POLLERR | POLLNVAL)) {
			errno = EIO;
			fail(r, "poll trace_pipe_raw");
			goto failed;
		}
	}
	/* Tracing is off: what is left, then the partial pages. */
	if (drain_full_pages(r) != 0 ||
	    drain_partial_pages(r, r->pipe_size / r->page_size + 4) != 0 ||
	    written_back(r) != 0)
		goto failed;
	return (NULL);
failed:
	kill(getpid(), SIGUSR1);
	return (NULL);
}

int
cpu_reader_start(struct cpu_reader *r)
{
	int size;

	if (pipe2(r->pipe, O_CLOEXEC) != 0)
		return (fail(r, "pipe"));
	/* A bigger pipe: fewer splices per wake-up (the largest allowed). */
	for (size = 1 << 20; size >= (int)r->page_size; size >>= 1)
		if (fcntl(r->pipe[1], F_SETPIPE_SZ, size) >= 0)
			break;
	size = fcntl(r->pipe[1], F_GETPIPE_SZ);
	if (size < (int)r->page_size) {
		errno = EINVAL;
		return (fail(r, "pipe size"));
	}
	r->pipe_size = (size_t)size / r->page_size * r->page_size;
	if ((errno = pthread_create(&r->thread, NULL, reader_main, r)) != 0)
		return (fail(r, "pthread_create"));
	r->started = true;
	return (0);
}

void
cpu_reader_join(struct cpu_reader *r)
{
	if (r->started)
		pthread_join(r->thread, NULL);
	r->started = false;
	if (r->pipe[0] >= 0)
		close(r->pipe[0]);
	if (r->pipe[1] >= 0)
		close(r->pipe[1]);
	r->pipe[0] = r->pipe[1] = -1;
}
