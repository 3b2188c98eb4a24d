/*
 * tool_run.h: run one of the three tools' main() inside a fuzz target and
 * check what every run must satisfy: it ends by exit status 0 or 1 (a
 * crash is the sanitizer's to report), and a run that fails prints
 * nothing on stdout and something on stderr.  A broken rule aborts.
 */
#ifndef FUZZ_TOOL_RUN_H
#define FUZZ_TOOL_RUN_H

#include <stddef.h>

enum fuzz_tool {
	FUZZ_VMSTAT_Z,
	FUZZ_VMSTAT_M,
	FUZZ_NETSTAT_MBUF,
};

/* Call once, before the first run: notes the descriptors that stay open. */
void	fuzz_tool_init(void);

/*
 * argv[0] is the tool's name; the array is NULL-terminated and may be
 * rewritten (the tools do).  Returns the exit status.
 */
int	fuzz_tool_run(enum fuzz_tool tool, int argc, char **argv);

/* A run over "-M path" with extra options, as a NULL-terminated list. */
int	fuzz_tool_run_on(enum fuzz_tool tool, const char *path, ...);

#endif /* !FUZZ_TOOL_RUN_H */
