/*
 * test_kmem_halves: a recording read in two halves of time at once
 * (kt_source_halve, kmem_stats_gather_at) is the recording read in one
 * pass, wherever it is cut: the same records in the same order with the
 * same losses, and, for what the halves are joined for (no stacks), the
 * same totals, rows, misuse, examples and live allocations.  Cut at every
 * record's time of every recording fixture, and just after it.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "recording/source_open.h"
#include "report/kmem_stats.h"
#include "scratch.h"

#define FIXTURES	"fixtures/linux/kmemtrace"
#define MAX_CUTS	256

struct seen {
	int		 cpu;
	uint64_t	 ts;
	size_t		 size;
	bool		 after_loss;
	uint8_t		 first[16];	/* the record's first bytes */
};

struct records {
	struct seen	*v;
	size_t		 n, alloc;
};

static int
keep(const struct kt_record *r, void *arg)
{
	struct records *rs = arg;
	struct seen *s;

	if (rs->n == rs->alloc) {
		rs->alloc = rs->alloc == 0 ? 1024 : rs->alloc * 2;
		assert_non_null(rs->v = realloc(rs->v,
		    rs->alloc * sizeof(*rs->v)));
	}
	s = &rs->v[rs->n++];
	*s = (struct seen){ .cpu = r->cpu, .ts = r->ts, .size = r->size,
	    .after_loss = r->after_loss };
	memcpy(s->first, r->data, r->size < 16 ? r->size : 16);
	return (0);
}

/* The recording fixtures (folders with a cpu0.raw), NULL-ended. */
static char **
recordings(void)
{
	DIR *d = opendir(FIXTURES);
	struct dirent *de;
	char **v = NULL, path[512];
	size_t n = 0;
	FILE *f;

	assert_non_null(d);
	while ((de = readdir(d)) != NULL) {
		snprintf(path, sizeof(path), FIXTURES "/%s/cpu0.raw",
		    de->d_name);
		if (de->d_name[0] == '.' || (f = fopen(path, "r")) == NULL)
			continue;
		fclose(f);
		assert_non_null(v = realloc(v, (n + 2) * sizeof(*v)));
		snprintf(path, sizeof(path), FIXTURES "/%s", de->d_name);
		assert_non_null(v[n++] = strdup(path));
	}
	closedir(d);
	assert_true(n > 10);
	v[n] = NULL;
	return (v);
}

static void
free_list(char **v)
{
	for (size_t i = 0; v[i] != NULL; i++)
		free(v[i]);
	free(v);
}

static void
open_source(struct kt_source *src, const char *path)
{
	struct kt_error e = { .msg = "" };

	if (kt_source_open(src, path, &e) != 0)
		fail_msg("%s: %s", path, e.msg);
}

/* Every record of path in one pass, and what it lost. */
static void
whole(const char *path, struct records *rs, struct kt_loss **loss, int *ncpus)
{
	struct kt_source src = { 0 };
	struct kt_error e = { .msg = "" };

	open_source(&src, path);
	if (kt_source_each(&src, keep, rs, &e) != 0)
		fail_msg("%s: %s", path, e.msg);
	assert_non_null(*loss = calloc((size_t)src.ncpus, sizeof(**loss)));
	memcpy(*loss, src.loss, (size_t)src.ncpus * sizeof(**loss));
	*ncpus = src.ncpus;
	kt_source_close(&src);
}

/*
 * The times to cut at: every record's (or MAX_CUTS of them), and just
 * after; and each record's that follows a loss (the first of its page).
 */
static size_t
cuts(const struct records *rs, uint64_t **at)
{
	size_t n = 0, step = rs->n / (MAX_CUTS / 2) + 1;

	assert_non_null(*at = calloc(2 * rs->n + 2, sizeof(**at)));
	for (size_t i = 0; i < rs->n; i++)
		if (i % step == 0) {
			(*at)[n++] = rs->v[i].ts;
			(*at)[n++] = rs->v[i].ts + 1;
		} else if (rs->v[i].after_loss)
			(*at)[n++] = rs->v[i].ts;
	return (n);
}

