/*
 * tool_source.c: opening what -M names (the library's probe decides what
 * it is), and asking it through its kind's operations.  Reading files
 * whole is here too: every kind that has files reads them this way.
 */
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tool_source.h"
#include "tool_source_kinds.h"

/* Each kind memstat_probe() tells, and the operations that read it. */
static const struct tool_source_ops *const by_probe[] = {
	[MEMSTAT_SOURCE_FREEBSD_STREAM] = &tool_source_freebsd_stream,
	[MEMSTAT_SOURCE_FREEBSD_CAPTURE] = &tool_source_freebsd_capture,
	[MEMSTAT_SOURCE_LINUX_TREE] = &tool_source_linux_tree,
	[MEMSTAT_SOURCE_CORE] = &tool_source_core,
};

int
tool_error_set(struct tool_error *e, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	e->code = code;
	return (-1);
}

int
tool_error_from_list(struct tool_error *e, struct memory_type_list *list)
{
	return (tool_error_set(e, memstat_mtl_geterror(list), "%s",
	    memstat_mtl_geterrmsg(list)));
}

int
tool_error_from_frag(struct tool_error *e, const struct memstat_frag *frag)
{
	return (tool_error_set(e, memstat_frag_geterror(frag), "%s",
	    memstat_frag_geterrmsg(frag)));
}

int
tool_error_from_cgroups(struct tool_error *e, const struct memstat_cgroups *cg)
{
	return (tool_error_set(e, memstat_cgroups_geterror(cg), "%s",
	    memstat_cgroups_geterrmsg(cg)));
}

void
tool_blob_free(struct tool_blob *b)
{
	if (b->mapped) {
		tool_blob_unmap(b);
		return;
	}
	free(b->data);
	*b = (struct tool_blob){ 0 };
}

int
tool_blob_read(int fd, struct tool_blob *b)
{
	unsigned char *buf = NULL, *p;
	size_t cap = 65536, len = 0;
	struct stat st;
	ssize_t n;

	*b = (struct tool_blob){ 0 };
	if (fstat(fd, &st) != 0)
		return (errno);
	if (S_ISDIR(st.st_mode))
		return (EISDIR);
	/* The size is a hint (a /proc file says 0); the reads decide. */
	if (S_ISREG(st.st_mode) && st.st_size > 0) {
		if ((uint64_t)st.st_size >= TOOL_FILE_MAX)
			return (EFBIG);
		cap = (size_t)st.st_size + 2;	/* then EOF, and the NUL */
	}
	for (;;) {
		/* Room for one more byte always: the NUL at the end. */
		if (buf == NULL || len + 1 >= cap) {
			if (buf != NULL) {
				if (cap >= TOOL_FILE_MAX) {
					free(buf);
					return (EFBIG);
				}
				cap = cap > TOOL_FILE_MAX / 2 ? TOOL_FILE_MAX :
				    cap * 2;
			}
			if ((p = realloc(buf, cap)) == NULL) {
				free(buf);
				return (ENOMEM);
			}
			buf = p;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n == 0)
			break;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			free(buf);
			return (errno);
		}
		len += (size_t)n;
	}
	buf[len] = '\0';
	*b = (struct tool_blob){ .data = buf, .len = len };
	return (0);
}

int
tool_source_file(struct tool_source *src, const char *file,
    struct tool_blob *b, struct tool_error *e)
{
	char path[4096];
	struct stat st;
	int fd, error;

	*b = (struct tool_blob){ 0 };
	fd = openat(src->dirfd, file, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd == -1) {
		if (errno == ENOENT)
			return (TOOL_ABSENT);
		error = errno;
	} else if (fstat(fd, &st) == 0 && !S_ISREG(st.st_mode)) {
		close(fd);
		return (tool_error_set(e, MEMSTAT_ERROR_UNDEFINED,
		    "%s: not a regular file", tool_source_file_path(src, file,
		    path, sizeof(path))));
	} else {
		error = tool_blob_read(fd, b);
		close(fd);
	}
	if (error == 0)
		return (0);
	return (tool_error_set(e, MEMSTAT_ERROR_UNDEFINED, "%s: %s",
	    tool_source_file_path(src, file, path, sizeof(path)),
	    strerror(error)));
}

int
tool_source_open_dir(struct tool_source *src, const char *nlistf,
    struct tool_error *e)
{
	(void)nlistf;
	if ((src->dirfd = open(src->path, O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC)) == -1)
		return (tool_error_set(e, MEMSTAT_ERROR_UNDEFINED, "%s: %s",
		    src->path, strerror(errno)));
	return (0);
}

static struct tool_source *
source_new(const char *path, const struct tool_source_ops *ops)
{
	struct tool_source *src;

	if ((src = calloc(1, sizeof(*src))) == NULL ||
	    (src->path = strdup(path)) == NULL)
		err(1, "memstat");
	src->ops = ops;
	src->dirfd = -1;
	return (src);
}

