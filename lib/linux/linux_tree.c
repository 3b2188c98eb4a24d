/*
 * linux_tree.c: opening a Linux tree and reading its files.  The live
 * kernel is the tree at "/"; a capture is the same files under another
 * directory, so both take the same path through the parsers.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

#include "linux/linux_tree.h"

int
_memstat_linux_open(const char *root)
{
	return (open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC));
}

int
_memstat_linux_read(int rootfd, const char *path, char **bufp, size_t *lenp)
{
	char *buf = NULL, *p;
	size_t cap = 0, len = 0;
	struct stat st;
	ssize_t n;
	int fd, error = 0;

	*bufp = NULL;
	*lenp = 0;
	/*
	 * A saved tree is someone else's: a FIFO there must not block the
	 * open, nor a device (/dev/zero) stand in for a file.  The kernel's
	 * own /proc and /sys files are regular files.
	 */
	if ((fd = openat(rootfd, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) ==
	    -1)
		return (errno);
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return (EINVAL);
	}
	for (;;) {
		if (cap - len < 2) {
			if (cap >= LINUX_FILE_MAX) {
				error = EFBIG;
				break;
			}
			cap = cap ? cap * 2 : 32768;
			if ((p = realloc(buf, cap)) == NULL) {
				error = ENOMEM;
				break;
			}
			buf = p;
			/*
			 * A sysfs attribute says 4096 and holds a line: only
			 * a file that may be longer (/proc's say 0) is worth
			 * a system call, which -d made once per attribute.
			 */
			if (st.st_size == 0 || st.st_size > 4096)
				_memstat_prefault(buf + len, cap - len);
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n == 0)
			break;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			error = errno;
			break;
		}
		len += (size_t)n;
	}
	close(fd);
	if (error != 0) {
		free(buf);
		return (error);
	}
	if (buf == NULL && (buf = malloc(1)) == NULL)
		return (ENOMEM);
	buf[len] = '\0';
	*bufp = buf;
	*lenp = len;
	return (0);
}

int
_memstat_linux_error(int errnum)
{
	switch (errnum) {
	case EACCES:
	case EPERM:
		return (MEMSTAT_ERROR_PERMISSION);
	case ENOMEM:
		return (MEMSTAT_ERROR_NOMEMORY);
	default:
		return (MEMSTAT_ERROR_DATAERROR);
	}
}

bool
_memstat_linux_u64(const char **pp, uint64_t *v)
{
	const char *p = *pp;
	uint64_t x = 0;

	if (*p < '0' || *p > '9')
		return (false);
	for (; *p >= '0' && *p <= '9'; p++)
		if (__builtin_mul_overflow(x, 10, &x) ||
		    __builtin_add_overflow(x, (uint64_t)(*p - '0'), &x))
			return (false);
	*pp = p;
	*v = x;
	return (true);
}

int
_memstat_linux_header(const char *buf, size_t len, const char *magic,
    uint64_t *major, size_t *lines)
{
	const char *v, *p, *end = buf + len;
	uint64_t minor;

	/* Every line, the last too, ends in '\n': anything else is cut short. */
	if (len == 0 || end[-1] != '\n' || memchr(buf, '\0', len) != NULL ||
	    strncmp(buf, magic, strlen(magic)) != 0)
		return (MEMSTAT_ERROR_DATAERROR);
	v = buf + strlen(magic);
	if (!_memstat_linux_u64(&v, major) || *v++ != '.' ||
	    !_memstat_linux_u64(&v, &minor) || (*v != '\n' && *v != ' '))
		return (MEMSTAT_ERROR_DATAERROR);
	*lines = 0;
	for (p = buf; p < end; p = (const char *)memchr(p, '\n',
	    (size_t)(end - p)) + 1)
		(*lines)++;
	return (0);
}

/*
 * A row's shares per node, appended to the slabinfo's one array (the
 * live tree's sysfs reader and a core image's walk both give them).
 */
int
_memstat_slabinfo_nodes(struct slabinfo *si, size_t row,
    const struct mt_node *nodes, uint32_t n)
{
	struct mt_node *v;
	size_t cap;

	if (si->nodecap - si->nnodes < n) {
		cap = si->nodecap != 0 ? si->nodecap : 1024;
		while (cap - si->nnodes < n)
			cap *= 2;
		if ((v = reallocarray(si->nodes, cap, sizeof(*v))) == NULL)
			return (-1);
		si->nodes = v;
		si->nodecap = cap;
	}
	memcpy(si->nodes + si->nnodes, nodes, n * sizeof(*nodes));
	si->rows[row].node_first = si->nnodes;
	si->rows[row].nnodes = n;
	si->nnodes += n;
	if (n > si->maxnodes)
		si->maxnodes = n;
	return (0);
}
