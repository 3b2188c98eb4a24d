/*
 * tool_source.c: what a tool reads.  No -M: the live kernel (on Linux, the
 * tree at "/").  With -M, a regular file is one FreeBSD sysctl stream; a
 * directory is either a saved Linux tree (it holds proc/slabinfo) or a
 * FreeBSD capture, one file per sysctl named by its OID.  Which is which,
 * and which stream a file holds, is decided by content (stream lengths are
 * exact), never by name.
 */
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "memstat_tool.h"
#include "stream_layout.h"

/*
 * No sysctl this port reads comes near this (a 1024-CPU kernel's
 * vm.zone_stats is a few MiB); a bigger file is not one of them.
 */
#define MAX_FILE_SIZE	((size_t)1 << 30)

struct blob {
	const unsigned char	*data;
	size_t			 len;
};

enum source_kind {
	SOURCE_FREEBSD_FILE,
	SOURCE_FREEBSD_DIR,
	SOURCE_LINUX_LIVE,
	SOURCE_LINUX_TREE,
	SOURCE_LINUX_CORE,
};

struct tool_source {
	enum source_kind kind;
	char		*path;		/* "/" for the live kernel */
	int		 dirfd;
	bool		 swapped;	/* a capture in the other byte order */
	int		 error;		/* MEMSTAT_ERROR_* of a failed query */
	void		*kvm;		/* SOURCE_LINUX_CORE: the dump */
	struct blob	 file;		/* the stream, when path is a file */
};

const char *
tool_source_path(const struct tool_source *src)
{
	return (src->path);
}

static void
blob_free(struct blob *b)
{
	free((void *)b->data);
	*b = (struct blob){ 0 };
}

/*
 * Read a file whole, a regular file or a pipe (/dev/stdin).  Read, never
 * mapped: a file cut short while it is read must give an error, not
 * SIGBUS.  Returns 0 or an errno value; EFBIG past MAX_FILE_SIZE.
 */
static int
blob_read(int fd, struct blob *b)
{
	unsigned char *buf = NULL, *p;
	size_t cap = 65536, len = 0;
	struct stat st;
	ssize_t n;

	*b = (struct blob){ 0 };
	if (fstat(fd, &st) != 0)
		return (errno);
	if (S_ISDIR(st.st_mode))
		return (EISDIR);
	/* The size is a hint (a /proc file says 0); the reads decide. */
	if (S_ISREG(st.st_mode) && st.st_size > 0) {
		if ((uint64_t)st.st_size >= MAX_FILE_SIZE)
			return (EFBIG);
		cap = (size_t)st.st_size + 1;
	}
	for (;;) {
		if (buf == NULL || len == cap) {
			if (buf != NULL) {
				if (cap >= MAX_FILE_SIZE) {
					free(buf);
					return (EFBIG);
				}
				cap = cap > MAX_FILE_SIZE / 2 ? MAX_FILE_SIZE :
				    cap * 2;
			}
			if ((p = realloc(buf, cap)) == NULL) {
				free(buf);
				return (ENOMEM);
			}
			buf = p;
		}
		n = read(fd, buf + len, cap - len);
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
	*b = (struct blob){ buf, len };
	return (0);
}

/*
 * A capture's byte order is its streams': FreeBSD writes every sysctl in
 * the kernel's own order.  With no stream to tell, assume this host's.
 */
static bool
capture_swapped(int dirfd)
{
	static const char *oids[] = { "vm.zone_stats", "kern.malloc_stats" };
	unsigned char word[4];
	ssize_t n;
	uint32_t v;
	int fd;

	for (size_t i = 0; i < sizeof(oids) / sizeof(oids[0]); i++) {
		fd = openat(dirfd, oids[i], O_RDONLY | O_CLOEXEC);
		if (fd == -1)
			continue;
		n = read(fd, word, sizeof(word));
		close(fd);
		if (n == (ssize_t)sizeof(word)) {
			memcpy(&v, word, sizeof(v));
			return (v != STREAM_VERSION &&
			    __builtin_bswap32(v) == STREAM_VERSION);
		}
	}
	return (false);
}

/*
 * Whether fd holds a kernel core image: an ELF core (/proc/vmcore, QEMU's
 * dump-guest-memory), a kdump-compressed file, or makedumpfile's
 * flattened stream.  Only the first bytes are read: a dump is big.
 */
static bool
is_core(int fd)
{
	unsigned char m[20];
	ssize_t n;

	/* Each magic on its own: a cut dump is still a dump, and says so. */
	if ((n = pread(fd, m, sizeof(m), 0)) < 0)
		return (false);
	return ((n >= 18 && memcmp(m, "\177ELF", 4) == 0 &&
	    ((m[16] == 4 && m[17] == 0) || (m[16] == 0 && m[17] == 4))) ||
	    (n >= 8 && (memcmp(m, "KDUMP   ", 8) == 0 ||
	    memcmp(m, "DISKDUMP", 8) == 0)) ||
	    (n >= 13 && memcmp(m, "makedumpfile\0", 13) == 0));
}

struct tool_source *
tool_source_open(const char *path, char *err, size_t errlen)
{
	const char *why = NULL;
	struct tool_source *src;
	struct stat st;
	int fd, error;

	if ((src = calloc(1, sizeof(*src))) == NULL ||
	    (src->path = strdup(path)) == NULL) {
		free(src);
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		return (NULL);
	}
	src->dirfd = -1;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		error = errno;
	else if (fstat(fd, &st) != 0)
		error = errno;
	else if (S_ISDIR(st.st_mode)) {
		src->dirfd = fd;
		if (faccessat(fd, "proc/slabinfo", F_OK, 0) == 0)
			src->kind = SOURCE_LINUX_TREE;
		else {
			src->kind = SOURCE_FREEBSD_DIR;
			src->swapped = capture_swapped(fd);
		}
		return (src);
	} else if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) {
		/* A device (/dev/zero) would be read up to the limit. */
		error = EINVAL;
		why = "not a regular file, directory or pipe";
	} else if (is_core(fd)) {
		close(fd);
		src->kind = SOURCE_LINUX_CORE;
		return (src);
	} else
		error = blob_read(fd, &src->file);
	if (fd != -1)
		close(fd);
	if (error == 0)
		return (src);
	snprintf(err, errlen, "%s: %s", path, why != NULL ? why :
	    strerror(error));
	free(src->path);
	free(src);
	return (NULL);
}

