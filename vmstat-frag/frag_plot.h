/*
 * frag_plot.h: --plot, the logs of -L drawn by gnuplot (Debian
 * gnuplot-nox): per node and zone (rows) and per boot (columns) a heat
 * map, hours since boot across, the order up, the index as colour from
 * good (green) to bad (red); or with --3d the seed's 3D view.  The
 * picture is written whole or not at all.
 */
#ifndef FRAG_PLOT_H
#define FRAG_PLOT_H

#include <stdbool.h>
#include <stddef.h>

#include "frag_report.h"

/* 0, or exits 1 with one line on stderr. */
int	frag_plot(const char *out, const char *const *logs, size_t nlogs,
	    enum frag_index index, bool three_d);

#endif /* !FRAG_PLOT_H */
