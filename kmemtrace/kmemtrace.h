/*
 * kmemtrace.h: the subcommands, and the one way they refuse a command
 * line.
 */
#ifndef KMEMTRACE_H
#define KMEMTRACE_H

int	kmemtrace_record(int argc, char *argv[]);
int	kmemtrace_report(int argc, char *argv[]);

/* "kmemtrace: REASON (kmemtrace --help lists the options)", exit 1. */
void	kmemtrace_usage_error(const char *fmt, ...)
	    __attribute__((noreturn, format(printf, 1, 2)));

#endif /* !KMEMTRACE_H */
