/*
 * tool_rows.h: which of a list's entries a report prints, in what order:
 * those a report shows at all, whose name or an alias matches one of -n's
 * globs (all without -n), in the source's order or sorted by -s's key.
 * The default, no -n and no -s, is the list as it is.
 */
#ifndef TOOL_ROWS_H
#define TOOL_ROWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "memstat.h"
#include "tool_options.h"

/*
 * A sort key: by name (value NULL), ascending; by a number, largest first.
 * Ties keep the source's order.
 */
struct tool_sort_key {
	const char	*name;
	uint64_t	(*value)(const struct memory_type *mtp);
};

struct tool_rows {
	const struct memory_type **v;
	size_t		 n;
};

/*
 * The rows of list under opts (-n, -s) and shown (NULL: every entry).
 * keys ends with a NULL name; -s must name one, or this exits 1 with one
 * line listing them.  Out of memory exits 1.
 */
/* Check -s against keys right after the options: exit 1 if it names none. */
void	tool_rows_check_sort(const struct tool_options *opts,
	    const struct tool_sort_key *keys);
void	tool_rows_select(struct tool_rows *rows,
	    struct memory_type_list *list, const struct tool_options *opts,
	    const struct tool_sort_key *keys,
	    bool (*shown)(const struct memory_type *mtp));
void	tool_rows_free(struct tool_rows *rows);

#endif /* !TOOL_ROWS_H */
