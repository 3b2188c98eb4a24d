/*
 * kmemload: a fixed kernel-allocation workload, for kmemtrace's live
 * test and its benchmark.
 *
 *	kmemload pipes N	N times pipe() and close() both ends: each
 *				pipe kmallocs its pipe_inode_info and buffer
 *				array in alloc_pipe_info, kfrees them in
 *				free_pipe_info (a dense stream of slab events)
 *	kmemload procs N	N short-lived processes, each forked, run
 *				and waited for (a lighter, broader stream)
 *	kmemload hold N		N pipes opened and held until a signal ends
 *				it: N outstanding alloc_pipe_info
 *				allocations; "held" on stdout once open
 *	kmemload files N	N empty files made in the current directory
 *				and left there: on a tmpfs or ramfs, N
 *				dentries and N inodes that stay allocated
 */
#include <err.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int
main(int argc, char *argv[])
{
	long n;
	char *end;

	if (argc != 3 || (n = strtol(argv[2], &end, 10)) < 0 || *end != '\0')
		errx(1, "usage: kmemload pipes|procs|hold|files N");
	if (strcmp(argv[1], "pipes") == 0) {
		for (long i = 0; i < n; i++) {
			int fd[2];

			if (pipe(fd) != 0)
				err(1, "pipe");
			close(fd[0]);
			close(fd[1]);
		}
	} else if (strcmp(argv[1], "procs") == 0) {
		for (long i = 0; i < n; i++) {
			pid_t pid = fork();

			if (pid < 0)
				err(1, "fork");
			if (pid == 0)
				_exit(0);
			if (waitpid(pid, NULL, 0) != pid)
				err(1, "waitpid");
		}
	} else if (strcmp(argv[1], "hold") == 0) {
		for (long i = 0; i < n; i++) {
			int fd[2];

			if (pipe(fd) != 0)
				err(1, "pipe");
		}
		printf("held\n");
		fflush(stdout);
		for (;;)
			pause();
	} else if (strcmp(argv[1], "files") == 0) {
		for (long i = 0; i < n; i++) {
			char name[32];
			int fd;

			snprintf(name, sizeof(name), "f%ld", i);
			if ((fd = open(name, O_WRONLY | O_CREAT | O_EXCL,
			    0644)) < 0)
				err(1, "%s", name);
			close(fd);
		}
	} else
		errx(1, "usage: kmemload pipes|procs|hold|files N");
	return (0);
}
