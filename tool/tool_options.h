/*
 * tool_options.h: the options the reports share, with one meaning and one
 * letter in every tool: FreeBSD's -M core and -N system and --libxo
 * json[,pretty] (taken out of argv before getopt(3) sees it, as
 * xo_parse_args() does), -h for human-readable sizes (FreeBSD vmstat's),
 * --help and --version; and for the reports made of rows (vmstat-z,
 * vmstat-m) -n name, -s key and -t.  A mistake on the command line is one
 * line on stderr and exit 1.
 */
#ifndef TOOL_OPTIONS_H
#define TOOL_OPTIONS_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>

#include "tool_output.h"

/*
 * For a tool's getopt_long string: ':' first, so a missing argument is
 * told.  -w wait and -c count are FreeBSD vmstat's: again every wait
 * seconds, count times.
 */
#define TOOL_COMMON_OPTS	":c:hM:N:w:"
#define TOOL_ROW_OPTS		"n:s:t"

/* The long options every tool takes, for its struct option table. */
enum {
	TOOL_OPT_HELP = 0x1000, TOOL_OPT_VERSION, TOOL_OPT_PROMETHEUS,
	TOOL_OPT_REPLAY
};
#define TOOL_LONG_OPTIONS						\
	{ "help", no_argument, NULL, TOOL_OPT_HELP },			\
	{ "version", no_argument, NULL, TOOL_OPT_VERSION },		\
	{ "prometheus", required_argument, NULL, TOOL_OPT_PROMETHEUS },	\
	{ "replay", no_argument, NULL, TOOL_OPT_REPLAY }

#define TOOL_MAX_NAMES	64

struct tool_options {
	const char	*memf;		/* -M, or NULL: the live kernel */
	const char	*nlistf;	/* -N */
	enum tool_style	 style;		/* --libxo */
	bool		 human;		/* -h: sizes as 4.0K, 1.5M */
	bool		 totals;	/* -t: a TOTAL row */
	const char	*sort;		/* -s key, or NULL: the source's order */
	const char	*names[TOOL_MAX_NAMES];	/* -n: globs, any may match */
	size_t		 nnames;
	double		 wait;		/* -w seconds, or 0: one look */
	long		 count;		/* -c, or 0: until SIGINT */
	const char	*prometheus;	/* --prometheus FILE, or NULL */
	/* --replay: saved trees, one per look, in order (the operands). */
	char *const	*replay;
	size_t		 nreplay;
};

/*
 * What --help prints (to stdout, exit 0): the synopsis after "usage: ",
 * then the lines saying what each option does.
 */
struct tool_help {
	const char	*synopsis;
	const char	*options;
};

/*
 * Take --libxo out of argv ("--libxo json", "--libxo=json,pretty",
 * "--libxo text"), or exit 1 naming a style this port does not write.
 * Returns the new argc.  argv[0] becomes the program's short name, for
 * messages.
 */
int	tool_parse_libxo(int argc, char *argv[], enum tool_style *style);

/*
 * One value from getopt_long (argv as it was given, for the message about
 * an unknown option).  The shared options are taken and true returned;
 * --help and --version print and exit 0; an unknown option or a missing
 * argument exits 1 with one line.  false: the tool's own option.
 */
bool	tool_common_option(struct tool_options *opts, int ch, const char *arg,
	    char *const argv[], const struct tool_help *help);

/*
 * After getopt_long: operands are an error but with --replay (which takes
 * no -M); -N needs -M; -c needs -w; "-M -" is standard input
 * (/dev/stdin).  Exits 1 with one line.
 */
void	tool_options_done(struct tool_options *opts, int argc,
	    char *const argv[]);

/* Exit 1 with "PROG: " and the formatted reason, one line. */
void	tool_usage_error(const char *fmt, ...)
	    __attribute__((noreturn, format(printf, 1, 2)));

#endif /* !TOOL_OPTIONS_H */
