/*
 * linux_slab_sysfs.c: what only /sys/kernel/slab knows about the caches
 * of /proc/slabinfo: the names merged into a cache (symlinks to its
 * directory), each cache's share per NUMA node and, on CONFIG_SLUB_STATS
 * kernels, allocation counters.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linux/linux_tree.h"

#define SLAB_DIR	"sys/kernel/slab"

/* Far more than any kernel has (hundreds); a bound on a hostile tree. */
#define MAX_ENTRIES	(1u << 20)

/* A sysfs cache name is one path component. */
static bool
component_ok(const char *name)
{
	return (name[0] != '\0' && strchr(name, '/') == NULL &&
	    strcmp(name, ".") != 0 && strcmp(name, "..") != 0);
}

/* The leading number of a SLUB_STATS file ("123 C0=100 C1=23"). */
static bool
read_stat(int slabfd, const char *cache, const char *file, uint64_t *v)
{
	char path[PATH_MAX], *buf;
	const char *p;
	size_t len;
	bool ok;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", cache, file) >=
	    sizeof(path) || _memstat_linux_read(slabfd, path, &buf, &len) != 0)
		return (false);
	p = buf;
	ok = _memstat_linux_u64(&p, v) &&
	    (*p == ' ' || *p == '\n' || *p == '\0');
	free(buf);
	return (ok);
}

/*
 * Whether the kernel keeps SLUB_STATS: asked of kmem_cache (every SLUB
 * kernel has that cache, unmerged) or, failing that, the first row.
 */
static bool
have_stats(int rootfd, const struct slabinfo *si)
{
	const char *probe[] = { "kmem_cache",
	    si->nrows != 0 ? si->rows[0].name : "" };
	char path[PATH_MAX];

	for (size_t i = 0; i < sizeof(probe) / sizeof(probe[0]); i++)
		if (component_ok(probe[i]) &&
		    (size_t)snprintf(path, sizeof(path),
		    "%s/%s/alloc_fastpath", SLAB_DIR, probe[i]) < sizeof(path) &&
		    faccessat(rootfd, path, F_OK, 0) == 0)
			return (true);
	return (false);
}

