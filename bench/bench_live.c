/*
 * bench_live.c: the live Linux report against the peer tools that read
 * the same /proc/slabinfo, procps "vmstat -m" and "slabtop -o", and
 * against its floor, "cat /proc/slabinfo": the kernel's own cost of
 * writing the file, and a process's of starting.  Whole commands,
 * started as a user starts them (fork, exec, output to /dev/null), run
 * in interleaved rounds so that a busy moment of the machine hits all of
 * them alike; the figure is the median of each, the ratios to the peers
 * are of medians, and to the floor the median of each round's pair.
 *
 *	bench/bench_live ROUNDS VMSTAT_Z
 */
#include <sys/wait.h>

#include <err.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "timing.h"

struct cmd {
	const char	*label;
	char		*argv[4];
	double		*ms;
};

static double
run(char *const argv[])
{
	double t0 = now_ms();
	int status, fd;
	pid_t pid;

	if ((pid = fork()) == -1)
		err(1, "fork");
	if (pid == 0) {
		if ((fd = open("/dev/null", O_WRONLY)) == -1 ||
		    dup2(fd, 1) == -1)
			_exit(127);
		execvp(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) == -1)
		err(1, "waitpid");
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		errx(1, "%s failed (status %d)", argv[0], status);
	return (now_ms() - t0);
}

int
main(int argc, char *argv[])
{
	struct cmd cmds[] = {
		{ "vmstat-z", { argv[2], NULL }, NULL },
		{ "vmstat-z -a", { argv[2], "-a", NULL }, NULL },
		{ "procps vmstat -m", { "vmstat", "-m", NULL }, NULL },
		{ "procps slabtop -o", { "slabtop", "-o", NULL }, NULL },
		{ "cat /proc/slabinfo", { "cat", "/proc/slabinfo", NULL },
		    NULL },
	};
	const int ncmds = sizeof(cmds) / sizeof(cmds[0]);
	double med[sizeof(cmds) / sizeof(cmds[0])], *pair, floor;
	int rounds, r, i;

	if (argc != 3 || (rounds = atoi(argv[1])) < 1)
		errx(1, "usage: bench_live ROUNDS VMSTAT_Z");
	for (i = 0; i < ncmds; i++) {
		if ((cmds[i].ms = calloc((size_t)rounds, sizeof(double))) == NULL)
			err(1, "calloc");
		run(cmds[i].argv);	/* warm the page cache */
	}
	/* Each round starts with the next command: none always goes first. */
	for (r = 0; r < rounds; r++)
		for (int k = 0; k < ncmds; k++) {
			i = (k + r) % ncmds;
			cmds[i].ms[r] = run(cmds[i].argv);
		}
	for (i = 0; i < ncmds; i++)
		med[i] = median(cmds[i].ms, rounds);
	if ((pair = calloc((size_t)rounds, sizeof(double))) == NULL)
		err(1, "calloc");
	for (r = 0; r < rounds; r++)
		pair[r] = cmds[0].ms[r] / cmds[4].ms[r];
	floor = median(pair, rounds);

	printf("The live report against procps and against its floor, `cat "
	    "/proc/slabinfo`, whole commands (fork, exec, exit, output to "
	    "/dev/null), %d interleaved rounds, medians (to the floor: the "
	    "median of each round's ratio):\n\n", rounds);
	printf("| command | median | ratio |\n|---|---|---|\n");
	printf("| `vmstat-z` | %.2f ms | **%.2f×** `cat /proc/slabinfo` "
	    "(target ≤ 1.2); **%.2f×** procps `vmstat -m`, **%.2f×**"
	    " `slabtop -o` |\n", med[0], floor, med[0] / med[2],
	    med[0] / med[3]);
	printf("| `vmstat-z -a` | %.2f ms | **%.2f×** `vmstat-z` (target ≤ 2) "
	    "|\n", med[1], med[1] / med[0]);
	printf("| procps `vmstat -m` | %.2f ms | |\n", med[2]);
	printf("| procps `slabtop -o` | %.2f ms | |\n", med[3]);
	printf("| `cat /proc/slabinfo` | %.2f ms | |\n", med[4]);
	return (0);
}