/* path cut at each of cuts(): the halves' records are the whole's. */
static size_t
records_meet(const char *path)
{
	struct kt_source src = { 0 };
	struct records all = { 0 };
	struct kt_loss *loss, *before;
	size_t ncuts;
	uint64_t *at;
	int ncpus;

	whole(path, &all, &loss, &ncpus);
	ncuts = cuts(&all, &at);
	/* One source for every cut: each cut reads it afresh. */
	open_source(&src, path);
	assert_non_null(before = calloc((size_t)ncpus, sizeof(*before)));
	memcpy(before, src.loss, (size_t)ncpus * sizeof(*before));
	for (size_t c = 0; c < ncuts; c++) {
		struct kt_error e = { .msg = "" };
		struct records halves = { 0 };
		struct kt_halves *h;
		bool met;

		memcpy(src.loss, before, (size_t)ncpus * sizeof(*before));
		assert_int_equal(kt_source_halve(&src, at[c], &h, &e), 0);
		for (int half = 0; half < 2; half++)
			if (kt_halves_each(h, half, keep, &halves, &e) != 0)
				fail_msg("%s: %s", path, e.msg);
		assert_int_equal(kt_halves_join(&src, h, &met, &e), 0);
		if (!met)
			fail_msg("%s cut at %llu: the halves did not meet",
			    path, (unsigned long long)at[c]);
		assert_int_equal(halves.n, all.n);
		assert_memory_equal(halves.v, all.v, all.n * sizeof(*all.v));
		if (memcmp(src.loss, loss, (size_t)ncpus * sizeof(*loss)) != 0)
			fail_msg("%s cut at %llu: the losses differ", path,
			    (unsigned long long)at[c]);
		kt_halves_free(h);
		free(halves.v);
	}
	kt_source_close(&src);
	free(all.v);
	free(loss);
	free(before);
	free(at);
	return (ncuts);
}

static void
test_records_meet(void **state)
{
	char **paths = recordings();
	size_t tried = 0;

	(void)state;
	for (size_t p = 0; paths[p] != NULL; p++)
		tried += records_meet(paths[p]);
	assert_true(tried > 1000);
	free_list(paths);
}

/* n bytes at p, little-endian (the fixture's order, whatever the host's). */
static uint64_t
le_get(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return (v);
}

static void
le_put(uint8_t *p, int n, uint64_t v)
{
	for (int i = 0; i < n; i++, v >>= 8)
		p[i] = (uint8_t)v;
}

/*
 * A page whose first record comes after the page's own time (a kernel's
 * first delta is 0, a time extend's is not): cut at that record, the
 * page and its loss are the second half's.  Made from the fixture with
 * lost events, its first such page's time moved 5 ns back and its first
 * record's delta 5 ns on.
 */
static void
test_page_after_its_time(void **state)
{
	char *dir = scratch_dir("halves"), cmd[1024], path[600];
	uint8_t page[4096];
	bool made = false;
	FILE *f;

	(void)state;
	assert_non_null(dir);
	snprintf(cmd, sizeof(cmd), "cp -r %s/linux-6.18-g-missed %s/r",
	    FIXTURES, dir);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/r/cpu0.raw", dir);
	assert_non_null(f = fopen(path, "r+b"));
	for (long i = 1; !made && fseek(f, i * 4096, SEEK_SET) == 0 &&
	    fread(page, 1, sizeof(page), f) == sizeof(page); i++) {
		uint64_t ts = le_get(page, 8), commit = le_get(page + 8, 8);
		uint32_t word = (uint32_t)le_get(page + 16, 4);

		if (!(commit & (1ULL << 31)) || (word & 31) == 0 ||
		    (word & 31) > 28 || (word >> 5) + 5 >= 1U << 27)
			continue;
		le_put(page, 8, ts - 5);
		le_put(page + 16, 4, word + (5U << 5));
		assert_int_equal(fseek(f, i * 4096, SEEK_SET), 0);
		assert_int_equal(fwrite(page, 1, sizeof(page), f),
		    sizeof(page));
		made = true;
	}
	assert_int_equal(fclose(f), 0);
	assert_true(made);
	snprintf(path, sizeof(path), "%s/r", dir);
	assert_true(records_meet(path) > 0);
	free(dir);
}