struct tool_source *
tool_open_core(const char *memf, const char *nlistf)
{
	struct memstat_probe probe;
	struct tool_source *src;
	struct tool_error e;

	if (memf == NULL) {
#ifdef __linux__
		src = source_new("/", &tool_source_linux_live);
#else
		errx(1, "no live kernel source on this system: name saved "
		    "data with -M");
#endif
	} else {
		if (memstat_probe(memf, &probe) != 0 ||
		    probe.kind == MEMSTAT_SOURCE_UNKNOWN)
			errx(1, "kvm_openfiles: %s", probe.why);
		src = source_new(memf, by_probe[probe.kind]);
		src->byte_order = probe.byte_order;
	}
	if (src->ops->open(src, nlistf, &e) != 0) {
		tool_source_close(src);
		errx(1, "kvm_openfiles: %s", e.msg);
	}
	return (src);
}

void
tool_source_close(struct tool_source *src)
{
	if (src == NULL)
		return;
	if (src->ops->close != NULL)
		src->ops->close(src);
	if (src->dirfd != -1)
		close(src->dirfd);
	free(src->path);
	free(src);
}

const char *
tool_source_path(const struct tool_source *src)
{
	return (src->path);
}

const char *
tool_source_file_path(const struct tool_source *src, const char *file,
    char *buf, size_t len)
{
	size_t n = strlen(src->path);

	/* The live tree is "/": its files are "/proc/...", not "//proc". */
	snprintf(buf, len, "%s%s%s", src->path,
	    n > 0 && src->path[n - 1] == '/' ? "" : "/", file);
	return (buf);
}

bool
tool_source_linux(const struct tool_source *src)
{
	return (src->ops->linux);
}

bool
tool_source_has_files(const struct tool_source *src)
{
	return (src->ops->text != NULL);
}

const char *
tool_source_api(const struct tool_source *src)
{
	return (src->ops->api);
}

int
tool_source_uma(struct tool_source *src, struct memory_type_list *list,
    int flags, struct tool_error *e)
{
	return (src->ops->uma(src, list, flags, e));
}

int
tool_source_malloc(struct tool_source *src, struct memory_type_list *list,
    int flags, struct tool_error *e)
{
	return (src->ops->malloc(src, list, flags, e));
}

int
tool_source_frag(struct tool_source *src, struct memstat_frag *frag,
    int flags, struct tool_error *e)
{
	if (src->ops->frag == NULL)
		return (TOOL_ABSENT);
	return (src->ops->frag(src, frag, flags, e));
}

int
tool_source_cgroups(struct tool_source *src, struct memstat_cgroups *cg,
    struct tool_error *e)
{
	if (src->ops->cgroups == NULL)
		return (TOOL_ABSENT);
	return (src->ops->cgroups(src, cg, e));
}

int
tool_source_uptime(struct tool_source *src, double *seconds,
    struct tool_error *e)
{
	if (src->ops->uptime == NULL)
		return (TOOL_ABSENT);
	return (src->ops->uptime(src, seconds, e));
}

bool
tool_source_live(const struct tool_source *src)
{
	return (src->ops->live);
}

bool
tool_source_changes(const struct tool_source *src)
{
	return (src->ops->live || (src->ops->changes != NULL &&
	    src->ops->changes(src)));
}

int
tool_source_text(struct tool_source *src, const char *file, char **bufp,
    struct tool_error *e)
{
	*bufp = NULL;
	if (src->ops->text == NULL)
		return (TOOL_ABSENT);
	return (src->ops->text(src, file, bufp, e));
}

uint64_t
tool_source_pagesize(struct tool_source *src)
{
	return (src->ops->pagesize != NULL ? src->ops->pagesize(src) : 4096);
}

int
tool_source_ints(struct tool_source *src, const char *oid, size_t width,
    uint64_t *out, size_t max, size_t *n, struct tool_error *e)
{
	*n = 0;
	if (src->ops->ints == NULL)
		return (TOOL_ABSENT);
	return (src->ops->ints(src, oid, width, out, max, n, e));
}

void
tool_query_failed(struct tool_source *src, const char *query,
    const struct tool_error *e)
{
	/* One line; a refused live read says what to do about it. */
	if (src->ops->live && e->code == MEMSTAT_ERROR_PERMISSION)
		warnx("memstat_%s_%s: %s (only root may read /proc/slabinfo: "
		    "run as root, or read a capture with -M)",
		    tool_source_api(src), query, e->msg);
	else
		warnx("memstat_%s_%s: %s", tool_source_api(src), query,
		    e->msg);
	/*
	 * exit(3) would free it as well; the fuzz targets, which run a
	 * tool's main() many times in one process, would not.
	 */
	tool_source_close(src);
	exit(1);
}

void
tool_source_absent(struct tool_source *src, const char *query,
    const char *what)
{
	warnx("memstat_%s_%s: %s holds no %s", tool_source_api(src), query,
	    tool_source_path(src), what);
	tool_source_close(src);
	exit(1);
}
