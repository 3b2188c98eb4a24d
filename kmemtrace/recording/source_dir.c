/*
 * source_dir.c: a recording directory (recording.h) as a source.  Every
 * file is data from elsewhere: read with a size limit, checked before a
 * library sees it; the per-CPU page files are streamed a batch of pages
 * at a time, so memory does not grow with the recording.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpu_streams.h"
#include "kt_symbols.h"
#include "pages_present.h"
#include "recording.h"
#include "source_dir.h"
#include "text_check.h"

#define MAX_SMALL	(64 * 1024)
#define MAX_KALLSYMS	(256 * 1024 * 1024)
#define MAX_CMDLINES	(16 * 1024 * 1024)
#define PID_MAX_LIMIT	(4 * 1024 * 1024)	/* the kernel's, 64-bit */

struct recording {
	char		*path;
	int		 dir;
	struct page_format format;
	struct cpu_streams streams;	/* the whole recording's */
	struct kt_symbols symbols;	/* kallsyms, which tep resolves by */
	struct kt_error	 symbols_error;	/* its loading thread's */
};

/*
 * A whole small file, NUL-terminated; a regular file no bigger than max.
 * ENOENT is told apart: some files are optional.
 */
static int
read_file(struct recording *r, const char *name, size_t max, char **out,
    size_t *len, struct kt_error *e)
{
	struct stat st;
	char *buf;
	size_t have = 0;
	int fd;

	*out = NULL;
	if ((fd = openat(r->dir, name, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) <
	    0) {
		if (errno == ENOENT)
			return (1);
		return (kt_fail(e, "%s/%s: %s", r->path, name,
		    strerror(errno)));
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    (uint64_t)st.st_size > max) {
		close(fd);
		return (kt_fail(e, "%s/%s: %s", r->path, name,
		    S_ISREG(st.st_mode) ? "too large" : "not a regular file"));
	}
	if ((buf = malloc((size_t)st.st_size + 1)) == NULL) {
		close(fd);
		return (kt_fail(e, "out of memory"));
	}
	pages_present(buf, (size_t)st.st_size + 1);	/* kallsyms: megabytes */
	while (have < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + have, (size_t)st.st_size - have);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		have += (size_t)n;
	}
	close(fd);
	if (have != (size_t)st.st_size) {
		free(buf);
		return (kt_fail(e, "%s/%s: changed while it was read", r->path,
		    name));
	}
	buf[have] = '\0';
	if (memchr(buf, '\0', have) != NULL) {
		free(buf);
		return (kt_fail(e, "%s/%s: not text", r->path, name));
	}
	*out = buf;
	if (len != NULL)
		*len = have;
	return (0);
}

/* "key: value" of the machine file, or NULL. */
static const char *
machine_value(char *text, const char *key, char *buf, size_t len)
{
	size_t klen = strlen(key);

	for (char *line = text; line != NULL && *line != '\0';) {
		char *nl = strchr(line, '\n');
		size_t llen = nl != NULL ? (size_t)(nl - line) : strlen(line);

		if (llen > klen + 1 && strncmp(line, key, klen) == 0 &&
		    line[klen] == ':' && line[klen + 1] == ' ') {
			size_t vlen = llen - klen - 2;

			if (vlen >= len)
				vlen = len - 1;
			memcpy(buf, line + klen + 2, vlen);
			buf[vlen] = '\0';
			return (buf);
		}
		line = nl != NULL ? nl + 1 : NULL;
	}
	return (NULL);
}

static int
machine_number(char *text, const char *key, long min, long max, long *v,
    struct recording *r, struct kt_error *e)
{
	char buf[32], *end;

	if (machine_value(text, key, buf, sizeof(buf)) == NULL)
		return (kt_fail(e, "%s/machine: no %s", r->path, key));
	errno = 0;
	*v = strtol(buf, &end, 10);
	if (buf[0] == '\0' || *end != '\0' || errno != 0 || *v < min ||
	    *v > max)
		return (kt_fail(e, "%s/machine: %s %s is not from %ld to %ld",
		    r->path, key, buf, min, max));
	return (0);
}

