/*
 * fuzz_cmdline.c: a tool's command line (built once per tool, TOOL naming
 * it).  The input is the arguments after argv[0], NUL-separated; the run
 * starts in the repository, so the dictionary's fixture paths name real
 * captures, streams and dumps, and no -M reads this machine's kernel.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_support.h"
#include "tool_run.h"

#define MAX_ARGS	32

int	LLVMFuzzerInitialize(int *argc, char ***argv);
int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (chdir(fuzz_repo()) != 0)
		abort();
	fuzz_tool_init();
	return (0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_part parts[MAX_ARGS];
	char *argv[MAX_ARGS + 2], *copy;
	size_t n;
	int argc = 0;

	if (size > 65536 || (copy = malloc(size + 1)) == NULL)
		return (0);
	memcpy(copy, data, size);
	copy[size] = '\0';
	argv[argc++] = (char *)fuzz_tool_name(TOOL);
	if (size > 0) {
		n = fuzz_split((const uint8_t *)copy, size, '\0', parts,
		    MAX_ARGS);
		for (size_t i = 0; i < n; i++) {
			/* Each part ends at its NUL, or the one added. */
			argv[argc++] = (char *)parts[i].data;
		}
	}
	argv[argc] = NULL;
	fuzz_tool_run(TOOL, argc, argv);
	free(copy);
	return (0);
}
