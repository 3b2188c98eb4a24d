/*
 * recording.h: a recording directory, as kmemtrace record writes it and
 * kmemtrace report reads it (kmemtrace(8) documents it):
 *
 *	machine			"kmemtrace recording 1", then "key: value"
 *				lines: the recording machine's facts and
 *				the recording's state
 *	cpuN.raw		CPU N's ring-buffer pages, as the kernel
 *				handed them out
 *	stats/cpuN		CPU N's per_cpu/cpuN/stats at the stop
 *	events/header_page, events/header_event, events/kmem/EVENT/format
 *				the kernel's descriptions of the above
 *	kallsyms		/proc/kallsyms, for the call sites' names
 *	saved_cmdlines		the kernel's pid -> command table
 *	cpu-nodes		"cpu node" lines: each CPU's NUMA node
 *	migratetypes		the migrate types' names in the kernel's
 *				order (from /proc/pagetypeinfo), page
 *				recordings only
 */
#ifndef RECORDING_H
#define RECORDING_H

#define RECORDING_MAGIC		"kmemtrace recording 1"
#define RECORDING_MACHINE	"machine"
#define RECORDING_MAX_CPUS	4096

/* The state line: written first as "recording", rewritten at the end. */
#define RECORDING_COMPLETE	"complete"
#define RECORDING_PARTIAL	"partial"

#endif /* !RECORDING_H */
