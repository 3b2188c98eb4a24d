/* timing.h: what the benchmarks share: a clock, and their statistic. */
#ifndef TIMING_H
#define TIMING_H

/* CLOCK_MONOTONIC, in milliseconds. */
double	now_ms(void);

/* The median of v[0..n-1], n > 0; sorts v. */
double	median(double *v, int n);

#endif
