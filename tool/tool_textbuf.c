/*
 * tool_textbuf.c: a stream (fopencookie(3)) over a list of chunks.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* fopencookie */
#endif
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "tool_textbuf.h"

#define FIRST_CHUNK	((size_t)16 << 10)
#define LARGEST_CHUNK	((size_t)8 << 20)

struct tool_textbuf_chunk {
	struct tool_textbuf_chunk *next;
	size_t		 size, used;
	char		 text[];
};

static ssize_t
textbuf_write(void *cookie, const char *p, size_t n)
{
	struct tool_textbuf *b = cookie;
	size_t left = n;

	while (left > 0) {
		struct tool_textbuf_chunk *c = b->tail;
		size_t k;

		if (c == NULL || c->used == c->size) {
			size_t size = c == NULL ? FIRST_CHUNK : c->size *
			    2 > LARGEST_CHUNK ? LARGEST_CHUNK : c->size * 2;
			struct tool_textbuf_chunk *fresh = malloc(
			    sizeof(*fresh) + size);

			if (fresh == NULL) {
				errno = ENOMEM;
				return (n - left > 0 ? (ssize_t)(n - left) :
				    -1);
			}
			*fresh = (struct tool_textbuf_chunk){ .size = size };
			if (c == NULL)
				b->head = fresh;
			else
				c->next = fresh;
			b->tail = c = fresh;
		}
		k = c->size - c->used < left ? c->size - c->used : left;
		memcpy(c->text + c->used, p, k);
		c->used += k;
		p += k;
		left -= k;
	}
	return ((ssize_t)n);
}

FILE *
tool_textbuf_open(struct tool_textbuf *b)
{
	*b = (struct tool_textbuf){ 0 };
	return (fopencookie(b, "w", (cookie_io_functions_t){
	    .write = textbuf_write }));
}

int
tool_textbuf_write(const struct tool_textbuf *b, FILE *f)
{
	for (const struct tool_textbuf_chunk *c = b->head; c != NULL;
	    c = c->next)
		if (fwrite(c->text, 1, c->used, f) != c->used)
			return (-1);
	return (0);
}

void
tool_textbuf_free(struct tool_textbuf *b)
{
	struct tool_textbuf_chunk *c, *next;

	for (c = b->head; c != NULL; c = next) {
		next = c->next;
		free(c);
	}
	*b = (struct tool_textbuf){ 0 };
}
