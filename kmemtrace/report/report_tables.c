/*
 * report_tables.c: the tables.  The slab tables keep perf kmem's columns
 * (Total_alloc/Per, Total_req/Per, Hit, Ping-pong, Frag) so the two can
 * be read side by side, with a Freed column, and call sites are never cut
 * short: the first column is as wide as its longest name.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "kmem_frames.h"
#include "report_tables.h"
#include "tool_output.h"

#define MIGRATE_DEFAULTS	6
/* Linux's enum migratetype since 2015 (perf kmem still uses the older). */
static const char *const migrate_default[MIGRATE_DEFAULTS] = {
	"Unmovable", "Movable", "Reclaimable", "HighAtomic", "CMA", "Isolate",
};

static const char *const table_keys[TABLE_COUNT] = {
	"callers", "pointers", "caches", "pages",
};

/* Sort keys: each table's, and its default (perf kmem's). */
static const struct {
	const char *keys[8];
	const char *defaults;
} sorts[TABLE_COUNT] = {
	{ { "callsite", "bytes", "hit", "pingpong", "frag", NULL },
	    "frag,hit,bytes" },
	{ { "ptr", "callsite", "bytes", "hit", "pingpong", "frag", NULL },
	    "frag,hit,bytes" },
	{ { "name", "bytes", "hit", "pingpong", "frag", NULL },
	    "bytes,hit" },
	{ { "order", "migtype", "gfp", "hit", "bytes", "callsite", NULL },
	    "bytes,hit" },
};

const char *
report_table_key(enum report_table t)
{
	return (table_keys[t]);
}

const char *
report_sort_default(enum report_table t)
{
	return (sorts[t].defaults);
}

const char *
report_sort_check(enum report_table t, const char *keys)
{
	static char bad[64];
	const char *p = keys;

	for (;;) {
		size_t len = strcspn(p, ",");
		bool ok = false;

		for (size_t i = 0; sorts[t].keys[i] != NULL; i++)
			if (strlen(sorts[t].keys[i]) == len &&
			    strncmp(sorts[t].keys[i], p, len) == 0)
				ok = true;
		if (!ok) {
			snprintf(bad, sizeof(bad), "%.*s", (int)len, p);
			return (bad);
		}
		if (p[len] == '\0')
			return (NULL);
		p += len + 1;
	}
}

void
report_symbol(const struct kmem_stats *st, uint64_t addr, char *buf,
    size_t len)
{
	kmem_frames_symbol(st->events.tep, addr, buf, len);
}

void
report_migratetype(const struct kmem_stats *st, int type, char *buf,
    size_t len)
{
	const struct kt_facts *f = &st->src->facts;

	if (f->nmigratetypes > 0 && type >= 0 && type < f->nmigratetypes)
		snprintf(buf, len, "%s", f->migratetypes[type]);
	else if (f->nmigratetypes == 0 && type >= 0 && type < 4)
		/* The first four have not moved since 2015; CMA may not be. */
		snprintf(buf, len, "%s", migrate_default[type]);
	else
		snprintf(buf, len, "type-%d", type);
}

/*
 * One row of any table, with what sorting and printing need: 32 bytes,
 * its name apart.  A --alloc table has a row for each of hundreds of
 * thousands of pointers, and rows that carried their names (208 bytes)
 * cost the report their zeroing, faulting and moving in the sort.
 */
struct row {
	const struct kmem_row *slab;
	const struct kmem_page_row *page;
	double		 frag;
	char		*name;		/* call site, pointer, cache */
};

/* A table's rows and the text of their names. */
struct rows {
	struct row	*row;
	char		*text;
	size_t		 n;		/* after -l */
};

#define NAME_LEN	160
#define PTR_NAME_LEN	24		/* "%#" PRIx64 */
#define MIGTYPE_LEN	24		/* a page row's, after its name */

static const char *
migtype(const struct row *r)
{
	return (r->name + NAME_LEN);
}

