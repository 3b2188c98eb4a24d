/*
 * cgroups_linux.c: memory cgroups as a Linux tree's cgroup v2 files say
 * them (memstat_cgroups_linux()): the hierarchy under sys/fs/cgroup (or
 * sys/fs/cgroup/unified, where systemd mounts v2 beside v1), each
 * cgroup's memory.current, the slab lines of its memory.stat and the
 * dying descendants of its cgroup.stat.  No object is walked: the counts
 * per cache are a core image's alone.  The tree is walked depth first,
 * bounded in depth and in cgroups.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgroups/cgroups_internal.h"
#include "linux/linux_tree.h"

#define MAX_DEPTH	64
#define MAX_GROUPS	(1u << 20)

/* The number after key in a "key value" file: 1, 0 (no such line), -1. */
static int
stat_value(const char *buf, const char *key, uint64_t *v)
{
	size_t n = strlen(key);
	const char *p;

	for (p = buf; p != NULL && *p != '\0'; p = strchr(p, '\n'),
	    p = p != NULL ? p + 1 : NULL)
		if (strncmp(p, key, n) == 0 && (p[n] == ' ' || p[n] == '\n' ||
		    p[n] == '\0')) {
			if (p[n] != ' ')
				return (-1);
			p += n + 1;
			return (_memstat_linux_u64(&p, v) &&
			    (*p == '\n' || *p == '\0') ? 1 : -1);
		}
	return (0);
}

static int
cmp_name(const void *a, const void *b)
{
	return (strcmp(*(char *const *)a, *(char *const *)b));
}

struct cgwalk {
	struct memstat_cgroups *cg;
	char		 bad[PATH_MAX];	/* the file that was wrong */
	size_t		 visited;
};

/* A file of dir whole, or NULL: absent (errno ENOENT) or bad. */
static char *
read_at(int dirfd, const char *file, int *error)
{
	char *buf;
	size_t len;

	*error = _memstat_linux_read(dirfd, file, &buf, &len);
	if (*error == 0 && strlen(buf) != len) {
		free(buf);
		*error = EINVAL;
		return (NULL);
	}
	return (*error == 0 ? buf : NULL);
}

