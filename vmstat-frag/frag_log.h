/*
 * frag_log.h: -L FILE, the samples of -w appended to a log, one CSV row
 * per node, zone (FreeBSD: domain) and sample:
 *
 *	time,boot_id,boot_time,host,node,zone,kind,v0,v1,...
 *
 * time and boot_time are Unix seconds (time with nanoseconds), boot_id
 * the kernel's random boot id (a reboot starts a new series), kind
 * "blocks" (v: the free blocks of order 0, 1, ...; any index can be
 * computed from them) or "fmfi" (a source that gives the index only).
 * Lines starting with '#' are comments; the first says what the file is.
 */
#ifndef FRAG_LOG_H
#define FRAG_LOG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "memstat.h"

#define FRAG_LOG_MAGIC	"# vmstat-frag log 1"

/* The machine and the boot a sample belongs to. */
struct frag_boot {
	char		 host[256];
	char		 boot_id[64];
	int64_t		 boot_time;
};

/* This machine's, from the live kernel: 0, or -1 with why set. */
int	frag_boot_live(struct frag_boot *b, const char **why);

/* Opens FILE to append (its first line written if it is new): or NULL. */
FILE	*frag_log_open(const char *path);
/* One row per zone of frag: 0, or -1 (errno) when writing failed. */
int	frag_log_append(FILE *log, const struct memstat_frag *frag,
	    const struct frag_boot *b, const struct timespec *now);

#endif /* !FRAG_LOG_H */
