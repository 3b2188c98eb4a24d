/*
 * fuzz_recording.c: a kmemtrace recording directory, through kmemtrace
 * report.  Its text files are cut from the input at FUZZ_SEP in this
 * order: machine, events/header_page, events/kmem/kmalloc/format,
 * events/kmem/kfree/format, events/kmem/kmem_cache_alloc/format,
 * events/kmem/kmem_cache_free/format, events/kmem/mm_page_alloc/format,
 * kallsyms, saved_cmdlines, migratetypes, cpu-nodes, stats/cpu0, and a
 * recording with stacks' events/ftrace/kernel_stack/format,
 * events/task/task_newtask/format, events/task/task_rename/format and
 * tasks; the rest of the input, which may hold FUZZ_SEP bytes, is the
 * pages: its first half cpu0.raw, its second cpu1.raw.  Reported in text
 * and JSON with every table, and its outstanding allocations.
 */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_support.h"
#include "tool_run.h"

int	LLVMFuzzerInitialize(int *argc, char ***argv);
int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *files[] = {
	"machine", "events/header_page", "events/kmem/kmalloc/format",
	"events/kmem/kfree/format", "events/kmem/kmem_cache_alloc/format",
	"events/kmem/kmem_cache_free/format",
	"events/kmem/mm_page_alloc/format", "kallsyms", "saved_cmdlines",
	"migratetypes", "cpu-nodes", "stats/cpu0",
	"events/ftrace/kernel_stack/format", "events/task/task_newtask/format",
	"events/task/task_rename/format", "tasks",
};
#define NFILES	(sizeof(files) / sizeof(files[0]))

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_tool_init();
	return (0);
}

static void
report(const char *dir, const char *a, const char *b, const char *c)
{
	char *argv[] = { "kmemtrace", "report", (char *)a, (char *)b,
	    (char *)c, (char *)dir, NULL };
	int argc = 0;

	/* The options given, then the directory. */
	for (int i = 2; i < 5; i++)
		if (argv[i] == NULL) {
			argv[i] = (char *)dir;
			argv[i + 1] = NULL;
			break;
		}
	while (argv[argc] != NULL)
		argc++;
	fuzz_tool_run(FUZZ_KMEMTRACE, argc, argv);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_part parts[NFILES + 1];
	const char *dir;
	size_t n, half;

	n = fuzz_split(data, size, FUZZ_SEP, parts, NFILES + 1);
	dir = fuzz_scratch();
	for (size_t i = 0; i < n && i < NFILES; i++)
		fuzz_write(dir, files[i], parts[i].data, parts[i].len);
	if (n == NFILES + 1) {
		half = parts[NFILES].len / 2;
		fuzz_write(dir, "cpu0.raw", parts[NFILES].data, half);
		fuzz_write(dir, "cpu1.raw", parts[NFILES].data + half,
		    parts[NFILES].len - half);
	}
	report(dir, NULL, NULL, NULL);
	report(dir, "--libxo", "json", "--page");
	report(dir, "--alloc", "--cache", NULL);
	report(dir, "--outstanding", NULL, NULL);
	report(dir, "--outstanding", "--by", "object");
	report(dir, "--outstanding", "--page", "--libxo=json");
	return (0);
}
