/*
 * frag_linux.c: a Linux tree's free lists.  /proc/buddyinfo (anyone may
 * read it): "Node %d, zone %8s " then "%6lu " per order, a line per
 * populated zone.  /proc/pagetypeinfo (root): the same per migrate type,
 * "Node %4d, zone %8s, type %12s " then "%s%6lu " per order, where the
 * prefix ">" says the kernel stopped counting (a floor, not a value).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "frag/frag_internal.h"
#include "linux/linux_tree.h"

static const char *
skip_spaces(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return (p);
}

/* A name: printable, no spaces or commas, and short. */
static bool
read_name(const char **p, char *out, char stop)
{
	size_t n = 0;

	*p = skip_spaces(*p);
	while (**p != '\0' && **p != '\n' && **p != ' ' && **p != stop) {
		if (!isgraph((unsigned char)**p) ||
		    n + 1 >= MEMSTAT_FRAG_NAMELEN)
			return (false);
		out[n++] = *(*p)++;
	}
	out[n] = '\0';
	return (n > 0);
}

static bool
expect(const char **p, const char *word)
{
	size_t n = strlen(word);

	*p = skip_spaces(*p);
	if (strncmp(*p, word, n) != 0)
		return (false);
	*p += n;
	return (true);
}

static bool
read_int(const char **p, int *v)
{
	uint64_t u;

	*p = skip_spaces(*p);
	if (!_memstat_linux_u64(p, &u) || u > 1 << 20)
		return (false);
	*v = (int)u;
	return (true);
}

/*
 * The counts to the end of the line, at most MEMSTAT_FRAG_MAXORDER: their
 * number, or -1.  at_least (or NULL: none allowed) gets the ">" orders.
 */
static int
read_counts(const char **p, uint64_t *out, uint32_t *at_least)
{
	int n = 0;

	for (;;) {
		bool floor = false;

		*p = skip_spaces(*p);
		if (**p == '\n' || **p == '\0')
			return (n);
		if (**p == '>' && at_least != NULL) {
			floor = true;
			(*p)++;
		}
		if (n == MEMSTAT_FRAG_MAXORDER || !_memstat_linux_u64(p, &out[n]))
			return (-1);
		if (floor)
			*at_least |= 1U << n;
		n++;
	}
}

static const char *
next_line(const char *p)
{
	const char *nl = strchr(p, '\n');

	return (nl != NULL ? nl + 1 : p + strlen(p));
}

static int
bad(struct memstat_frag *frag, const char *file, size_t line,
    const char *what)
{
	return (_memstat_err_set(&frag->err, MEMSTAT_ERROR_DATAERROR,
	    "%s: line %zu: %s", file, line, what));
}

static int
parse_buddyinfo(struct memstat_frag *frag, const char *text,
    const char *file)
{
	size_t line = 0;

	for (const char *p = text; *p != '\0'; p = next_line(p)) {
		struct frag_zone *z;
		char name[MEMSTAT_FRAG_NAMELEN];
		int node, n;

		line++;
		if (!expect(&p, "Node") || !read_int(&p, &node) ||
		    !expect(&p, ",") || !expect(&p, "zone") ||
		    !read_name(&p, name, ' '))
			return (bad(frag, file, line, "not \"Node N, zone NAME "
			    "counts\""));
		if (_memstat_frag_zone_find(frag, node, name) != NULL)
			return (bad(frag, file, line, "a zone seen before"));
		if ((z = _memstat_frag_zone_add(frag)) == NULL)
			return (_memstat_err_code(&frag->err, MEMSTAT_ERROR_NOMEMORY));
		z->node = node;
		snprintf(z->name, sizeof(z->name), "%s", name);
		z->has_blocks = true;
		if ((n = read_counts(&p, z->blocks, NULL)) < 1)
			return (bad(frag, file, line, "not 1 to 32 counts"));
		z->norders = n;
		if (frag->zones[0].norders != n)
			return (bad(frag, file, line, "another number of "
			    "orders than the first zone's"));
		if (!_memstat_frag_zone_sane(z))
			return (bad(frag, file, line, "more free pages than "
			    "any machine has"));
	}
	if (frag->nzones == 0)
		return (_memstat_err_set(&frag->err, MEMSTAT_ERROR_DATAERROR,
		    "%s: no zones", file));
	return (0);
}

/*
 * pagetypeinfo's first table, after its header lines; it ends at the
 * first blank line.  Each row's zone must be one of buddyinfo's.
 */
