/*
 * frag_model.c: memstat_frag, its accessors and the indices.
 */
#include <stdlib.h>
#include <string.h>

#include "frag/frag_internal.h"

struct memstat_frag *
memstat_frag_alloc(void)
{
	return (calloc(1, sizeof(struct memstat_frag)));
}

void
_memstat_frag_clear(struct memstat_frag *frag)
{
	for (size_t i = 0; i < frag->nzones; i++)
		free(frag->zones[i].types);
	free(frag->zones);
	frag->zones = NULL;
	frag->nzones = frag->azones = 0;
	frag->err.code = MEMSTAT_ERROR_UNDEFINED;
	frag->err.msg[0] = '\0';
}

void
memstat_frag_free(struct memstat_frag *frag)
{
	if (frag == NULL)
		return;
	_memstat_frag_clear(frag);
	free(frag);
}

int
memstat_frag_geterror(const struct memstat_frag *frag)
{
	return (frag->err.code);
}

const char *
memstat_frag_geterrmsg(const struct memstat_frag *frag)
{
	return (frag->err.msg[0] != '\0' ? frag->err.msg :
	    memstat_strerror(frag->err.code));
}

struct frag_zone *
_memstat_frag_zone_add(struct memstat_frag *frag)
{
	if (frag->nzones == frag->azones) {
		size_t a = frag->azones ? frag->azones * 2 : 8;
		void *p = reallocarray(frag->zones, a, sizeof(*frag->zones));

		if (p == NULL)
			return (NULL);
		frag->zones = p;
		frag->azones = a;
	}
	memset(&frag->zones[frag->nzones], 0, sizeof(*frag->zones));
	return (&frag->zones[frag->nzones++]);
}

void
_memstat_frag_zone_drop(struct memstat_frag *frag)
{
	if (frag->nzones == 0)
		return;
	free(frag->zones[--frag->nzones].types);
}

struct frag_zone *
_memstat_frag_zone_find(struct memstat_frag *frag, int node, const char *name)
{
	/* A machine has a few zones: a scan is all it takes. */
	for (size_t i = 0; i < frag->nzones; i++)
		if (frag->zones[i].node == node &&
		    strcmp(frag->zones[i].name, name) == 0)
			return (&frag->zones[i]);
	return (NULL);
}

struct frag_type *
_memstat_frag_type_add(struct frag_zone *z)
{
	struct frag_type *t;

	if (z->ntypes == FRAG_MAX_TYPES ||
	    (t = reallocarray(z->types, z->ntypes + 1, sizeof(*t))) == NULL)
		return (NULL);
	z->types = t;
	memset(&t[z->ntypes], 0, sizeof(*t));
	return (&t[z->ntypes++]);
}

/* Σ blocks[o] << o, or UINT64_MAX past FRAG_MAX_PAGES. */
static uint64_t
free_pages(const uint64_t *blocks, int norders)
{
	uint64_t pages = 0;

	for (int o = 0; o < norders; o++) {
		if (blocks[o] > (FRAG_MAX_PAGES >> o) ||
		    (pages += blocks[o] << o) > FRAG_MAX_PAGES)
			return (UINT64_MAX);
	}
	return (pages);
}

bool
_memstat_frag_zone_sane(const struct frag_zone *z)
{
	if (z->norders < 1 || z->norders > MEMSTAT_FRAG_MAXORDER)
		return (false);
	if (z->has_blocks && free_pages(z->blocks, z->norders) == UINT64_MAX)
		return (false);
	for (size_t t = 0; t < z->ntypes; t++)
		if (free_pages(z->types[t].blocks, z->norders) == UINT64_MAX)
			return (false);
	return (true);
}

/* ---- accessors ---- */

static const struct frag_zone *
zone_at(const struct memstat_frag *frag, size_t zone)
{
	return (zone < frag->nzones ? &frag->zones[zone] : NULL);
}

size_t
memstat_frag_zones(const struct memstat_frag *frag)
{
	return (frag->nzones);
}

int
memstat_frag_node(const struct memstat_frag *frag, size_t zone)
{
	const struct frag_zone *z = zone_at(frag, zone);

	return (z != NULL ? z->node : 0);
}

