/*
 * replay.c: a fuzz target's main() without libFuzzer, for make check: it
 * runs the target once over every file named (directories: every file in
 * them), so the seeds and the regression inputs of past findings are
 * replayed by an ordinary build, sanitized when SANITIZE=1.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <err.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int	LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));
int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t	runs;

static void
replay_file(const char *path)
{
	unsigned char *buf;
	struct stat st;
	size_t len;
	FILE *f;

	if ((f = fopen(path, "rb")) == NULL || fstat(fileno(f), &st) != 0)
		err(1, "%s", path);
	len = (size_t)st.st_size;
	if ((buf = malloc(len + 1)) == NULL ||
	    fread(buf, 1, len, f) != len)
		err(1, "%s", path);
	fclose(f);
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	runs++;
}

static void
replay(const char *path)
{
	struct dirent **names;
	struct stat st;
	char sub[4096];
	int n;

	if (stat(path, &st) != 0)
		err(1, "%s", path);
	if (!S_ISDIR(st.st_mode)) {
		replay_file(path);
		return;
	}
	if ((n = scandir(path, &names, NULL, alphasort)) < 0)
		err(1, "%s", path);
	for (int i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.') {
			snprintf(sub, sizeof(sub), "%s/%s", path,
			    names[i]->d_name);
			replay(sub);
		}
		free(names[i]);
	}
	free(names);
}

int
main(int argc, char *argv[])
{
	if (LLVMFuzzerInitialize != NULL)
		LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++)
		replay(argv[i]);
	printf("%zu inputs\n", runs);
	return (0);
}
