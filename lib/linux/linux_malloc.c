/*
 * linux_malloc.c: malloc types on Linux.  With allocation profiling
 * (/proc/allocinfo) a type is an allocation site, as FreeBSD's are
 * MALLOC_DEFINE()s.  Without it the nearest thing is a kmalloc family:
 * kmalloc, kmalloc-cg, kmalloc-rcl, dma-kmalloc, kmalloc-rnd-NN, each a set
 * of size classes, like a malloc type spread over malloc(9)'s zones.
 */
#include <stdlib.h>
#include <string.h>

#include "linux/linux_tree.h"

#define ALLOCINFO_MAGIC	"allocinfo - version: "

/* Linux keeps none of these for a malloc type. */
#define MALLOC_UNKNOWN	(MEMSTAT_UNKNOWN_LIMIT | MEMSTAT_UNKNOWN_FAILURES | \
			 MEMSTAT_UNKNOWN_SLEEPS | MEMSTAT_UNKNOWN_XDOMAIN | \
			 MEMSTAT_UNKNOWN_MEMALLOCED | MEMSTAT_UNKNOWN_SLABS | \
			 MEMSTAT_UNKNOWN_ALLOCATED)

/* --- /proc/allocinfo ---------------------------------------------------- */

struct site {
	char		*tag;		/* "mm/slub.c:2431 func:alloc_slab_page" */
	uint64_t	 bytes;
	uint64_t	 calls;
};

static const char *
skip_blanks(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return (p);
}

/*
 * "%12lli %8llu <tag>", where version 2.0 marks inexact counters with a
 * '*' after each number; bytes is signed in the kernel, and a transiently
 * negative sum is read as 0.
 */
static bool
parse_site(char *line, char *eol, struct site *s)
{
	const char *p = skip_blanks(line);
	bool negative = false;
	char *end;

	if (*p == '-') {
		negative = true;
		p++;
	}
	if (!_memstat_linux_u64(&p, &s->bytes))
		return (false);
	if (negative)
		s->bytes = 0;
	if (*p == '*')
		p++;
	if (*p != ' ' && *p != '\t')
		return (false);
	p = skip_blanks(p);
	if (!_memstat_linux_u64(&p, &s->calls))
		return (false);
	if (*p == '*')
		p++;
	if (*p != ' ' && *p != '\t')
		return (false);
	p = skip_blanks(p);
	for (end = eol; end > p && (end[-1] == ' ' || end[-1] == '\t'); end--)
		;
	if (end == p)
		return (false);
	*end = '\0';
	s->tag = (char *)p;
	return (true);
}

static int
allocinfo_parse(char *buf, size_t len, struct site **sitesp, size_t *np)
{
	char *line, *eol, *end = buf + len;
	struct site *sites;
	size_t lines, n = 0;
	uint64_t major;
	int error;

	*sitesp = NULL;
	*np = 0;
	if ((error = _memstat_linux_header(buf, len, ALLOCINFO_MAGIC, &major,
	    &lines)) != 0)
		return (error);
	if (major != 1 && major != 2)
		return (MEMSTAT_ERROR_VERSION);
	if ((sites = calloc(lines, sizeof(*sites))) == NULL)
		return (MEMSTAT_ERROR_NOMEMORY);
	line = memchr(buf, '\n', len) + 1;
	for (; line < end; line = eol + 1) {
		eol = memchr(line, '\n', (size_t)(end - line));
		if (*line == '#')
			continue;
		if (!parse_site(line, eol, &sites[n])) {
			free(sites);
			return (MEMSTAT_ERROR_DATAERROR);
		}
		n++;
	}
	*sitesp = sites;
	*np = n;
	return (0);
}

int
_memstat_allocinfo_fill(struct memory_type_list *list, char *buf, size_t len)
{
	struct memory_type *mtp;
	struct site *sites;
	size_t i, n;
	int error;

	if ((error = allocinfo_parse(buf, len, &sites, &n)) != 0)
		return (_memstat_mtl_fail(list, error));
	_memstat_mtl_begin_pass(list, n);
	for (i = n; i-- > 0;) {
		mtp = _memstat_mtl_lookup(list, ALLOCATOR_MALLOC, sites[i].tag,
		    0);
		if (mtp == NULL) {
			free(sites);
			return (_memstat_mtl_fail_empty(list,
			    MEMSTAT_ERROR_NOMEMORY));
		}
		mtp->mt_count = sites[i].calls;
		mtp->mt_bytes = sites[i].bytes;
		mtp->mt_unknown = MALLOC_UNKNOWN | MEMSTAT_UNKNOWN_NUMALLOCS |
		    MEMSTAT_UNKNOWN_NUMFREES;
	}
	free(sites);
	_memstat_err_code(&list->mtl_err, MEMSTAT_ERROR_UNDEFINED);
	return (0);
}

/* --- kmalloc families --------------------------------------------------- */

#define MAX_FAMILIES	128

struct family {
	char		 name[MEMTYPE_MAXNAME];
	int		 rank;		/* report order */
	uint64_t	 count, bytes, allocs, frees, sizemask;
	bool		 stats;		/* every member has SLUB_STATS */
};

/*
 * A kmalloc cache's family and size class: "kmalloc-cg-192" is family
 * kmalloc-cg, class 192; "kmalloc-rnd-03-1k" is kmalloc-rnd-03, class 1024.
 * Returns the family's rank, or -1 for any other cache.
 */
