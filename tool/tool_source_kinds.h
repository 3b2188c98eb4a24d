/*
 * tool_source_kinds.h: inside the tool layer's sources.  A source is its
 * path, a directory when it is one, its operations, and what they keep.
 * Adding a kind of source is a file of operations and a line in
 * tool_source.c's table.
 */
#ifndef TOOL_SOURCE_KINDS_H
#define TOOL_SOURCE_KINDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Named, not included: tool_source.c includes this header, and the
 * kinds below stand above it.
 */
struct memory_type_list;
struct memstat_cgroups;
struct memstat_frag;
struct tool_error;
struct tool_source;

struct tool_source_ops {
	const char	*api;		/* "sysctl" or "kvm" */
	bool		 linux;		/* Linux's columns apply */
	/* The live kernel: a refusal gets a hint on what to do. */
	bool		 live;
	int	(*open)(struct tool_source *src, const char *nlistf,
		    struct tool_error *e);
	int	(*uma)(struct tool_source *src, struct memory_type_list *list,
		    int flags, struct tool_error *e);
	int	(*malloc)(struct tool_source *src,
		    struct memory_type_list *list, int flags,
		    struct tool_error *e);
	/* NULL: the source holds no free lists. */
	int	(*frag)(struct tool_source *src, struct memstat_frag *frag,
		    int flags, struct tool_error *e);
	/* NULL: the source holds no memory cgroups. */
	int	(*cgroups)(struct tool_source *src, struct memstat_cgroups *cg,
		    struct tool_error *e);
	/* NULL: the source does not say when it was taken. */
	int	(*uptime)(struct tool_source *src, double *seconds,
		    struct tool_error *e);
	/* NULL: the source holds no such files. */
	int	(*text)(struct tool_source *src, const char *file, char **bufp,
		    struct tool_error *e);
	int	(*ints)(struct tool_source *src, const char *oid, size_t width,
		    uint64_t *out, size_t max, size_t *n,
		    struct tool_error *e);
	uint64_t (*pagesize)(struct tool_source *src);
	/* NULL: the source is saved data, which does not change. */
	bool	(*changes)(const struct tool_source *src);
	void	(*close)(struct tool_source *src);
};

struct tool_source {
	const struct tool_source_ops *ops;
	char		*path;		/* "/" for the live kernel */
	int		 dirfd;		/* a directory source, or -1 */
	int		 byte_order;	/* FreeBSD data's (memstat_probe()) */
	void		*state;		/* the kind's own */
};

extern const struct tool_source_ops tool_source_freebsd_stream;
extern const struct tool_source_ops tool_source_freebsd_capture;
extern const struct tool_source_ops tool_source_linux_live;
extern const struct tool_source_ops tool_source_linux_tree;
extern const struct tool_source_ops tool_source_core;

/*
 * A file whole.  tool_blob_read(): a regular file or a pipe, read, with a
 * NUL after its bytes (text can be parsed in place).  tool_blob_map(): a
 * regular file mapped (tool_map.c; ENOTSUP when it cannot be, then read
 * it), which keeps fd; a file cut short while mapped gives zeros, not
 * SIGBUS, and tool_blob_changed() says so after the decode.  0, or an
 * errno value (EFBIG past TOOL_FILE_MAX).
 */
#define TOOL_FILE_MAX	((size_t)1 << 30)
struct tool_blob {
	unsigned char	*data;
	size_t		 len;
	bool		 mapped;
	int		 fd;		/* the mapped file's */
};
int	tool_blob_read(int fd, struct tool_blob *b);
int	tool_blob_map(int fd, struct tool_blob *b);
bool	tool_blob_changed(const struct tool_blob *b);
void	tool_blob_unmap(struct tool_blob *b);
void	tool_blob_free(struct tool_blob *b);

/* The open operation of a directory source: -M is opened as one. */
int	tool_source_open_dir(struct tool_source *src, const char *nlistf,
	    struct tool_error *e);

/*
 * A file of a directory source, which is someone else's: a FIFO must not
 * block, nor a device stand in for a file.  0, TOOL_ABSENT, or -1 with e
 * naming the file.
 */
int	tool_source_file(struct tool_source *src, const char *file,
	    struct tool_blob *b, struct tool_error *e);

#endif /* !TOOL_SOURCE_KINDS_H */