void
_memstat_slab_stats(int rootfd, struct slabinfo *si)
{
	static const char *const allocs[] = { "alloc_fastpath", "alloc_slowpath" };
	static const char *const frees[] = { "free_fastpath", "free_slowpath" };
	struct slab_row *r;
	uint64_t a[2], f[2];
	int slabfd;

	if (!have_stats(rootfd, si) || (slabfd = openat(rootfd, SLAB_DIR,
	    O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		return;
	for (size_t i = 0; i < si->nrows; i++) {
		r = &si->rows[i];
		if (!component_ok(r->name))
			continue;
		r->has_stats = read_stat(slabfd, r->name, allocs[0], &a[0]) &&
		    read_stat(slabfd, r->name, allocs[1], &a[1]) &&
		    read_stat(slabfd, r->name, frees[0], &f[0]) &&
		    read_stat(slabfd, r->name, frees[1], &f[1]) &&
		    !__builtin_add_overflow(a[0], a[1], &r->allocs) &&
		    !__builtin_add_overflow(f[0], f[1], &r->frees);
	}
	close(slabfd);
}

/* --- Per node -------------------------------------------------------------- */

/*
 * The files of a cache's shares, and where each goes: objects counts the
 * objects in use (total less the partial slabs' free), total_objects
 * every object, so free is their difference.
 */
enum { NODE_OBJECTS, NODE_TOTAL, NODE_SLABS, NODE_PARTIAL, NODE_FILES };
static const char *const node_files[NODE_FILES] = {
	"objects", "total_objects", "slabs", "partial"
};

/*
 * "TOTAL N0=a N1=b\n" (show_slab_objects(), mm/slub.c), into v[id][file]
 * for ids below LINUX_NODES_MAX, *nnodes raised past each id: false when
 * it is not that, names a node twice or its nodes do not add up.
 */
static bool
parse_nodes(const char *p, int file, uint64_t (*v)[NODE_FILES],
    bool *seen, uint32_t *nnodes)
{
	uint64_t total, id, n, sum = 0;

	if (!_memstat_linux_u64(&p, &total))
		return (false);
	memset(seen, 0, LINUX_NODES_MAX * sizeof(*seen));
	while (*p == ' ') {
		p++;
		if (*p++ != 'N' || !_memstat_linux_u64(&p, &id) ||
		    id >= LINUX_NODES_MAX || seen[id] || *p++ != '=' ||
		    !_memstat_linux_u64(&p, &n) ||
		    __builtin_add_overflow(sum, n, &sum))
			return (false);
		seen[id] = true;
		v[id][file] = n;
		if (id + 1 > *nnodes)
			*nnodes = (uint32_t)id + 1;
	}
	if ((*p != '\n' && *p != '\0') || p[*p == '\n'] != '\0')
		return (false);
	/* The total alone: no node holds any, or CONFIG_NUMA=n's one node. */
	if (sum == 0) {
		v[0][file] = total;
		if (*nnodes == 0)
			*nnodes = 1;
		return (true);
	}
	return (sum == total);
}

/* One row's shares: 0, ENOENT (the tree does not keep them), or EINVAL. */
static int
row_nodes(int slabfd, const char *cache, uint64_t (*v)[NODE_FILES],
    bool *seen, struct mt_node *nodes, uint32_t *nnodes, char *bad)
{
	char path[PATH_MAX], *buf;
	size_t len;
	uint32_t n = 0;
	bool ok;
	int error;

	for (int f = 0; f < NODE_FILES; f++) {
		snprintf(bad, PATH_MAX, "%s/%s/%s", SLAB_DIR, cache,
		    node_files[f]);
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", cache,
		    node_files[f]) >= sizeof(path))
			return (EINVAL);
		/* All four or none: a tree keeps them or does not. */
		if ((error = _memstat_linux_read(slabfd, path, &buf, &len)) != 0)
			return (error == ENOENT && f > 0 ? EINVAL : error);
		ok = strlen(buf) == len && parse_nodes(buf, f, v, seen, &n);
		free(buf);
		if (!ok)
			return (EINVAL);
	}
	for (uint32_t i = 0; i < n; i++) {
		nodes[i].mn_count = v[i][NODE_OBJECTS];
		/* Read apart, a busy cache's two may disagree: no less than 0. */
		nodes[i].mn_free = v[i][NODE_TOTAL] > v[i][NODE_OBJECTS] ?
		    v[i][NODE_TOTAL] - v[i][NODE_OBJECTS] : 0;
		nodes[i].mn_slabs = v[i][NODE_SLABS];
		nodes[i].mn_partial = v[i][NODE_PARTIAL];
	}
	memset(v, 0, n * sizeof(*v));
	*nnodes = n;
	return (0);
}

int
_memstat_slab_nodes(int rootfd, struct slabinfo *si, char *bad)
{
	uint64_t (*v)[NODE_FILES];
	struct mt_node *nodes;
	bool *seen;
	uint32_t n;
	int slabfd, rc, error = 0;

	if ((slabfd = openat(rootfd, SLAB_DIR, O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC)) == -1)
		return (errno == ENOENT ? 0 : _memstat_linux_error(errno));
	v = calloc(LINUX_NODES_MAX, sizeof(*v));
	seen = calloc(LINUX_NODES_MAX, sizeof(*seen));
	nodes = calloc(LINUX_NODES_MAX, sizeof(*nodes));
	if (v == NULL || seen == NULL || nodes == NULL)
		error = MEMSTAT_ERROR_NOMEMORY;
	for (size_t i = 0; error == 0 && i < si->nrows; i++) {
		if (!component_ok(si->rows[i].name))
			continue;
		switch ((rc = row_nodes(slabfd, si->rows[i].name, v, seen,
		    nodes, &n, bad))) {
		case 0:
			if (_memstat_slabinfo_nodes(si, i, nodes, n) != 0)
				error = MEMSTAT_ERROR_NOMEMORY;
			break;
		case ENOENT:		/* a tree saved without them */
			break;
		case EINVAL:
			error = MEMSTAT_ERROR_DATAERROR;
			break;
		default:
			error = _memstat_linux_error(rc);
			break;
		}
	}
	free(nodes);
	free(seen);
	free(v);
	close(slabfd);
	return (error);
}

/* --- Aliases ------------------------------------------------------------ */

struct link {
	const char	*name;		/* the symlink */
	const char	*target;	/* last component of what it points to */
};

struct row_alias {
	size_t		 row;
	const char	*name;
};

struct slab_aliases {
	char		**strings;	/* every name read, to free */
	size_t		 nstrings;
	struct link	*links;		/* every link read */
	size_t		 nlinks, cap;
	struct row_alias *pairs;	/* sorted by row, then name */
	size_t		 npairs;
	size_t		*first;		/* per row: its first pair */
	size_t		 nrows;
	size_t		 lost;		/* entries that could not be read */
};

static int
cmp_link(const void *a, const void *b)
{
	const struct link *x = a, *y = b;
	int c = strcmp(x->target, y->target);

	return (c != 0 ? c : strcmp(x->name, y->name));
}

static int
cmp_pair(const void *a, const void *b)
{
	const struct row_alias *x = a, *y = b;

	if (x->row != y->row)
		return (x->row < y->row ? -1 : 1);
	return (strcmp(x->name, y->name));
}

/* Rows sorted by name, for finding a row by name in O(log n). */
struct named_row {
	const char	*name;
	size_t		 row;
};

struct row_index {
	struct named_row *v;
	size_t		 n;
};

static int
cmp_named_row(const void *a, const void *b)
{
	const struct named_row *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c != 0)
		return (c);
	return (x->row < y->row ? -1 : x->row > y->row);
}

