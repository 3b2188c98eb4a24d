/*
 * tool_shim.h: forced into the tools' sources (and the tool layer's) when they
 * are built for the fuzz targets, so that a tool's main() can run many
 * times in one process: exit(3) and err(3) return to fuzz_tool_run()
 * instead of ending it.
 */
#ifndef FUZZ_TOOL_SHIM_H
#define FUZZ_TOOL_SHIM_H

#include <err.h>
#include <stdarg.h>
#include <stdlib.h>

void	fuzz_exit(int status) __attribute__((noreturn));
void	fuzz_err(int status, const char *fmt, ...)
	    __attribute__((noreturn, format(printf, 2, 3)));
void	fuzz_errx(int status, const char *fmt, ...)
	    __attribute__((noreturn, format(printf, 2, 3)));
void	fuzz_warnx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#define exit(s)		fuzz_exit(s)
#define err(...)	fuzz_err(__VA_ARGS__)
#define errx(...)	fuzz_errx(__VA_ARGS__)
#define warnx(...)	fuzz_warnx(__VA_ARGS__)

#endif /* !FUZZ_TOOL_SHIM_H */
