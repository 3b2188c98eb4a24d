/*
 * frag_prom.h: one look at the free lists in Prometheus's format: per
 * node, zone (absent for a FreeBSD domain) and order, the free blocks
 * and the three indices as ratios (the kernels' thousandths over 1000);
 * with -t, the free blocks per migrate type (FreeBSD: list and pool).
 */
#ifndef FRAG_PROM_H
#define FRAG_PROM_H

#include "frag_report.h"
#include "memstat.h"
#include "tool_prom.h"

void	frag_prom(struct tool_prom *p, const struct memstat_frag *frag,
	    const struct frag_view *v);

#endif /* !FRAG_PROM_H */