/* One cgroup, its files, then its children: 0 or a MEMSTAT_ERROR_*. */
static int
walk_dir(struct cgwalk *w, int dirfd, const char *path, size_t parent,
    int depth)
{
	static const char *const files[] = { "memory.current", "memory.stat",
	    "cgroup.stat" };
	uint64_t v[3], a, b;
	char *buf, child[PATH_MAX];
	struct cgroups_group *g;
	struct dirent *de;
	size_t index, nnames = 0, anames = 0;
	char **names = NULL;
	void *p;
	DIR *d;
	int fd, error, rc = 0;

	if (++w->visited > MAX_GROUPS || depth > MAX_DEPTH) {
		snprintf(w->bad, sizeof(w->bad), "%s: more than %u cgroups "
		    "or %d levels", path, MAX_GROUPS, MAX_DEPTH);
		return (MEMSTAT_ERROR_DATAERROR);
	}
	if (_memstat_cgroups_group_add(w->cg, path, parent, false,
	    &index) != 0)
		return (MEMSTAT_ERROR_NOMEMORY);
	for (int f = 0; f < 3; f++) {
		v[f] = UINT64_MAX;
		if ((buf = read_at(dirfd, files[f], &error)) == NULL) {
			/* The root has no memory.current. */
			if (error == ENOENT)
				continue;
			snprintf(w->bad, sizeof(w->bad), "%s/%s", path,
			    files[f]);
			return (error == EINVAL ? MEMSTAT_ERROR_DATAERROR :
			    _memstat_linux_error(error));
		}
		if (f == 0) {
			const char *p = buf;

			if (!_memstat_linux_u64(&p, &v[0]) || *p != '\n')
				error = EINVAL;
		} else if (f == 1) {
			int r = stat_value(buf, "slab_reclaimable", &a);
			int u = stat_value(buf, "slab_unreclaimable", &b);

			/* Both, or neither (before 5.9: unknown). */
			if (r != u || r < 0 ||
			    (r == 1 && __builtin_add_overflow(a, b, &v[1])))
				error = EINVAL;
		} else if (stat_value(buf, "nr_dying_descendants", &v[2]) != 1)
			error = EINVAL;
		free(buf);
		if (error == EINVAL) {
			snprintf(w->bad, sizeof(w->bad), "%s/%s", path,
			    files[f]);
			return (MEMSTAT_ERROR_DATAERROR);
		}
	}
	g = &w->cg->groups[index];
	g->memory = v[0];
	g->stat_slab = v[1];
	g->dying_below = v[2];
	/* Every directory of a cgroup is a child cgroup: by name. */
	if ((fd = dup(dirfd)) == -1 || (d = fdopendir(fd)) == NULL) {
		if (fd != -1)
			close(fd);
		snprintf(w->bad, sizeof(w->bad), "%s", path);
		return (_memstat_linux_error(errno));
	}
	while ((de = readdir(d)) != NULL) {
		struct stat st;

		if (de->d_name[0] == '.' ||
		    fstatat(dirfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
		    !S_ISDIR(st.st_mode))
			continue;
		if (nnames == anames) {
			anames = anames != 0 ? anames * 2 : 16;
			if ((p = reallocarray(names, anames,
			    sizeof(*names))) == NULL) {
				rc = MEMSTAT_ERROR_NOMEMORY;
				break;
			}
			names = p;
		}
		if ((names[nnames] = strdup(de->d_name)) == NULL) {
			rc = MEMSTAT_ERROR_NOMEMORY;
			break;
		}
		nnames++;
	}
	closedir(d);
	if (nnames > 0)
		qsort(names, nnames, sizeof(*names), cmp_name);
	for (size_t i = 0; rc == 0 && i < nnames; i++) {
		int cfd;

		if ((size_t)snprintf(child, sizeof(child), "%s/%s",
		    strcmp(path, "/") == 0 ? "" : path, names[i]) >=
		    sizeof(child)) {
			snprintf(w->bad, sizeof(w->bad), "%s: a path too long",
			    path);
			rc = MEMSTAT_ERROR_DATAERROR;
			break;
		}
		if ((cfd = openat(dirfd, names[i], O_RDONLY | O_DIRECTORY |
		    O_NOFOLLOW | O_CLOEXEC)) == -1)
			continue;	/* removed meanwhile */
		rc = walk_dir(w, cfd, child, index, depth + 1);
		close(cfd);
	}
	for (size_t i = 0; i < nnames; i++)
		free(names[i]);
	free(names);
	return (rc);
}

/* Depth first leaves parents before children, as the model wants. */
int
memstat_cgroups_linux(struct memstat_cgroups *cg, const char *root)
{
	static const char *const mounts[] = { "sys/fs/cgroup",
	    "sys/fs/cgroup/unified" };
	struct cgwalk w = { .cg = cg };
	char *controllers = NULL;
	int rootfd, fd = -1, error = 0;

	_memstat_cgroups_clear(cg);
	if ((rootfd = _memstat_linux_open(root)) == -1)
		return (_memstat_err_set(&cg->err,
		    _memstat_linux_error(errno), "%s: %s", root,
		    strerror(errno)));
	for (size_t i = 0; i < 2 && controllers == NULL; i++) {
		if (fd != -1)
			close(fd);
		if ((fd = openat(rootfd, mounts[i], O_RDONLY | O_DIRECTORY |
		    O_CLOEXEC)) != -1)
			controllers = read_at(fd, "cgroup.controllers", &error);
	}
	close(rootfd);
	if (controllers == NULL) {
		if (fd != -1)
			close(fd);
		return (_memstat_err_set(&cg->err, MEMSTAT_ERROR_VERSION,
		    "%s: no cgroup v2 hierarchy under sys/fs/cgroup (cgroup "
		    "v1's memory.stat counts no slab)", root));
	}
	if (strstr(controllers, "memory") == NULL) {
		free(controllers);
		close(fd);
		return (_memstat_err_set(&cg->err, MEMSTAT_ERROR_VERSION,
		    "%s: the memory controller is not in the cgroup v2 "
		    "hierarchy (it is cgroup v1's here, whose memory.stat "
		    "counts no slab)", root));
	}
	free(controllers);
	error = walk_dir(&w, fd, "/", SIZE_MAX, 0);
	close(fd);
	if (error == 0 && _memstat_cgroups_finish(cg) == 0)
		return (0);
	_memstat_cgroups_clear(cg);
	if (error == 0)
		error = MEMSTAT_ERROR_NOMEMORY;
	return (_memstat_err_set(&cg->err, error, "%s%s%s: %s", root,
	    strcmp(root, "/") == 0 ? "" : "/", w.bad,
	    memstat_strerror(error)));
}
