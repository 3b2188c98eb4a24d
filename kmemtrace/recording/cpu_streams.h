/*
 * cpu_streams.h: a recording's per-CPU page files read a batch of pages
 * at a time, each page checked, their records merged in time order: the
 * whole recording, or one of its two halves in time (cpu_streams_halve),
 * which two threads may read at once.
 */
#ifndef CPU_STREAMS_H
#define CPU_STREAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "page_check.h"
#include "page_walk.h"
#include "source.h"

struct cpu_stream {
	int		 cpu;
	int		 fd;
	uint64_t	 npages, page;	/* pages to read; next to load */
	/* The last page's records end here (a half's edge), or SIZE_MAX. */
	size_t		 last_commit;
	uint8_t		*batch;
	size_t		 batch_pages, batch_at;
	struct page_walk walk;		/* the loaded page */
	/* The current record, when have. */
	bool		 have;
	uint64_t	 ts;
	const void	*data;
	size_t		 size;
	bool		 after_loss;	/* its page said events were missed */
};

/* The streams one reader walks: the recording's, or a half's own. */
struct cpu_streams {
	const char	*path;		/* the recording, for messages */
	const struct page_format *format;
	int		 ncpus;
	struct cpu_stream *cpus;
	struct cpu_stream **heap;
	int		 nheap;
	struct kt_loss	*loss;		/* [ncpus]: pages' missed counts */
	bool		 borrowed;	/* the batches are another's */
	/*
	 * A half's records lie in [from, to), each stream's in time order:
	 * else outside (told for the whole too, and not used).
	 */
	uint64_t	 from, to;
	bool		 outside;
};

/*
 * Each stream's batch: 256 KiB, less where there are more than 128 CPUs,
 * so that all of them take 32 MiB at most.
 */
int	cpu_streams_batches(struct cpu_streams *w, struct kt_error *e);
/* The next page of s, checked, to walk.  0: loaded; 1: no more; -1. */
int	cpu_stream_next_page(struct cpu_streams *w, struct cpu_stream *s,
	    struct kt_error *e);
/* Every record of w in time order (ties: lower CPU first), as each(). */
int	cpu_streams_each(struct cpu_streams *w, kt_record_fn fn, void *arg,
	    struct kt_error *e);
/* A half's streams (not the recording's, whose loss is its source's). */
void	cpu_streams_free(struct cpu_streams *w);

/* A source's two halves (source.h), each read by a thread. */
struct kt_halves {
	struct cpu_streams half[2];
};

/*
 * whole cut in two at time at (0: the time that halves its pages, by
 * their header times): first gets each CPU's records before it, second the
 * rest, each with streams of its own.  0; 1 if whole is too small or
 * its pages do not say where (then nothing is made); -1.  The cut is made
 * by the pages' times; cpu_streams_halves_met tells after both were read
 * whether every record of first came before every record of second, i.e.
 * whether the two read one after the other are the whole in its order.
 */
int	cpu_streams_halve(const struct cpu_streams *whole, uint64_t at,
	    struct cpu_streams *first, struct cpu_streams *second,
	    struct kt_error *e);
bool	cpu_streams_halves_met(const struct cpu_streams *first,
	    const struct cpu_streams *second);

#endif /* !CPU_STREAMS_H */
