/*
 * frag_freebsd.c: a FreeBSD capture's free lists, from the text of
 * "sysctl -b vm.phys_free" (stock FreeBSD, sys/vm/vm_phys.c):
 *
 *	DOMAIN 0:			(older releases: none, domain 0)
 *	FREE LIST 0:
 *	  ORDER (SIZE)  |  NUMBER
 *	                |  POOL 0  |  POOL 1
 *	--            -- --      -- --      --
 *	  12 ( 16384K)  |      36  |      37	(orders high to low)
 *
 * or, from a kernel with the FMFI patch (review D40575), of
 * vm.phys_frag_idx: "DOMAIN 0", then "  12 ( 16384K) |  991" lines.  The
 * numbers of domains, free lists and pools are read, never assumed;
 * counts wider than their columns push them, so fields are found by the
 * "|" between them, not by column.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "frag/frag_internal.h"
#include "linux/linux_tree.h"

/* A decimal number, maybe negative, at *p: false on none or overflow. */
static bool
number(const char **p, int64_t *v)
{
	bool neg = false;
	uint64_t u;

	while (**p == ' ' || **p == '\t')
		(*p)++;
	if (**p == '-') {
		neg = true;
		(*p)++;
	}
	if (!_memstat_linux_u64(p, &u) || u > INT64_MAX)
		return (false);
	*v = neg ? -(int64_t)u : (int64_t)u;
	return (true);
}

static bool
literal(const char **p, const char *word)
{
	size_t n = strlen(word);

	while (**p == ' ' || **p == '\t')
		(*p)++;
	if (strncmp(*p, word, n) != 0)
		return (false);
	*p += n;
	return (true);
}

static bool
at_end(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\r')
		p++;
	return (*p == '\0');
}

/* "  12 ( 16384K)": the order and the size in KiB. */
static bool
order_size(const char **p, int64_t *order, int64_t *kib)
{
	return (number(p, order) && *order >= 0 &&
	    *order < MEMSTAT_FRAG_MAXORDER && literal(p, "(") &&
	    number(p, kib) && *kib > 0 && literal(p, "K)"));
}

static int
bad(struct memstat_frag *frag, const char *file, size_t line,
    const char *what)
{
	return (_memstat_err_set(&frag->err, MEMSTAT_ERROR_DATAERROR,
	    "%s: line %zu: %s", file, line, what));
}

/* The domain's zone, made on first use. */
static struct frag_zone *
domain_zone(struct memstat_frag *frag, int64_t domain, bool blocks)
{
	struct frag_zone *z = _memstat_frag_zone_find(frag, (int)domain, "");

	if (z == NULL && (z = _memstat_frag_zone_add(frag)) != NULL) {
		z->node = (int)domain;
		z->has_blocks = blocks;
	}
	return (z);
}

/*
 * Every zone has orders 0 to norders - 1, each with the size of order 0
 * times 2^order.
 */
static int
check_orders(struct memstat_frag *frag, const char *file,
    const uint64_t *seen, const int64_t (*kib)[MEMSTAT_FRAG_MAXORDER])
{
	for (size_t i = 0; i < frag->nzones; i++) {
		const struct frag_zone *z = &frag->zones[i];

		for (int o = 0; o < z->norders; o++)
			if (!((seen[i] >> o) & 1) ||
			    kib[i][o] != kib[i][0] << o)
				return (_memstat_err_set(&frag->err,
				    MEMSTAT_ERROR_DATAERROR, "%s: domain %d: "
				    "order %d is missing or not twice the size "
				    "of the one below", file, z->node, o));
		if (!_memstat_frag_zone_sane(z))
			return (_memstat_err_set(&frag->err,
			    MEMSTAT_ERROR_DATAERROR, "%s: domain %d: more "
			    "free pages than any machine has", file, z->node));
	}
	if (frag->nzones == 0)
		return (_memstat_err_set(&frag->err, MEMSTAT_ERROR_DATAERROR,
		    "%s: no free lists", file));
	return (0);
}

#define MAX_DOMAINS	256	/* MAXMEMDOM is 8; a text with more is bad */

/*
 * One order's counts, a pool each, "N | N | ..." at *p, into z (and its
 * free list's types with MEMSTAT_FRAG_TYPES); *npools: how many.  NULL,
 * or what is wrong with them (the caller names the line).
 */
static const char *
pool_counts(struct frag_zone *z, const char **p, int64_t order, int64_t list,
    int flags, int *npools)
{
	int64_t v;
	int pool = 0;

	do {
		struct frag_type *t = NULL;
		char name[MEMSTAT_FRAG_NAMELEN];

		if (!number(p, &v) || v < 0)
			return ("a count that is no number");
		z->blocks[order] += (uint64_t)v;
		if (z->blocks[order] > FRAG_MAX_PAGES)
			return ("more free blocks than any machine has");
		snprintf(name, sizeof(name), "list %d pool %d", (int)list,
		    pool);
		for (size_t k = 0; k < z->ntypes && t == NULL; k++)
			if (strcmp(z->types[k].name, name) == 0)
				t = &z->types[k];
		if ((flags & MEMSTAT_FRAG_TYPES) && t == NULL &&
		    (t = _memstat_frag_type_add(z)) != NULL)
			snprintf(t->name, sizeof(t->name), "%s", name);
		if ((flags & MEMSTAT_FRAG_TYPES) && t == NULL)
			return ("too many free lists and pools");
		if (t != NULL)
			t->blocks[order] = (uint64_t)v;
		pool++;
	} while (literal(p, "|"));
	*npools = pool;
	return (NULL);
}

