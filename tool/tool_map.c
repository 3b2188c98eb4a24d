/*
 * tool_map.c: a saved stream mapped rather than read.  Reading a 157 MiB
 * stream into a fresh buffer cost three times its decode (page faults on
 * the buffer, then the copy); mapping it costs almost nothing.
 *
 * The catch is a file cut short while it is mapped: touching a page past
 * its new end raises SIGBUS.  While a map is live, a SIGBUS handler puts
 * zero pages in place of the rest of the map and marks it cut.  The
 * decoder then reads zeros, which it survives as it survives any bad data,
 * and the caller, seeing the mark (or a size that changed), discards the
 * result and says the file changed.  One map at a time: a second request
 * is refused and that file is read instead.
 */
#include <sys/mman.h>
#include <sys/stat.h>

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "tool_source_kinds.h"

static struct {
	unsigned char	*base;		/* NULL: no map is live */
	size_t		 len;		/* the map's length, whole pages */
	volatile sig_atomic_t cut;
	struct sigaction old;		/* SIGBUS's action before the map */
} live;

/*
 * mmap() is not on POSIX's list of async-signal-safe functions, but on
 * Linux it is one system call with no lock in user space; the fault that
 * brought us here was on a read of the map, in the decoder.
 */
static void
on_sigbus(int sig, siginfo_t *si, void *ctx)
{
	uintptr_t a = (uintptr_t)si->si_addr, base = (uintptr_t)live.base;
	uintptr_t page;

	(void)ctx;
	if (live.base == NULL || a < base || a - base >= live.len) {
		/* Not ours: die of it as the process would have. */
		signal(sig, SIG_DFL);
		return;
	}
	page = a & ~(uintptr_t)(sysconf(_SC_PAGESIZE) - 1);
	if (mmap((void *)page, base + live.len - page, PROT_READ,
	    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
		signal(sig, SIG_DFL);
	live.cut = 1;
}

int
tool_blob_map(int fd, struct tool_blob *b)
{
	struct sigaction sa;
	struct stat st;
	size_t page, len;
	void *p;

	*b = (struct tool_blob){ 0 };
	if (fstat(fd, &st) != 0)
		return (errno);
	if (!S_ISREG(st.st_mode) || st.st_size == 0 || live.base != NULL)
		return (ENOTSUP);
	if ((uint64_t)st.st_size >= TOOL_FILE_MAX)
		return (EFBIG);
	page = (size_t)sysconf(_SC_PAGESIZE);
	len = ((size_t)st.st_size + page - 1) & ~(page - 1);
	if ((p = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0)) == MAP_FAILED)
		return (ENOTSUP);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigbus;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	live.base = p;
	live.len = len;
	live.cut = 0;
	if (sigaction(SIGBUS, &sa, &live.old) != 0) {
		live.base = NULL;
		munmap(p, len);
		return (ENOTSUP);
	}
	*b = (struct tool_blob){ p, (size_t)st.st_size, true, fd };
	return (0);
}

bool
tool_blob_changed(const struct tool_blob *b)
{
	struct stat st;

	if (!b->mapped)
		return (false);
	return (live.cut || fstat(b->fd, &st) != 0 ||
	    (uint64_t)st.st_size != b->len);
}

void
tool_blob_unmap(struct tool_blob *b)
{
	munmap(live.base, live.len);
	sigaction(SIGBUS, &live.old, NULL);
	live.base = NULL;
	close(b->fd);
	*b = (struct tool_blob){ 0 };
}
