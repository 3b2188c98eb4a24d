/*
 * zone_cgroups.h: vmstat-z -C, the slab caches by memory cgroup
 * (zone_cgroups.c).
 */
#ifndef ZONE_CGROUPS_H
#define ZONE_CGROUPS_H

#include "tool_options.h"

/* Run the report as opts asks (each look, -w, --prometheus): exit status. */
int	zone_cgroups_run(const struct tool_options *opts);

#endif /* !ZONE_CGROUPS_H */