static int
read_machine(struct kt_source *src, struct recording *r, struct kt_error *e)
{
	struct kt_facts *f = &src->facts;
	char *text, order[16];
	long v;

	switch (read_file(r, RECORDING_MACHINE, MAX_SMALL, &text, NULL, e)) {
	case 1:
		return (kt_fail(e, "%s: not a kmemtrace recording (no machine "
		    "file)", r->path));
	case -1:
		return (-1);
	}
	if (strncmp(text, RECORDING_MAGIC "\n", strlen(RECORDING_MAGIC) + 1)
	    != 0) {
		free(text);
		return (kt_fail(e, "%s: not a kmemtrace recording", r->path));
	}
	if (machine_number(text, "cpus", 1, RECORDING_MAX_CPUS, &v, r, e) != 0)
		goto bad;
	src->ncpus = (int)v;
	if (machine_number(text, "long-size", 4, 8, &v, r, e) != 0)
		goto bad;
	if (v != 4 && v != 8) {
		kt_fail(e, "%s/machine: long-size %ld is not 4 or 8", r->path,
		    v);
		goto bad;
	}
	f->long_size = (int)v;
	if (machine_number(text, "sub-buffer-size", 256, 1 << 24, &v, r, e) !=
	    0)
		goto bad;
	if ((v & (v - 1)) != 0) {
		kt_fail(e, "%s/machine: sub-buffer-size %ld is not a power "
		    "of two", r->path, v);
		goto bad;
	}
	f->page_size = (int)v;
	if (machine_value(text, "byte-order", order, sizeof(order)) == NULL ||
	    (strcmp(order, "little") != 0 && strcmp(order, "big") != 0)) {
		kt_fail(e, "%s/machine: byte-order is not little or big",
		    r->path);
		goto bad;
	}
	f->big_endian = strcmp(order, "big") == 0;
	if (machine_value(text, "state", f->state, sizeof(f->state)) == NULL)
		strlcpy(f->state, "unknown", sizeof(f->state));
	/* Only a recorder that finished writes "complete". */
	f->partial = strcmp(f->state, RECORDING_COMPLETE) != 0;
	if (f->partial && strncmp(f->state, "recording", 9) == 0)
		snprintf(f->state, sizeof(f->state), "%s",
		    "partial: the recorder did not finish");
	machine_value(text, "kernel", f->kernel, sizeof(f->kernel));
	machine_value(text, "architecture", f->architecture,
	    sizeof(f->architecture));
	machine_value(text, "trace-clock", f->clock, sizeof(f->clock));
	machine_value(text, "command", f->command, sizeof(f->command));
	machine_value(text, "caches", f->caches, sizeof(f->caches));
	machine_value(text, "stacks", f->stacks, sizeof(f->stacks));
	if (machine_value(text, "recorder-thread", order, sizeof(order)) !=
	    NULL) {
		if (machine_number(text, "recorder-thread", 1, PID_MAX_LIMIT,
		    &v, r, e) != 0)
			goto bad;
		f->recorder_thread = (int)v;
	}
	free(text);
	return (0);
bad:
	free(text);
	return (-1);
}

static int
parse_header_page(struct kt_source *src, struct recording *r,
    struct kt_error *e)
{
	char *text;
	size_t len;

	switch (read_file(r, "events/header_page", MAX_SMALL, &text, &len, e)) {
	case 1:
		return (kt_fail(e, "%s/events/header_page: missing", r->path));
	case -1:
		return (-1);
	}
	if (tep_parse_header_page(src->tep, text, len,
	    src->facts.long_size) != 0) {
		free(text);
		return (kt_fail(e, "%s/events/header_page: not a ring-buffer "
		    "page description", r->path));
	}
	free(text);
	if (tep_get_sub_buffer_size(src->tep) != src->facts.page_size ||
	    tep_get_header_page_size(src->tep) != src->facts.long_size)
		return (kt_fail(e, "%s/events/header_page: does not describe "
		    "%d-byte pages with a %d-byte commit word", r->path,
		    src->facts.page_size, src->facts.long_size));
	return (0);
}

