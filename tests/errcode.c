/*
 * errcode: query libmemstat the way the tools do and print the
 * MEMSTAT_ERROR_* name of the failure ("ok" if there was none), for the
 * catalogue of bad input (fixtures/bad/catalogue).  PATH is a stream file,
 * a FreeBSD capture directory (its stream is decoded), a saved Linux tree,
 * or a kernel core image; frag reads their free lists (vmstat-frag's
 * query) instead.
 *
 *	errcode uma|malloc|frag PATH
 */
#include <sys/stat.h>

#include <err.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fixture.h"
#include "memstat.h"

static const char *names[] = {
	[MEMSTAT_ERROR_UNDEFINED] = "UNDEFINED",
	[MEMSTAT_ERROR_NOMEMORY] = "NOMEMORY",
	[MEMSTAT_ERROR_VERSION] = "VERSION",
	[MEMSTAT_ERROR_PERMISSION] = "PERMISSION",
	[4] = "TOOMANYCPUS",
	[MEMSTAT_ERROR_DATAERROR] = "DATAERROR",
	[MEMSTAT_ERROR_KVM] = "KVM",
	[MEMSTAT_ERROR_KVM_NOSYMBOL] = "KVM_NOSYMBOL",
	[MEMSTAT_ERROR_KVM_SHORTREAD] = "KVM_SHORTREAD",
};

static bool
is_dump(const char *path)
{
	unsigned char m[13] = { 0 };
	FILE *f;

	if ((f = fopen(path, "rb")) == NULL)
		return (false);
	(void)fread(m, 1, sizeof(m), f);
	fclose(f);
	return (memcmp(m, "\177ELF", 4) == 0 || memcmp(m, "KDUMP   ", 8) == 0 ||
	    memcmp(m, "DISKDUMP", 8) == 0 ||
	    memcmp(m, "makedumpfile", 12) == 0);
}

/* 0, or the MEMSTAT_ERROR_* of the failure. */
static int
query(struct memory_type_list *list, bool uma, const char *path)
{
	char errbuf[MEMSTAT_KVM_ERRLEN], file[4096];
	struct stat st;
	void *buf, *kvm;
	size_t len;
	int rc;

	if (stat(path, &st) != 0)
		err(1, "%s", path);
	if (S_ISDIR(st.st_mode)) {
		snprintf(file, sizeof(file), "%s/proc/slabinfo", path);
		if (lstat(file, &st) == 0) {
			rc = uma ? memstat_linux_uma(list, path, 0) :
			    memstat_linux_malloc(list, path, 0);
			return (rc == 0 ? 0 : memstat_mtl_geterror(list));
		}
		snprintf(file, sizeof(file), "%s/%s", path, uma ?
		    "vm.zone_stats" : "kern.malloc_stats");
		path = file;
	} else if (is_dump(path)) {
		if ((kvm = memstat_kvm_open(path, NULL, errbuf)) == NULL)
			return (MEMSTAT_ERROR_KVM);
		rc = uma ? memstat_kvm_uma(list, kvm) :
		    memstat_kvm_malloc(list, kvm);
		memstat_kvm_close(kvm);
		return (rc == 0 ? 0 : memstat_mtl_geterror(list));
	}
	buf = fixture_load(path, &len);
	rc = uma ? memstat_stream_uma(list, buf, len) :
	    memstat_stream_malloc(list, buf, len);
	free(buf);
	return (rc == 0 ? 0 : memstat_mtl_geterror(list));
}

/* The free lists, as vmstat-frag -M PATH reads them: 0 or the error. */
static int
frag_query(const char *path)
{
	char errbuf[MEMSTAT_KVM_ERRLEN], file[4096];
	struct memstat_frag *frag;
	struct stat st;
	void *kvm;
	int rc;

	if ((frag = memstat_frag_alloc()) == NULL)
		err(1, "memstat_frag_alloc");
	if (stat(path, &st) != 0)
		err(1, "%s", path);
	snprintf(file, sizeof(file), "%s/proc/buddyinfo", path);
	if (S_ISDIR(st.st_mode) && lstat(file, &st) == 0)
		rc = memstat_frag_linux(frag, path, 0);
	else if (S_ISDIR(st.st_mode))
		rc = memstat_frag_freebsd(frag, path, 0);
	else if ((kvm = memstat_kvm_open(path, NULL, errbuf)) == NULL) {
		memstat_frag_free(frag);
		return (MEMSTAT_ERROR_KVM);
	} else {
		rc = memstat_frag_kvm(frag, kvm, 0);
		memstat_kvm_close(kvm);
	}
	rc = rc == 0 ? 0 : memstat_frag_geterror(frag);
	memstat_frag_free(frag);
	return (rc);
}

int
main(int argc, char *argv[])
{
	struct memory_type_list *list;
	int rc;

	if (argc != 3 || (strcmp(argv[1], "uma") != 0 &&
	    strcmp(argv[1], "malloc") != 0 && strcmp(argv[1], "frag") != 0))
		errx(2, "usage: errcode uma|malloc|frag PATH");
	if ((list = memstat_mtl_alloc()) == NULL)
		err(1, "memstat_mtl_alloc");
	rc = strcmp(argv[1], "frag") == 0 ? frag_query(argv[2]) :
	    query(list, strcmp(argv[1], "uma") == 0, argv[2]);
	if (rc < 0 || (size_t)rc >= sizeof(names) / sizeof(names[0]))
		printf("error %d\n", rc);
	else
		printf("%s\n", rc == 0 ? "ok" : names[rc]);
	memstat_mtl_free(list);
	return (0);
}
