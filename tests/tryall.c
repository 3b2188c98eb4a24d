/*
 * tryall: run each tool on one damaged input, as tests/mutate-check
 * wants every run to end: exit 0 or 1 within five seconds, never by a
 * signal, and on exit 1 nothing on stdout and something on stderr.
 * Prints one line for each run that breaks a rule; exits 1 if any did.
 *
 *	tryall SCRATCH INPUT COMMAND...
 *
 * Each COMMAND (a tool and options, split at spaces) runs with "-M INPUT"
 * added, its stdin /dev/null, its stdout and stderr in SCRATCH.out and
 * SCRATCH.err.  One process for all the tools
 * of a seed rather than a shell and timeout(1) for each: under qemu-user
 * a process started costs a tenth of a second.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define LIMIT_SECONDS 5

static volatile sig_atomic_t timed_out;

static void
on_alarm(int sig)
{
	(void)sig;
	timed_out = 1;
}

/* In the child: PATH opened as descriptor TO. */
static void
redirect(const char *path, int flags, int to)
{
	int fd;

	if ((fd = open(path, flags, 0600)) < 0)
		err(127, "%s", path);
	if (fd != to) {
		dup2(fd, to);
		close(fd);
	}
}

static off_t
size_of(const char *path)
{
	struct stat st;

	return (stat(path, &st) == 0 ? st.st_size : -1);
}

/* Runs one command; the wait status, or -1 when it outlived the limit. */
static int
run(const char *command, const char *input, const char *out, const char *errf)
{
	char words[4096], *argv[32], *w;
	int argc = 0, status, rc;
	pid_t pid;

	if ((size_t)snprintf(words, sizeof(words), "%s", command) >=
	    sizeof(words))
		errx(2, "%s: too long", command);
	for (w = strtok(words, " "); w != NULL && argc < 29;
	    w = strtok(NULL, " "))
		argv[argc++] = w;
	if (argc == 0 || w != NULL)
		errx(2, "%s: not a command of at most 28 words", command);
	argv[argc++] = "-M";
	argv[argc++] = (char *)input;
	argv[argc] = NULL;

	if ((pid = fork()) < 0)
		err(2, "fork");
	if (pid == 0) {
		redirect("/dev/null", O_RDONLY, 0);
		redirect(out, O_WRONLY | O_CREAT | O_TRUNC, 1);
		redirect(errf, O_WRONLY | O_CREAT | O_TRUNC, 2);
		execv(argv[0], argv);
		err(127, "%s", argv[0]);
	}
	timed_out = 0;
	alarm(LIMIT_SECONDS);
	while ((rc = waitpid(pid, &status, 0)) < 0 && errno == EINTR &&
	    !timed_out)
		;
	alarm(0);
	if (rc == pid)
		return (status);
	kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return (-1);
}

int
main(int argc, char *argv[])
{
	struct sigaction sa;
	char out[4096], errf[4096];
	off_t out_size;
	int i, status, bad = 0;

	if (argc < 4)
		errx(2, "usage: tryall SCRATCH INPUT COMMAND...");
	if ((size_t)snprintf(out, sizeof(out), "%s.out", argv[1]) >=
	    sizeof(out) ||
	    (size_t)snprintf(errf, sizeof(errf), "%s.err", argv[1]) >=
	    sizeof(errf))
		errx(2, "%s: too long", argv[1]);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;	/* no SA_RESTART: waitpid returns */
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGALRM, &sa, NULL) != 0)
		err(2, "sigaction");
	for (i = 3; i < argc; i++) {
		status = run(argv[i], argv[2], out, errf);
		out_size = size_of(out);
		if (status == -1)
			printf("%s: still running after %d s\n", argv[i],
			    LIMIT_SECONDS);
		else if (WIFSIGNALED(status))
			printf("%s: killed by signal %d\n", argv[i],
			    WTERMSIG(status));
		else if (WEXITSTATUS(status) > 1)
			printf("%s: exit %d\n", argv[i], WEXITSTATUS(status));
		else if (WEXITSTATUS(status) == 1 && out_size != 0)
			printf("%s: exit 1 with %lld bytes on stdout\n",
			    argv[i], (long long)out_size);
		else if (WEXITSTATUS(status) == 1 && size_of(errf) <= 0)
			printf("%s: exit 1 saying nothing on stderr\n", argv[i]);
		else
			continue;
		bad = 1;
	}
	return (bad);
}
