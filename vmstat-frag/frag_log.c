/*
 * frag_log.c: the log -L appends to.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "frag_log.h"

/* The first line of path, up to len bytes: true if it was read. */
static bool
first_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	bool ok;

	if (f == NULL)
		return (false);
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return (ok);
}

int
frag_boot_live(struct frag_boot *b, const char **why)
{
	struct utsname u;
	char line[256];
	FILE *f;

	memset(b, 0, sizeof(*b));
	if (uname(&u) != 0) {
		*why = "uname";
		return (-1);
	}
	snprintf(b->host, sizeof(b->host), "%s", u.nodename);
	if (!first_line("/proc/sys/kernel/random/boot_id", b->boot_id,
	    sizeof(b->boot_id)) || strspn(b->boot_id,
	    "0123456789abcdef-") != strlen(b->boot_id) ||
	    b->boot_id[0] == '\0') {
		*why = "/proc/sys/kernel/random/boot_id";
		return (-1);
	}
	if ((f = fopen("/proc/stat", "r")) == NULL) {
		*why = "/proc/stat";
		return (-1);
	}
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "btime %" SCNd64, &b->boot_time) == 1)
			break;
	fclose(f);
	if (b->boot_time <= 0) {
		*why = "/proc/stat: no btime";
		return (-1);
	}
	return (0);
}

FILE *
frag_log_open(const char *path)
{
	struct stat st;
	FILE *f;

	if ((f = fopen(path, "a")) == NULL)
		return (NULL);
	if (fstat(fileno(f), &st) == 0 && st.st_size == 0)
		fprintf(f, "%s: time,boot_id,boot_time,host,node,zone,kind,"
		    "then a value per order from 0 (kind blocks: the free "
		    "blocks; kind fmfi: the index)\n", FRAG_LOG_MAGIC);
	if (fflush(f) != 0) {
		int e = errno;

		fclose(f);
		errno = e;
		return (NULL);
	}
	return (f);
}

int
frag_log_append(FILE *log, const struct memstat_frag *frag,
    const struct frag_boot *b, const struct timespec *now)
{
	for (size_t z = 0; z < memstat_frag_zones(frag); z++) {
		bool blocks = memstat_frag_has_blocks(frag, z);
		const char *zone = memstat_frag_zone_name(frag, z);

		fprintf(log, "%lld.%09ld,%s,%" PRId64 ",%s,%d,%s,%s",
		    (long long)now->tv_sec, now->tv_nsec, b->boot_id,
		    b->boot_time, b->host, memstat_frag_node(frag, z),
		    zone[0] != '\0' ? zone : "-", blocks ? "blocks" : "fmfi");
		for (int o = 0; o < memstat_frag_orders(frag, z); o++) {
			if (blocks)
				fprintf(log, ",%" PRIu64,
				    memstat_frag_blocks(frag, z, o));
			else
				fprintf(log, ",%" PRId64,
				    memstat_frag_zone_fmfi(frag, z, o));
		}
		fputc('\n', log);
	}
	return (fflush(log) != 0 || ferror(log) ? -1 : 0);
}
