/*
 * memstat_list.c: memory_type_list, its (allocator, name) index, and the
 * refresh protocol every source uses to fill it.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "model/memstat_internal.h"

#define HASH_MIN_SIZE	64
#define CHUNK_MIN	16
#define CHUNK_MAX	4096
#define BLOCK_MIN	4096
#define BLOCK_MAX	(1024 * 1024)

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
	struct mt_block *mb;

	while ((mtp = LIST_FIRST(&list->mtl_list)) != NULL) {
		LIST_REMOVE(mtp, mt_list);
		free(mtp->mt_caller);
		free(mtp->mt_percpu_caller);
		free(mtp->mt_aliases);
		free(mtp->mt_nodes);
		free(mtp->mt_damage);
		if (mtp->mt_name != mtp->mt_name_buf)
			free(mtp->mt_name);
	}
	while ((mc = list->mtl_chunks) != NULL) {
		list->mtl_chunks = mc->mc_next;
		free(mc);
	}
	while ((mb = list->mtl_blocks) != NULL) {
		list->mtl_blocks = mb->mb_next;
		free(mb);
	}
	free(list->mtl_index);
	list->mtl_index = NULL;
	list->mtl_index_size = 0;
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
 * An entry's key hash: the name under the list's secret key, then the
 * duplicate ordinal and allocator mixed in (splitmix64's finalizer), so
 * that many entries of one name still spread over the slots.  The name's
 * hash is taken once per lookup and reused for every ordinal.
 */
static uint64_t
name_hash(const struct memory_type_list *list, const char *name, size_t len)
{
	return (_memstat_siphash(list->mtl_hash_key, name, len));
}

static uint64_t
key_hash(uint64_t namehash, int allocator, uint32_t dup)
{
	uint64_t h;

	h = namehash ^ (((uint64_t)dup << 8) | (unsigned)allocator);
	h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
	h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
	return (h ^ (h >> 31));
}

/*
 * The probe ends at an empty slot: the index is never more than half
 * full, so there is one within mtl_index_size steps.
 */
static struct memory_type *
index_get(const struct memory_type_list *list, uint64_t hash, int allocator,
    const char *name, uint32_t dup)
{
	const struct mt_slot *slot;
	size_t mask, i;

	if (list->mtl_index_size == 0)
		return (NULL);
	mask = list->mtl_index_size - 1;
	for (i = hash & mask;; i = (i + 1) & mask) {
		slot = &list->mtl_index[i];
		if (slot->mtp == NULL)
			return (NULL);
		if (slot->hash == hash && slot->mtp->mt_allocator == allocator &&
		    slot->mtp->mt_dup == dup &&
		    strcmp(slot->mtp->mt_name, name) == 0)
			return (slot->mtp);
	}
}

static void
index_put(struct mt_slot *table, size_t size, struct memory_type *mtp)
{
	size_t i;

	for (i = mtp->mt_hash & (size - 1); table[i].mtp != NULL;
	    i = (i + 1) & (size - 1))
		;
	table[i] = (struct mt_slot){ mtp->mt_hash, mtp };
}

