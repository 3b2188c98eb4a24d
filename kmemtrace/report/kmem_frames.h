/*
 * kmem_frames.h: what a stack's frames are, by their functions' names:
 * the trace machinery's own frames, which every stack record starts
 * with, and the page allocator's, past which is who asked for pages
 * (perf kmem stops inside the allocator).
 */
#ifndef KMEM_FRAMES_H
#define KMEM_FRAMES_H

#include <stddef.h>
#include <stdint.h>

#include <event-parse.h>

/* The frames past the trace machinery's; *n counts them. */
const uint64_t *kmem_frames_past_tracing(struct tep_handle *tep,
	    const uint64_t *frames, size_t *n);
/* The first frame outside the page allocator (and tracing), or 0. */
uint64_t kmem_frames_page_caller(struct tep_handle *tep,
	    const uint64_t *frames, size_t n);

/* "function+0x1f", or the address where no symbol holds it. */
void	kmem_frames_symbol(struct tep_handle *tep, uint64_t addr, char *buf,
	    size_t len);

#endif /* !KMEM_FRAMES_H */
