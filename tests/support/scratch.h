/*
 * scratch.h: the files and folders a test makes under TMPDIR (or /tmp),
 * removed when the test program exits, however its tests ended: a failed
 * assertion leaves the test by longjmp, past any unlink of its own.
 */
#ifndef SCRATCH_H
#define SCRATCH_H

#include <stddef.h>

/*
 * A new file TMPDIR/memstat-NAME-XXXXXX, open for reading and writing:
 * its descriptor, its path in PATH (SIZE bytes); -1 if none was made.
 */
int	 scratch_file(char *path, size_t size, const char *name);

/* A new folder TMPDIR/memstat-NAME-XXXXXX: its path (free it), or NULL. */
char	*scratch_dir(const char *name);

/*
 * TMPDIR set to DIR for what a test runs next; NULL: set back to what it
 * was when the program started (unset, if it was).
 */
void	 scratch_tmpdir(const char *dir);

#endif
