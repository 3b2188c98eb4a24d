/*
 * frag_internal.h: the fragmentation model behind memstat_frag, shared by
 * its accessors and the sources that fill it (Linux trees, FreeBSD
 * captures, core images).
 */
#ifndef FRAG_INTERNAL_H
#define FRAG_INTERNAL_H

#include <stdbool.h>

#include "model/memstat_internal.h"

/* No zone has more free pages: 4 EiB of 4 KiB pages.  More is bad data. */
#define FRAG_MAX_PAGES		(1ULL << 50)
/* Migrate types (Linux) or free lists times pools (FreeBSD) a zone has. */
#define FRAG_MAX_TYPES		64

struct frag_type {
	char		 name[MEMSTAT_FRAG_NAMELEN];
	uint64_t	 blocks[MEMSTAT_FRAG_MAXORDER];
	uint32_t	 at_least;	/* bit n: order n's count is a floor */
};

struct frag_zone {
	int		 node;
	char		 name[MEMSTAT_FRAG_NAMELEN];
	int		 norders;
	bool		 has_blocks;
	uint64_t	 blocks[MEMSTAT_FRAG_MAXORDER];
	int64_t		 fmfi[MEMSTAT_FRAG_MAXORDER];	/* without blocks */
	struct frag_type *types;
	size_t		 ntypes;
};

struct memstat_frag {
	struct memstat_err err;
	struct frag_zone *zones;
	size_t		 nzones, azones;
};

/* Empty frag, for a new query. */
void	_memstat_frag_clear(struct memstat_frag *frag);
/* A new zone at the end (zeroed): NULL when memory runs out. */
struct frag_zone *_memstat_frag_zone_add(struct memstat_frag *frag);
/* Forget the last zone added (read again on the live kernel). */
void	_memstat_frag_zone_drop(struct memstat_frag *frag);
/* The zone of node and name, or NULL. */
struct frag_zone *_memstat_frag_zone_find(struct memstat_frag *frag,
	    int node, const char *name);
/* A new type of zone z (zeroed), or NULL when memory or room runs out. */
struct frag_type *_memstat_frag_type_add(struct frag_zone *z);
/* Whether z's free pages stay under FRAG_MAX_PAGES. */
bool	_memstat_frag_zone_sane(const struct frag_zone *z);

/* A FreeBSD sysctl text: vm.phys_free or vm.phys_frag_idx (phys_text.c). */
int	_memstat_frag_phys_free(struct memstat_frag *frag, char *text,
	    int flags, const char *file);
int	_memstat_frag_phys_frag_idx(struct memstat_frag *frag, char *text,
	    const char *file);

#endif /* !FRAG_INTERNAL_H */
