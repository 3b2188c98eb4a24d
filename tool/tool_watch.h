/*
 * tool_watch.h: a report's looks at its source over time.  One look
 * without -w; with -w wait, a look every wait seconds on a fixed schedule
 * (a slow look does not push the next ones later), -c count times or
 * until SIGINT or SIGTERM, which end the run cleanly after the look under
 * way; with --replay, one look per saved tree, each tree's time being its
 * proc/uptime, so that rates come out as they were when it was saved.
 * Saved data does not change: -w with -M is an error, but for -M
 * /proc/kcore, the running kernel read as memory (its symbols and types
 * found once, at the first look).
 */
#ifndef TOOL_WATCH_H
#define TOOL_WATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include <json-c/json.h>

#include "tool_options.h"
#include "tool_source.h"

struct tool_watch {
	const struct tool_options *opts;
	struct tool_source *src;	/* the source of this look */
	size_t		 n;		/* looks taken, this one included */
	double		 t;		/* this look's time, seconds */
	double		 dt;		/* since the look before (0: first) */
	struct timespec	 wall;		/* this look's time of day */
	struct timespec	 next;		/* -w: when the next look is due */
};

/* Open the first look's source, or exit 1 with one line. */
void	tool_watch_open(struct tool_watch *w, const struct tool_options *opts);
/*
 * Wait for the next look (the first: none) and take its time.  false:
 * no more looks (-c reached, a signal, the replay's last tree done).
 */
bool	tool_watch_next(struct tool_watch *w);
/* Whether the run takes more than one look. */
bool	tool_watch_repeats(const struct tool_watch *w);
/*
 * With looks to come, a JSON document says when its look was taken: obj
 * gets "time" (Unix seconds) or, replaying, "uptime" (the tree's).
 */
void	tool_watch_stamp(const struct tool_watch *w, struct json_object *obj);
void	tool_watch_close(struct tool_watch *w);

#endif /* !TOOL_WATCH_H */
