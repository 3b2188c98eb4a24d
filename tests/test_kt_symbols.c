/*
 * test_kt_symbols: kmemtrace's kallsyms, loaded on a thread of its own
 * (kmemtrace/recording/kt_symbols.c), waited for by two threads at once,
 * as a report's reader (kmem_feed.c's producer, at the recording's end)
 * and its matching (tep's lookup of a stack's frame) do.  Each must
 * return only once the load is whole.  Two pthread_join()s of one thread
 * left one of them returning early (glibc: EINVAL) while the symbols were
 * still being added, or waiting forever on a thread already gone.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* pthread_timedjoin_np */
#endif
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <cmocka.h>
#include <event-parse.h>

#include "kt_symbols.h"

#define SYMBOLS	1000
#define ROUNDS	20

static atomic_bool loaded;

/* A slow load: the waiters arrive while it runs. */
static int
slow_load(struct kt_symbols *s, void *arg)
{
	struct timespec pause = { 0, 20 * 1000 * 1000 };

	(void)arg;
	nanosleep(&pause, NULL);
	for (uint64_t i = 0; i < SYMBOLS; i++)
		if (kt_symbols_add(s, "f", 0xffffffff81000000ULL + 16 * i) != 0)
			return (-1);
	atomic_store(&loaded, true);
	return (0);
}

struct waiter {
	struct kt_symbols *s;
	int		 rc;
	bool		 saw_loaded;
	size_t		 saw_n;
};

static void *
wait_for(void *arg)
{
	struct waiter *w = arg;

	w->rc = kt_symbols_wait(w->s);
	w->saw_loaded = atomic_load(&loaded);
	w->saw_n = w->s->n;
	return (NULL);
}

static void
test_two_waiters(void **state)
{
	(void)state;
	for (int round = 0; round < ROUNDS; round++) {
		struct tep_handle *tep = tep_alloc();
		struct kt_symbols s = { 0 };
		struct waiter w[2] = { { .s = &s }, { .s = &s } };
		pthread_t t[2];

		assert_non_null(tep);
		atomic_store(&loaded, false);
		assert_int_equal(kt_symbols_attach_loading(&s, tep, slow_load,
		    NULL), 0);
		for (int i = 0; i < 2; i++)
			assert_int_equal(pthread_create(&t[i], NULL, wait_for,
			    &w[i]), 0);
		for (int i = 0; i < 2; i++) {
			struct timespec deadline;

			/* A waiter that never returns fails, not hangs. */
			clock_gettime(CLOCK_REALTIME, &deadline);
			deadline.tv_sec += 30;
			assert_int_equal(pthread_timedjoin_np(t[i], NULL,
			    &deadline), 0);
			assert_int_equal(w[i].rc, 0);
			assert_true(w[i].saw_loaded);
			assert_int_equal(w[i].saw_n, SYMBOLS);
		}
		/* And a third, after: the load's result again. */
		assert_int_equal(kt_symbols_wait(&s), 0);
		kt_symbols_free(&s);
		tep_free(tep);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_waiters),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
