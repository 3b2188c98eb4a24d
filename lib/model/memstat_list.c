/*
 * memstat_list.c: memory_type_list, its (allocator, name) index, and the
 * refresh protocol every source uses to fill it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/memstat_internal.h"

#define HASH_MIN_SIZE	64
#define CHUNK_MIN	16
#define CHUNK_MAX	4096

struct memory_type_list *
memstat_mtl_alloc(void)
{
	struct memory_type_list *list;

	list = calloc(1, sizeof(*list));
	if (list == NULL)
		return (NULL);
	LIST_INIT(&list->mtl_list);
	_memstat_err_code(&list->mtl_err, MEMSTAT_ERROR_UNDEFINED);
	arc4random_buf(list->mtl_hash_key, sizeof(list->mtl_hash_key));
	return (list);
}

struct memory_type *
memstat_mtl_first(struct memory_type_list *list)
{
	return (LIST_FIRST(&list->mtl_list));
}

struct memory_type *
memstat_mtl_next(struct memory_type *mtp)
{
	return (LIST_NEXT(mtp, mt_list));
}

int
memstat_mtl_geterror(struct memory_type_list *list)
{
	return (list->mtl_err.code);
}

const char *
memstat_mtl_geterrmsg(struct memory_type_list *list)
{
	return (list->mtl_err.msg);
}

static void
mtl_empty(struct memory_type_list *list)
{
	struct memory_type *mtp;
	struct mt_chunk *mc;

	while ((mtp = LIST_FIRST(&list->mtl_list)) != NULL) {
		LIST_REMOVE(mtp, mt_list);
		free(mtp->mt_percpu_free);
		free(mtp->mt_percpu_alloc);
		free(mtp->mt_caller);
		free(mtp->mt_percpu_caller);
		free(mtp->mt_aliases);
		if (mtp->mt_name != mtp->mt_name_buf)
			free(mtp->mt_name);
	}
	while ((mc = list->mtl_chunks) != NULL) {
		list->mtl_chunks = mc->mc_next;
		free(mc);
	}
	free(list->mtl_hash);
	list->mtl_hash = NULL;
	list->mtl_hash_size = 0;
	list->mtl_count = 0;
}

void
memstat_mtl_free(struct memory_type_list *list)
{
	if (list == NULL)
		return;
	mtl_empty(list);
	free(list);
}

int
_memstat_mtl_fail(struct memory_type_list *list, int error)
{
	return (_memstat_err_code(&list->mtl_err, error));
}

int
_memstat_mtl_failf(struct memory_type_list *list, int error,
    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	_memstat_err_vset(&list->mtl_err, error, fmt, ap);
	va_end(ap);
	return (-1);
}

int
_memstat_mtl_fail_err(struct memory_type_list *list,
    const struct memstat_err *e)
{
	list->mtl_err = *e;
	return (-1);
}

int
_memstat_mtl_fail_empty(struct memory_type_list *list, int error)
{
	mtl_empty(list);
	return (_memstat_mtl_fail(list, error));
}

/*
 * The name under the list's secret key, then the duplicate ordinal and
 * allocator mixed in (splitmix64's finalizer): many entries of one name
 * still spread over the buckets.
 */
static uint64_t
key_hash(const struct memory_type_list *list, int allocator, const char *name,
    uint32_t dup)
{
	uint64_t h;

	h = _memstat_siphash(list->mtl_hash_key, name, strlen(name));
	h ^= ((uint64_t)dup << 8) | (unsigned)allocator;
	h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
	h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
	return (h ^ (h >> 31));
}

static struct memory_type *
index_get(const struct memory_type_list *list, int allocator,
    const char *name, uint32_t dup)
{
	struct memory_type *mtp;

	if (list->mtl_hash_size == 0)
		return (NULL);
	mtp = list->mtl_hash[key_hash(list, allocator, name, dup) &
	    (list->mtl_hash_size - 1)];
	for (; mtp != NULL; mtp = mtp->mt_hash_next)
		if (mtp->mt_allocator == allocator && mtp->mt_dup == dup &&
		    strcmp(mtp->mt_name, name) == 0)
			return (mtp);
	return (NULL);
}

