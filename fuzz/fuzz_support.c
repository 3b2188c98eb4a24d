/*
 * fuzz_support.c: inputs cut into parts and written out as files (in
 * /dev/shm when it can: the targets write a whole capture on every run),
 * and lists folded into a digest.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_support.h"
#include "memstat.h"

size_t
fuzz_split(const uint8_t *data, size_t len, int sep, struct fuzz_part *parts,
    size_t max)
{
	const uint8_t *p, *end = data + len;
	size_t n = 0;

	while (n + 1 < max && (p = memchr(data, sep, (size_t)(end - data))) !=
	    NULL) {
		parts[n++] = (struct fuzz_part){ data, (size_t)(p - data) };
		data = p + 1;
	}
	parts[n++] = (struct fuzz_part){ data, (size_t)(end - data) };
	return (n);
}

static int
remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	if (ftw->level > 0)
		remove(path);
	return (0);
}

static char scratch_dir[PATH_MAX];

/* At exit: the directory too, so that a run leaves nothing behind. */
static void
remove_scratch_dir(void)
{
	nftw(scratch_dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	rmdir(scratch_dir);
}

const char *
fuzz_scratch(void)
{
	const char *tmpdir = getenv("TMPDIR");
	char *dir = scratch_dir;

	/* TMPDIR if set (make check's replays), else memory. */
	if (dir[0] == '\0') {
		snprintf(dir, sizeof(scratch_dir), "%s/memstat-fuzz.XXXXXX",
		    tmpdir != NULL && *tmpdir != '\0' ? tmpdir : "/dev/shm");
		if (mkdtemp(dir) == NULL) {
			snprintf(dir, sizeof(scratch_dir),
			    "/tmp/memstat-fuzz.XXXXXX");
			if (mkdtemp(dir) == NULL)
				abort();
		}
		atexit(remove_scratch_dir);
	}
	/* Depth first, not following links: the tree is the input's. */
	nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	return (dir);
}

void
fuzz_write(const char *dir, const char *path, const void *data, size_t len)
{
	char full[PATH_MAX];
	int fd;

	snprintf(full, sizeof(full), "%s/%s", dir, path);
	for (char *s = full + strlen(dir) + 1; (s = strchr(s, '/')) != NULL;
	    s++) {
		*s = '\0';
		if (mkdir(full, 0700) != 0 && errno != EEXIST)
			abort();
		*s = '/';
	}
	if ((fd = open(full, O_WRONLY | O_CREAT | O_TRUNC, 0600)) == -1)
		return;		/* a part named over a directory: no file */
	if (len > 0 && write(fd, data, len) != (ssize_t)len)
		abort();
	close(fd);
}

const char *
fuzz_repo(void)
{
	const char *r = getenv("FUZZ_REPO");

#ifdef FUZZ_REPO
	if (r == NULL)
		r = FUZZ_REPO;
#endif
	if (r == NULL)
		r = ".";
	return (r);
}

uint64_t
fuzz_list_digest(struct memory_type_list *list, size_t *entries)
{
	static uint64_t (*const stats[])(const struct memory_type *) = {
		memstat_get_size, memstat_get_countlimit, memstat_get_count,
		memstat_get_free, memstat_get_numallocs, memstat_get_numfrees,
		memstat_get_bytes, memstat_get_failures, memstat_get_zonefree,
		memstat_get_kegfree, memstat_get_sizemask,
	};
	struct memory_type *mtp;
	uint64_t h = 0;
	size_t i;

	*entries = 0;
	for (mtp = memstat_mtl_first(list); mtp != NULL;
	    mtp = memstat_mtl_next(mtp)) {
		for (const char *c = memstat_get_name(mtp); *c != '\0'; c++)
			h = h * 31 + (unsigned char)*c;
		h = h * 31 + (uint64_t)memstat_get_allocator(mtp);
		h = h * 31 + memstat_get_unknown(mtp);
		for (i = 0; i < sizeof(stats) / sizeof(stats[0]); i++)
			h = h * 31 + stats[i](mtp);
		for (int cpu = 0; cpu < 4; cpu++)
			h = h * 31 + memstat_get_percpu_free(mtp, cpu) +
			    memstat_get_percpu_numallocs(mtp, cpu);
		for (i = 0; i < memstat_get_alias_count(mtp); i++)
			for (const char *c = memstat_get_alias(mtp, i);
			    *c != '\0'; c++)
				h = h * 31 + (unsigned char)*c;
		(*entries)++;
	}
	return (h);
}
