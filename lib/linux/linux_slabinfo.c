/*
 * linux_slabinfo.c: zones from /proc/slabinfo, one per real kmem_cache.
 * Merged caches appear once, under their first name; their other names
 * are aliases of that entry, never entries with counts of their own.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "linux/linux_tree.h"

#define SLABINFO_MAGIC	"slabinfo - version: "

static bool
is_blank(char c)
{
	return (c == ' ' || c == '\t');
}

/* The next blank-separated token of [*p, end), NUL-terminated in place. */
static char *
next_token(char **p, char *end)
{
	char *t;

	while (*p < end && is_blank(**p))
		(*p)++;
	if (*p == end)
		return (NULL);
	t = *p;
	while (*p < end && !is_blank(**p))
		(*p)++;
	if (*p < end)
		*(*p)++ = '\0';
	else
		**p = '\0';	/* the line's '\n' */
	return (t);
}

static bool
token_u64(char **p, char *end, uint64_t *v)
{
	const char *t = next_token(p, end);

	return (t != NULL && _memstat_linux_u64(&t, v) && *t == '\0');
}

static bool
token_is(char **p, char *end, const char *word)
{
	const char *t = next_token(p, end);

	return (t != NULL && strcmp(t, word) == 0);
}

/*
 * "name active num objsize objperslab pagesperslab : tunables l b s :
 * slabdata active_slabs num_slabs sharedavail"; SLAB's statistics
 * kernels append more ": group n..." columns, which are ignored.
 */
static bool
parse_row(char *line, char *eol, struct slab_row *r)
{
	uint64_t ignored, active_slabs;
	char *p = line;

	*r = (struct slab_row){ 0 };
	if ((r->name = next_token(&p, eol)) == NULL ||
	    !token_u64(&p, eol, &r->active) ||
	    !token_u64(&p, eol, &r->objects) ||
	    !token_u64(&p, eol, &r->objsize) ||
	    !token_u64(&p, eol, &r->objperslab) ||
	    !token_u64(&p, eol, &r->pagesperslab) ||
	    !token_is(&p, eol, ":") || !token_is(&p, eol, "tunables") ||
	    !token_u64(&p, eol, &ignored) || !token_u64(&p, eol, &ignored) ||
	    !token_u64(&p, eol, &ignored) ||
	    !token_is(&p, eol, ":") || !token_is(&p, eol, "slabdata") ||
	    !token_u64(&p, eol, &active_slabs) ||
	    !token_u64(&p, eol, &r->slabs) || !token_u64(&p, eol, &ignored))
		return (false);
	while (p < eol && is_blank(*p))
		p++;
	if (p < eol && *p != ':')
		return (false);
	/* What the kernel counts cannot be more than what it has. */
	return (r->active <= r->objects && active_slabs <= r->slabs);
}

int
_memstat_slabinfo_parse(char *buf, size_t len, struct slabinfo *si)
{
	char *line, *eol, *end = buf + len;
	uint64_t major;
	size_t lines;
	int error;

	*si = (struct slabinfo){ .buf = buf };
	if ((error = _memstat_linux_header(buf, len, SLABINFO_MAGIC, &major,
	    &lines)) != 0)
		return (error);
	/* Only major version 2 exists (SLAB's "2.1 (statistics)" too). */
	if (major != 2)
		return (MEMSTAT_ERROR_VERSION);
	eol = memchr(buf, '\n', len);
	if ((si->rows = _memstat_zalloc(lines, sizeof(*si->rows))) == NULL)
		return (MEMSTAT_ERROR_NOMEMORY);
	for (line = eol + 1; line < end; line = eol + 1) {
		eol = memchr(line, '\n', (size_t)(end - line));
		if (*line == '#')
			continue;
		if (!parse_row(line, eol, &si->rows[si->nrows])) {
			free(si->rows);
			si->rows = NULL;
			return (MEMSTAT_ERROR_DATAERROR);
		}
		si->nrows++;
	}
	return (0);
}

int
_memstat_slabinfo_read(int rootfd, struct slabinfo *si)
{
	size_t len;
	char *buf;
	int error;

	*si = (struct slabinfo){ 0 };
	if ((error = _memstat_linux_read(rootfd, "proc/slabinfo", &buf,
	    &len)) != 0)
		return (_memstat_linux_error(error));
	if ((error = _memstat_slabinfo_parse(buf, len, si)) != 0) {
		free(buf);
		*si = (struct slabinfo){ 0 };
	}
	return (error);
}

void
_memstat_slabinfo_free(struct slabinfo *si)
{
	free(si->rows);
	free(si->buf);
	free(si->nodes);
	*si = (struct slabinfo){ 0 };
}

/* What Linux does not keep is unknown, never 0. */
#define SLAB_UNKNOWN	(MEMSTAT_UNKNOWN_LIMIT | MEMSTAT_UNKNOWN_FAILURES | \
			 MEMSTAT_UNKNOWN_SLEEPS | MEMSTAT_UNKNOWN_XDOMAIN | \
			 MEMSTAT_UNKNOWN_MEMALLOCED)

static int
slab_fill(struct memory_type *mtp, const struct slabinfo *si,
    const struct slab_row *r)
{
	mtp->mt_size = r->objsize;
	mtp->mt_rsize = r->objsize;
	mtp->mt_count = r->active;
	mtp->mt_free = r->objects - r->active;
	mtp->mt_zonefree = mtp->mt_free;
	mtp->mt_bytes = r->active * r->objsize;
	mtp->mt_slabs = r->slabs;
	mtp->mt_unknown = SLAB_UNKNOWN;
	if (r->has_stats) {
		mtp->mt_numallocs = r->allocs;
		mtp->mt_numfrees = r->frees;
	} else
		mtp->mt_unknown |= MEMSTAT_UNKNOWN_NUMALLOCS |
		    MEMSTAT_UNKNOWN_NUMFREES;
	if (r->has_allocated)
		mtp->mt_allocated = r->allocated;
	else
		mtp->mt_unknown |= MEMSTAT_UNKNOWN_ALLOCATED;
	if (r->damage != NULL && (mtp->mt_damage = strdup(r->damage)) == NULL)
		return (-1);
	return (_memstat_mt_set_nodes(mtp, si->nodes + r->node_first,
	    r->nnodes, si->maxnodes));
}

int
_memstat_slab_fill(struct memory_type_list *list, const struct slabinfo *si,
    const struct slab_aliases *sa)
{
	struct memory_type *mtp;
	size_t i;

	/*
	 * Entries go in at the head, so walk the rows backwards for the list
	 * to read in /proc/slabinfo's order.
	 */
	_memstat_mtl_begin_pass(list, si->nrows);
	for (i = si->nrows; i-- > 0;) {
		mtp = _memstat_mtl_lookup(list, ALLOCATOR_UMA, si->rows[i].name,
		    0);
		if (mtp == NULL ||
		    slab_fill(mtp, si, &si->rows[i]) != 0 ||
		    (sa != NULL && _memstat_slab_aliases_apply(sa, i, mtp) != 0))
			return (_memstat_mtl_fail_empty(list,
			    MEMSTAT_ERROR_NOMEMORY));
	}
	_memstat_err_code(&list->mtl_err, MEMSTAT_ERROR_UNDEFINED);
	return (0);
}