static void
index_put(const struct memory_type_list *list, struct memory_type **table,
    size_t size, struct memory_type *mtp)
{
	size_t b;

	b = key_hash(list, mtp->mt_allocator, mtp->mt_name, mtp->mt_dup) &
	    (size - 1);
	mtp->mt_hash_next = table[b];
	table[b] = mtp;
}

/* Keep the table at least as large as the entry count. */
static int
index_reserve(struct memory_type_list *list, size_t count)
{
	struct memory_type **table, *mtp;
	size_t size;

	if (count <= list->mtl_hash_size)
		return (0);
	size = list->mtl_hash_size ? list->mtl_hash_size * 2 : HASH_MIN_SIZE;
	while (size < count)
		size *= 2;
	table = calloc(size, sizeof(*table));
	if (table == NULL)
		return (-1);
	LIST_FOREACH(mtp, &list->mtl_list, mt_list)
		index_put(list, table, size, mtp);
	free(list->mtl_hash);
	list->mtl_hash = table;
	list->mtl_hash_size = size;
	return (0);
}

struct memory_type *
memstat_mtl_find(struct memory_type_list *list, int allocator,
    const char *name)
{
	static const int allocators[] = {
		ALLOCATOR_UNKNOWN, ALLOCATOR_MALLOC, ALLOCATOR_UMA
	};
	struct memory_type *mtp, *best;
	size_t i;

	best = NULL;
	for (i = 0; i < sizeof(allocators) / sizeof(allocators[0]); i++) {
		if (allocator != ALLOCATOR_ANY && allocator != allocators[i])
			continue;
		mtp = index_get(list, allocators[i], name, 0);
		if (mtp == NULL)
			continue;
		/*
		 * A list reads newest first, so of several entries with this
		 * name a scan meets the one created last.
		 */
		mtp = mtp->mt_dup_last;
		if (best == NULL || mtp->mt_seq > best->mt_seq)
			best = mtp;
	}
	return (best);
}

void
_memstat_mtl_begin_pass(struct memory_type_list *list)
{
	list->mtl_pass++;
}

static void
mt_reset_stats(struct memory_type *mtp)
{
	mtp->mt_countlimit = 0;
	mtp->mt_byteslimit = 0;
	mtp->mt_sizemask = 0;
	mtp->mt_size = 0;
	mtp->mt_rsize = 0;
	mtp->mt_memalloced = 0;
	mtp->mt_memfreed = 0;
	mtp->mt_numallocs = 0;
	mtp->mt_numfrees = 0;
	mtp->mt_bytes = 0;
	mtp->mt_count = 0;
	mtp->mt_free = 0;
	mtp->mt_failures = 0;
	mtp->mt_sleeps = 0;
	mtp->mt_xdomain = 0;
	mtp->mt_zonefree = 0;
	mtp->mt_kegfree = 0;
	mtp->mt_unknown = 0;
	free(mtp->mt_aliases);
	mtp->mt_aliases = NULL;
	mtp->mt_naliases = 0;
}

int
_memstat_mt_set_aliases(struct memory_type *mtp, const char *const *names,
    size_t n)
{
	size_t i, bytes, len;
	char **v, *p;

	free(mtp->mt_aliases);
	mtp->mt_aliases = NULL;
	mtp->mt_naliases = 0;
	if (n == 0)
		return (0);
	bytes = n * sizeof(*v);
	for (i = 0; i < n; i++)
		bytes += strlen(names[i]) + 1;
	if ((v = malloc(bytes)) == NULL)
		return (-1);
	p = (char *)(v + n);
	for (i = 0; i < n; i++) {
		len = strlen(names[i]) + 1;
		v[i] = memcpy(p, names[i], len);
		p += len;
	}
	mtp->mt_aliases = v;
	mtp->mt_naliases = n;
	return (0);
}