/* Room for count entries with the index at most half full. */
static int
index_reserve(struct memory_type_list *list, size_t count)
{
	struct memory_type *mtp;
	struct mt_slot *table;
	size_t size;

	if (count <= list->mtl_index_size / 2)
		return (0);
	if (count > SIZE_MAX / 2 / sizeof(*table))
		return (-1);
	size = list->mtl_index_size ? list->mtl_index_size * 2 :
	    HASH_MIN_SIZE;
	while (size / 2 < count)
		size *= 2;
	if ((table = calloc(size, sizeof(*table))) == NULL)
		return (-1);
	LIST_FOREACH(mtp, &list->mtl_list, mt_list)
		index_put(table, size, mtp);
	free(list->mtl_index);
	list->mtl_index = table;
	list->mtl_index_size = size;
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
	uint64_t h;
	size_t i;

	best = NULL;
	h = name_hash(list, name, strlen(name));
	for (i = 0; i < sizeof(allocators) / sizeof(allocators[0]); i++) {
		if (allocator != ALLOCATOR_ANY && allocator != allocators[i])
			continue;
		mtp = index_get(list, key_hash(h, allocators[i], 0),
		    allocators[i], name, 0);
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
_memstat_mtl_begin_pass(struct memory_type_list *list, size_t records)
{
	list->mtl_pass++;
	/* Only a hint: a lookup that finds no room fails on its own. */
	(void)index_reserve(list, list->mtl_count + records);
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
	mtp->mt_slabs = 0;
	mtp->mt_allocated = 0;
	free(mtp->mt_damage);
	mtp->mt_damage = NULL;
	free(mtp->mt_aliases);
	mtp->mt_aliases = NULL;
	mtp->mt_naliases = 0;
	free(mtp->mt_nodes);
	mtp->mt_nodes = NULL;
	mtp->mt_nnodes = 0;
}

int
_memstat_mt_set_nodes(struct memory_type *mtp, const struct mt_node *nodes,
    uint32_t n, uint32_t all)
{
	struct mt_node *v = NULL;

	free(mtp->mt_nodes);
	mtp->mt_nodes = NULL;
	mtp->mt_nnodes = 0;
	if (n == 0 || all < n)
		return (0);
	if ((v = calloc(all, sizeof(*v))) == NULL)
		return (-1);
	memcpy(v, nodes, n * sizeof(*v));
	mtp->mt_nodes = v;
	mtp->mt_nnodes = all;
	return (0);
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
 * bytes from the list's current block, 16-byte aligned; blocks double
 * from BLOCK_MIN to BLOCK_MAX, and a larger request gets a block its size.
 * One malloc per entry used to be the decode's largest cost after the
 * index.
 */
static void *
block_carve(struct memory_type_list *list, size_t bytes)
{
	struct mt_block *mb = list->mtl_blocks;
	size_t size;
	void *p;

	bytes = (bytes + 15) & ~(size_t)15;
	if (mb == NULL || mb->mb_size - mb->mb_used < bytes) {
		size = mb == NULL ? BLOCK_MIN :
		    mb->mb_size * 2 > BLOCK_MAX ? BLOCK_MAX : mb->mb_size * 2;
		if (size < bytes)
			size = bytes;
		if ((mb = malloc(sizeof(*mb) + size)) == NULL)
			return (NULL);
		mb->mb_used = 0;
		mb->mb_size = size;
		mb->mb_next = list->mtl_blocks;
		list->mtl_blocks = mb;
	}
	p = mb->mb_data + mb->mb_used;
	mb->mb_used += bytes;
	return (p);
}

/*
 * Size the per-CPU array this allocator fills to ncpus slots, zeroed.  The
 * count comes from data already checked against its length, so it is
 * bounded by the input.
 */
static int
mt_size_percpu(struct memory_type_list *list, struct memory_type *mtp,
    uint32_t ncpus)
{
	void **arrayp;
	size_t elem;

	if (mtp->mt_allocator == ALLOCATOR_MALLOC) {
		arrayp = (void **)&mtp->mt_percpu_alloc;
		elem = sizeof(*mtp->mt_percpu_alloc);
	} else {
		arrayp = (void **)&mtp->mt_percpu_free;
		elem = sizeof(*mtp->mt_percpu_free);
	}
	if (ncpus > mtp->mt_percpu_cap) {
		if ((*arrayp = block_carve(list, (size_t)ncpus * elem)) ==
		    NULL) {
			mtp->mt_percpu_cap = 0;
			return (-1);
		}
		mtp->mt_percpu_cap = ncpus;
	}
	if (ncpus != 0)
		memset(*arrayp, 0, (size_t)ncpus * elem);
	mtp->mt_ncpus = ncpus;
	return (0);
}

/*
 * A zeroed entry from the current chunk; chunks double up to CHUNK_MAX.
 * The chunk is zeroed whole, its pages made present first (a fault a page
 * was a tenth of the live report): an entry zeroed on its own costs
 * twice as much (the compiler's inline rep stos against libc's memset).
 */
static struct memory_type *
mt_alloc(struct memory_type_list *list)
{
	struct mt_chunk *mc = list->mtl_chunks;
	size_t size;

	if (mc == NULL || mc->mc_used == mc->mc_size) {
		size = mc == NULL ? CHUNK_MIN :
		    mc->mc_size * 2 > CHUNK_MAX ? CHUNK_MAX : mc->mc_size * 2;
		mc = _memstat_zalloc(1, sizeof(*mc) + size *
		    sizeof(mc->mc_entries[0]));
		if (mc == NULL)
			return (NULL);
		mc->mc_size = size;
		mc->mc_next = list->mtl_chunks;
		list->mtl_chunks = mc;
	}
	return (&mc->mc_entries[mc->mc_used++]);
}

static struct memory_type *
mt_create(struct memory_type_list *list, uint64_t hash, int allocator,
    const struct mt_name *key, uint32_t dup)
{
	struct memory_type *mtp;
	char *longname = NULL;

	if (key->len >= sizeof(mtp->mt_name_buf) &&
	    (longname = strndup(key->name, key->len)) == NULL)
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
		mtp->mt_name = memcpy(mtp->mt_name_buf, key->name,
		    key->len + 1);
	mtp->mt_dup = dup;
	mtp->mt_hash = hash;
	mtp->mt_dup_last = mtp;
	mtp->mt_seq = ++list->mtl_seq;
	LIST_INSERT_HEAD(&list->mtl_list, mtp, mt_list);
	index_put(list->mtl_index, list->mtl_index_size, mtp);
	list->mtl_count++;
	return (mtp);
}

void
_memstat_mtl_name(const struct memory_type_list *list, int allocator,
    const char *name, size_t len, struct mt_name *key)
{
	key->name = name;
	key->len = len;
	key->hash = name_hash(list, name, len);
	key->key = key_hash(key->hash, allocator, 0);
	if (list->mtl_index_size != 0)
		__builtin_prefetch(&list->mtl_index[key->key &
		    (list->mtl_index_size - 1)]);
}

struct memory_type *
_memstat_mtl_lookup(struct memory_type_list *list, int allocator,
    const char *name, uint32_t ncpus)
{
	struct mt_name key;

	_memstat_mtl_name(list, allocator, name, strlen(name), &key);
	return (_memstat_mtl_lookup_name(list, allocator, &key, ncpus));
}

struct memory_type *
_memstat_mtl_lookup_name(struct memory_type_list *list, int allocator,
    const struct mt_name *key, uint32_t ncpus)
{
	struct memory_type *first, *mtp;
	bool created = false;
	uint64_t h;
	uint32_t dup;

	first = index_get(list, key->key, allocator, key->name, 0);
	if (first == NULL) {
		first = mt_create(list, key->key, allocator, key, 0);
		if (first == NULL)
			return (NULL);
		created = true;
	}
	if (first->mt_pass != list->mtl_pass) {
		first->mt_pass = list->mtl_pass;
		first->mt_pass_seen = 0;
	}
	dup = first->mt_pass_seen++;
	mtp = first;
	if (dup != 0) {
		h = key_hash(key->hash, allocator, dup);
		mtp = index_get(list, h, allocator, key->name, dup);
		created = mtp == NULL;
		if (mtp == NULL) {
			mtp = mt_create(list, h, allocator, key, dup);
			if (mtp == NULL)
				return (NULL);
			first->mt_dup_last = mtp;
		}
	}
	/* A new entry is zeroed: resetting it too cost a tenth of a decode. */
	if (!created)
		mt_reset_stats(mtp);
	/* Only Linux's slab caches count slabs: a source that does says so. */
	mtp->mt_unknown = MEMSTAT_UNKNOWN_SLABS;
	if (mt_size_percpu(list, mtp, ncpus) != 0)
		return (NULL);
	return (mtp);
}
