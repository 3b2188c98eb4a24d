/* sigbus_probe.c: see sigbus_probe.h. */
#include <sys/mman.h>
#include <sys/wait.h>

#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "sigbus_probe.h"

static uintptr_t probe_page, probe_size;

static void
on_sigbus(int sig, siginfo_t *si, void *ctx)
{
	uintptr_t a = (uintptr_t)si->si_addr;

	(void)sig;
	(void)ctx;
	_exit(a >= probe_page && a - probe_page < probe_size ? 0 : 2);
}

/* The child: a file of two pages, mapped, cut to one, its second read. */
static void
probe(void)
{
	char path[] = "/tmp/memstat-sigbus-XXXXXX";
	struct sigaction sa = { .sa_sigaction = on_sigbus,
	    .sa_flags = SA_SIGINFO };
	volatile unsigned char *p;
	int fd;

	probe_size = (uintptr_t)sysconf(_SC_PAGESIZE);
	if ((fd = mkstemp(path)) == -1)
		_exit(3);
	unlink(path);
	if (ftruncate(fd, (off_t)(2 * probe_size)) != 0 ||
	    (p = mmap(NULL, 2 * probe_size, PROT_READ, MAP_PRIVATE, fd, 0)) ==
	    MAP_FAILED || sigaction(SIGBUS, &sa, NULL) != 0 ||
	    ftruncate(fd, (off_t)probe_size) != 0)
		_exit(3);
	probe_page = (uintptr_t)p + probe_size;
	(void)p[probe_size + 1];
	_exit(4);
}

bool
sigbus_says_where(void)
{
	pid_t pid;
	int status;

	if ((pid = fork()) == -1)
		return (true);		/* cannot tell: the test says */
	if (pid == 0)
		probe();
	if (waitpid(pid, &status, 0) != pid)
		return (true);
	return (!WIFEXITED(status) || WEXITSTATUS(status) != 2);
}
