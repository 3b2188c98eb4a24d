/*
 * memstat_probe.c: what a path names, by content.  The one place that
 * knows every source's magic, above the sources: a core image by its
 * header, a FreeBSD stream by being anything else a file or pipe holds
 * (its decoder judges it), a saved Linux tree by its proc/slabinfo, and
 * any other directory as a FreeBSD capture, whose byte order its streams
 * give.
 */
#include <sys/stat.h>

#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "freebsd/stream_layout.h"
#include "kvm/dump/kvm_file.h"

static int
host_order(void)
{
	return (BYTE_ORDER == BIG_ENDIAN ? 4321 : 1234);
}

static int
other_order(void)
{
	return (BYTE_ORDER == BIG_ENDIAN ? 1234 : 4321);
}

/*
 * A capture's byte order is its streams': FreeBSD writes every sysctl in
 * the kernel's own order.  With no stream to tell, this host's.
 */
static int
capture_order(int dirfd)
{
	static const char *oids[] = { "vm.zone_stats", "kern.malloc_stats" };
	unsigned char word[4];
	ssize_t n;
	uint32_t v;
	int fd;

	for (size_t i = 0; i < sizeof(oids) / sizeof(oids[0]); i++) {
		fd = openat(dirfd, oids[i], O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		if (fd == -1)
			continue;
		n = read(fd, word, sizeof(word));
		close(fd);
		if (n == (ssize_t)sizeof(word)) {
			memcpy(&v, word, sizeof(v));
			return (v != STREAM_VERSION &&
			    __builtin_bswap32(v) == STREAM_VERSION ?
			    other_order() : host_order());
		}
	}
	return (host_order());
}

static int
probe_said(struct memstat_probe *p, int kind, const char *path,
    const char *why)
{
	p->kind = kind;
	snprintf(p->why, sizeof(p->why), "%s: %s", path, why);
	return (0);
}

static int
probe_directory(struct memstat_probe *p, const char *path, int fd)
{
	if (faccessat(fd, "proc/slabinfo", F_OK, 0) == 0)
		return (probe_said(p, MEMSTAT_SOURCE_LINUX_TREE, path,
		    "a saved Linux tree (it holds proc/slabinfo)"));
	if (faccessat(fd, "proc/buddyinfo", F_OK, 0) == 0)
		return (probe_said(p, MEMSTAT_SOURCE_LINUX_TREE, path,
		    "a saved Linux tree (it holds proc/buddyinfo)"));
	p->byte_order = capture_order(fd);
	return (probe_said(p, MEMSTAT_SOURCE_FREEBSD_CAPTURE, path,
	    "a FreeBSD capture directory (no proc/slabinfo or "
	    "proc/buddyinfo)"));
}

/*
 * Whether a file's header is a stream header: a length that is what its
 * record count and CPU count make for zone or malloc records (then a
 * version other than 1 is the stream's own problem: "Version mismatch"),
 * or the version FreeBSD has always written, in either byte order.
 */
static bool
stream_header(const unsigned char *h, size_t n, uint64_t size)
{
	static const uint32_t records[][2] = {
		{ UTH_SIZE, UPS_SIZE }, { MTH_SIZE, MTS_SIZE },
	};
	uint32_t version, maxcpus, count;
	uint64_t record;

	if (size == 0)
		return (true);		/* an empty stream: no types */
	if (n < 4)
		return (false);
	memcpy(&version, h + SH_VERSION, 4);
	if (version == STREAM_VERSION ||
	    __builtin_bswap32(version) == STREAM_VERSION)
		return (true);
	if (n < SH_SIZE)
		return (false);
	for (int swap = 0; swap < 2; swap++) {
		memcpy(&maxcpus, h + SH_MAXCPUS, 4);
		memcpy(&count, h + SH_COUNT, 4);
		if (swap) {
			maxcpus = __builtin_bswap32(maxcpus);
			count = __builtin_bswap32(count);
		}
		for (size_t k = 0; k < 2; k++) {
			record = records[k][0] + (uint64_t)records[k][1] *
			    maxcpus;
			/* Both below 2^38: the product fits. */
			if (SH_SIZE + record * count == size)
				return (true);
		}
	}
	return (false);
}

static int
probe_file(struct memstat_probe *p, const char *path, int fd,
    uint64_t size)
{
	unsigned char m[KVM_MAGIC_LEN > SH_SIZE ? KVM_MAGIC_LEN : SH_SIZE];
	ssize_t n;

	if ((n = pread(fd, m, sizeof(m), 0)) < 0)
		n = 0;
	if (n > 0 && _memstat_kvm_is_core(m, (size_t)n))
		return (probe_said(p, MEMSTAT_SOURCE_CORE, path,
		    "a kernel core image"));
	if (stream_header(m, (size_t)n, size))
		return (probe_said(p, MEMSTAT_SOURCE_FREEBSD_STREAM, path,
		    "a FreeBSD sysctl stream"));
	return (probe_said(p, MEMSTAT_SOURCE_UNKNOWN, path,
	    "not a FreeBSD sysctl stream, a FreeBSD capture, a saved Linux "
	    "tree or a kernel core image"));
}

int
memstat_probe(const char *path, struct memstat_probe *p)
{
	struct stat st;
	int fd, rc;

	*p = (struct memstat_probe){ .byte_order = host_order() };
	/* Non-blocking: opening a FIFO nobody writes must not hang. */
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) == -1 ||
	    fstat(fd, &st) != 0) {
		p->error = errno == EACCES || errno == EPERM ?
		    MEMSTAT_ERROR_PERMISSION : errno == ENOMEM ?
		    MEMSTAT_ERROR_NOMEMORY : MEMSTAT_ERROR_KVM;
		snprintf(p->why, sizeof(p->why), "%s: %s", path,
		    strerror(errno));
		if (fd != -1)
			close(fd);
		return (-1);
	}
	if (S_ISDIR(st.st_mode))
		rc = probe_directory(p, path, fd);
	else if (S_ISREG(st.st_mode))
		rc = probe_file(p, path, fd, (uint64_t)st.st_size);
	else if (S_ISFIFO(st.st_mode))
		rc = probe_said(p, MEMSTAT_SOURCE_FREEBSD_STREAM, path,
		    "a pipe: read as a FreeBSD sysctl stream");
	else	/* A device (/dev/zero) would be read without end. */
		rc = probe_said(p, MEMSTAT_SOURCE_UNKNOWN, path,
		    "not a regular file, directory or pipe");
	close(fd);
	return (rc);
}
