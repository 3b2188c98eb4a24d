/*
 * u64map.h: a map from 64-bit keys (pointers, call sites, pfns) to 32-bit
 * values, open-addressed and at most half full, with deletion by backward
 * shift (no tombstones, so a map that sees many frees stays fast).  Keys
 * are mixed with a random seed: a recording cannot be made to collide.
 */
#ifndef U64MAP_H
#define U64MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct u64map_slot {
	uint64_t	 key;
	uint32_t	 value;
	bool		 used;
};

struct u64map {
	struct u64map_slot *slots;
	size_t		 mask;		/* slots - 1 */
	unsigned	 shift;		/* 64 - log2(slots) */
	size_t		 count;
	uint64_t	 seed;
};

int	u64map_init(struct u64map *m);
void	u64map_free(struct u64map *m);
/* The value's place, or NULL. */
uint32_t *u64map_find(const struct u64map *m, uint64_t key);
/*
 * The value's place, made (value 0, *made true) if key is new; NULL when
 * out of memory.
 */
uint32_t *u64map_insert(struct u64map *m, uint64_t key, bool *made);
void	u64map_remove(struct u64map *m, uint64_t key);
/*
 * The map numbering an array, one entry a key in the order met: the
 * index of key's entry in *array (*n entries, room for *cap), a new one,
 * zeroed, at the end where key is new (*made).  0, or -1 when memory
 * runs out (or at 2^32 entries), the map then as it was.
 */
int	u64map_entry(struct u64map *m, uint64_t key, void *array, size_t *n,
	    size_t *cap, size_t size, uint32_t *index, bool *made);

#endif /* !U64MAP_H */