const char *
memstat_frag_zone_name(const struct memstat_frag *frag, size_t zone)
{
	const struct frag_zone *z = zone_at(frag, zone);

	return (z != NULL ? z->name : "");
}

int
memstat_frag_orders(const struct memstat_frag *frag, size_t zone)
{
	const struct frag_zone *z = zone_at(frag, zone);

	return (z != NULL ? z->norders : 0);
}

int
memstat_frag_has_blocks(const struct memstat_frag *frag, size_t zone)
{
	const struct frag_zone *z = zone_at(frag, zone);

	return (z != NULL && z->has_blocks);
}

uint64_t
memstat_frag_blocks(const struct memstat_frag *frag, size_t zone, int order)
{
	const struct frag_zone *z = zone_at(frag, zone);

	if (z == NULL || order < 0 || order >= z->norders)
		return (0);
	return (z->blocks[order]);
}

size_t
memstat_frag_types(const struct memstat_frag *frag, size_t zone)
{
	const struct frag_zone *z = zone_at(frag, zone);

	return (z != NULL ? z->ntypes : 0);
}

const char *
memstat_frag_type_name(const struct memstat_frag *frag, size_t zone,
    size_t type)
{
	const struct frag_zone *z = zone_at(frag, zone);

	return (z != NULL && type < z->ntypes ? z->types[type].name : "");
}

uint64_t
memstat_frag_type_blocks(const struct memstat_frag *frag, size_t zone,
    size_t type, int order, int *at_least)
{
	const struct frag_zone *z = zone_at(frag, zone);

	if (at_least != NULL)
		*at_least = 0;
	if (z == NULL || type >= z->ntypes || order < 0 ||
	    order >= z->norders)
		return (0);
	if (at_least != NULL)
		*at_least = (z->types[type].at_least >> order) & 1;
	return (z->types[type].blocks[order]);
}

int64_t
memstat_frag_zone_fmfi(const struct memstat_frag *frag, size_t zone,
    int order)
{
	const struct frag_zone *z = zone_at(frag, zone);

	if (z == NULL || order < 0 || order >= z->norders)
		return (0);
	if (!z->has_blocks)
		return (z->fmfi[order]);
	return (memstat_frag_fmfi(z->blocks, z->norders, order));
}

/* ---- the indices ---- */

struct contig {
	uint64_t	 pages, blocks, suitable;
};

/* mm/vmstat.c's fill_contig_page_info(), bounded. */
static bool
contig(const uint64_t *blocks, int norders, int order, struct contig *c)
{
	*c = (struct contig){ 0 };
	if (norders < 0 || norders > MEMSTAT_FRAG_MAXORDER || order < 0 ||
	    order >= MEMSTAT_FRAG_MAXORDER ||
	    (c->pages = free_pages(blocks, norders)) == UINT64_MAX)
		return (false);
	for (int o = 0; o < norders; o++) {
		c->blocks += blocks[o];
		if (o >= order)
			c->suitable += blocks[o] << (o - order);
	}
	return (true);
}

int64_t
memstat_frag_fmfi(const uint64_t *blocks, int norders, int order)
{
	struct contig c;

	if (!contig(blocks, norders, order, &c) || c.blocks == 0)
		return (0);
	/* D40575: 1000 - (free_pages * 1000) / (1 << order) / free_blocks. */
	return (1000 - (int64_t)(c.pages * 1000 / (1ULL << order) / c.blocks));
}

int
memstat_frag_unusable(const uint64_t *blocks, int norders, int order)
{
	struct contig c;

	if (!contig(blocks, norders, order, &c))
		return (0);
	if (c.pages == 0)
		return (1000);
	return ((int)((c.pages - (c.suitable << order)) * 1000 / c.pages));
}

int
memstat_frag_extfrag(const uint64_t *blocks, int norders, int order)
{
	struct contig c;

	if (!contig(blocks, norders, order, &c) || c.blocks == 0)
		return (0);
	if (c.suitable > 0)
		return (-1000);
	return ((int)(1000 - (1000 + c.pages * 1000 / (1ULL << order)) /
	    c.blocks));
}
