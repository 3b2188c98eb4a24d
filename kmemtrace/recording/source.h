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

/*
 * The source cut in two halves of time, which two threads may read at
 * once (kt_halves_each): the first half the records before at, the second
 * the rest (at 0: the source's middle).  0 with *h; 1 if it is not to be
 * cut (too small, or a trace.dat): read it whole; -1 with e set.
 */
struct kt_halves;
int	kt_source_halve(struct kt_source *src, uint64_t at,
	    struct kt_halves **h, struct kt_error *e);
/* Half 0's or half 1's records, in time order, as kt_source_each. */
int	kt_halves_each(struct kt_halves *h, int half, kt_record_fn fn,
	    void *arg, struct kt_error *e);
/*
 * After both halves were read: *met, whether the two one after the other
 * were the source's records in its order (cut where the pages' times
 * said: else read it whole); if they were, their losses are the
 * source's.  -1 with e set as kt_source_each's end (a bad kallsyms).
 */
int	kt_halves_join(struct kt_source *src, struct kt_halves *h, bool *met,
	    struct kt_error *e);
void	kt_halves_free(struct kt_halves *h);

/* What a backend gives: its records in time order, and its end. */
struct kt_source_ops {
	int	(*each)(struct kt_source *, kt_record_fn, void *,
		    struct kt_error *);
	void	(*close)(struct kt_source *);
	/* NULL: not cut in halves; join: what each() does at its end. */
	int	(*halve)(struct kt_source *, uint64_t, struct kt_halves **,
		    struct kt_error *);
	int	(*join)(struct kt_source *, struct kt_error *);
};

#endif /* !SOURCE_H */