static double
frag(const struct kmem_row *r)
{
	return (r->bytes_alloc == 0 ? 0.0 :
	    100.0 - 100.0 * (double)r->bytes_req / (double)r->bytes_alloc);
}

static int
cmp_u64(uint64_t a, uint64_t b)
{
	return (a < b ? -1 : a > b);
}

/*
 * The sort: the keys in turn, numbers largest first, names A to Z.  The
 * keys are read once, not at each of a table's million comparisons.
 */
enum sort_key {
	KEY_ORDER, KEY_MIGTYPE, KEY_GFP, KEY_HIT, KEY_CALLSITE, KEY_PTR,
	KEY_NAME, KEY_BYTES, KEY_PINGPONG, KEY_FRAG,
};

static const char *const key_names[] = { "order", "migtype", "gfp",
    "hit", "callsite", "ptr", "name", "bytes", "pingpong", "frag" };

struct sort {
	enum report_table t;
	enum sort_key	 k[KEY_FRAG + 1];
	size_t		 n;
};

/* keys, checked by report_sort_check(): each once (again adds nothing). */
static void
sort_of(struct sort *s, enum report_table t, const char *keys)
{
	bool seen[KEY_FRAG + 1] = { false };

	s->t = t;
	s->n = 0;
	for (const char *k = keys; ; k++) {
		size_t len = strcspn(k, ",");

		for (size_t i = 0; i <= KEY_FRAG; i++)
			if (!seen[i] && strlen(key_names[i]) == len &&
			    strncmp(key_names[i], k, len) == 0) {
				seen[i] = true;
				s->k[s->n++] = (enum sort_key)i;
			}
		k += len;
		if (*k == '\0')
			break;
	}
}

/*
 * The order of two pointers' names ("%#" PRIx64: "0", "0x1f", ...) as
 * strcmp(3) gives it, without the names: their hex digits compared from
 * the first, the shorter first where one begins the other.
 */
static int
cmp_hex_names(uint64_t a, uint64_t b)
{
	int da, db;

	if (a == b)
		return (0);
	if (a == 0 || b == 0)
		return (a == 0 ? -1 : 1);
	/* Hex digits: a kernel pointer's 16, then the plain order. */
	da = (67 - __builtin_clzll(a)) / 4;
	db = (67 - __builtin_clzll(b)) / 4;
	a <<= 4 * (16 - da);
	b <<= 4 * (16 - db);
	if (a != b)
		return (cmp_u64(a, b));
	return (da < db ? -1 : 1);
}

static int
cmp_key(const struct row *a, const struct row *b, enum sort_key k)
{
	if (a->page != NULL)
		switch (k) {
		case KEY_ORDER:
			return (cmp_u64(a->page->order, b->page->order));
		case KEY_MIGTYPE:
			return (a->page->migratetype - b->page->migratetype);
		case KEY_GFP:
			return (cmp_u64(a->page->gfp_flags,
			    b->page->gfp_flags));
		case KEY_HIT:
			return (-cmp_u64(a->page->hits, b->page->hits));
		case KEY_CALLSITE:
			return (strcmp(a->name, b->name));
		default:
			return (-cmp_u64(a->page->pages, b->page->pages));
		}
	switch (k) {
	case KEY_CALLSITE:
	case KEY_PTR:
		return (cmp_u64(a->slab->key, b->slab->key));
	case KEY_NAME:
		return (strcmp(a->name, b->name));
	case KEY_BYTES:
		return (-cmp_u64(a->slab->bytes_alloc, b->slab->bytes_alloc));
	case KEY_HIT:
		return (-cmp_u64(a->slab->hits, b->slab->hits));
	case KEY_PINGPONG:
		return (-cmp_u64(a->slab->pingpong, b->slab->pingpong));
	default:
		return (a->frag < b->frag ? 1 : a->frag > b->frag ? -1 : 0);
	}
}

