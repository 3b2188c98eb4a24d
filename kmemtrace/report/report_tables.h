/*
 * report_tables.h: the report's tables (per call site, per pointer, per
 * cache, per page order / migrate type / GFP flags), each described once
 * and written as text or JSON, sorted by -s and cut by -l.
 */
#ifndef REPORT_TABLES_H
#define REPORT_TABLES_H

#include <stdbool.h>
#include <stdio.h>

#include <json-c/json.h>

#include "kmem_stats.h"

enum report_table {
	TABLE_CALLER,
	TABLE_ALLOC,
	TABLE_CACHE,
	TABLE_PAGE,
	TABLE_COUNT
};

/* The -s keys a table takes ("frag,hit,bytes"): NULL, or the bad key. */
const char *report_sort_check(enum report_table t, const char *keys);
/* The table's default -s keys. */
const char *report_sort_default(enum report_table t);

void	report_table_text(FILE *f, const struct kmem_stats *st,
	    enum report_table t, const char *keys, long limit);
/* The table as a JSON array (the caller names it). */
struct json_object *report_table_json(const struct kmem_stats *st,
	    enum report_table t, const char *keys, long limit);
/* The JSON member name of a table: "callers", "pointers", ... */
const char *report_table_key(enum report_table t);

/* "name+0xoff", or the address in hex when no symbol holds it. */
void	report_symbol(const struct kmem_stats *st, uint64_t addr, char *buf,
	    size_t len);
/* A migrate type's name by the recorded order, or "type-N". */
void	report_migratetype(const struct kmem_stats *st, int type, char *buf,
	    size_t len);

#endif /* !REPORT_TABLES_H */