/*
 * The formats of the events the report decodes (kmem_events.c), those the
 * recording has.
 */
static int
parse_formats(struct kt_source *src, struct recording *r, struct kt_error *e)
{
	/* -g adds the stacks' and the task events' formats. */
	static const char *const names[][2] = {
		{ "kmem", "kmalloc" }, { "kmem", "kfree" },
		{ "kmem", "kmem_cache_alloc" }, { "kmem", "kmem_cache_free" },
		{ "kmem", "kmalloc_node" }, { "kmem", "kmem_cache_alloc_node" },
		{ "kmem", "mm_page_alloc" }, { "kmem", "mm_page_free" },
		{ "kmem", "mm_page_free_batched" },
		{ "ftrace", "kernel_stack" }, { "task", "task_newtask" },
		{ "task", "task_rename" },
	};
	char path[128], *text;
	const char *why;
	size_t len;
	int found = 0;

	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++) {
		snprintf(path, sizeof(path), "events/%s/%s/format",
		    names[i][0], names[i][1]);
		switch (read_file(r, path, MAX_SMALL, &text, &len, e)) {
		case 1:
			continue;
		case -1:
			return (-1);
		}
		if ((why = text_check_format(text)) != NULL ||
		    tep_parse_event(src->tep, text, len, names[i][0]) != 0) {
			free(text);
			return (kt_fail(e, "%s/%s: not an event format%s%s",
			    r->path, path, why != NULL ? ": " : "",
			    why != NULL ? why : ""));
		}
		free(text);
		if (strcmp(names[i][0], "kmem") == 0)
			found++;
	}
	if (found == 0)
		return (kt_fail(e, "%s: no kmem event formats", r->path));
	return (0);
}

/*
 * An optional text file, checked line by line (check: 0 or the first bad
 * line's number): 0 with *text (NULL: there is none), or -1.
 */
static int
read_checked(struct recording *r, const char *name, size_t max,
    size_t (*check)(const char *), const char *form, char **text,
    struct kt_error *e)
{
	size_t line;
	int rc;

	if ((rc = read_file(r, name, max, text, NULL, e)) != 0)
		return (rc < 0 ? -1 : 0);
	if ((line = check(*text)) != 0) {
		free(*text);
		*text = NULL;
		return (kt_fail(e, "%s/%s: line %zu is not \"%s\"", r->path,
		    name, line, form));
	}
	return (0);
}

/* kallsyms, on a thread of its own: read, checked, parsed. */
static int
load_kallsyms(struct kt_symbols *s, void *arg)
{
	struct recording *r = arg;
	char *text;

	if (read_checked(r, "kallsyms", MAX_KALLSYMS, text_check_kallsyms,
	    "address type name [module]", &text, &r->symbols_error) != 0)
		return (-1);
	if (text != NULL && kt_symbols_parse(s, text) != 0)
		return (kt_fail(&r->symbols_error, "%s/kallsyms: out of memory",
		    r->path));
	return (0);
}

/*
 * kallsyms into the recording's own table, loaded while the events are
 * read (it costs a tenth of a report; each() waits for it at its end);
 * saved_cmdlines into tep.
 */
static int
parse_symbols(struct kt_source *src, struct recording *r, struct kt_error *e)
{
	char *text;
	int rc;

	if (kt_symbols_attach_loading(&r->symbols, src->tep, load_kallsyms,
	    r) != 0) {
		if (r->symbols_error.msg[0] != '\0')
			*e = r->symbols_error;
		else
			kt_fail(e, "%s/kallsyms: out of memory", r->path);
		return (-1);
	}
	if (read_checked(r, "saved_cmdlines", MAX_CMDLINES,
	    text_check_cmdlines, "pid command", &text, e) != 0)
		return (-1);
	if (text == NULL)
		return (0);
	rc = tep_parse_saved_cmdlines(src->tep, text);
	free(text);
	if (rc != 0)
		return (kt_fail(e, "%s/saved_cmdlines: out of memory",
		    r->path));
	return (0);
}

static int
parse_migratetypes(struct kt_source *src, struct recording *r,
    struct kt_error *e)
{
	struct kt_facts *f = &src->facts;
	char *text, *line, *next;
	int rc;