static int
cmp_rows(const void *pa, const void *pb, void *arg)
{
	const struct row *a = pa, *b = pb;
	const struct sort *s = arg;
	int c;

	for (size_t i = 0; i < s->n; i++)
		if ((c = cmp_key(a, b, s->k[i])) != 0)
			return (c);
	/* A total order whatever the keys: the output is stable. */
	if (a->page != NULL) {
		if ((c = cmp_u64(a->page->order, b->page->order)) != 0 ||
		    (c = a->page->migratetype - b->page->migratetype) != 0 ||
		    (c = cmp_u64(a->page->gfp_flags, b->page->gfp_flags)) !=
		    0)
			return (c);
		return (cmp_u64(a->page->callsite, b->page->callsite));
	}
	/* A pointer's name is not made until it is printed. */
	if (s->t == TABLE_ALLOC)
		return (cmp_hex_names(a->slab->key, b->slab->key));
	return (strcmp(a->name, b->name) != 0 ? strcmp(a->name, b->name) :
	    cmp_u64(a->slab->key, b->slab->key));
}

/* The table's rows, named and sorted; n of them after -l. */
static struct rows
make_rows(const struct kmem_stats *st, enum report_table t, const char *keys,
    long limit)
{
	const struct kmem_row *slab = t == TABLE_CALLER ? st->sites :
	    t == TABLE_ALLOC ? st->ptrs : st->caches;
	size_t count = t == TABLE_CALLER ? st->nsites : t == TABLE_ALLOC ?
	    st->nptrs : t == TABLE_CACHE ? st->ncaches : st->npages;
	size_t stride = t == TABLE_ALLOC ? PTR_NAME_LEN : t == TABLE_PAGE ?
	    NAME_LEN + MIGTYPE_LEN : NAME_LEN;
	struct sort sort;
	struct rows rows;

	/* The text not zeroed: a pointer's name is made only if printed. */
	if ((rows.row = calloc(count + 1, sizeof(*rows.row))) == NULL ||
	    (rows.text = reallocarray(NULL, count + 1, stride)) == NULL)
		abort();	/* the report is useless without them */
	for (size_t i = 0; i < count; i++) {
		struct row *r = &rows.row[i];

		r->name = rows.text + i * stride;
		if (t == TABLE_PAGE) {
			r->page = &st->pages[i];
			report_migratetype(st, r->page->migratetype,
			    r->name + NAME_LEN, MIGTYPE_LEN);
			if (r->page->callsite != 0)
				report_symbol(st, r->page->callsite, r->name,
				    NAME_LEN);
			else
				snprintf(r->name, NAME_LEN, "(no stack)");
			continue;
		}
		r->slab = &slab[i];
		r->frag = frag(r->slab);
		if (t == TABLE_CALLER)
			report_symbol(st, r->slab->key, r->name, NAME_LEN);
		else if (t != TABLE_ALLOC)
			snprintf(r->name, NAME_LEN, "%s", r->slab->name);
	}
	/* A page row whose every allocation a stack moved to its caller's. */
	if (t == TABLE_PAGE) {
		size_t k = 0;

		for (size_t i = 0; i < count; i++)
			if (rows.row[i].page->hits > 0)
				rows.row[k++] = rows.row[i];
		count = k;
	}
	sort_of(&sort, t, keys);
	qsort_r(rows.row, count, sizeof(*rows.row), cmp_rows, &sort);
	rows.n = limit >= 0 && (size_t)limit < count ? (size_t)limit : count;
	/* The pointers' names: only those printed. */
	for (size_t i = 0; t == TABLE_ALLOC && i < rows.n; i++)
		snprintf(rows.row[i].name, PTR_NAME_LEN, "%#" PRIx64,
		    rows.row[i].slab->key);
	return (rows);
}

static void
rows_free(struct rows *rows)
{
	free(rows->row);
	free(rows->text);
}

static void
rule(FILE *f, int width)
{
	for (int i = 0; i < width; i++)
		fputc('-', f);
	fputc('\n', f);
}

/* The heading between two rules as wide as it is. */
static void
heading(FILE *f, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(line))
		n = (int)strlen(line);
	rule(f, n);
	fprintf(f, "%s\n", line);
	rule(f, n);
}

