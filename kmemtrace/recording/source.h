/*
 * source.h: where a report's events come from (source_open.h decides which
 * by content): a recording directory (source_dir.h) or trace-cmd's
 * trace.dat (source_tracedat.h).  Either way the report sees the recorded kernel's formats
 * in a tep_handle, its symbols and commands there too, the events of all
 * CPUs merged in time order, and what was lost on each CPU.
 */
#ifndef SOURCE_H
#define SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <event-parse.h>

#include "kt_error.h"

/* One event record: the event's bytes, common header first. */
struct kt_record {
	int		 cpu;
	uint64_t	 ts;
	const void	*data;
	size_t		 size;
	bool		 after_loss;	/* the CPU lost events just before it */
};

#define KT_UNKNOWN	UINT64_MAX

/* What a CPU lost.  KT_UNKNOWN where the source does not say. */
struct kt_loss {
	uint64_t	 overrun;	/* stats: overwritten (overwrite on) */
	uint64_t	 commit_overrun;
	uint64_t	 dropped;	/* stats: dropped (overwrite off) */
	uint64_t	 missed_pages;	/* pages flagged "events missed" */
	uint64_t	 missed_events;	/* the counts those pages stored */
	bool		 missed_uncounted; /* a flagged page had no count */
};

/* The recording machine's facts, as far as the source has them. */
struct kt_facts {
	char		 kernel[128];
	char		 architecture[32];
	char		 clock[32];
	char		 state[160];	/* "complete", "partial: why", ... */
	char		 command[256];
	char		 caches[256];	/* recorded with -c: only these */
	char		 stacks[128];	/* events recorded with stacks */
	bool		 partial;
	int		 long_size;
	bool		 big_endian;
	int		 page_size;
	/* Migrate type names in the kernel's order, or none recorded. */
	char		 migratetypes[8][24];
	int		 nmigratetypes;
	/* Each CPU's NUMA node, or NULL: not recorded. */
	int		*cpu_node;
	/* The recorder's own thread (kallsyms' copy), or 0: none named. */
	int		 recorder_thread;
};

/* A task at the recording's start (record -g saved them). */
struct kt_task {
	int		 pid;
	char		 comm[64];	/* /proc's: a kernel thread's in full */
};

struct kt_source_ops;

struct kt_source {
	const char	*path;		/* as the user named it */
	struct tep_handle *tep;
	int		 ncpus;
	struct kt_loss	*loss;		/* [ncpus] */
	struct kt_facts	 facts;
	struct kt_task	*tasks;
	size_t		 ntasks;
	const char	*kind;		/* "recording" or "trace.dat" */
	/* Its formats are the recorded events' (a trace.dat has them all). */
	bool		 formats_recorded;
	const struct kt_source_ops *ops;
	void		*impl;
};

typedef int (*kt_record_fn)(const struct kt_record *, void *);

/*
 * Every record, in time order (ties: lower CPU first), to fn; stops at
 * fn's non-zero return and returns it.  -1 with e set on bad data.  The
 * loss counts are complete after it, and the symbols read (a bad
 * kallsyms is told here).
 */
int	kt_source_each(struct kt_source *src, kt_record_fn fn, void *arg,
	    struct kt_error *e);
void	kt_source_close(struct kt_source *src);

/* What a backend gives: its records in time order, and its end. */
struct kt_source_ops {
	int	(*each)(struct kt_source *, kt_record_fn, void *,
		    struct kt_error *);
	void	(*close)(struct kt_source *);
};

#endif /* !SOURCE_H */
