/*
 * tool_source_freebsd.c: saved FreeBSD data.  A stream is one sysctl's
 * "sysctl -b" output, a file or a pipe, holding zone or malloc statistics
 * (told apart by the decoders: stream lengths are exact).  A capture is a
 * directory with one file per sysctl, named by its OID, in the byte order
 * of the kernel that wrote it.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tool_source.h"
#include "tool_source_kinds.h"

typedef int (*decode_fn)(struct memory_type_list *, const void *, size_t);

static int
stream_open(struct tool_source *src, const char *nlistf,
    struct tool_error *e)
{
	struct tool_blob *b;
	int fd, error;

	(void)nlistf;
	if ((b = calloc(1, sizeof(*b))) == NULL)
		return (tool_error_set(e, MEMSTAT_ERROR_NOMEMORY, "%s",
		    strerror(ENOMEM)));
	src->state = b;
	/* A file is mapped (the map keeps fd); a pipe, or what cannot be, read. */
	if ((fd = open(src->path, O_RDONLY | O_CLOEXEC)) == -1)
		error = errno;
	else if ((error = tool_blob_map(fd, b)) == ENOTSUP) {
		error = tool_blob_read(fd, b);
		close(fd);
	} else if (error != 0)
		close(fd);
	if (error == 0)
		return (0);
	return (tool_error_set(e, MEMSTAT_ERROR_UNDEFINED, "%s: %s",
	    src->path, strerror(error)));
}

static void
stream_close(struct tool_source *src)
{
	if (src->state != NULL)
		tool_blob_free(src->state);
	free(src->state);
}

/*
 * A stream holds one kind of statistics: if it is the other kind, this
 * one is absent; if it is neither, the decoder's own error (version or
 * data format) is the answer.
 */
static int
stream_query(struct tool_source *src, struct memory_type_list *list,
    decode_fn decode, decode_fn other, struct tool_error *e)
{
	const struct tool_blob *b = src->state;
	struct memory_type_list *scratch;
	int rc;

	if ((rc = decode(list, b->data, b->len)) != 0) {
		tool_error_from_list(e, list);
		if ((scratch = memstat_mtl_alloc()) == NULL)
			return (-1);
		rc = other(scratch, b->data, b->len) == 0 ? TOOL_ABSENT : -1;
		memstat_mtl_free(scratch);
	}
	/* Whatever was decoded from a file that changed meanwhile is void. */
	if (tool_blob_changed(b))
		return (tool_error_set(e, MEMSTAT_ERROR_UNDEFINED,
		    "%s: the file changed while it was read", src->path));
	return (rc);
}

static int
stream_uma(struct tool_source *src, struct memory_type_list *list,
    int flags, struct tool_error *e)
{
	(void)flags;
	return (stream_query(src, list, memstat_stream_uma,
	    memstat_stream_malloc, e));
}

static int
stream_malloc(struct tool_source *src, struct memory_type_list *list,
    int flags, struct tool_error *e)
{
	(void)flags;
	return (stream_query(src, list, memstat_stream_malloc,
	    memstat_stream_uma, e));
}

const struct tool_source_ops tool_source_freebsd_stream = {
	.api = "kvm",
	.open = stream_open,
	.uma = stream_uma,
	.malloc = stream_malloc,
	.close = stream_close,
};

/* One sysctl's stream of the capture, decoded. */
static int
capture_query(struct tool_source *src, struct memory_type_list *list,
    const char *oid, decode_fn decode, struct tool_error *e)
{
	struct tool_blob b;
	int rc;

	if ((rc = tool_source_file(src, oid, &b, e)) != 0)
		return (rc);
	if ((rc = decode(list, b.data, b.len)) != 0)
		tool_error_set(e, memstat_mtl_geterror(list), "%s/%s: %s",
		    src->path, oid, memstat_mtl_geterrmsg(list));
	tool_blob_free(&b);
	return (rc);
}

static int
capture_uma(struct tool_source *src, struct memory_type_list *list,
    int flags, struct tool_error *e)
{
	(void)flags;
	return (capture_query(src, list, "vm.zone_stats", memstat_stream_uma,
	    e));
}

static int
capture_malloc(struct tool_source *src, struct memory_type_list *list,
    int flags, struct tool_error *e)
{
	(void)flags;
	return (capture_query(src, list, "kern.malloc_stats",
	    memstat_stream_malloc, e));
}

static uint64_t
capture_int(const unsigned char *p, size_t width, bool swap)
{
	uint64_t v = 0;
	uint32_t v32;

	if (width == 4) {
		memcpy(&v32, p, 4);
		return (swap ? __builtin_bswap32(v32) : v32);
	}
	memcpy(&v, p, 8);
	return (swap ? __builtin_bswap64(v) : v);
}

static int
capture_ints(struct tool_source *src, const char *oid, size_t width,
    uint64_t *out, size_t max, size_t *n, struct tool_error *e)
{
	bool swap = src->byte_order != (BYTE_ORDER == BIG_ENDIAN ? 4321 :
	    1234);
	struct tool_blob b;
	size_t i;
	int rc;

	if ((rc = tool_source_file(src, oid, &b, e)) != 0)
		return (rc);
	if (b.len % width != 0)
		rc = tool_error_set(e, MEMSTAT_ERROR_UNDEFINED, "%s/%s: %zu "
		    "bytes are not whole %zu-bit integers", src->path, oid,
		    b.len, width * 8);
	else if (b.len / width > max)
		rc = tool_error_set(e, MEMSTAT_ERROR_UNDEFINED, "%s/%s: more "
		    "than %zu %zu-bit integers", src->path, oid, max,
		    width * 8);
	for (i = 0; rc == 0 && i < b.len / width; i++)
		out[i] = capture_int(b.data + i * width, width, swap);
	*n = rc == 0 ? i : 0;
	tool_blob_free(&b);
	return (rc);
}

/* vm.phys_free's text, or a patched kernel's vm.phys_frag_idx. */
static int
capture_frag(struct tool_source *src, struct memstat_frag *frag, int flags,
    struct tool_error *e)
{
	if (faccessat(src->dirfd, "vm.phys_free", F_OK, 0) != 0 &&
	    faccessat(src->dirfd, "vm.phys_frag_idx", F_OK, 0) != 0)
		return (TOOL_ABSENT);
	if (memstat_frag_freebsd(frag, src->path, flags) != 0)
		return (tool_error_from_frag(e, frag));
	return (0);
}

const struct tool_source_ops tool_source_freebsd_capture = {
	.api = "kvm",
	.open = tool_source_open_dir,
	.uma = capture_uma,
	.malloc = capture_malloc,
	.frag = capture_frag,
	.ints = capture_ints,
};