struct tool_source *
tool_open_core(const char *memf, const char *nlistf)
{
	char errbuf[MEMSTAT_KVM_ERRLEN];
	struct tool_source *src;

	if (memf == NULL) {
#ifdef __linux__
		if ((src = calloc(1, sizeof(*src))) == NULL ||
		    (src->path = strdup("/")) == NULL)
			err(1, "memstat");
		src->kind = SOURCE_LINUX_LIVE;
		if ((src->dirfd = open("/", O_RDONLY | O_DIRECTORY |
		    O_CLOEXEC)) == -1)
			err(1, "/");
		return (src);
#else
		errx(1, "no live kernel source on this system: name saved "
		    "data with -M");
#endif
	}
	if ((src = tool_source_open(memf, errbuf, sizeof(errbuf))) == NULL)
		errx(1, "kvm_openfiles: %s", errbuf);
	if (src->kind == SOURCE_LINUX_CORE &&
	    (src->kvm = memstat_kvm_open(memf, nlistf, errbuf)) == NULL)
		errx(1, "kvm_openfiles: %s: %s", memf, errbuf);
	return (src);
}

void
tool_source_close(struct tool_source *src)
{
	if (src == NULL)
		return;
	if (src->dirfd != -1)
		close(src->dirfd);
	memstat_kvm_close(src->kvm);
	blob_free(&src->file);
	free(src->path);
	free(src);
}

/* A capture's file for oid: 0, TOOL_ABSENT, or -1 with err set. */
static int
capture_file(struct tool_source *src, const char *oid, struct blob *b,
    char *err, size_t errlen)
{
	struct stat st;
	int fd, error;

	/* Someone else's directory: a FIFO must not block, nor a device
	 * stand in for a saved sysctl. */
	fd = openat(src->dirfd, oid, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd == -1) {
		if (errno == ENOENT)
			return (TOOL_ABSENT);
		snprintf(err, errlen, "%s/%s: %s", src->path, oid,
		    strerror(errno));
		return (-1);
	}
	if (fstat(fd, &st) == 0 && !S_ISREG(st.st_mode)) {
		close(fd);
		snprintf(err, errlen, "%s/%s: not a regular file", src->path,
		    oid);
		return (-1);
	}
	error = blob_read(fd, b);
	close(fd);
	if (error != 0) {
		snprintf(err, errlen, "%s/%s: %s", src->path, oid,
		    strerror(error));
		return (-1);
	}
	return (0);
}

