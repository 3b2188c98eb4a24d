/*
 * u64map.c: linear probing, at most half full, backward-shift deletion.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "huge_alloc.h"
#include "u64map.h"

#define MIN_SLOTS_BITS	6
#define MIN_SLOTS	(1U << MIN_SLOTS_BITS)

/*
 * Fibonacci hashing of the seeded key: the product's top bits, which
 * every bit of the key moves (a pointer's zero low bits, a pfn's steps
 * of one alike).  One multiply: the object map hashes for every event.
 */
static size_t
home(const struct u64map *m, uint64_t key)
{
	return ((size_t)(((key ^ m->seed) * 0x9e3779b97f4a7c15ULL) >>
	    m->shift));
}

/*
 * A seed of its own for each map, none known outside: one random word a
 * thread, stepped by a Weyl sequence.  A getrandom(2) for each map cost
 * 11,000 system calls on a dump's owners report (a map for each group
 * it lists, to count the group's caches).
 */
static uint64_t
map_seed(void)
{
	static _Thread_local uint64_t base, n;

	if (n++ == 0 && getrandom(&base, sizeof(base), GRND_NONBLOCK) !=
	    (ssize_t)sizeof(base))
		base = (uint64_t)(uintptr_t)&base * 0x2545f4914f6cdd1dULL;
	return (base + n * 0x9e3779b97f4a7c15ULL);
}

int
u64map_init(struct u64map *m)
{
	memset(m, 0, sizeof(*m));
	m->seed = map_seed();
	if ((m->slots = huge_zalloc(MIN_SLOTS * sizeof(*m->slots))) == NULL)
		return (-1);
	m->mask = MIN_SLOTS - 1;
	m->shift = 64 - MIN_SLOTS_BITS;
	return (0);
}

void
u64map_free(struct u64map *m)
{
	huge_free(m->slots, (m->mask + 1) * sizeof(*m->slots));
	m->slots = NULL;
}

uint32_t *
u64map_find(const struct u64map *m, uint64_t key)
{
	for (size_t i = home(m, key);; i = (i + 1) & m->mask) {
		struct u64map_slot *s = &m->slots[i];

		if (!s->used)
			return (NULL);
		if (s->key == key)
			return (&s->value);
	}
}

/* Out of line: inserts, one an allocation, then save no registers for it. */
static int __attribute__((noinline))
grow(struct u64map *m)
{
	struct u64map_slot *old = m->slots;
	size_t n = (m->mask + 1) * 2;

	if (n > SIZE_MAX / sizeof(*m->slots) ||
	    (m->slots = huge_zalloc(n * sizeof(*m->slots))) == NULL) {
		m->slots = old;
		return (-1);
	}
	m->mask = n - 1;
	m->shift--;
	for (size_t i = 0; i < n / 2; i++) {
		if (!old[i].used)
			continue;
		size_t j = home(m, old[i].key);

		while (m->slots[j].used)
			j = (j + 1) & m->mask;
		m->slots[j] = old[i];
	}
	huge_free(old, n / 2 * sizeof(*m->slots));
	return (0);
}

uint32_t *
u64map_insert(struct u64map *m, uint64_t key, bool *made)
{
	size_t i;

	if ((m->count + 1) * 2 > m->mask + 1 && grow(m) != 0)
		return (NULL);
	for (i = home(m, key); m->slots[i].used; i = (i + 1) & m->mask)
		if (m->slots[i].key == key) {
			*made = false;
			return (&m->slots[i].value);
		}
	m->slots[i] = (struct u64map_slot){ .key = key, .used = true };
	m->count++;
	*made = true;
	return (&m->slots[i].value);
}

void
u64map_remove(struct u64map *m, uint64_t key)
{
	size_t i, j;

	for (i = home(m, key);; i = (i + 1) & m->mask) {
		if (!m->slots[i].used)
			return;
		if (m->slots[i].key == key)
			break;
	}
	/* Shift back each following entry that may live at i. */
	for (j = i;;) {
		j = (j + 1) & m->mask;
		if (!m->slots[j].used)
			break;
		size_t h = home(m, m->slots[j].key);

		/* j's home lies cyclically in (i, j]: it stays. */
		if (i <= j ? (i < h && h <= j) : (i < h || h <= j))
			continue;
		m->slots[i] = m->slots[j];
		i = j;
	}
	m->slots[i].used = false;
	m->count--;
}

int
u64map_entry(struct u64map *m, uint64_t key, void *array, size_t *n,
    size_t *cap, size_t size, uint32_t *index, bool *made)
{
	void **a = array;
	uint32_t *at;

	if ((at = u64map_insert(m, key, made)) == NULL)
		return (-1);
	if (*made) {
		if (*n >= UINT32_MAX)
			goto undo;
		if (*n == *cap) {
			size_t c = *cap ? *cap * 2 : 64;
			void *bigger = reallocarray(*a, c, size);

			if (bigger == NULL)
				goto undo;
			*a = bigger;
			*cap = c;
		}
		memset((char *)*a + *n * size, 0, size);
		*at = (uint32_t)(*n)++;
	}
	*index = *at;
	return (0);
undo:
	u64map_remove(m, key);
	return (-1);
}
