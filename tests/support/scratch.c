/*
 * scratch.c: the tests' temporary files and folders, each named when made
 * and removed with whatever is in it at exit.
 */
#define _XOPEN_SOURCE 700	/* nftw */

#include <sys/types.h>

#include <ftw.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scratch.h"

/* More than any test program makes: the table cannot grow past it. */
#define SCRATCH_MAX	64

/*
 * Each with the process that made it: a forked child's exit removes
 * what it made, not what it inherited.
 */
static struct {
	char	*path;
	pid_t	 by;
}		 made[SCRATCH_MAX];
static int	 nmade;

static int
remove_one(const char *path, const struct stat *sb, int flag, struct FTW *f)
{
	(void)sb;
	(void)flag;
	(void)f;
	remove(path);
	return (0);
}

/* Deepest first: a folder's files before it.  Gone already is fine. */
static void
remove_made(void)
{
	while (nmade > 0) {
		nmade--;
		if (made[nmade].by == getpid())
			nftw(made[nmade].path, remove_one, 16,
			    FTW_DEPTH | FTW_PHYS);
		free(made[nmade].path);
	}
}

static int
keep(const char *path)
{
	if (nmade == SCRATCH_MAX ||
	    (made[nmade].path = strdup(path)) == NULL)
		return (-1);
	made[nmade].by = getpid();
	if (nmade++ == 0)
		atexit(remove_made);
	return (0);
}

/* TMPDIR/memstat-NAME-XXXXXX into PATH; -1 if it does not fit. */
static int
template(char *path, size_t size, const char *name)
{
	const char *dir = getenv("TMPDIR");
	int n;

	if (dir == NULL || *dir == '\0')
		dir = "/tmp";
	n = snprintf(path, size, "%s/memstat-%s-XXXXXX", dir, name);
	return (n < 0 || (size_t)n >= size ? -1 : 0);
}

int
scratch_file(char *path, size_t size, const char *name)
{
	int fd;

	if (template(path, size, name) == -1 || (fd = mkstemp(path)) == -1)
		return (-1);
	if (keep(path) == -1) {
		unlink(path);
		close(fd);
		return (-1);
	}
	return (fd);
}

void
scratch_tmpdir(const char *dir)
{
	static char *first;
	static bool saved, had;
	const char *now;

	if (!saved) {
		now = getenv("TMPDIR");
		had = now != NULL;
		if (had && (first = strdup(now)) == NULL)
			abort();
		saved = true;
	}
	if (dir != NULL)
		setenv("TMPDIR", dir, 1);
	else if (had)
		setenv("TMPDIR", first, 1);
	else
		unsetenv("TMPDIR");
}

char *
scratch_dir(const char *name)
{
	char path[4096], *dir;

	if (template(path, sizeof(path), name) == -1 ||
	    mkdtemp(path) == NULL)
		return (NULL);
	if (keep(path) == -1 || (dir = strdup(path)) == NULL) {
		rmdir(path);
		return (NULL);
	}
	return (dir);
}