typedef int (*decode_fn)(struct memory_type_list *, const void *, size_t);

/*
 * One kind of statistics from a source.  A lone stream file holds one kind:
 * if it is the other kind, this one is absent; if it is neither, the
 * decoder's own error (version or data format) is the answer.
 */
static int
source_stream(struct tool_source *src, struct memory_type_list *list,
    const char *oid, decode_fn decode, decode_fn other, char *err,
    size_t errlen)
{
	struct memory_type_list *scratch;
	struct blob b;
	int rc;

	if (src->kind == SOURCE_FREEBSD_FILE) {
		if (decode(list, src->file.data, src->file.len) == 0)
			return (0);
		snprintf(err, errlen, "%s",
		    memstat_strerror(memstat_mtl_geterror(list)));
		if ((scratch = memstat_mtl_alloc()) == NULL)
			return (-1);
		rc = other(scratch, src->file.data, src->file.len);
		memstat_mtl_free(scratch);
		return (rc == 0 ? TOOL_ABSENT : -1);
	}
	if ((rc = capture_file(src, oid, &b, err, errlen)) != 0)
		return (rc);
	rc = decode(list, b.data, b.len);
	if (rc != 0)
		snprintf(err, errlen, "%s/%s: %s", src->path, oid,
		    memstat_strerror(memstat_mtl_geterror(list)));
	blob_free(&b);
	return (rc);
}

bool
tool_source_linux(const struct tool_source *src)
{
	return (src->kind == SOURCE_LINUX_LIVE ||
	    src->kind == SOURCE_LINUX_TREE || src->kind == SOURCE_LINUX_CORE);
}

/*
 * A core image's error: the reader's own words for a KVM error, as
 * FreeBSD's tools print kvm_geterr(); otherwise the error and what the
 * dump lacked.
 */
static int
core_failed(struct tool_source *src, struct memory_type_list *list,
    char *err, size_t errlen)
{
	src->error = memstat_mtl_geterror(list);
	if (src->error == MEMSTAT_ERROR_KVM)
		snprintf(err, errlen, "%s", memstat_kvm_geterr(src->kvm));
	else if (src->error == MEMSTAT_ERROR_NOMEMORY)
		snprintf(err, errlen, "%s", memstat_strerror(src->error));
	else
		snprintf(err, errlen, "%s: %s", memstat_strerror(src->error),
		    memstat_kvm_geterr(src->kvm));
	return (-1);
}

bool
tool_source_is_live(const struct tool_source *src)
{
	return (src->kind == SOURCE_LINUX_LIVE);
}

const char *
tool_source_file_path(const struct tool_source *src, const char *file,
    char *buf, size_t len)
{
	/* The live tree is "/": its files are "/proc/...", not "//proc". */
	snprintf(buf, len, "%s%s%s", src->path,
	    src->kind == SOURCE_LINUX_LIVE ? "" : "/", file);
	return (buf);
}

bool
tool_source_is_core(const struct tool_source *src)
{
	return (src->kind == SOURCE_LINUX_CORE);
}

const char *
tool_source_api(const struct tool_source *src)
{
	return (src->kind == SOURCE_LINUX_LIVE ? "sysctl" : "kvm");
}

/*
 * A Linux query's error.  Live, FreeBSD's bare wording; for a saved tree,
 * led by the file that was being read.
 */
static int
linux_failed(struct tool_source *src, struct memory_type_list *list,
    const char *file, char *err, size_t errlen)
{
	char path[4096];

	src->error = memstat_mtl_geterror(list);
	if (src->kind == SOURCE_LINUX_LIVE)
		snprintf(err, errlen, "%s", memstat_strerror(src->error));
	else
		snprintf(err, errlen, "%s: %s", tool_source_file_path(src, file,
		    path, sizeof(path)), memstat_strerror(src->error));
	return (-1);
}