static const struct kmem_row *
row_keyed(const struct kmem_row *v, size_t n, const struct kmem_row *like,
    bool by_name)
{
	for (size_t i = 0; i < n; i++)
		if (by_name ? v[i].name_len == like->name_len &&
		    memcmp(v[i].name, like->name, like->name_len) == 0 :
		    v[i].key == like->key)
			return (&v[i]);
	return (NULL);
}

static void
same_rows(const char *what, const struct kmem_row *a, size_t na,
    const struct kmem_row *b, size_t nb, bool by_name)
{
	if (na != nb)
		fail_msg("%s: %zu rows against %zu", what, nb, na);
	for (size_t i = 0; i < na; i++) {
		const struct kmem_row *r = row_keyed(b, nb, &a[i], by_name);

		if (r == NULL || r->bytes_alloc != a[i].bytes_alloc ||
		    r->bytes_req != a[i].bytes_req || r->hits != a[i].hits ||
		    r->frees != a[i].frees || r->pingpong != a[i].pingpong ||
		    r->realloc_live != a[i].realloc_live)
			fail_msg("%s: row %zu (%#llx %.*s) differs", what, i,
			    (unsigned long long)a[i].key, (int)a[i].name_len,
			    a[i].name != NULL ? a[i].name : "");
	}
}

static void
same_pages(const char *what, const struct kmem_stats *a,
    const struct kmem_stats *b)
{
	if (a->npages != b->npages)
		fail_msg("%s: %zu page rows against %zu", what, b->npages,
		    a->npages);
	for (size_t i = 0; i < a->npages; i++) {
		const struct kmem_page_row *x = &a->pages[i];
		size_t k;

		for (k = 0; k < b->npages; k++) {
			const struct kmem_page_row *y = &b->pages[k];

			if (y->order == x->order &&
			    y->migratetype == x->migratetype &&
			    y->gfp_flags == x->gfp_flags &&
			    y->callsite == x->callsite)
				break;
		}
		if (k == b->npages || b->pages[k].hits != x->hits ||
		    b->pages[k].pages != x->pages ||
		    strcmp(b->pages[k].gfp_names, x->gfp_names) != 0)
			fail_msg("%s: page row %zu differs", what, i);
	}
}

/* The live allocations, each cache named and each page row keyed. */
static void
same_live(const char *what, const struct kmem_stats *a,
    const struct kmem_stats *b, bool pages)
{
	size_t na, nb;
	struct kmem_live *x = kmem_stats_live(a, pages, &na);
	struct kmem_live *y = kmem_stats_live(b, pages, &nb);

	if (na != nb)
		fail_msg("%s: %zu live allocations against %zu", what, nb, na);
	for (size_t i = 0; i < na; i++) {
		bool same = x[i].ptr == y[i].ptr && x[i].ts == y[i].ts &&
		    x[i].bytes_alloc == y[i].bytes_alloc &&
		    x[i].bytes_req == y[i].bytes_req &&
		    x[i].call_site == y[i].call_site &&
		    x[i].stack == y[i].stack && x[i].comm == y[i].comm &&
		    x[i].pid == y[i].pid && x[i].cpu == y[i].cpu &&
		    x[i].order == y[i].order;

		if (pages)
			same = same && a->pages[x[i].cache].order ==
			    b->pages[y[i].cache].order &&
			    a->pages[x[i].cache].gfp_flags ==
			    b->pages[y[i].cache].gfp_flags;
		else
			same = same && strcmp(a->caches[x[i].cache].name,
			    b->caches[y[i].cache].name) == 0;
		if (!same)
			fail_msg("%s: live allocation %zu differs", what, i);
	}
	free(x);
	free(y);
}

