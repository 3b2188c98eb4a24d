/* median.h: the statistic every benchmark here reports. */
#ifndef MEDIAN_H
#define MEDIAN_H

/* The median of v[0..n-1], n > 0; sorts v. */
double	median(double *v, int n);

#endif