int
tool_source_uma(struct tool_source *src, struct memory_type_list *list,
    int flags, char *err, size_t errlen)
{
	if (src->kind == SOURCE_LINUX_CORE)
		return (memstat_kvm_uma(list, src->kvm) == 0 ? 0 :
		    core_failed(src, list, err, errlen));
	if (tool_source_linux(src)) {
		if (memstat_linux_uma(list, src->path, flags) == 0)
			return (0);
		return (linux_failed(src, list, "proc/slabinfo", err, errlen));
	}
	return (source_stream(src, list, "vm.zone_stats", memstat_stream_uma,
	    memstat_stream_malloc, err, errlen));
}

int
tool_source_malloc(struct tool_source *src, struct memory_type_list *list,
    int flags, char *err, size_t errlen)
{
	if (src->kind == SOURCE_LINUX_CORE)
		return (memstat_kvm_malloc(list, src->kvm) == 0 ? 0 :
		    core_failed(src, list, err, errlen));
	if (tool_source_linux(src)) {
		if (memstat_linux_malloc(list, src->path, flags) == 0)
			return (0);
		return (linux_failed(src, list, src->kind == SOURCE_LINUX_TREE &&
		    faccessat(src->dirfd, "proc/allocinfo", F_OK, 0) == 0 ?
		    "proc/allocinfo" : "proc/slabinfo", err, errlen));
	}
	return (source_stream(src, list, "kern.malloc_stats",
	    memstat_stream_malloc, memstat_stream_uma, err, errlen));
}

int
tool_source_text(struct tool_source *src, const char *file, char **bufp,
    char *err, size_t errlen)
{
	struct blob b = { 0 };
	char path[4096];
	char *buf = NULL;
	int fd, error;

	*bufp = NULL;
	if (src->kind != SOURCE_LINUX_LIVE && src->kind != SOURCE_LINUX_TREE)
		return (TOOL_ABSENT);
	if ((fd = openat(src->dirfd, file, O_RDONLY | O_CLOEXEC)) == -1) {
		if (errno == ENOENT)
			return (TOOL_ABSENT);
		error = errno;
	} else {
		error = blob_read(fd, &b);
		close(fd);
		if (error == 0 && (buf = malloc(b.len + 1)) == NULL)
			error = ENOMEM;
	}
	if (error != 0) {
		snprintf(err, errlen, "%s: %s", tool_source_file_path(src, file,
		    path, sizeof(path)), strerror(error));
		blob_free(&b);
		return (-1);
	}
	if (b.len != 0)
		memcpy(buf, b.data, b.len);
	buf[b.len] = '\0';
	blob_free(&b);
	*bufp = buf;
	return (0);
}

void
tool_query_failed(struct tool_source *src, const char *query,
    const char *err)
{
	warnx("memstat_%s_%s: %s", tool_source_api(src), query, err);
	if (src->kind == SOURCE_LINUX_LIVE &&
	    src->error == MEMSTAT_ERROR_PERMISSION)
		fprintf(stderr, "%s: the kernel lets only root read "
		    "/proc/slabinfo: run as root, or read a capture with -M\n",
		    getprogname());
	/*
	 * exit(3) would free it as well; the fuzz targets, which run a
	 * tool's main() many times in one process, would not.
	 */
	tool_source_close(src);
	exit(1);
}

int
tool_source_ints(struct tool_source *src, const char *oid, size_t width,
    uint64_t *out, size_t max, size_t *n, char *err, size_t errlen)
{
	struct blob b;
	size_t i;
	int rc;

	*n = 0;
	if (src->kind != SOURCE_FREEBSD_DIR)
		return (TOOL_ABSENT);
	if ((rc = capture_file(src, oid, &b, err, errlen)) != 0)
		return (rc);
	if (b.len % width != 0 || b.len / width > max) {
		if (b.len % width != 0)
			snprintf(err, errlen, "%s/%s: %zu bytes are not whole "
			    "%zu-bit integers", src->path, oid, b.len,
			    width * 8);
		else
			snprintf(err, errlen, "%s/%s: more than %zu %zu-bit "
			    "integers", src->path, oid, max, width * 8);
		blob_free(&b);
		return (-1);
	}
	for (i = 0; i < b.len / width; i++)
		out[i] = width == 4 ? stream_u32(b.data + i * 4, src->swapped) :
		    stream_u64(b.data + i * 8, src->swapped);
	*n = i;
	blob_free(&b);
	return (0);
}
