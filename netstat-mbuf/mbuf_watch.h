/*
 * mbuf_watch.h: netstat-mbuf over time.  Each interval of -w (or
 * --replay), the numbers of the report that changed, under their JSON
 * keys: the value, its change and the change per second (for the request
 * counters, their rate); and each look's numbers in Prometheus's format.
 */
#ifndef MBUF_WATCH_H
#define MBUF_WATCH_H

#include <json-c/json.h>

#include "tool_output.h"
#include "tool_prom.h"

/* The changes from was to now (the report's numbers) over dt seconds. */
void	mbuf_changes(struct tool_out *out, struct json_object *was,
	    struct json_object *now, double dt);
/* The numbers as Prometheus families (mbuf_prom.c). */
void	mbuf_prom(struct tool_prom *p, struct json_object *numbers);

#endif /* !MBUF_WATCH_H */
