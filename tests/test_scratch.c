/*
 * test_scratch: the tests' temporary files go when the test program
 * exits, however its tests ended, and only under TMPDIR.
 */
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scratch.h"
#include "testlib.h"

static int
gone(const char *path)
{
	struct stat sb;

	return (stat(path, &sb) == -1 && errno == ENOENT);
}

/*
 * A program that made a file, and a folder with a file in it, and exited
 * without removing them (as one whose assertion failed does) leaves
 * neither; what its parent made before the fork stays the parent's.
 */
static void
test_removed_at_exit(void **state)
{
	char *dir, file[4096], inner[4200];
	FILE *f;
	pid_t pid;
	int fd, status, p[2];

	(void)state;
	assert_non_null(dir = scratch_dir("parent"));
	scratch_tmpdir(dir);
	/* The child's names, from a pipe: it made them. */
	assert_int_equal(pipe(p), 0);
	assert_true((pid = fork()) != -1);
	if (pid == 0) {
		char *sub;

		close(p[0]);
		if ((fd = scratch_file(file, sizeof(file), "child")) == -1 ||
		    (sub = scratch_dir("child")) == NULL)
			_exit(2);
		snprintf(inner, sizeof(inner), "%s/a-file", sub);
		if ((f = fopen(inner, "w")) == NULL)
			_exit(2);
		fputs("x\n", f);
		fclose(f);
		dprintf(p[1], "%s\n%s\n%s\n", file, sub, inner);
		exit(0);
	}
	close(p[1]);
	assert_non_null(f = fdopen(p[0], "r"));
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	for (int i = 0; i < 3; i++) {
		char line[4300];

		assert_non_null(fgets(line, sizeof(line), f));
		line[strcspn(line, "\n")] = '\0';
		assert_true(strncmp(line, dir, strlen(dir)) == 0);
		assert_true(gone(line));
	}
	fclose(f);
	assert_false(gone(dir));
	scratch_tmpdir(NULL);
	free(dir);
}

/* A TMPDIR too long for the path: none made, and -1. */
static void
test_too_long(void **state)
{
	char path[64], big[PATH_MAX];

	(void)state;
	memset(big, 'd', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	big[0] = '/';
	scratch_tmpdir(big);
	assert_int_equal(scratch_file(path, sizeof(path), "long"), -1);
	assert_null(scratch_dir("long"));
	scratch_tmpdir(NULL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_removed_at_exit),
		cmocka_unit_test(test_too_long),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