	if ((rc = read_file(r, "migratetypes", MAX_SMALL, &text, NULL, e)) !=
	    0)
		return (rc < 0 ? -1 : 0);
	for (line = strtok_r(text, "\n", &next); line != NULL;
	    line = strtok_r(NULL, "\n", &next)) {
		if (f->nmigratetypes == 8 || !text_is_word(line,
		    sizeof(f->migratetypes[0]))) {
			free(text);
			return (kt_fail(e, "%s/migratetypes: not up to 8 "
			    "names, one a line", r->path));
		}
		strlcpy(f->migratetypes[f->nmigratetypes++], line,
		    sizeof(f->migratetypes[0]));
	}
	free(text);
	return (0);
}

/* "cpu node" lines: each CPU's NUMA node, for cross-node allocations. */
/* The tasks at the start: "pid command" lines, as saved_cmdlines'. */
static int
parse_tasks(struct kt_source *src, struct recording *r, struct kt_error *e)
{
	char *text, *line, *next, *end;
	size_t lines = 0, len;
	long pid;
	int rc;

	if ((rc = read_file(r, "tasks", MAX_CMDLINES, &text, &len, e)) != 0)
		return (rc < 0 ? -1 : 0);
	for (size_t i = 0; i < len; i++)
		lines += text[i] == '\n';
	if (text_check_cmdlines(text) != 0) {
		free(text);
		return (kt_fail(e, "%s/tasks: not \"pid command\" lines",
		    r->path));
	}
	if ((src->tasks = calloc(lines + 1, sizeof(*src->tasks))) == NULL) {
		free(text);
		return (kt_fail(e, "out of memory"));
	}
	for (line = strtok_r(text, "\n", &next); line != NULL;
	    line = strtok_r(NULL, "\n", &next)) {
		struct kt_task *t = &src->tasks[src->ntasks];

		pid = strtol(line, &end, 10);
		if (end == line || *end != ' ' || pid < 0 || pid > INT32_MAX ||
		    strlen(end + 1) >= sizeof(t->comm) ||
		    src->ntasks == lines + 1) {
			free(text);
			return (kt_fail(e, "%s/tasks: not \"pid command\" "
			    "lines", r->path));
		}
		t->pid = (int)pid;
		strlcpy(t->comm, end + 1, sizeof(t->comm));
		src->ntasks++;
	}
	free(text);
	return (0);
}

static int
parse_cpu_nodes(struct kt_source *src, struct recording *r,
    struct kt_error *e)
{
	char *text, *line, *next;
	int cpu, node, n, rc;

	if ((rc = read_file(r, "cpu-nodes", MAX_SMALL, &text, NULL, e)) != 0)
		return (rc < 0 ? -1 : 0);
	if ((src->facts.cpu_node = calloc((size_t)src->ncpus,
	    sizeof(int))) == NULL) {
		free(text);
		return (kt_fail(e, "out of memory"));
	}
	for (line = strtok_r(text, "\n", &next); line != NULL;
	    line = strtok_r(NULL, "\n", &next)) {
		if (sscanf(line, "%d %d%n", &cpu, &node, &n) != 2 ||
		    line[n] != '\0' || cpu < 0 || cpu >= src->ncpus ||
		    node < 0 || node > 1 << 16) {
			free(text);
			return (kt_fail(e, "%s/cpu-nodes: not \"cpu node\" "
			    "lines for CPUs below %d", r->path, src->ncpus));
		}
		src->facts.cpu_node[cpu] = node;
	}
	free(text);
	return (0);
}

