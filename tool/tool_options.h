/*
 * tool_options.h: the options every report shares, FreeBSD's: -M core
 * and -N system, -h, and --libxo json[,pretty] (taken out of argv before
 * getopt(3) sees it, as xo_parse_args() does).
 */
#ifndef TOOL_OPTIONS_H
#define TOOL_OPTIONS_H

#include <stdbool.h>

#include "tool_output.h"

/* For a tool's getopt string: the shared letters. */
#define TOOL_COMMON_OPTS	"hM:N:"

struct tool_options {
	const char	*memf;		/* -M, or NULL: the live kernel */
	const char	*nlistf;	/* -N */
	enum tool_style	 style;		/* --libxo */
};

/*
 * Take --libxo out of argv ("--libxo json", "--libxo=json,pretty",
 * "--libxo text").  Returns the new argc, or -1 for a style this port
 * does not write.  argv[0] becomes the program's short name, for
 * getopt's messages.
 */
int	tool_parse_libxo(int argc, char *argv[], enum tool_style *style);

/*
 * One of the shared letters from getopt: true if it was taken (-M, -N);
 * false for anything else, -h included (the tool's usage()).
 */
bool	tool_common_option(struct tool_options *opts, int ch,
	    const char *arg);

#endif /* !TOOL_OPTIONS_H */
