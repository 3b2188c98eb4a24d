/* mtprint.h: a memory_type_list as text, for golden comparisons. */
#ifndef MTPRINT_H
#define MTPRINT_H

#include <stdio.h>

#include "memstat.h"

/* Every accessor of one entry, over a few lines. */
void	mt_print(FILE *f, const struct memory_type *mtp);

/* The whole list in list order; the caller frees the string. */
char	*mtl_snapshot(struct memory_type_list *mtlp);

#endif