static bool
row_index_init(struct row_index *ri, const struct slabinfo *si)
{
	ri->n = si->nrows;
	if ((ri->v = calloc(si->nrows + 1, sizeof(*ri->v))) == NULL)
		return (false);
	for (size_t i = 0; i < si->nrows; i++)
		ri->v[i] = (struct named_row){ si->rows[i].name, i };
	qsort(ri->v, ri->n, sizeof(*ri->v), cmp_named_row);
	return (true);
}

/* The first row (in file order) named name, or SIZE_MAX. */
static size_t
row_find(const struct row_index *ri, const char *name)
{
	size_t lo = 0, hi = ri->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (strcmp(ri->v[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < ri->n && strcmp(ri->v[lo].name, name) == 0)
		return (ri->v[lo].row);
	return (SIZE_MAX);
}

static char *
keep(struct slab_aliases *sa, const char *s)
{
	char *copy;

	if ((copy = strdup(s)) == NULL)
		return (NULL);
	sa->strings[sa->nstrings++] = copy;
	return (copy);
}

struct slab_aliases *
_memstat_slab_aliases_new(void)
{
	return (calloc(1, sizeof(struct slab_aliases)));
}

int
_memstat_slab_aliases_link(struct slab_aliases *sa, const char *name,
    const char *target)
{
	struct link *lp;
	char **sp;

	if (!component_ok(name) || !component_ok(target))
		return (0);
	if (sa->nlinks == MAX_ENTRIES)
		return (MEMSTAT_ERROR_DATAERROR);
	if (sa->nlinks == sa->cap) {
		sa->cap = sa->cap ? sa->cap * 2 : 256;
		if ((lp = reallocarray(sa->links, sa->cap,
		    sizeof(*sa->links))) != NULL)
			sa->links = lp;
		if ((sp = reallocarray(sa->strings, sa->cap * 2,
		    sizeof(*sa->strings))) != NULL)
			sa->strings = sp;
		if (lp == NULL || sp == NULL)
			return (MEMSTAT_ERROR_NOMEMORY);
	}
	lp = &sa->links[sa->nlinks];
	if ((lp->name = keep(sa, name)) == NULL ||
	    (lp->target = keep(sa, target)) == NULL)
		return (MEMSTAT_ERROR_NOMEMORY);
	sa->nlinks++;
	return (0);
}

/* Every symlink of the slab directory, with the last part of its target. */
static int
read_links(int rootfd, struct slab_aliases *sa)
{
	char target[PATH_MAX];
	const char *base;
	struct dirent *de;
	struct stat st;
	ssize_t n;
	DIR *dir;
	int fd, error = 0;

	fd = openat(rootfd, SLAB_DIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd == -1)
		return (errno == ENOENT ? 0 : _memstat_linux_error(errno));
	if ((dir = fdopendir(fd)) == NULL) {
		close(fd);
		return (MEMSTAT_ERROR_NOMEMORY);
	}
	while (error == 0 && (de = readdir(dir)) != NULL) {
		if (de->d_type != DT_LNK && de->d_type != DT_UNKNOWN)
			continue;
		if (de->d_type == DT_UNKNOWN &&
		    (fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
		    !S_ISLNK(st.st_mode)))
			continue;
		if ((n = readlinkat(fd, de->d_name, target,
		    sizeof(target) - 1)) <= 0)
			continue;
		target[n] = '\0';
		base = strrchr(target, '/');
		base = base != NULL ? base + 1 : target;
		error = _memstat_slab_aliases_link(sa, de->d_name, base);
	}
	closedir(dir);
	return (error);
}

/*
 * Links to one directory are the names of one cache.  The cache's row is
 * the directory's own name when /proc/slabinfo has it (an unmergeable
 * cache), else the one linked name /proc/slabinfo shows (the creator of a
 * ":"-id directory).  The rest are its aliases.  Links that reach no row
 * (stale, or to caches the tree no longer has) name nothing.
 */
static int
group_links(struct slab_aliases *sa, const struct row_index *ri)
{
	struct link *links = sa->links;
	size_t nlinks = sa->nlinks, i, j, k, row;

	if (nlinks != 0)
		qsort(links, nlinks, sizeof(*links), cmp_link);
	if ((sa->pairs = calloc(nlinks + 1, sizeof(*sa->pairs))) == NULL)
		return (MEMSTAT_ERROR_NOMEMORY);
	for (i = 0; i < nlinks; i = j) {
		for (j = i; j < nlinks &&
		    strcmp(links[j].target, links[i].target) == 0; j++)
			;
		row = row_find(ri, links[i].target);
		for (k = i; k < j && row == SIZE_MAX; k++)
			row = row_find(ri, links[k].name);
		if (row == SIZE_MAX)
			continue;
		for (k = i; k < j; k++)
			if (row_find(ri, links[k].name) == SIZE_MAX)
				sa->pairs[sa->npairs++] =
				    (struct row_alias){ row, links[k].name };
	}
	qsort(sa->pairs, sa->npairs, sizeof(*sa->pairs), cmp_pair);

	if ((sa->first = calloc(ri->n + 1, sizeof(size_t))) == NULL)
		return (MEMSTAT_ERROR_NOMEMORY);
	sa->nrows = ri->n;
	for (i = 0, row = 0; row <= sa->nrows; row++) {
		while (i < sa->npairs && sa->pairs[i].row < row)
			i++;
		sa->first[row] = i;
	}
	return (0);
}

int
_memstat_slab_aliases_group(struct slab_aliases *sa,
    const struct slabinfo *si)
{
	struct row_index ri = { 0 };
	int error;

	if (!row_index_init(&ri, si))
		return (MEMSTAT_ERROR_NOMEMORY);
	error = group_links(sa, &ri);
	free(ri.v);
	return (error);
}

int
_memstat_slab_aliases_read(int rootfd, const struct slabinfo *si,
    struct slab_aliases **sap)
{
	struct slab_aliases *sa;
	int error;

	*sap = NULL;
	if ((sa = _memstat_slab_aliases_new()) == NULL)
		return (MEMSTAT_ERROR_NOMEMORY);
	error = read_links(rootfd, sa);
	if (error == 0)
		error = _memstat_slab_aliases_group(sa, si);
	if (error != 0) {
		_memstat_slab_aliases_free(sa);
		return (error);
	}
	*sap = sa;
	return (0);
}

void
_memstat_slab_aliases_lost(struct slab_aliases *sa, size_t n)
{
	sa->lost += n;
}

int
_memstat_slab_aliases_apply(const struct slab_aliases *sa, size_t row,
    struct memory_type *mtp)
{
	const char *names[64] = { NULL };
	const char **v = names;
	size_t i, n;
	int rc;

	if (row >= sa->nrows)
		return (_memstat_mt_set_aliases(mtp, NULL, 0));
	n = sa->first[row + 1] - sa->first[row];
	if (n > sizeof(names) / sizeof(names[0]) &&
	    (v = calloc(n, sizeof(*v))) == NULL)
		return (-1);
	for (i = 0; i < n; i++)
		v[i] = sa->pairs[sa->first[row] + i].name;
	rc = _memstat_mt_set_aliases(mtp, v, n);
	if (v != names)
		free(v);
	/* Whatever the row has, it may have more that could not be read. */
	if (sa->lost != 0)
		mtp->mt_unknown |= MEMSTAT_UNKNOWN_ALIASES;
	return (rc);
}

void
_memstat_slab_aliases_free(struct slab_aliases *sa)
{
	if (sa == NULL)
		return;
	for (size_t i = 0; i < sa->nstrings; i++)
		free(sa->strings[i]);
	free(sa->strings);
	free(sa->links);
	free(sa->pairs);
	free(sa->first);
	free(sa);
}
