/*
 * runcmd: a command's time and memory as a whole process, for the shell
 * benchmarks: run it N times, print the median wall time in seconds and
 * the largest peak RSS in KiB ("0.812 23652").  Its output, and its
 * warnings, go to /dev/null; a run that fails stops the benchmark.
 *
 *	runcmd N command [arg ...]
 */
#include <err.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "timing.h"

int
main(int argc, char *argv[])
{
	double *t;
	long max_rss = 0;
	int n;

	if (argc < 3 || (n = atoi(argv[1])) < 1)
		errx(1, "usage: runcmd N command [arg ...]");
	if ((t = calloc((size_t)n, sizeof(*t))) == NULL)
		err(1, "calloc");
	for (int i = 0; i < n; i++) {
		struct rusage ru;
		double start = now_ms();
		int status, null;
		pid_t pid;

		if ((pid = fork()) < 0)
			err(1, "fork");
		if (pid == 0) {
			if ((null = open("/dev/null", O_WRONLY)) >= 0) {
				dup2(null, STDOUT_FILENO);
				dup2(null, STDERR_FILENO);
			}
			execvp(argv[2], argv + 2);
			err(127, "%s", argv[2]);
		}
		if (wait4(pid, &status, 0, &ru) != pid)
			err(1, "wait4");
		t[i] = (now_ms() - start) / 1000;
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			errx(1, "%s failed", argv[2]);
		if (ru.ru_maxrss > max_rss)
			max_rss = ru.ru_maxrss;
	}
	printf("%.3f %ld\n", median(t, n), max_rss);
	return (0);
}
