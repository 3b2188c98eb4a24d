/*
 * source_open.c: a report's input, told by content: a directory is a
 * recording (its machine file says so), a file starting with trace-cmd's
 * magic is a trace.dat.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "source_dir.h"
#include "source_open.h"
#include "source_tracedat.h"

/* trace-cmd's trace.dat: "\027\010\104tracing". */
static const char tracedat_magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c',
	'i', 'n', 'g' };

int
kt_source_open(struct kt_source *src, const char *path, struct kt_error *e)
{
	char head[sizeof(tracedat_magic)];
	struct stat st;
	ssize_t n;
	int fd;

	memset(src, 0, sizeof(*src));
	e->msg[0] = '\0';
	src->path = path;
	if (stat(path, &st) != 0)
		return (kt_fail(e, "%s: %s", path, strerror(errno)));
	if (S_ISDIR(st.st_mode))
		return (kt_recording_open(src, path, e));
	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0)
		return (kt_fail(e, "%s: %s", path, strerror(errno)));
	n = S_ISREG(st.st_mode) ? read(fd, head, sizeof(head)) : -1;
	close(fd);
	if (n == (ssize_t)sizeof(head) &&
	    memcmp(head, tracedat_magic, sizeof(head)) == 0)
		return (kt_tracedat_open(src, path, e));
	return (kt_fail(e, "%s: not a kmemtrace recording or a trace-cmd "
	    "trace.dat", path));
}