/* stats/cpuN: what the kernel counted as lost on that CPU. */
static int
parse_stats(struct kt_source *src, struct recording *r, int cpu,
    struct kt_error *e)
{
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
		{ "overrun: ", offsetof(struct kt_loss, overrun) },
		{ "commit overrun: ", offsetof(struct kt_loss, commit_overrun) },
		{ "dropped events: ", offsetof(struct kt_loss, dropped) },
	};
	struct kt_loss *l = &src->loss[cpu];
	char name[32], *text, *line, *next, *end;
	int rc;

	l->overrun = l->commit_overrun = l->dropped = KT_UNKNOWN;
	snprintf(name, sizeof(name), "stats/cpu%d", cpu);
	if ((rc = read_file(r, name, MAX_SMALL, &text, NULL, e)) != 0)
		return (rc < 0 ? -1 : 0);	/* absent: unknown */
	for (line = strtok_r(text, "\n", &next); line != NULL;
	    line = strtok_r(NULL, "\n", &next)) {
		for (size_t i = 0; i < sizeof(keys) / sizeof(*keys); i++) {
			uint64_t *v = (uint64_t *)((char *)l + keys[i].off);
			size_t klen = strlen(keys[i].key);

			if (strncmp(line, keys[i].key, klen) != 0)
				continue;
			errno = 0;
			*v = strtoull(line + klen, &end, 10);
			if (!isdigit((unsigned char)line[klen]) ||
			    *end != '\0' || errno != 0 || *v == KT_UNKNOWN) {
				free(text);
				return (kt_fail(e, "%s/%s: %s is not a count",
				    r->path, name, line));
			}
		}
	}
	free(text);
	return (0);
}

static int
open_cpus(struct kt_source *src, struct recording *r, struct kt_error *e)
{
	size_t page = (size_t)src->facts.page_size;
	char name[32];
	struct stat st;

	r->format = (struct page_format){ .page_size = page,
	    .long_size = src->facts.long_size,
	    .big_endian = src->facts.big_endian };
	r->streams = (struct cpu_streams){ .path = r->path,
	    .format = &r->format, .ncpus = src->ncpus, .loss = src->loss,
	    .to = UINT64_MAX };
	if ((r->streams.cpus = calloc((size_t)src->ncpus,
	    sizeof(*r->streams.cpus))) == NULL ||
	    (r->streams.heap = calloc((size_t)src->ncpus,
	    sizeof(*r->streams.heap))) == NULL)
		return (kt_fail(e, "out of memory"));
	for (int cpu = 0; cpu < src->ncpus; cpu++)
		r->streams.cpus[cpu].fd = -1;
	for (int cpu = 0; cpu < src->ncpus; cpu++) {
		struct cpu_stream *s = &r->streams.cpus[cpu];

		s->cpu = cpu;
		snprintf(name, sizeof(name), "cpu%d.raw", cpu);
		if ((s->fd = openat(r->dir, name, O_RDONLY | O_NONBLOCK |
		    O_CLOEXEC)) < 0)
			return (kt_fail(e, "%s/%s: %s", r->path, name,
			    strerror(errno)));
		if (fstat(s->fd, &st) != 0 || !S_ISREG(st.st_mode))
			return (kt_fail(e, "%s/%s: not a regular file",
			    r->path, name));
		/* A partial recording may end inside a page: that one goes. */
		if ((uint64_t)st.st_size % page != 0 && !src->facts.partial)
			return (kt_fail(e, "%s/%s: cut inside a page (%llu "
			    "bytes past its last whole page)", r->path, name,
			    (unsigned long long)((uint64_t)st.st_size %
			    page)));
		s->npages = (uint64_t)st.st_size / page;
		s->last_commit = SIZE_MAX;
		if (parse_stats(src, r, cpu, e) != 0)
			return (-1);
	}
	return (cpu_streams_batches(&r->streams, e));
}

/* What each() does after the last record: kallsyms, loaded by then. */
static int
recording_join(struct kt_source *src, struct kt_error *e)
{
	struct recording *r = src->impl;

	if (kt_symbols_wait(&r->symbols) != 0) {
		*e = r->symbols_error;
		return (-1);
	}
	return (0);
}

static int
recording_each(struct kt_source *src, kt_record_fn fn, void *arg,
    struct kt_error *e)
{
	struct recording *r = src->impl;

	if (cpu_streams_each(&r->streams, fn, arg, e) != 0)
		return (-1);
	return (recording_join(src, e));
}

static int
recording_halve(struct kt_source *src, uint64_t at, struct kt_halves **h,
    struct kt_error *e)
{
	struct recording *r = src->impl;
	int rc;

