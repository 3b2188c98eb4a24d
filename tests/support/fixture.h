/* fixture.h: load a fixture file for the tests. */
#ifndef FIXTURE_H
#define FIXTURE_H

#include <stddef.h>

/* Read a whole file (path relative to the repository top); exits on error. */
void	*fixture_load(const char *path, size_t *lenp);

#endif
