/*
 * kmem_frames.c: frames told apart by their names' beginnings, which
 * cover the _noprof spellings (6.10 on) and the compiler's .isra, .part
 * and .constprop copies.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "kmem_frames.h"

static const char *const tracing[] = { "trace_event_", "perf_trace_",
    "event_triggers_", NULL };

static const char *const page_allocator[] = { "__alloc_pages",
    "alloc_pages", "__alloc_frozen_pages", "alloc_frozen_pages",
    "__folio_alloc", "folio_alloc", "__get_free_pages", "get_free_pages",
    "get_zeroed_page",
    "vma_alloc_folio", "alloc_pages_exact", "__alloc_pages_bulk",
    "alloc_page_interleave", "alloc_pages_mpol", "get_page_from_freelist",
    NULL };

static bool
named(struct tep_handle *tep, uint64_t addr, const char *const *prefixes)
{
	const char *name = tep_find_function(tep, addr);

	for (; name != NULL && *prefixes != NULL; prefixes++)
		if (strncmp(name, *prefixes, strlen(*prefixes)) == 0)
			return (true);
	return (false);
}

const uint64_t *
kmem_frames_past_tracing(struct tep_handle *tep, const uint64_t *frames,
    size_t *n)
{
	while (*n > 0 && named(tep, *frames, tracing)) {
		frames++;
		(*n)--;
	}
	return (frames);
}

uint64_t
kmem_frames_page_caller(struct tep_handle *tep, const uint64_t *frames,
    size_t n)
{
	frames = kmem_frames_past_tracing(tep, frames, &n);
	for (; n > 0; frames++, n--)
		if (!named(tep, *frames, page_allocator))
			return (*frames);
	return (0);
}

void
kmem_frames_symbol(struct tep_handle *tep, uint64_t addr, char *buf,
    size_t len)
{
	const char *name = tep_find_function(tep, addr);

	if (name == NULL) {
		snprintf(buf, len, "%#" PRIx64, addr);
		return;
	}
	snprintf(buf, len, "%s+%#" PRIx64, name, addr -
	    (uint64_t)tep_find_function_address(tep, addr));
}