/*
 * A table's cells made by hand: a --alloc table has a row for each of
 * hundreds of thousands of pointers, and fprintf(3)'s parsing of each
 * row's format was a sixth of the report.
 */
struct cells {
	char	*p, *end;
};

/* s, len bytes, padded with spaces to width: on the right if left. */
static void
cell(struct cells *c, const char *s, size_t len, size_t width, bool left)
{
	size_t pad = len < width ? width - len : 0;

	if ((size_t)(c->end - c->p) < len + pad)
		return;		/* the line is sized for every cell */
	if (!left)
		c->p = (char *)memset(c->p, ' ', pad) + pad;
	c->p = (char *)memcpy(c->p, s, len) + len;
	if (left)
		c->p = (char *)memset(c->p, ' ', pad) + pad;
}

/* v in decimal at the end of buf[24]: where it starts. */
static const char *
decimal(char buf[24], uint64_t v, size_t *len)
{
	char *p = buf + 24;

	do
		*--p = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	*len = (size_t)(buf + 24 - p);
	return (p);
}

/* " | " and v right-aligned in width. */
static void
cell_u64(struct cells *c, uint64_t v, size_t width)
{
	char buf[24];
	size_t len;
	const char *d = decimal(buf, v, &len);

	cell(c, " | ", 3, 0, true);
	cell(c, d, len, width, false);
}

/* " | " and "total/per" right-aligned in 20. */
static void
cell_per(struct cells *c, uint64_t total, uint64_t hits)
{
	char both[48], a[24], b[24];
	size_t la, lb;
	const char *da = decimal(a, total, &la);
	const char *db = decimal(b, hits ? total / hits : 0, &lb);

	memcpy(both, da, la);
	both[la] = '/';
	memcpy(both + la + 1, db, lb);
	cell(c, " | ", 3, 0, true);
	cell(c, both, la + 1 + lb, 20, false);
}

static void
slab_text(FILE *f, const struct row *rows, size_t n, const char *name)
{
	int w = (int)strlen(name);
	/* The name (under 160), five numbers, two pairs, frag's %7.3f. */
	char line[160 + 5 * 24 + 2 * 48 + 64 + 64];

	for (size_t i = 0; i < n; i++)
		if ((int)strlen(rows[i].name) > w)
			w = (int)strlen(rows[i].name);
	heading(f, " %-*s | %20s | %20s | %10s | %10s | %10s | %8s", w, name,
	    "Total_alloc/Per", "Total_req/Per", "Hit", "Freed", "Ping-pong",
	    "Frag");
	for (size_t i = 0; i < n; i++) {
		const struct kmem_row *r = rows[i].slab;
		struct cells c = { line, line + sizeof(line) };

		cell(&c, " ", 1, 0, true);
		cell(&c, rows[i].name, strlen(rows[i].name), (size_t)w, true);
		cell_per(&c, r->bytes_alloc, r->hits);
		cell_per(&c, r->bytes_req, r->hits);
		cell_u64(&c, r->hits, 10);
		cell_u64(&c, r->frees, 10);
		cell_u64(&c, r->pingpong, 10);
		fwrite(line, 1, (size_t)(c.p - line), f);
		fprintf(f, " | %7.3f%%\n", rows[i].frag);
	}
}

/*
 * perf kmem's page table; with stacks its call site too, the first
 * frame outside the page allocator, last (GFP names are wide).
 */
