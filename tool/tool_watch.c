/*
 * tool_watch.c: the looks of -w, -c and --replay.
 */
#include <err.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool_output.h"
#include "tool_watch.h"

static volatile sig_atomic_t interrupted;

static void
on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

static double
seconds_of(const struct timespec *ts)
{
	return ((double)ts->tv_sec + (double)ts->tv_nsec / 1e9);
}

/*
 * A replayed source's time: the seconds since boot when it was taken (a
 * tree's proc/uptime, a dump's timekeeper), so that trees and dumps of
 * one machine replay in one run.
 */
static double
replay_uptime(struct tool_source *src)
{
	struct tool_error e;
	double t;
	int rc;

	rc = tool_source_uptime(src, &t, &e);
	if (rc == TOOL_ABSENT)
		errx(1, "--replay: %s holds no proc/uptime: a replayed tree "
		    "needs the time it was saved", tool_source_path(src));
	if (rc != 0)
		errx(1, "--replay: %s", e.msg);
	return (t);
}

static void
open_tree(struct tool_watch *w, const char *path)
{
	w->src = tool_open_core(path, NULL);
	if (tool_source_live(w->src) || !tool_source_linux(w->src))
		errx(1, "--replay: %s: neither a saved Linux tree nor a Linux "
		    "core image", path);
}

void
tool_watch_open(struct tool_watch *w, const struct tool_options *opts)
{
	struct sigaction sa;

	memset(w, 0, sizeof(*w));
	w->opts = opts;
	if (opts->nreplay > 0) {
		open_tree(w, opts->replay[0]);
		return;
	}
	w->src = tool_open_core(opts->memf, opts->nlistf);
	if (opts->wait == 0)
		return;
	if (!tool_source_changes(w->src)) {
		warnx("-w: %s does not change: the live kernel only",
		    tool_source_path(w->src));
		tool_source_close(w->src);
		exit(1);
	}
	/* No SA_RESTART: the signal must cut the wait short. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

bool
tool_watch_repeats(const struct tool_watch *w)
{
	return (w->opts->wait > 0 || w->opts->nreplay > 0);
}

void
tool_watch_stamp(const struct tool_watch *w, struct json_object *obj)
{
	if (obj == NULL || !tool_watch_repeats(w))
		return;
	if (w->opts->nreplay > 0)
		tool_json_set(obj, "uptime", tool_json_new_double(w->t));
	else
		tool_json_set(obj, "time", tool_json_new_double(
		    seconds_of(&w->wall)));
}

/* -w: sleep until the next look is due, unless a signal comes first. */
static bool
wait_turn(struct tool_watch *w)
{
	struct timespec now;
	double wait = w->opts->wait;

	w->next.tv_sec += (time_t)wait;
	w->next.tv_nsec += (long)((wait - (double)(time_t)wait) * 1e9);
	if (w->next.tv_nsec >= 1000000000L) {
		w->next.tv_sec++;
		w->next.tv_nsec -= 1000000000L;
	}
	while (!interrupted && clock_nanosleep(CLOCK_MONOTONIC,
	    TIMER_ABSTIME, &w->next, NULL) == EINTR)
		;
	/* Late (a look slower than -w): the schedule starts again now. */
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (seconds_of(&now) > seconds_of(&w->next) + wait)
		w->next = now;
	return (!interrupted);
}

bool
tool_watch_next(struct tool_watch *w)
{
	const struct tool_options *opts = w->opts;
	struct timespec mono;
	double t;

	if (w->n > 0) {
		if (opts->nreplay > 0) {
			if (w->n == opts->nreplay)
				return (false);
			tool_source_close(w->src);
			open_tree(w, opts->replay[w->n]);
		} else if (opts->wait == 0 ||
		    (opts->count > 0 && w->n == (size_t)opts->count) ||
		    interrupted || !wait_turn(w))
			return (false);
	}
	if (opts->nreplay > 0) {
		t = replay_uptime(w->src);
		if (w->n > 0 && !(t > w->t))
			errx(1, "--replay: %s was saved %g s after boot, not "
			    "after %s (%g s)", opts->replay[w->n], t,
			    opts->replay[w->n - 1], w->t);
	} else {
		clock_gettime(CLOCK_MONOTONIC, &mono);
		clock_gettime(CLOCK_REALTIME, &w->wall);
		if (w->n == 0)
			w->next = mono;
		t = seconds_of(&mono);
	}
	w->dt = w->n > 0 ? t - w->t : 0;
	w->t = t;
	w->n++;
	return (true);
}

void
tool_watch_close(struct tool_watch *w)
{
	tool_source_close(w->src);
	w->src = NULL;
}
