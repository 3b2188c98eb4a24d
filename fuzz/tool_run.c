/*
 * tool_run.c: the tools' main() as functions.  exit() and err() longjmp
 * back here (tool_shim.h); the run's stdout and stderr go to memory and
 * are checked; the descriptors and memory a failed run leaves behind, as
 * a tool that exits may, are closed here and not counted as leaks.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tool_run.h"
#include "tool_shim.h"

#define FUZZ_TOOL(id, main, name)	int main(int argc, char *argv[]);
#include "tools.h"
#undef FUZZ_TOOL

/* LeakSanitizer's, when the build has it. */
void	__lsan_disable(void) __attribute__((weak));
void	__lsan_enable(void) __attribute__((weak));

#define MAX_FD	1024

static jmp_buf	 tool_exit;
static bool	 open_at_init[MAX_FD];
static FILE	*run_err;
static char	 last_error[1024];	/* the last run's stderr, cut */

void
fuzz_exit(int status)
{
	fflush(stdout);
	longjmp(tool_exit, 0x100 | (status & 0xff));
}

static void
vmessage(const char *fmt, va_list ap, int errnum)
{
	fprintf(run_err, "%s: ", getprogname());
	if (fmt != NULL)
		vfprintf(run_err, fmt, ap);
	if (errnum >= 0)
		fprintf(run_err, "%s%s", fmt != NULL ? ": " : "",
		    strerror(errnum));
	fputc('\n', run_err);
}

void
fuzz_err(int status, const char *fmt, ...)
{
	int errnum = errno;
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap, errnum);
	va_end(ap);
	fuzz_exit(status);
}

void
fuzz_errx(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap, -1);
	va_end(ap);
	fuzz_exit(status);
}

void
fuzz_warnx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap, -1);
	va_end(ap);
}

static void
open_fds(bool *open)
{
	struct dirent *d;
	DIR *dir;
	long fd;

	memset(open, 0, MAX_FD * sizeof(*open));
	if ((dir = opendir("/proc/self/fd")) == NULL)
		abort();
	while ((d = readdir(dir)) != NULL) {
		fd = strtol(d->d_name, NULL, 10);
		if (fd >= 0 && fd < MAX_FD && fd != dirfd(dir))
			open[fd] = true;
	}
	closedir(dir);
}

void
fuzz_tool_init(void)
{
	open_fds(open_at_init);
}

/* What a tool that exits early leaves open, closed as exit would. */
static void
close_new_fds(void)
{
	bool open[MAX_FD];

	open_fds(open);
	for (int fd = 0; fd < MAX_FD; fd++)
		if (open[fd] && !open_at_init[fd])
			close(fd);
}

static int
run(enum fuzz_tool tool, int argc, char **argv, bool looks)
{
	static int (*const mains[])(int, char **) = {
#define FUZZ_TOOL(id, main, name)	[FUZZ_##id] = main,
#include "tools.h"
#undef FUZZ_TOOL
	};
	char *out = NULL, *errtext = NULL;
	size_t outlen = 0, errlen = 0;
	FILE *saved_out = stdout, *saved_err = stderr;
	volatile int status;
	int jumped;

	if ((stdout = open_memstream(&out, &outlen)) == NULL ||
	    (run_err = stderr = open_memstream(&errtext, &errlen)) == NULL)
		abort();
	optind = 0;		/* glibc: start getopt afresh */
	opterr = 1;
	if (__lsan_disable != NULL)
		__lsan_disable();
	if ((jumped = setjmp(tool_exit)) == 0)
		status = mains[tool](argc, argv);
	else
		status = jumped & 0xff;
	if (__lsan_enable != NULL)
		__lsan_enable();
	fclose(stdout);
	fclose(stderr);
	stdout = saved_out;
	stderr = saved_err;
	close_new_fds();
	if (status != 0 && status != 1) {
		fprintf(stderr, "tool_run: exit status %d\n", status);
		abort();
	}
	/* Several looks: those before a failure were written whole. */
	if (status == 1 && ((outlen != 0 && !looks) || errlen == 0)) {
		fprintf(stderr, "tool_run: failed with %zu bytes on stdout, "
		    "%zu on stderr:\n%.*s", outlen, errlen, (int)errlen,
		    errtext);
		abort();
	}
	snprintf(last_error, sizeof(last_error), "%.*s", (int)errlen,
	    errtext);
	free(out);
	free(errtext);
	return (status);
}

const char *
fuzz_tool_last_error(void)
{
	return (last_error);
}

int
fuzz_tool_run(enum fuzz_tool tool, int argc, char **argv)
{
	return (run(tool, argc, argv, false));
}

int
fuzz_tool_run_looks(enum fuzz_tool tool, int argc, char **argv)
{
	return (run(tool, argc, argv, true));
}

const char *
fuzz_tool_name(enum fuzz_tool tool)
{
	static const char *names[] = {
#define FUZZ_TOOL(id, main, name)	[FUZZ_##id] = name,
#include "tools.h"
#undef FUZZ_TOOL
	};

	return (names[tool]);
}

int
fuzz_tool_run_on(enum fuzz_tool tool, const char *path, ...)
{
	char *argv[16];
	const char *opt;
	va_list ap;
	int argc = 0;

	argv[argc++] = (char *)fuzz_tool_name(tool);
	va_start(ap, path);
	while ((opt = va_arg(ap, const char *)) != NULL && argc < 12)
		argv[argc++] = (char *)opt;
	va_end(ap);
	argv[argc++] = "-M";
	argv[argc++] = (char *)path;
	argv[argc] = NULL;
	return (fuzz_tool_run(tool, argc, argv));
}