static int
parse(struct memstat_frag *frag, char *text, int flags, const char *file,
    bool frag_idx)
{
	uint64_t seen[MAX_DOMAINS] = { 0 };
	int64_t (*kib)[MEMSTAT_FRAG_MAXORDER];
	int64_t domain = 0, list = 0, pools = -1;
	char *line, *save;
	size_t n = 0;
	int rc = -1;

	if ((kib = calloc(MAX_DOMAINS, sizeof(*kib))) == NULL)
		return (_memstat_err_code(&frag->err, MEMSTAT_ERROR_NOMEMORY));
	for (line = strtok_r(text, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		const char *p = line, *wrong;
		struct frag_zone *z;
		int64_t order, size, v;
		int pool;

		n++;
		if (at_end(p) || literal(&p, "--") ||
		    strncmp(line, "vm.phys_", 8) == 0)
			continue;
		p = line;
		if (literal(&p, "DOMAIN")) {
			/* vm.phys_free's has a colon, vm.phys_frag_idx's not. */
			if (!number(&p, &domain) || domain < 0 ||
			    domain >= MAX_DOMAINS ||
			    (!literal(&p, ":") && !at_end(p)) || !at_end(p)) {
				bad(frag, file, n, "not \"DOMAIN N\"");
				goto done;
			}
			continue;
		}
		if (literal(&p, "FREE LIST")) {
			if (frag_idx || !number(&p, &list) || list < 0 ||
			    list > 255 || !literal(&p, ":") || !at_end(p)) {
				bad(frag, file, n, "not \"FREE LIST N:\"");
				goto done;
			}
			continue;
		}
		if (literal(&p, "ORDER")) {
			pools = -1;
			continue;	/* the header: its pools follow */
		}
		p = line;
		if (literal(&p, "|") && literal(&p, "POOL")) {
			for (pools = 0, p = line; (p = strstr(p, "POOL")) !=
			    NULL; p += 4)
				pools++;
			continue;
		}
		p = line;
		if (!order_size(&p, &order, &size) || !literal(&p, "|")) {
			bad(frag, file, n, frag_idx ?
			    "not \"ORDER (SIZEK) |  FMFI\"" :
			    "not \"ORDER (SIZEK)  |  COUNT ...\"");
			goto done;
		}
		if ((z = domain_zone(frag, domain, !frag_idx)) == NULL) {
			_memstat_err_code(&frag->err, MEMSTAT_ERROR_NOMEMORY);
			goto done;
		}
		if (order + 1 > z->norders)
			z->norders = (int)order + 1;
		seen[z - frag->zones] |= 1ULL << order;
		kib[z - frag->zones][order] = size;
		if (frag_idx) {
			if (!number(&p, &v) || v > 1000 || !at_end(p)) {
				bad(frag, file, n, "an FMFI that is no "
				    "number up to 1000");
				goto done;
			}
			z->fmfi[order] = v;
			continue;
		}
		if ((wrong = pool_counts(z, &p, order, list, flags,
		    &pool)) != NULL) {
			bad(frag, file, n, wrong);
			goto done;
		}
		if (!at_end(p) || (pools >= 0 && pool != pools)) {
			bad(frag, file, n, "not one count per pool");
			goto done;
		}
	}
	rc = check_orders(frag, file, seen,
	    (const int64_t (*)[MEMSTAT_FRAG_MAXORDER])kib);
done:
	free(kib);
	return (rc);
}

int
_memstat_frag_phys_free(struct memstat_frag *frag, char *text, int flags,
    const char *file)
{
	return (parse(frag, text, flags, file, false));
}

int
_memstat_frag_phys_frag_idx(struct memstat_frag *frag, char *text,
    const char *file)
{
	return (parse(frag, text, 0, file, true));
}

int
memstat_frag_freebsd(struct memstat_frag *frag, const char *capture,
    int flags)
{
	static const char *const oids[] = { "vm.phys_free",
	    "vm.phys_frag_idx" };
	char name[4096], *text = NULL;
	size_t len;
	int dirfd, error = ENOENT, rc = -1;

	_memstat_frag_clear(frag);
	if ((dirfd = _memstat_linux_open(capture)) == -1)
		return (_memstat_err_set(&frag->err,
		    _memstat_linux_error(errno), "%s: %s", capture,
		    strerror(errno)));
	for (size_t i = 0; i < 2 && error == ENOENT; i++) {
		snprintf(name, sizeof(name), "%s/%s", capture, oids[i]);
		if ((error = _memstat_linux_read(dirfd, oids[i], &text,
		    &len)) != 0)
			continue;
		/* sysctl -b gives the string with its NUL. */
		while (len > 0 && text[len - 1] == '\0')
			len--;
		if (strlen(text) != len)
			rc = _memstat_err_set(&frag->err,
			    MEMSTAT_ERROR_DATAERROR, "%s: a NUL byte in it",
			    name);
		else
			rc = parse(frag, text, flags, name, i == 1);
	}
	if (error == ENOENT)
		_memstat_err_set(&frag->err, MEMSTAT_ERROR_DATAERROR,
		    "%s holds neither vm.phys_free nor vm.phys_frag_idx",
		    capture);
	else if (error != 0)
		_memstat_err_set(&frag->err, _memstat_linux_error(error),
		    "%s: %s", name, strerror(error));
	free(text);
	close(dirfd);
	if (rc != 0) {
		struct memstat_err keep = frag->err;

		_memstat_frag_clear(frag);
		frag->err = keep;
	}
	return (rc);
}
