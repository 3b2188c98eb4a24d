/*
 * tool_prom.c: Prometheus's text exposition format, written whole.
 */
#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tool_output.h"
#include "tool_prom.h"

void
tool_prom_init(struct tool_prom *p)
{
	memset(p, 0, sizeof(*p));
	if ((p->f = open_memstream(&p->buf, &p->len)) == NULL)
		err(1, "open_memstream");
}

static bool
ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return (n >= m && strcmp(s + n - m, suffix) == 0);
}

void
tool_prom_family(struct tool_prom *p, const char *name, const char *help)
{
	p->family = name;
	p->help = help;
	p->counter = ends_with(name, "_total");
}

/* A label value: backslash, double quote and newline escaped. */
static void
label_value(FILE *f, const char *s)
{
	for (; *s != '\0'; s++) {
		if (*s == '\\' || *s == '"')
			fputc('\\', f);
		if (*s == '\n') {
			fputs("\\n", f);
			continue;
		}
		fputc(*s, f);
	}
}

static void
sample_start(struct tool_prom *p, const char *const *labels, size_t nlabels)
{
	if (p->help != NULL) {
		/* HELP text escapes backslash and newline only. */
		fprintf(p->f, "# HELP %s %s\n# TYPE %s %s\n", p->family,
		    p->help, p->family, p->counter ? "counter" : "gauge");
		p->help = NULL;
	}
	fputs(p->family, p->f);
	for (size_t i = 0; i < nlabels; i++) {
		fprintf(p->f, "%c%s=\"", i == 0 ? '{' : ',', labels[2 * i]);
		label_value(p->f, labels[2 * i + 1]);
		fputc('"', p->f);
	}
	if (nlabels > 0)
		fputc('}', p->f);
}

void
tool_prom_sample(struct tool_prom *p, const char *const *labels,
    size_t nlabels, double v)
{
	char buf[TOOL_DOUBLE_LEN];

	sample_start(p, labels, nlabels);
	fprintf(p->f, " %s\n", tool_shortest_double(buf, v));
}

void
tool_prom_sample_uint(struct tool_prom *p, const char *const *labels,
    size_t nlabels, uint64_t v)
{
	sample_start(p, labels, nlabels);
	fprintf(p->f, " %" PRIu64 "\n", v);
}

void
tool_prom_sample_int(struct tool_prom *p, const char *const *labels,
    size_t nlabels, int64_t v)
{
	sample_start(p, labels, nlabels);
	fprintf(p->f, " %" PRId64 "\n", v);
}

/* Rows by name, then by their place: equal names next to each other. */
static const struct tool_rows *sort_rows;

static int
by_name(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	int c = strcmp(memstat_get_name(sort_rows->v[i]),
	    memstat_get_name(sort_rows->v[j]));

	return (c != 0 ? c : (i > j) - (i < j));
}

/*
 * Each row's instance: 0 for the first row of its name, n for the n-th
 * after it.  Sorting costs n log n where comparing each pair would cost
 * n squared on a list of thousands.
 */
static size_t *
instances(const struct tool_rows *rows)
{
	size_t *order, *inst;

	if ((order = calloc(rows->n + 1, sizeof(*order))) == NULL ||
	    (inst = calloc(rows->n + 1, sizeof(*inst))) == NULL)
		err(1, "Prometheus");
	for (size_t i = 0; i < rows->n; i++)
		order[i] = i;
	sort_rows = rows;
	qsort(order, rows->n, sizeof(*order), by_name);
	for (size_t i = 1; i < rows->n; i++)
		if (strcmp(memstat_get_name(rows->v[order[i]]),
		    memstat_get_name(rows->v[order[i - 1]])) == 0)
			inst[order[i]] = inst[order[i - 1]] + 1;
	free(order);
	return (inst);
}

/* A row's aliases, comma-joined, in buf; false when it has none. */
static bool
aliases(const struct memory_type *mtp, char **buf, size_t *len)
{
	size_t n = memstat_get_alias_count(mtp);
	FILE *f;

	if (n == 0)
		return (false);
	if ((f = open_memstream(buf, len)) == NULL)
		err(1, "Prometheus");
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? "," : "", memstat_get_alias(mtp, i));
	if (fclose(f) != 0)
		err(1, "Prometheus");
	return (true);
}