static int
kmalloc_class(const char *name, char *family, size_t famlen, uint64_t *size)
{
	static const char *const families[] = {
		"kmalloc", "kmalloc-cg", "kmalloc-rcl", "dma-kmalloc",
	};
	const char *dash = strrchr(name, '-'), *p;
	size_t plen;

	if (dash == NULL)
		return (-1);
	p = dash + 1;
	if (!_memstat_linux_u64(&p, size) || *size == 0)
		return (-1);
	if (*p == 'k' || *p == 'M') {
		if (__builtin_mul_overflow(*size, *p == 'k' ? 1024 : 1048576,
		    size))
			return (-1);
		p++;
	}
	if (*p != '\0')
		return (-1);
	plen = (size_t)(dash - name);
	if (plen >= famlen)
		return (-1);
	memcpy(family, name, plen);
	family[plen] = '\0';
	for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); i++)
		if (strcmp(family, families[i]) == 0)
			return ((int)i);
	if (plen == strlen("kmalloc-rnd-NN") &&
	    strncmp(family, "kmalloc-rnd-", 12) == 0 &&
	    family[12] >= '0' && family[12] <= '9' &&
	    family[13] >= '0' && family[13] <= '9')
		return (4);
	return (-1);
}

static int
cmp_family(const void *a, const void *b)
{
	const struct family *x = a, *y = b;

	if (x->rank != y->rank)
		return (x->rank - y->rank);
	return (strcmp(x->name, y->name));
}

static int
cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return ((x > y) - (x < y));
}

static int
find_size(const int *sizes, size_t n, uint64_t size)
{
	for (size_t i = 0; i < n; i++)
		if ((uint64_t)sizes[i] == size)
			return ((int)i);
	return (-1);
}

int
_memstat_kmalloc_families(struct memory_type_list *list,
    const struct slabinfo *si)
{
	struct family fam[MAX_FAMILIES], *f;
	int sizes[MEMSTAT_MALLOC_ZONE_MAX], rank, zi;
	char name[MEMTYPE_MAXNAME];
	size_t nfam = 0, nsizes = 0, i, j;
	struct memory_type *mtp;
	uint64_t size, bytes;

	/* The size classes first: bit n of a size mask is the n-th smallest. */
	for (i = 0; i < si->nrows; i++) {
		if (kmalloc_class(si->rows[i].name, name, sizeof(name),
		    &size) < 0 || find_size(sizes, nsizes, size) >= 0)
			continue;
		if (nsizes == MEMSTAT_MALLOC_ZONE_MAX || size > INT32_MAX)
			return (_memstat_mtl_fail(list,
			    MEMSTAT_ERROR_DATAERROR));
		sizes[nsizes++] = (int)size;
	}
	qsort(sizes, nsizes, sizeof(sizes[0]), cmp_int);

	for (i = 0; i < si->nrows; i++) {
		const struct slab_row *r = &si->rows[i];

		if ((rank = kmalloc_class(r->name, name, sizeof(name),
		    &size)) < 0)
			continue;
		for (j = 0; j < nfam && strcmp(fam[j].name, name) != 0; j++)
			;
		if (j == nfam) {
			if (nfam == MAX_FAMILIES)
				return (_memstat_mtl_fail(list,
				    MEMSTAT_ERROR_DATAERROR));
			fam[nfam] = (struct family){ .rank = rank,
			    .stats = true };
			strcpy(fam[nfam].name, name);
			nfam++;
		}
		f = &fam[j];
		if (__builtin_mul_overflow(r->active, r->objsize, &bytes) ||
		    __builtin_add_overflow(f->bytes, bytes, &f->bytes) ||
		    __builtin_add_overflow(f->count, r->active, &f->count))
			return (_memstat_mtl_fail(list,
			    MEMSTAT_ERROR_DATAERROR));
		if (r->active != 0 &&
		    (zi = find_size(sizes, nsizes, size)) >= 0)
			f->sizemask |= (uint64_t)1 << zi;
		f->stats = f->stats && r->has_stats &&
		    !__builtin_add_overflow(f->allocs, r->allocs, &f->allocs) &&
		    !__builtin_add_overflow(f->frees, r->frees, &f->frees);
	}
	qsort(fam, nfam, sizeof(fam[0]), cmp_family);

	_memstat_mtl_begin_pass(list, nfam);
	for (i = nfam; i-- > 0;) {
		f = &fam[i];
		mtp = _memstat_mtl_lookup(list, ALLOCATOR_MALLOC, f->name, 0);
		if (mtp == NULL)
			return (_memstat_mtl_fail_empty(list,
			    MEMSTAT_ERROR_NOMEMORY));
		mtp->mt_count = f->count;
		mtp->mt_bytes = f->bytes;
		mtp->mt_sizemask = f->sizemask;
		mtp->mt_unknown = MALLOC_UNKNOWN;
		if (f->stats) {
			mtp->mt_numallocs = f->allocs;
			mtp->mt_numfrees = f->frees;
		} else
			mtp->mt_unknown |= MEMSTAT_UNKNOWN_NUMALLOCS |
			    MEMSTAT_UNKNOWN_NUMFREES;
	}
	/* As FreeBSD's query loads vm.malloc.zone_sizes: process-wide. */
	if (memstat_malloc_zone_set_sizes(sizes, nsizes) != 0)
		return (_memstat_mtl_fail_empty(list, MEMSTAT_ERROR_DATAERROR));
	_memstat_err_code(&list->mtl_err, MEMSTAT_ERROR_UNDEFINED);
	return (0);
}
