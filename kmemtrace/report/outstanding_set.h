/*
 * outstanding_set.h: what kmemtrace report --outstanding reads, whatever
 * it came from: the allocations live at the end of a recording
 * (outstanding_recording.c), or allocated in a core image
 * (report_dump.c), with what names their caches, stacks and tasks.
 */
#ifndef OUTSTANDING_SET_H
#define OUTSTANDING_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <event-parse.h>

#include "kmem_stats.h"

struct outstanding_set {
	/*
	 * The allocations, any order; a page's call_site: who asked.  live
	 * NULL: live_at() makes allocation i (a dump's, from the library's
	 * objects, which are not copied).
	 */
	struct kmem_live *live;
	size_t		 nlive;
	void		(*live_at)(const struct outstanding_set *set, size_t i,
			    struct kmem_live *out);
	/*
	 * Or NULL: the allocations handed to fn one by one as the producer
	 * reads them, kept nowhere (a dump's walk); fn returns 0, or -1
	 * (memory), which ends each() with -1.  caches may grow meanwhile,
	 * up to each allocation's own.
	 */
	int		(*each)(void *each_arg,
			    int (*fn)(const struct kmem_live *l, void *arg),
			    void *arg);
	void		*each_arg;	/* its own */
	uint64_t	 end;		/* an age is end - ts */
	struct tep_handle *tep;		/* the kernel's symbols */
	const struct kmem_row *caches;	/* name, realloc_live */
	size_t		 ncaches;
	bool		 stacks;	/* whether stacks were kept */
	const char	*no_stacks;	/* the line that says why not */
	bool		 loss_unplaced;	/* lost events, not where */
	uint64_t	 loss_ts;	/* the last loss placed, 0: none */
	/* A stack's frames, past the trace machinery's. */
	const uint64_t *(*frames)(const struct outstanding_set *set,
			    uint32_t stack, size_t *n);
	/* The command of an allocation's task, or NULL. */
	const char	*(*comm)(const struct outstanding_set *set,
			    const struct kmem_live *l);
	const void	*arg;		/* the producer's own */
};

/*
 * The slab objects (pages if pages) live at the end of a recording gathered
 * into st: 0, or -1 when memory runs out.
 */
int	outstanding_from_recording(struct outstanding_set *set,
	    const struct kmem_stats *st, bool pages);
void	outstanding_set_free(struct outstanding_set *set);

#endif /* !OUTSTANDING_SET_H */
