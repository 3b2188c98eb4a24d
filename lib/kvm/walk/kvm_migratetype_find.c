/*
 * kvm_migratetype_find.c: migratetype_names[], the free lists' type
 * names /proc/pagetypeinfo prints, where the kallsyms name the kernel's
 * code only (kvm_migratetype_find.h).  The array is MIGRATE_TYPES pointers in the
 * image's read-only data, each to a string that is its enumerator's name
 * in BTF's enum migratetype less "MIGRATE_", in another case
 * ("HighAtomic" for MIGRATE_HIGHATOMIC): the first type's string is
 * found in the image (between _stext and .data's init_uts_ns, which
 * VMCOREINFO names), then a word pointing at it whose neighbours point
 * at the other types' names.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "kvm/kernel/kvm_finders.h"
#include "kvm/walk/kvm_migratetype_find.h"

#define CHUNK		(64u * 1024)	/* the image, read so much at once */
#define MAX_IMAGE	(1ULL << 30)	/* KERNEL_IMAGE_SIZE's bound */
#define MAX_NAME	32		/* "Reclaimable": 11 */
#define MAX_HITS	8		/* copies of the first name */
#define PREFIX		"MIGRATE_"

struct names_find {
	struct memstat_kvm *kvm;
	int		 ntypes;
	char		 key[MAX_NAME];	/* type 0's name, as BTF spells it */
	size_t		 klen;
	uint64_t	 hits[MAX_HITS];
	int		 nhits;
	int64_t		 want;		/* name_is(): this value's */
	const char	*got;		/* ... and this string */
};

static int
first_name(void *arg, const char *name, int64_t value)
{
	struct names_find *f = arg;

	if (value != 0 || strncmp(name, PREFIX, strlen(PREFIX)) != 0 ||
	    strlen(name) - strlen(PREFIX) >= MAX_NAME)
		return (0);
	snprintf(f->key, sizeof(f->key), "%s", name + strlen(PREFIX));
	f->klen = strlen(f->key);
	return (f->klen > 0);
}

static int
name_is(void *arg, const char *name, int64_t value)
{
	const struct names_find *f = arg;

	return (value == f->want && strncmp(name, PREFIX,
	    strlen(PREFIX)) == 0 && strcasecmp(name + strlen(PREFIX),
	    f->got) == 0);
}

/* Each NUL-bounded copy of the first name in buf (at addr). */
static void
strings_in(struct names_find *f, const uint8_t *buf, size_t len,
    uint64_t addr)
{
	for (size_t i = 0; i + f->klen + 2 <= len && f->nhits < MAX_HITS;
	    i++)
		if (buf[i] == 0 && buf[i + 1 + f->klen] == 0 &&
		    strncasecmp((const char *)buf + i + 1, f->key,
		    f->klen) == 0)
			f->hits[f->nhits++] = addr + i + 1;
}

/* Whether the ntypes words at p name the types in order. */
static bool
array_at(struct names_find *f, uint64_t p)
{
	char name[MAX_NAME];
	uint64_t s;

	for (int t = 1; t < f->ntypes; t++) {
		if (_memstat_kvm_read_u64(f->kvm, p + (uint64_t)t * 8, &s) != 0 ||
		    _memstat_kvm_read_string(f->kvm, s, name, sizeof(name)) !=
		    0)
			return (false);
		f->want = t;
		f->got = name;
		if (_memstat_kvm_enum_each(f->kvm, "migratetype", name_is,
		    f) != 1)
			return (false);
	}
	return (true);
}

int
_memstat_buddy_type_names_find(struct memstat_kvm *kvm, int ntypes,
    uint64_t *array)
{
	struct names_find f = { .kvm = kvm, .ntypes = ntypes };
	uint64_t stext, data, a, w;
	size_t carry = 0;
	uint8_t *buf;
	int rc = -1;

	if (_memstat_kvm_enum_each(kvm, "migratetype", first_name, &f) != 1 ||
	    _memstat_kvm_vmcoreinfo_symbol(kvm, "_stext", &stext) != 0 ||
	    _memstat_kvm_vmcoreinfo_symbol(kvm, "init_uts_ns", &data) != 0 ||
	    data <= stext || data - stext > MAX_IMAGE)
		return (-1);
	if ((buf = malloc(MAX_NAME + 2 + CHUNK)) == NULL)
		return (-1);
	stext &= ~7ULL;
	/* The first name's copies, a chunk's tail carried to the next. */
	for (a = stext; a < data && f.nhits < MAX_HITS; a += CHUNK) {
		if (_memstat_kvm_read(kvm, a, buf + carry, CHUNK) != 0) {
			carry = 0;
			continue;
		}
		strings_in(&f, buf, carry + CHUNK, a - carry);
		carry = f.klen + 1;
		memmove(buf, buf + CHUNK, carry);
	}
	/* A word pointing at one, the array's first. */
	for (a = stext; a < data && f.nhits > 0 && rc != 0; a += CHUNK) {
		if (_memstat_kvm_read(kvm, a, buf, CHUNK) != 0)
			continue;
		for (uint32_t i = 0; i < CHUNK && rc != 0; i += 8) {
			w = _memstat_kvm_u64(kvm, buf + i);
			for (int h = 0; h < f.nhits && rc != 0; h++)
				if (w == f.hits[h] && array_at(&f, a + i)) {
					*array = a + i;
					rc = 0;
				}
		}
	}
	free(buf);
	return (rc);
}
