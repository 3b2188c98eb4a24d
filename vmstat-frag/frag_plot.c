/*
 * frag_plot.c: the logs read and checked whole (a log is someone else's
 * file: every row bounded, every field checked), the samples sorted into
 * panels, a gnuplot script and its data in a scratch directory, gnuplot
 * run on them there, and the picture renamed into place.  The script
 * names its files relative to the scratch directory and quotes every text
 * it carries: nothing from a log or the environment is ever a command.  A
 * signal removes the scratch directory and the picture half copied, and
 * then ends the run as it would have.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sys/wait.h>

#include <err.h>
#include <errno.h>
#include <ftw.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "frag_log.h"
#include "frag_plot.h"

#define MAX_LINE	4096
#define MAX_ROWS	(1L << 22)	/* a year of samples every 10 s */
#define MAX_PANELS	64

struct row {
	double		 time;
	int		 panel;
	int		 norders;
	bool		 fmfi_only;
	uint64_t	 v[MEMSTAT_FRAG_MAXORDER];	/* fmfi: int64_t bits */
};

struct panel {
	char		 boot_id[64];
	char		 host[256];
	int64_t		 boot_time;
	int		 node;
	char		 zone[MEMSTAT_FRAG_NAMELEN];
};

struct plot {
	struct row	*rows;
	size_t		 nrows, arows;
	double		 unit;		/* seconds: 60 or 3600 */
	int		 maxorders;
	struct panel	 panels[MAX_PANELS];
	int		 npanels;
};

static void
bad(const char *log, long line, const char *what)
{
	errx(1, "%s: line %ld: %s", log, line, what);
}

static int
panel_of(struct plot *p, const struct panel *want, const char *log,
    long line)
{
	for (int i = 0; i < p->npanels; i++)
		if (strcmp(p->panels[i].boot_id, want->boot_id) == 0 &&
		    strcmp(p->panels[i].host, want->host) == 0 &&
		    p->panels[i].node == want->node &&
		    strcmp(p->panels[i].zone, want->zone) == 0)
			return (i);
	if (p->npanels == MAX_PANELS)
		bad(log, line, "more than 64 boots, nodes and zones to draw");
	p->panels[p->npanels] = *want;
	return (p->npanels++);
}

/* A field up to the next comma, into buf: false if too long or empty. */
static bool
field(char **s, char *buf, size_t len)
{
	size_t n = strcspn(*s, ",");

	if (n == 0 || n >= len)
		return (false);
	memcpy(buf, *s, n);
	buf[n] = '\0';
	*s += n;
	if (**s == ',')
		(*s)++;
	return (true);
}

static void
read_log(struct plot *p, const char *log)
{
	char line[MAX_LINE + 2];
	long n = 0;
	FILE *f;

	if ((f = fopen(log, "r")) == NULL)
		err(1, "%s", log);
	while (fgets(line, sizeof(line), f) != NULL) {
		char tbuf[40], bt[24], node[12], kind[8], val[24], *s = line,
		    *end;
		struct panel want = { 0 };
		struct row r = { 0 };

		n++;
		if (strchr(line, '\n') == NULL && !feof(f))
			bad(log, n, "a line longer than 4096 bytes");
		line[strcspn(line, "\n")] = '\0';
		if (n == 1 && strncmp(line, FRAG_LOG_MAGIC,
		    strlen(FRAG_LOG_MAGIC)) != 0)
			bad(log, n, "not a vmstat-frag log (-L)");
		if (line[0] == '#' || line[0] == '\0')
			continue;
		if (!field(&s, tbuf, sizeof(tbuf)) ||
		    !field(&s, want.boot_id, sizeof(want.boot_id)) ||
		    !field(&s, bt, sizeof(bt)) ||
		    !field(&s, want.host, sizeof(want.host)) ||
		    !field(&s, node, sizeof(node)) ||
		    !field(&s, want.zone, sizeof(want.zone)) ||
		    !field(&s, kind, sizeof(kind)))
			bad(log, n, "not time,boot_id,boot_time,host,node,"
			    "zone,kind,values");
		errno = 0;
		r.time = strtod(tbuf, &end);
		if (*end != '\0' || errno != 0 || !(r.time > 0 && r.time < 1e11))
			bad(log, n, "a time that is no Unix time");
		want.boot_time = strtoll(bt, &end, 10);
		if (*end != '\0' || want.boot_time <= 0 ||
		    want.boot_time > r.time)
			bad(log, n, "a boot time that is no Unix time before "
			    "the sample's");
		want.node = (int)strtol(node, &end, 10);
		if (*end != '\0' || want.node < 0 || want.node > 4096)
			bad(log, n, "a node that is no number");
		if (strcmp(kind, "blocks") != 0 && strcmp(kind, "fmfi") != 0)
			bad(log, n, "a kind neither blocks nor fmfi");
		r.fmfi_only = kind[0] == 'f';
		while (*s != '\0') {
			if (r.norders == MEMSTAT_FRAG_MAXORDER ||
			    !field(&s, val, sizeof(val)))
				bad(log, n, "not 1 to 32 values");
			errno = 0;
			if (r.fmfi_only)
				r.v[r.norders] = (uint64_t)strtoll(val, &end,
				    10);
			else
				r.v[r.norders] = strtoull(val, &end, 10);
			if (*end != '\0' || errno != 0 || val[0] == '+' ||
			    (!r.fmfi_only && val[0] == '-'))
				bad(log, n, "a value that is no number");
			r.norders++;
		}
		if (r.norders == 0)
			bad(log, n, "no values");
		r.panel = panel_of(p, &want, log, n);
		if (p->nrows == (size_t)MAX_ROWS)
			bad(log, n, "more than 4 million samples");
		if (p->nrows == p->arows) {
			size_t a = p->arows ? p->arows * 2 : 1024;
			void *q = reallocarray(p->rows, a, sizeof(*p->rows));

			if (q == NULL)
				err(1, "reallocarray");
			p->rows = q;
			p->arows = a;
		}
		p->rows[p->nrows++] = r;
	}
	if (ferror(f))
		err(1, "%s", log);
	if (n == 0)
		bad(log, 1, "empty: not a vmstat-frag log (-L)");
	fclose(f);
}