static int
parse_pagetypeinfo(struct memstat_frag *frag, const char *text,
    const char *file)
{
	const char *p = text;
	size_t line = 0;
	bool table = false;

	for (; *p != '\0'; p = next_line(p)) {
		struct frag_zone *z;
		struct frag_type *t;
		char zone[MEMSTAT_FRAG_NAMELEN], type[MEMSTAT_FRAG_NAMELEN];
		const char *q = p;
		int node, n;

		line++;
		if (!table) {
			table = strncmp(p, "Free pages count per migrate type",
			    33) == 0;
			continue;
		}
		if (*p == '\n')
			break;
		if (!expect(&q, "Node") || !read_int(&q, &node) ||
		    !expect(&q, ",") || !expect(&q, "zone") ||
		    !read_name(&q, zone, ',') || !expect(&q, ",") ||
		    !expect(&q, "type") || !read_name(&q, type, ' '))
			return (bad(frag, file, line, "not \"Node N, zone "
			    "NAME, type NAME counts\""));
		if ((z = _memstat_frag_zone_find(frag, node, zone)) == NULL)
			return (bad(frag, file, line, "a zone buddyinfo has "
			    "not"));
		if ((t = _memstat_frag_type_add(z)) == NULL)
			return (z->ntypes == FRAG_MAX_TYPES ?
			    bad(frag, file, line, "too many migrate types") :
			    _memstat_err_code(&frag->err, MEMSTAT_ERROR_NOMEMORY));
		snprintf(t->name, sizeof(t->name), "%s", type);
		if ((n = read_counts(&q, t->blocks, &t->at_least)) !=
		    z->norders)
			return (bad(frag, file, line, "not as many counts as "
			    "buddyinfo's orders"));
		if (!_memstat_frag_zone_sane(z))
			return (bad(frag, file, line, "more free pages than "
			    "any machine has"));
	}
	if (!table)
		return (_memstat_err_set(&frag->err, MEMSTAT_ERROR_DATAERROR,
		    "%s: no \"Free pages count per migrate type\" table",
		    file));
	return (0);
}

/* How to name root/path in a message: "/proc/x", "tree/proc/x". */
static const char *
file_name(const char *root, const char *path, char *buf, size_t len)
{
	size_t n = strlen(root);

	snprintf(buf, len, "%.*s/%s", (int)(n > 0 && root[n - 1] == '/' ?
	    n - 1 : n), root, path);
	return (buf);
}

/* root/path whole: 0, or -1 with frag's error naming the file. */
static int
read_file(struct memstat_frag *frag, int rootfd, const char *name,
    const char *path, char **text)
{
	size_t len;
	int error;

	if ((error = _memstat_linux_read(rootfd, path, text, &len)) != 0)
		return (_memstat_err_set(&frag->err,
		    _memstat_linux_error(error), "%s: %s%s", name,
		    strerror(error), error == EACCES || error == EPERM ?
		    " (root only)" : ""));
	if (strlen(*text) != len)
		return (_memstat_err_set(&frag->err, MEMSTAT_ERROR_DATAERROR,
		    "%s: a NUL byte in it", name));
	return (0);
}

int
memstat_frag_linux(struct memstat_frag *frag, const char *root, int flags)
{
	char *text = NULL, name[4096];
	int rootfd, rc = -1;

	_memstat_frag_clear(frag);
	if ((rootfd = _memstat_linux_open(root)) == -1)
		return (_memstat_err_set(&frag->err,
		    _memstat_linux_error(errno), "%s: %s", root,
		    strerror(errno)));
	file_name(root, "proc/buddyinfo", name, sizeof(name));
	if (read_file(frag, rootfd, name, "proc/buddyinfo", &text) != 0 ||
	    parse_buddyinfo(frag, text, name) != 0)
		goto done;
	free(text);
	text = NULL;
	if (flags & MEMSTAT_FRAG_TYPES) {
		file_name(root, "proc/pagetypeinfo", name, sizeof(name));
		if (read_file(frag, rootfd, name, "proc/pagetypeinfo",
		    &text) != 0 || parse_pagetypeinfo(frag, text, name) != 0)
			goto done;
	}
	rc = 0;
done:
	free(text);
	close(rootfd);
	if (rc != 0) {
		struct memstat_err keep = frag->err;

		_memstat_frag_clear(frag);
		frag->err = keep;
	}
	return (rc);
}
