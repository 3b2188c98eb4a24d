/*
 * timing.c: a clock, and medians, not means, so that a moment when the
 * machine is busy does not move the figures.
 */
#include <stdlib.h>
#include <time.h>

#include "timing.h"

double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ts.tv_sec * 1e3 + ts.tv_nsec / 1e6);
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return ((x > y) - (x < y));
}

double
median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return (n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2);
}
