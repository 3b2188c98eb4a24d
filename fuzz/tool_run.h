/*
 * tool_run.h: run one of the tools' main() inside a fuzz target and
 * check what every run must satisfy: it ends by exit status 0 or 1 (a
 * crash is the sanitizer's to report), and a run that fails prints
 * nothing on stdout and something on stderr.  A broken rule aborts.
 */
#ifndef FUZZ_TOOL_RUN_H
#define FUZZ_TOOL_RUN_H

#include <stddef.h>

/* One per line of tools.list (fuzz/tools.h is made from it). */
enum fuzz_tool {
#define FUZZ_TOOL(id, main, name)	FUZZ_##id,
#include "tools.h"
#undef FUZZ_TOOL
};

/* A tool's name, as argv[0]. */
const char *fuzz_tool_name(enum fuzz_tool tool);

/* Call once, before the first run: notes the descriptors that stay open. */
void	fuzz_tool_init(void);

/*
 * argv[0] is the tool's name; the array is NULL-terminated and may be
 * rewritten (the tools do).  Returns the exit status.
 */
int	fuzz_tool_run(enum fuzz_tool tool, int argc, char **argv);

/*
 * A run of several looks (-w, --replay): one that fails may have written
 * the looks before the failure.
 */
int	fuzz_tool_run_looks(enum fuzz_tool tool, int argc, char **argv);

/* What the last run wrote on stderr (its first kilobyte). */
const char *fuzz_tool_last_error(void);

/* A run over "-M path" with extra options, as a NULL-terminated list. */
int	fuzz_tool_run_on(enum fuzz_tool tool, const char *path, ...);

#endif /* !FUZZ_TOOL_RUN_H */