static void
same_misuse(const char *what, const struct kmem_stats *a,
    const struct kmem_stats *b)
{
	for (int k = 0; k < MISUSE_NKINDS; k++) {
		const struct kmem_misuse *x = &a->misuse[k], *y = &b->misuse[k];

		if (x->count != y->count)
			fail_msg("%s: misuse %d counted %llu, not %llu", what,
			    k, (unsigned long long)y->count,
			    (unsigned long long)x->count);
		for (uint64_t i = 0; i < x->count && i < KMEM_MISUSE_EXAMPLES;
		    i++) {
			const struct kmem_misuse_example *m = &x->example[i],
			    *n = &y->example[i];

			if (m->ptr != n->ptr ||
			    m->alloc_site != n->alloc_site ||
			    m->free_site != n->free_site || m->ts != n->ts ||
			    m->cpu != n->cpu || m->bytes_req != n->bytes_req ||
			    m->bytes_alloc != n->bytes_alloc ||
			    m->seq != n->seq)
				fail_msg("%s: misuse %d's example %llu "
				    "differs", what, k, (unsigned long long)i);
		}
	}
}

/* What a report prints of a gathering: the same in both. */
static void
same_stats(const char *what, const struct kmem_stats *one,
    const struct kmem_stats *two)
{
	if (memcmp(&one->totals, &two->totals, sizeof(one->totals)) != 0)
		fail_msg("%s: the totals differ", what);
	same_misuse(what, one, two);
	if (one->loss_ts != two->loss_ts)
		fail_msg("%s: the last loss differs", what);
	same_rows(what, one->sites, one->nsites, two->sites, two->nsites,
	    false);
	same_rows(what, one->caches, one->ncaches, two->caches,
	    two->ncaches, true);
	same_rows(what, one->ptrs, one->nptrs, two->ptrs, two->nptrs, false);
	same_pages(what, one, two);
	same_live(what, one, two, false);
	same_live(what, one, two, true);
}

static void
gather(const char *path, uint64_t at, struct kt_source *src,
    struct kmem_stats *st)
{
	struct kt_error e = { .msg = "" };

	if (kmem_stats_init(st, src, true, &e) != 0 ||
	    kmem_stats_gather_at(st, src, at, &e) != 0)
		fail_msg("%s: %s", path, e.msg);
}

static void
test_stats_join(void **state)
{
	char **paths = recordings();
	uint64_t *at;
	size_t joined = 0;

	(void)state;
	for (size_t p = 0; paths[p] != NULL; p++) {
		struct kt_source one_src = { 0 }, src = { 0 };
		struct kmem_stats one;
		struct records all = { 0 };
		struct kt_loss *loss;
		size_t ncuts;
		int ncpus;

		whole(paths[p], &all, &loss, &ncpus);
		ncuts = cuts(&all, &at);
		open_source(&one_src, paths[p]);
		open_source(&src, paths[p]);
		gather(paths[p], KMEM_WHOLE, &one_src, &one);
		for (size_t c = 0; c < ncuts; c++) {
			struct kmem_stats two;
			char what[600];

			snprintf(what, sizeof(what), "%s cut at %llu", paths[p],
			    (unsigned long long)at[c]);
			gather(paths[p], at[c], &src, &two);
			same_stats(what, &one, &two);
			joined++;
			kmem_stats_free(&two);
		}
		kmem_stats_free(&one);
		kt_source_close(&one_src);
		kt_source_close(&src);
		free(all.v);
		free(loss);
		free(at);
	}
	assert_true(joined > 1000);
	free_list(paths);
}

/* A copy of a fixture in a scratch folder, its cpu1.raw given to fix. */
static char *
copy_fixture(const char *name, FILE **cpu1)
{
	char *dir = scratch_dir("halves"), cmd[1024], path[600];

	assert_non_null(dir);
	snprintf(cmd, sizeof(cmd), "cp -r %s/%s %s/r", FIXTURES, name, dir);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/r/cpu1.raw", dir);
	assert_non_null(*cpu1 = fopen(path, "r+b"));
	return (dir);
}

