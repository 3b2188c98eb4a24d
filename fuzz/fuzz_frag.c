/*
 * fuzz_frag.c: the free lists' texts, cut from the input at FUZZ_SEP in
 * this order: proc/buddyinfo, proc/pagetypeinfo (a Linux tree),
 * vm.phys_free, then vm.phys_frag_idx (a FreeBSD capture, the latter
 * alone in a second one), then a vmstat-frag log.  Each goes through the
 * library (a failed query leaves the model empty) and through vmstat-frag:
 * every view, text, JSON and Prometheus's format, and --plot of the log,
 * whose script gnuplot must run whatever the log holds that the reader
 * took (a host named "x' ; system('...')" once ended the script's string).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_support.h"
#include "memstat.h"
#include "tool_run.h"

int	LLVMFuzzerInitialize(int *argc, char ***argv);
int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_tool_init();
	return (0);
}

static int
frag_run(const char *a, const char *b, const char *c, const char *d)
{
	char *argv[] = { "vmstat-frag", (char *)a, (char *)b, (char *)c,
	    (char *)d, NULL };
	int argc = 0;

	while (argv[argc] != NULL)
		argc++;
	return (fuzz_tool_run(FUZZ_VMSTAT_FRAG, argc, argv));
}

static void
library(const char *linux_tree, const char *capture, const char *fmfi)
{
	struct memstat_frag *f = memstat_frag_alloc();

	if (f == NULL)
		abort();
	for (int flags = 0; flags <= MEMSTAT_FRAG_TYPES; flags++) {
		if (memstat_frag_linux(f, linux_tree, flags) != 0 &&
		    memstat_frag_zones(f) != 0)
			abort();
		if (memstat_frag_freebsd(f, capture, flags) != 0 &&
		    memstat_frag_zones(f) != 0)
			abort();
		if (memstat_frag_freebsd(f, fmfi, flags) != 0 &&
		    memstat_frag_zones(f) != 0)
			abort();
	}
	memstat_frag_free(f);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *files[] = { "tree/proc/buddyinfo",
	    "tree/proc/pagetypeinfo", "capture/vm.phys_free",
	    "fmfi/vm.phys_frag_idx", "frag.log" };
	struct fuzz_part parts[5];
	char tree[4096], capture[4096], fmfi[4096], log[4096], svg[4096];
	const char *dir;
	size_t n;

	n = fuzz_split(data, size, FUZZ_SEP, parts, 5);
	dir = fuzz_scratch();
	for (size_t i = 0; i < n; i++)
		fuzz_write(dir, files[i], parts[i].data, parts[i].len);
	snprintf(tree, sizeof(tree), "%s/tree", dir);
	snprintf(capture, sizeof(capture), "%s/capture", dir);
	snprintf(fmfi, sizeof(fmfi), "%s/fmfi", dir);
	snprintf(log, sizeof(log), "%s/frag.log", dir);
	snprintf(svg, sizeof(svg), "%s/frag.svg", dir);
	library(tree, capture, fmfi);
	frag_run("-M", tree, NULL, NULL);
	frag_run("-t", "-M", tree, NULL);
	frag_run("-i", "unusable", "-M", tree);
	frag_run("--libxo=json", "-t", "-M", capture);
	frag_run("-i", "extfrag", "-M", capture);
	frag_run("-M", fmfi, NULL, NULL);
	frag_run("--prometheus=-", "-t", "-M", tree);
	frag_run("--prometheus=-", "-t", "-M", capture);
	frag_run("--prometheus=-", "-M", fmfi, NULL);
	if (n == 5 && frag_run("--plot", svg, log, NULL) != 0 &&
	    strstr(fuzz_tool_last_error(), "gnuplot failed") != NULL) {
		fprintf(stderr, "fuzz_frag: %s", fuzz_tool_last_error());
		abort();
	}
	return (0);
}
