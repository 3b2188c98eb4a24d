/*
 * test_tool_textbuf: text held in chunks (tool/tool_textbuf.c) comes out
 * as written, whatever the sizes of the writes and wherever a chunk ends.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tool_textbuf.h"

/* What b holds, read back through a file. */
static char *
contents(const struct tool_textbuf *b, size_t *len)
{
	FILE *f = tmpfile();
	char *text;
	long n;

	assert_non_null(f);
	assert_int_equal(tool_textbuf_write(b, f), 0);
	assert_true((n = ftell(f)) >= 0);
	rewind(f);
	assert_non_null(text = malloc((size_t)n + 1));
	assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return (text);
}

static void
test_empty(void **state)
{
	struct tool_textbuf b;
	FILE *f = tool_textbuf_open(&b);
	size_t len;
	char *text;

	(void)state;
	assert_non_null(f);
	assert_int_equal(fclose(f), 0);
	text = contents(&b, &len);
	assert_int_equal(len, 0);
	free(text);
	tool_textbuf_free(&b);
}

/*
 * Writes of 1 byte to 100 KB, some by fwrite past the stream's own
 * buffer, others by fprintf: 3 MB, across chunks of 16 KiB and more.
 */
static void
test_as_written(void **state)
{
	size_t total = 0, len, cap = 4 << 20;
	char *want = malloc(cap), *piece = malloc(100000), *text;
	struct tool_textbuf b;
	FILE *f = tool_textbuf_open(&b);
	uint32_t seed = 1;

	(void)state;
	assert_non_null(f);
	assert_non_null(want);
	assert_non_null(piece);
	for (int i = 0; total < (3 << 20); i++) {
		size_t n;

		seed = seed * 1103515245 + 12345;
		n = i % 7 == 0 ? 1 + seed % 100000 : 1 + seed % 300;
		for (size_t k = 0; k < n; k++)
			piece[k] = (char)('a' + (seed >> 8 ^ k) % 26);
		if (i % 3 == 0) {
			assert_int_equal(fwrite(piece, 1, n, f), n);
		} else {
			n = (size_t)snprintf(piece, 100000, "row %d %u\n", i,
			    seed);
			assert_true(fprintf(f, "%s", piece) == (int)n);
		}
		memcpy(want + total, piece, n);
		total += n;
	}
	assert_int_equal(fclose(f), 0);
	text = contents(&b, &len);
	assert_int_equal(len, total);
	assert_memory_equal(text, want, total);
	free(text);
	free(want);
	free(piece);
	tool_textbuf_free(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_as_written),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
