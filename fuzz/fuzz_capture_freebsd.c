/*
 * fuzz_capture_freebsd.c: a FreeBSD capture directory, one file per
 * sysctl, cut from the input at FUZZ_SEP in this order: vm.zone_stats,
 * kern.malloc_stats, vm.malloc.zone_sizes, kern.ipc.sfstat,
 * kern.ipc.nsfbufs, kern.ipc.nsfbufspeak, kern.ipc.nsfbufsused (an input
 * with fewer parts leaves the rest out).  The streams go through the
 * library, then the directory and the zone stream through all three
 * tools, text and JSON.
 */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_support.h"
#include "memstat.h"
#include "tool_run.h"

int	LLVMFuzzerInitialize(int *argc, char ***argv);
int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *oids[] = {
	"vm.zone_stats", "kern.malloc_stats", "vm.malloc.zone_sizes",
	"kern.ipc.sfstat", "kern.ipc.nsfbufs", "kern.ipc.nsfbufspeak",
	"kern.ipc.nsfbufsused",
};
#define NOIDS	(sizeof(oids) / sizeof(oids[0]))

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_tool_init();
	return (0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_part parts[NOIDS];
	struct memory_type_list *list;
	const char *dir;
	char zone_file[4096];
	size_t n, entries;

	n = fuzz_split(data, size, FUZZ_SEP, parts, NOIDS);
	dir = fuzz_scratch();
	for (size_t i = 0; i < n; i++)
		fuzz_write(dir, oids[i], parts[i].data, parts[i].len);

	if ((list = memstat_mtl_alloc()) == NULL)
		abort();
	if (memstat_stream_uma(list, parts[0].data, parts[0].len) == 0)
		fuzz_list_digest(list, &entries);
	if (n > 1 && memstat_stream_malloc(list, parts[1].data,
	    parts[1].len) == 0)
		fuzz_list_digest(list, &entries);
	memstat_mtl_free(list);

	fuzz_tool_run_on(FUZZ_VMSTAT_Z, dir, NULL);
	fuzz_tool_run_on(FUZZ_VMSTAT_Z, dir, "--libxo", "json", NULL);
	fuzz_tool_run_on(FUZZ_VMSTAT_M, dir, NULL);
	fuzz_tool_run_on(FUZZ_VMSTAT_M, dir, "--libxo=json,pretty", NULL);
	fuzz_tool_run_on(FUZZ_NETSTAT_MBUF, dir, NULL);
	fuzz_tool_run_on(FUZZ_NETSTAT_MBUF, dir, "--libxo", "json", NULL);
	fuzz_tool_run_on(FUZZ_VMSTAT_Z, dir, "--prometheus", "-", NULL);
	fuzz_tool_run_on(FUZZ_VMSTAT_M, dir, "--prometheus", "-", NULL);
	fuzz_tool_run_on(FUZZ_NETSTAT_MBUF, dir, "--prometheus", "-", NULL);
	snprintf(zone_file, sizeof(zone_file), "%s/%s", dir, oids[0]);
	fuzz_tool_run_on(FUZZ_VMSTAT_Z, zone_file, NULL);
	fuzz_tool_run_on(FUZZ_NETSTAT_MBUF, zone_file, NULL);
	return (0);
}