void
tool_prom_columns(struct tool_prom *p, const char *prefix, const char *label,
    const struct tool_column *cols, size_t ncols,
    const struct tool_rows *rows)
{
	size_t *inst = instances(rows);
	char **alias, ibuf[24], ebuf[24], name[128];
	size_t len;

	if ((alias = calloc(rows->n + 1, sizeof(*alias))) == NULL)
		err(1, "Prometheus");
	for (size_t r = 0; r < rows->n; r++)
		if (!aliases(rows->v[r], &alias[r], &len))
			alias[r] = NULL;
	for (size_t c = 0; c < ncols; c++) {
		const struct tool_column *col = &cols[c];

		if (col->metric == NULL || (col->kind != COLUMN_COUNT &&
		    (col->kind != COLUMN_LIST || col->list_label == NULL)))
			continue;
		snprintf(name, sizeof(name), "%s_%s", prefix, col->metric);
		tool_prom_family(p, name, col->help);
		for (size_t r = 0; r < rows->n; r++) {
			const struct memory_type *mtp = rows->v[r];
			const char *labels[8];
			size_t n = 0;
			uint64_t v;

			if (memstat_get_unknown(mtp) & col->unknown)
				continue;
			labels[2 * n] = label;
			labels[2 * n++ + 1] = memstat_get_name(mtp);
			if (alias[r] != NULL) {
				labels[2 * n] = "aliases";
				labels[2 * n++ + 1] = alias[r];
			}
			if (inst[r] > 0) {
				snprintf(ibuf, sizeof(ibuf), "%zu", inst[r]);
				labels[2 * n] = "index";
				labels[2 * n++ + 1] = ibuf;
			}
			if (col->kind == COLUMN_LIST) {
				labels[2 * n] = col->list_label;
				labels[2 * n + 1] = ebuf;
				for (size_t e = 0; col->list(mtp, e, &v); e++) {
					snprintf(ebuf, sizeof(ebuf), "%zu", e);
					tool_prom_sample_uint(p, labels, n + 1,
					    v);
				}
				continue;
			}
			tool_prom_sample_uint(p, labels, n, col->bytes != NULL ?
			    col->bytes(mtp) : col->value(mtp));
		}
	}
	for (size_t r = 0; r < rows->n; r++)
		free(alias[r]);
	free(alias);
	free(inst);
}

/* The whole of buf into fd; false with errno set. */
static bool
write_all(int fd, const char *buf, size_t len)
{
	ssize_t n;

	for (size_t off = 0; off < len; off += (size_t)n)
		if ((n = write(fd, buf + off, len - off)) < 0) {
			if (errno == EINTR) {
				n = 0;
				continue;
			}
			return (false);
		}
	return (true);
}

void
tool_prom_write(struct tool_prom *p, const char *path)
{
	char *dir, *base, *tmp;
	size_t len;
	int fd, saved;

	if (fclose(p->f) != 0)
		err(1, "Prometheus");
	p->f = NULL;
	if (strcmp(path, "-") == 0) {
		if (fwrite(p->buf, 1, p->len, stdout) != p->len ||
		    fflush(stdout) != 0)
			err(1, "stdout");
		free(p->buf);
		return;
	}
	/* A name node_exporter skips: it reads *.prom only. */
	len = 2 * strlen(path) + sizeof("./..XXXXXX");
	if ((dir = strdup(path)) == NULL || (base = strdup(path)) == NULL ||
	    (tmp = malloc(len)) == NULL)
		err(1, "%s", path);
	snprintf(tmp, len, "%s/.%s.XXXXXX", dirname(dir), basename(base));
	if ((fd = mkstemp(tmp)) == -1)
		err(1, "%s", path);
	/* node_exporter runs as another user; mkstemp's 0600 hides it. */
	if (fchmod(fd, 0644) != 0 || !write_all(fd, p->buf, p->len) ||
	    close(fd) != 0 || rename(tmp, path) != 0) {
		saved = errno;
		(void)unlink(tmp);
		errno = saved;
		err(1, "%s", path);
	}
	free(tmp);
	free(dir);
	free(base);
	free(p->buf);
}