/* A row's index at order o. */
static int64_t
value(const struct row *r, int o, enum frag_index index)
{
	if (r->fmfi_only)
		return ((int64_t)r->v[o]);
	switch (index) {
	case INDEX_FMFI:
		return (memstat_frag_fmfi(r->v, r->norders, o));
	case INDEX_UNUSABLE:
		return (memstat_frag_unusable(r->v, r->norders, o));
	default:
		return (memstat_frag_extfrag(r->v, r->norders, o));
	}
}

static int
by_time(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->panel != y->panel)
		return (x->panel - y->panel);
	return (x->time < y->time ? -1 : x->time > y->time);
}

static int
remove_entry(const char *path, const struct stat *st, int type,
    struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return (type == FTW_DP ? rmdir(path) : unlink(path));
}

static char scratch[PATH_MAX];
static bool cleanup_set;
static volatile sig_atomic_t caught;

static void
remove_scratch(void)
{
	if (scratch[0] != '\0')
		nftw(scratch, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
	scratch[0] = '\0';
}

static void
on_signal(int sig)
{
	caught = sig;
}

/* No SA_RESTART: a signal must cut the wait for gnuplot short. */
static void
catch_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

/*
 * After a signal: gnuplot (child, if running) stopped, the scratch
 * directory and the picture half copied (partial, if any) removed, and
 * the run ended by the signal, as it would have ended uncaught.
 */
static void
die_if_caught(pid_t child, const char *partial)
{
	int sig = caught;

	if (sig == 0)
		return;
	if (child > 0) {
		kill(child, SIGTERM);
		while (waitpid(child, NULL, 0) == -1 && errno == EINTR)
			;
	}
	if (partial != NULL)
		unlink(partial);
	remove_scratch();
	signal(sig, SIG_DFL);
	raise(sig);
	_exit(128 + sig);
}

/*
 * A gnuplot string of fmt's text: single-quoted, the one quoting in which
 * gnuplot expands nothing (a double-quoted string runs `command`); a quote
 * in it and any byte but printable ASCII a '?' (gnuplot 5.4 reads a string
 * opening with the doubled quote, its escape, as an empty one; a log's host
 * and zone are anyone's bytes, and the SVG must stay well-formed).
 */
static void
gp_string(FILE *f, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fputc('\'', f);
	for (const char *s = buf; *s != '\0'; s++)
		fputc(*s >= 0x20 && *s < 0x7f && *s != '\'' ? *s : '?', f);
	fputc('\'', f);
}

/*
 * Panel i's data, for pm3d: a scan per sample (time since boot, each
 * order, the index), one more scan and one more order so that the last
 * sample and the top order get their cells too.
 */
static void
write_data(const struct plot *p, int i, enum frag_index index, FILE *f)
{
	const struct panel *pn = &p->panels[i];
	const struct row *last = NULL;
	double dt = 1.0 / 60;

	for (size_t k = 0; k <= p->nrows; k++) {
		const struct row *r = k < p->nrows ? &p->rows[k] : last;
		double hours;

		if (k < p->nrows && p->rows[k].panel != i)
			continue;
		if (r == NULL)
			break;
		hours = (r->time - (double)pn->boot_time) / p->unit;
		if (k == p->nrows)
			hours += dt;	/* the closing scan */
		else if (last != NULL && hours - ((last->time -
		    (double)pn->boot_time) / p->unit) > 0)
			dt = hours - (last->time - (double)pn->boot_time) /
			    p->unit;
		for (int o = 0; o <= r->norders; o++)
			fprintf(f, "%.6f %d %" PRId64 "\n", hours, o,
			    value(r, o < r->norders ? o : r->norders - 1,
			    index));
		fputc('\n', f);
		if (k < p->nrows)
			last = r;
	}
}

static const struct {
	const char	*label;
	int		 lo, hi;
} scales[] = {
	[INDEX_FMFI] = { "FMFI", -1000, 1000 },
	[INDEX_UNUSABLE] = { "unusable free space index", 0, 1000 },
	[INDEX_EXTFRAG] = { "fragmentation index", -1000, 1000 },
};

static void
write_script(FILE *f, const struct plot *p, const char *out,
    enum frag_index index, bool three_d)
{
	int boots = 0, zones = 0, col[MAX_PANELS], rowi[MAX_PANELS];
	char ids[MAX_PANELS][64 + 256], zids[MAX_PANELS][64];
	const char *ext = strrchr(out, '.');

	/* Columns: boots (host and boot id); rows: nodes and zones. */
	for (int i = 0; i < p->npanels; i++) {
		char id[64 + 256], zid[64];
		int b, z;

		snprintf(id, sizeof(id), "%s %s", p->panels[i].host,
		    p->panels[i].boot_id);
		snprintf(zid, sizeof(zid), "%d %s", p->panels[i].node,
		    p->panels[i].zone);
		for (b = 0; b < boots && strcmp(ids[b], id) != 0; b++)
			;
		if (b == boots)
			strcpy(ids[boots++], id);
		for (z = 0; z < zones && strcmp(zids[z], zid) != 0; z++)
			;
		if (z == zones)
			strcpy(zids[zones++], zid);
		col[i] = b;
		rowi[i] = z;
	}
	if (ext != NULL && strcmp(ext, ".png") == 0)
		fprintf(f, "set terminal pngcairo size %d,%d font 'sans,9'\n",
		    360 + 480 * boots, 80 + 300 * zones);
	else
		fprintf(f, "set terminal svg size %d,%d font 'sans,9' "
		    "background rgb 'white'\n", 360 + 480 * boots,
		    80 + 300 * zones);
	fprintf(f, "set output 'picture'\n");
	fprintf(f, "set palette defined (0 '#1a9850', 0.5 '#fee08b', "
	    "1 '#d73027')\nset cbrange [%d:%d]\nset cblabel '%s'\n",
	    scales[index].lo, scales[index].hi, scales[index].label);
	fprintf(f, "set pm3d corners2color c1\nset xlabel '%s since boot'\n"
	    "set ylabel 'order (0: one page, each up: twice)'\n"
	    "set yrange [0:%d]\nset autoscale xfix\nset ytics (",
	    p->unit == 60 ? "minutes" : "hours", p->maxorders);
	for (int o = 0; o < p->maxorders; o++)
		fprintf(f, "%s'%d' %d.5", o > 0 ? ", " : "", o, o);
	fprintf(f, ")\n");
	if (three_d)
		fprintf(f, "set view 60,30\nset zrange [%d:%d]\n"
		    "set zlabel 'index'\n", scales[index].lo, scales[index].hi);
	else
		fprintf(f, "set view map\nunset key\n");
	fprintf(f, "set multiplot layout %d,%d title 'vmstat-frag: %s per "
	    "order over time (green: easy to allocate, red: fragmented), one "
	    "column per boot'\n", zones, boots,
	    index == INDEX_FMFI ? "FMFI" : index == INDEX_UNUSABLE ?
	    "unusable free space index" : "fragmentation index");
	for (int z = 0; z < zones; z++)
		for (int b = 0; b < boots; b++) {
			int i;

			for (i = 0; i < p->npanels && !(col[i] == b &&
			    rowi[i] == z); i++)
				;
			if (i == p->npanels) {
				fprintf(f, "set multiplot next\n");
				continue;
			}
			time_t bt = (time_t)p->panels[i].boot_time;
			char when[32];

			strftime(when, sizeof(when), "%Y-%m-%d %H:%M UTC",
			    gmtime(&bt));
			fprintf(f, "set title ");
			gp_string(f, "%s, booted %s: node %d%s%s",
			    p->panels[i].host, when, p->panels[i].node,
			    p->panels[i].zone[0] != '-' ? ", zone " : "",
			    p->panels[i].zone[0] != '-' ?
			    p->panels[i].zone : "");
			fprintf(f, " noenhanced\n");
			fprintf(f, "splot 'panel%d' using 1:2:(max($3)) "
			    "with pm3d notitle\n", i);
		}
	fprintf(f, "unset multiplot\n");
}

/* Minutes for a short log, hours for a long one; the most orders. */
static void
time_unit(struct plot *p)
{
	double lo = p->rows[0].time, hi = lo;

	for (size_t i = 0; i < p->nrows; i++) {
		lo = p->rows[i].time < lo ? p->rows[i].time : lo;
		hi = p->rows[i].time > hi ? p->rows[i].time : hi;
		if (p->rows[i].norders > p->maxorders)
			p->maxorders = p->rows[i].norders;
	}
	p->unit = hi - lo < 3 * 3600 ? 60 : 3600;
}

/* gnuplot run on the scratch directory's script, to its end. */
static void
run_gnuplot(const char *out)
{
	pid_t pid;
	int status;

	if ((pid = fork()) < 0)
		err(1, "fork");
	if (pid == 0) {
		/* exec(2) resets the caught signals to their defaults. */
		if (chdir(scratch) != 0) {
			fprintf(stderr, "vmstat-frag: %s: %s\n", scratch,
			    strerror(errno));
			_exit(127);
		}
		execlp("gnuplot", "gnuplot", "script", (char *)NULL);
		fprintf(stderr, "vmstat-frag: gnuplot: %s (Debian: apt-get "
		    "install gnuplot-nox)\n", strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) == -1) {
		if (errno != EINTR)
			err(1, "gnuplot");
		die_if_caught(pid, NULL);
	}
	die_if_caught(0, NULL);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		errx(1, "--plot %s: gnuplot failed", out);
}

/* The picture whole, or none: copied beside out and renamed into place. */
static void
install_picture(const char *out)
{
	char path[PATH_MAX + 32], final[PATH_MAX + 64], buf[65536];
	FILE *from, *to;
	size_t n;

	snprintf(path, sizeof(path), "%s/picture", scratch);
	snprintf(final, sizeof(final), "%s.vmstat-frag.%ld", out,
	    (long)getpid());
	if ((from = fopen(path, "r")) == NULL)
		err(1, "--plot %s: gnuplot drew nothing", out);
	if ((to = fopen(final, "w")) == NULL)
		err(1, "%s", out);
	while ((n = fread(buf, 1, sizeof(buf), from)) > 0)
		if (fwrite(buf, 1, n, to) != n)
			break;
	die_if_caught(0, final);
	if (ferror(from) || fclose(to) != 0 || rename(final, out) != 0) {
		unlink(final);
		err(1, "%s", out);
	}
	fclose(from);
}

int
frag_plot(const char *out, const char *const *logs, size_t nlogs,
    enum frag_index index, bool three_d)
{
	struct plot p = { 0 };
	char path[PATH_MAX + 32];
	const char *ext = strrchr(out, '.'), *tmpdir = getenv("TMPDIR");
	const char *base = tmpdir != NULL && *tmpdir != '\0' ? tmpdir : "/tmp";
	FILE *f;

	if (ext == NULL || (strcmp(ext, ".svg") != 0 &&
	    strcmp(ext, ".png") != 0))
		errx(1, "--plot %s: name an .svg or a .png", out);
	for (size_t i = 0; i < nlogs; i++)
		read_log(&p, logs[i]);
	if (p.nrows == 0)
		errx(1, "%s: no samples to draw", logs[0]);
	qsort(p.rows, p.nrows, sizeof(*p.rows), by_time);
	time_unit(&p);

	/*
	 * The fuzz targets call this again and again in one process, where
	 * err(3) does not end it: a call that failed left its directory.
	 */
	remove_scratch();
	catch_signals();
	snprintf(scratch, sizeof(scratch), "%s/vmstat-frag.XXXXXX", base);
	if (mkdtemp(scratch) == NULL) {
		scratch[0] = '\0';
		err(1, "%s", base);
	}
	/* Once: a failure exits through err(3). */
	if (!cleanup_set) {
		atexit(remove_scratch);
		cleanup_set = true;
	}
	for (int i = 0; i < p.npanels; i++) {
		snprintf(path, sizeof(path), "%s/panel%d", scratch, i);
		if ((f = fopen(path, "w")) == NULL)
			err(1, "%s", path);
		write_data(&p, i, index, f);
		if (fclose(f) != 0)
			err(1, "%s", path);
	}
	snprintf(path, sizeof(path), "%s/script", scratch);
	if ((f = fopen(path, "w")) == NULL)
		err(1, "%s", path);
	fprintf(f, "max(x) = x < %d ? %d : x\n", scales[index].lo,
	    scales[index].lo);
	write_script(f, &p, out, index, three_d);
	if (fclose(f) != 0)
		err(1, "%s", path);
	die_if_caught(0, NULL);

	run_gnuplot(out);
	install_picture(out);
	free(p.rows);
	remove_scratch();
	return (0);
}