static void
swap_pages(FILE *f, long a, long b)
{
	uint8_t x[4096], y[4096];

	assert_int_equal(fseek(f, a * 4096, SEEK_SET), 0);
	assert_int_equal(fread(x, 1, 4096, f), 4096);
	assert_int_equal(fseek(f, b * 4096, SEEK_SET), 0);
	assert_int_equal(fread(y, 1, 4096, f), 4096);
	assert_int_equal(fseek(f, a * 4096, SEEK_SET), 0);
	assert_int_equal(fwrite(y, 1, 4096, f), 4096);
	assert_int_equal(fseek(f, b * 4096, SEEK_SET), 0);
	assert_int_equal(fwrite(x, 1, 4096, f), 4096);
}

/*
 * Pages out of time order (a hostile or a damaged file): wherever it is
 * cut, the halves do not meet and it is read whole, as one pass reads it.
 */
static void
test_pages_out_of_order(void **state)
{
	struct kt_source one_src = { 0 };
	struct records all = { 0 };
	struct kmem_stats one;
	struct kt_loss *loss;
	char path[600], *dir;
	size_t ncuts;
	uint64_t *at;
	FILE *f;
	int ncpus;

	(void)state;
	dir = copy_fixture("linux-6.18", &f);
	swap_pages(f, 3, 40);
	assert_int_equal(fclose(f), 0);
	snprintf(path, sizeof(path), "%s/r", dir);
	whole(path, &all, &loss, &ncpus);
	ncuts = cuts(&all, &at);
	open_source(&one_src, path);
	gather(path, KMEM_WHOLE, &one_src, &one);
	for (size_t c = 0; c < ncuts; c += 7) {
		struct kt_source src = { 0 };
		struct kmem_stats two;
		char what[700];

		snprintf(what, sizeof(what), "%s cut at %llu", path,
		    (unsigned long long)at[c]);
		/* Read whole after the halves: a source for each. */
		open_source(&src, path);
		gather(path, at[c], &src, &two);
		same_stats(what, &one, &two);
		kmem_stats_free(&two);
		kt_source_close(&src);
	}
	kmem_stats_free(&one);
	kt_source_close(&one_src);
	free(all.v);
	free(loss);
	free(at);
	free(dir);
}

/* A page that lies, in either half: the one pass's first error, told. */
static void
test_lie_in_a_half(void **state)
{
	char path[600], *dir;
	uint8_t bad[8];
	FILE *f;

	(void)state;
	dir = copy_fixture("linux-6.18", &f);
	/* Page 45's commit: past the page. */
	memset(bad, 0x7f, sizeof(bad));
	assert_int_equal(fseek(f, 45 * 4096 + 8, SEEK_SET), 0);
	assert_int_equal(fwrite(bad, 1, sizeof(bad), f), sizeof(bad));
	assert_int_equal(fclose(f), 0);
	snprintf(path, sizeof(path), "%s/r", dir);
	for (int cut = 0; cut < 2; cut++) {
		struct kt_source src = { 0 };
		struct kt_error e = { .msg = "" };
		struct kmem_stats st;
		char want[sizeof(e.msg)];

		open_source(&src, path);
		assert_int_equal(kmem_stats_init(&st, &src, false, &e), 0);
		assert_int_equal(kmem_stats_gather_at(&st, &src,
		    cut ? 0 : KMEM_WHOLE, &e), -1);
		if (cut == 0)
			memcpy(want, e.msg, sizeof(want));
		else
			assert_string_equal(e.msg, want);
		assert_non_null(strstr(e.msg, "page 45"));
		kmem_stats_free(&st);
		kt_source_close(&src);
	}
	free(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_records_meet),
		cmocka_unit_test(test_page_after_its_time),
		cmocka_unit_test(test_stats_join),
		cmocka_unit_test(test_pages_out_of_order),
		cmocka_unit_test(test_lie_in_a_half),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