	if ((*h = calloc(1, sizeof(**h))) == NULL)
		return (kt_fail(e, "out of memory"));
	if ((rc = cpu_streams_halve(&r->streams, at, &(*h)->half[0],
	    &(*h)->half[1], e)) != 0) {
		free(*h);
		*h = NULL;
	}
	return (rc);
}

static void
recording_close(struct kt_source *src)
{
	struct recording *r = src->impl;

	if (r == NULL)
		return;
	for (int cpu = 0; r->streams.cpus != NULL && cpu < src->ncpus;
	    cpu++) {
		if (r->streams.cpus[cpu].fd >= 0)
			close(r->streams.cpus[cpu].fd);
		free(r->streams.cpus[cpu].batch);
	}
	free(r->streams.cpus);
	free(r->streams.heap);
	kt_symbols_free(&r->symbols);
	if (r->dir >= 0)
		close(r->dir);
	free(r->path);
	free(r);
	src->impl = NULL;
}

static const struct kt_source_ops recording_ops = {
	.each = recording_each,
	.close = recording_close,
	.halve = recording_halve,
	.join = recording_join,
};

/*
 * What opening a recording always does: the directory, its machine facts,
 * room for each CPU's loss.
 */
static int
recording_begin(struct kt_source *src, const char *path, struct kt_error *e)
{
	struct recording *r;
	size_t plen = strlen(path);

	if ((r = calloc(1, sizeof(*r))) == NULL)
		return (kt_fail(e, "out of memory"));
	src->impl = r;
	src->ops = &recording_ops;
	src->kind = "recording";
	src->formats_recorded = true;
	r->dir = -1;
	/* Messages name files under path: no "dir//machine". */
	while (plen > 1 && path[plen - 1] == '/')
		plen--;
	if ((r->path = strndup(path, plen)) == NULL)
		return (kt_fail(e, "out of memory"));
	if ((r->dir = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return (kt_fail(e, "%s: %s", r->path, strerror(errno)));
	if (read_machine(src, r, e) != 0)
		return (-1);
	if ((src->loss = calloc((size_t)src->ncpus, sizeof(*src->loss))) ==
	    NULL)
		return (kt_fail(e, "out of memory"));
	return (0);
}

int
kt_recording_open(struct kt_source *src, const char *path,
    struct kt_error *e)
{
	struct recording *r;

	if (recording_begin(src, path, e) != 0)
		return (-1);
	r = src->impl;
	if ((src->tep = tep_alloc()) == NULL)
		return (kt_fail(e, "out of memory"));
	tep_set_file_bigendian(src->tep, src->facts.big_endian ?
	    TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(src->tep, src->facts.long_size);
	tep_set_page_size(src->tep, src->facts.page_size);
	tep_set_cpus(src->tep, src->ncpus);
	if (parse_header_page(src, r, e) != 0 ||
	    parse_formats(src, r, e) != 0 ||
	    parse_symbols(src, r, e) != 0 ||
	    parse_migratetypes(src, r, e) != 0 ||
	    parse_cpu_nodes(src, r, e) != 0 ||
	    parse_tasks(src, r, e) != 0 ||
	    open_cpus(src, r, e) != 0)
		return (-1);
	return (0);
}

int
kt_recording_loss(struct kt_source *src, const char *path, uint64_t *bytes,
    struct kt_error *e)
{
	struct recording *r;
	int rc = 0;

	memset(src, 0, sizeof(*src));
	e->msg[0] = '\0';
	if (recording_begin(src, path, e) != 0)
		return (-1);
	r = src->impl;
	if (open_cpus(src, r, e) != 0)
		return (-1);
	*bytes = 0;
	for (int cpu = 0; cpu < src->ncpus && rc == 0; cpu++) {
		struct cpu_stream *s = &r->streams.cpus[cpu];

		*bytes += s->npages * (uint64_t)src->facts.page_size;
		while ((rc = cpu_stream_next_page(&r->streams, s, e)) == 0)
			;
		rc = rc < 0 ? -1 : 0;
	}
	return (rc);
}