static void
page_text(FILE *f, const struct row *rows, size_t n, int page_shift,
    bool callsites)
{
	int w = (int)strlen("GFP flags");

	for (size_t i = 0; callsites && i < n; i++)
		if ((int)strlen(rows[i].page->gfp_names) > w)
			w = (int)strlen(rows[i].page->gfp_names);
	if (callsites)
		heading(f, " %16s | %10s | %5s | %-11s | %-*s | %s",
		    "Total_alloc (KB)", "Hits", "Order", "Mig.type", w,
		    "GFP flags", "Callsite");
	else
		heading(f, " %16s | %10s | %5s | %-11s | %s",
		    "Total_alloc (KB)", "Hits", "Order", "Mig.type",
		    "GFP flags");
	for (size_t i = 0; i < n; i++) {
		const struct kmem_page_row *p = rows[i].page;

		fprintf(f, " %16" PRIu64 " | %10" PRIu64 " | %5u | %-11s | ",
		    (p->pages << page_shift) / 1024, p->hits, p->order,
		    migtype(&rows[i]));
		if (callsites)
			fprintf(f, "%-*s | %s\n", w, p->gfp_names,
			    rows[i].name);
		else
			fprintf(f, "%s\n", p->gfp_names);
	}
}

/* Whether the page events were recorded with stacks. */
static bool
page_callsites(const struct kmem_stats *st)
{
	if (st->stacked[KMEM_PAGE_ALLOC])
		return (true);
	for (size_t i = 0; i < st->npages; i++)
		if (st->pages[i].callsite != 0)
			return (true);
	return (false);
}

void
report_table_text(FILE *f, const struct kmem_stats *st, enum report_table t,
    const char *keys, long limit)
{
	static const char *const headings[] = { "Callsite", "Alloc Ptr",
	    "Cache" };
	struct rows rows = make_rows(st, t, keys, limit);

	if (t == TABLE_PAGE)
		page_text(f, rows.row, rows.n, st->page_shift,
		    page_callsites(st));
	else
		slab_text(f, rows.row, rows.n, headings[t]);
	rows_free(&rows);
}

struct json_object *
report_table_json(const struct kmem_stats *st, enum report_table t,
    const char *keys, long limit)
{
	struct json_object *a = tool_json_new(json_type_array);
	struct rows all = make_rows(st, t, keys, limit);
	const struct row *rows = all.row;

	for (size_t i = 0; i < all.n; i++) {
		struct json_object *o = tool_json_new(json_type_object);
		const struct kmem_row *r = rows[i].slab;
		const struct kmem_page_row *p = rows[i].page;
		char addr[24];

		if (p != NULL) {
			tool_json_set(o, "order", tool_json_uint(p->order));
			tool_json_set(o, "migratetype",
			    json_object_new_string(migtype(&rows[i])));
			tool_json_set(o, "gfp-flags",
			    json_object_new_string(p->gfp_names));
			tool_json_set(o, "gfp-value",
			    tool_json_uint(p->gfp_flags));
			tool_json_set(o, "hits", tool_json_uint(p->hits));
			tool_json_set(o, "pages", tool_json_uint(p->pages));
			tool_json_set(o, "bytes", tool_json_uint(p->pages <<
			    st->page_shift));
			if (page_callsites(st) && p->callsite != 0)
				tool_json_set(o, "callsite",
				    json_object_new_string(rows[i].name));
			else if (page_callsites(st) &&
			    json_object_object_add(o, "callsite", NULL) != 0)
				abort();
		} else {
			if (t == TABLE_CACHE)
				tool_json_set(o, "name",
				    json_object_new_string(rows[i].name));
			else {
				snprintf(addr, sizeof(addr), "%#" PRIx64,
				    r->key);
				if (t == TABLE_CALLER)
					tool_json_set(o, "callsite",
					    json_object_new_string(
					    rows[i].name));
				tool_json_set(o, t == TABLE_CALLER ?
				    "address" : "ptr",
				    json_object_new_string(addr));
			}
			tool_json_set(o, "bytes-alloc",
			    tool_json_uint(r->bytes_alloc));
			tool_json_set(o, "bytes-req",
			    tool_json_uint(r->bytes_req));
			tool_json_set(o, "hits", tool_json_uint(r->hits));
			tool_json_set(o, "frees", tool_json_uint(r->frees));
			tool_json_set(o, "pingpong",
			    tool_json_uint(r->pingpong));
			tool_json_set(o, "frag-percent",
			    json_object_new_double(rows[i].frag));
		}
		if (json_object_array_add(a, o) != 0)
			abort();
	}
	rows_free(&all);
	return (a);
}