/*
 * Size the per-CPU array this allocator fills to ncpus slots, zeroed.  The
 * count comes from data already checked against its length, so it is
 * bounded by the input.
 */
static int
mt_size_percpu(struct memory_type *mtp, uint32_t ncpus)
{
	void **arrayp;
	size_t elem;
	void *p;

	if (mtp->mt_allocator == ALLOCATOR_MALLOC) {
		arrayp = (void **)&mtp->mt_percpu_alloc;
		elem = sizeof(*mtp->mt_percpu_alloc);
	} else {
		arrayp = (void **)&mtp->mt_percpu_free;
		elem = sizeof(*mtp->mt_percpu_free);
	}
	if (ncpus == 0) {
		free(*arrayp);
		*arrayp = NULL;
	} else if (ncpus != mtp->mt_ncpus || *arrayp == NULL) {
		p = realloc(*arrayp, (size_t)ncpus * elem);
		if (p == NULL)
			return (-1);
		*arrayp = p;
	}
	if (*arrayp != NULL)
		memset(*arrayp, 0, (size_t)ncpus * elem);
	mtp->mt_ncpus = ncpus;
	return (0);
}

/* A zeroed entry from the current chunk; chunks double up to CHUNK_MAX. */
static struct memory_type *
mt_alloc(struct memory_type_list *list)
{
	struct mt_chunk *mc = list->mtl_chunks;
	size_t size;

	if (mc == NULL || mc->mc_used == mc->mc_size) {
		size = mc == NULL ? CHUNK_MIN :
		    mc->mc_size * 2 > CHUNK_MAX ? CHUNK_MAX : mc->mc_size * 2;
		mc = calloc(1, sizeof(*mc) + size * sizeof(mc->mc_entries[0]));
		if (mc == NULL)
			return (NULL);
		mc->mc_size = size;
		mc->mc_next = list->mtl_chunks;
		list->mtl_chunks = mc;
	}
	return (&mc->mc_entries[mc->mc_used++]);
}

static struct memory_type *
mt_create(struct memory_type_list *list, int allocator, const char *name,
    uint32_t dup)
{
	struct memory_type *mtp;
	char *longname = NULL;

	if (strlen(name) >= sizeof(mtp->mt_name_buf) &&
	    (longname = strdup(name)) == NULL)
		return (NULL);
	if (index_reserve(list, list->mtl_count + 1) != 0 ||
	    (mtp = mt_alloc(list)) == NULL) {
		free(longname);
		return (NULL);
	}
	mtp->mt_allocator = allocator;
	if (longname != NULL)
		mtp->mt_name = longname;
	else
		mtp->mt_name = strcpy(mtp->mt_name_buf, name);
	mtp->mt_dup = dup;
	mtp->mt_dup_last = mtp;
	mtp->mt_seq = ++list->mtl_seq;
	LIST_INSERT_HEAD(&list->mtl_list, mtp, mt_list);
	index_put(list, list->mtl_hash, list->mtl_hash_size, mtp);
	list->mtl_count++;
	return (mtp);
}

struct memory_type *
_memstat_mtl_lookup(struct memory_type_list *list, int allocator,
    const char *name, uint32_t ncpus)
{
	struct memory_type *first, *mtp;
	uint32_t dup;

	first = index_get(list, allocator, name, 0);
	if (first == NULL) {
		first = mt_create(list, allocator, name, 0);
		if (first == NULL)
			return (NULL);
	}
	if (first->mt_pass != list->mtl_pass) {
		first->mt_pass = list->mtl_pass;
		first->mt_pass_seen = 0;
	}
	dup = first->mt_pass_seen++;
	mtp = dup == 0 ? first : index_get(list, allocator, name, dup);
	if (mtp == NULL) {
		mtp = mt_create(list, allocator, name, dup);
		if (mtp == NULL)
			return (NULL);
		first->mt_dup_last = mtp;
	}
	mt_reset_stats(mtp);
	if (mt_size_percpu(mtp, ncpus) != 0)
		return (NULL);
	return (mtp);
}
