/*
 * mbuf_freebsd.c: FreeBSD's netstat -m, from saved FreeBSD data: the mbuf
 * and cluster zones, mbuf_tag's malloc type, and the sendfile sysctls a
 * capture holds.
 */
#include <err.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "mbuf.h"

/* What netstat -m reads of one UMA zone. */
struct zone {
	uintmax_t	count, bytes, free, failures, sleeps, size, limit;
};

/* The zone, or under its name before FreeBSD 9 (oldname may be NULL). */
static void
zone(struct memory_type_list *mtlp, const char *name, const char *oldname,
    struct zone *z)
{
	struct memory_type *mtp;

	mtp = memstat_mtl_find(mtlp, ALLOCATOR_UMA, name);
	if (mtp == NULL && oldname != NULL)
		mtp = memstat_mtl_find(mtlp, ALLOCATOR_UMA, oldname);
	if (mtp == NULL)
		errx(1, "memstat_mtl_find: zone %s not found", name);
	z->count = memstat_get_count(mtp);
	z->bytes = memstat_get_bytes(mtp);
	z->free = memstat_get_free(mtp);
	z->failures = memstat_get_failures(mtp);
	z->sleeps = memstat_get_sleeps(mtp);
	z->size = memstat_get_size(mtp);
	z->limit = memstat_get_countlimit(mtp);
}

/* kern.ipc.sfstat's counters, in struct sfstat order (sys/sf_buf.h). */
enum {
	SF_SYSCALLS, SF_NOIOCNT, SF_IOCNT, SF_PAGES_READ, SF_PAGES_VALID,
	SF_RHPAGES_REQUESTED, SF_RHPAGES_READ, SF_BUSY, SF_ALLOCFAIL,
	SF_ALLOCWAIT, SF_PAGES_BOGUS, SF_COUNT
};

static const struct {
	int		 index;
	const char	*key;
	const char	*note;
} sendfile_lines[] = {
	{ SF_SYSCALLS, "sendfile-syscalls", "sendfile syscalls" },
	{ SF_NOIOCNT, "sendfile-no-io",
	  "sendfile syscalls completed without I/O request" },
	{ SF_IOCNT, "sendfile-io-count",
	  "requests for I/O initiated by sendfile" },
	{ SF_PAGES_READ, "sendfile-pages-sent",
	  "pages read by sendfile as part of a request" },
	{ SF_PAGES_VALID, "sendfile-pages-valid",
	  "pages were valid at time of a sendfile request" },
	{ SF_PAGES_BOGUS, "sendfile-pages-bogus",
	  "pages were valid and substituted to bogus page" },
	{ SF_RHPAGES_REQUESTED, "sendfile-requested-readahead",
	  "pages were requested for read ahead by applications" },
	{ SF_RHPAGES_READ, "sendfile-readahead",
	  "pages were read ahead by sendfile" },
	{ SF_BUSY, "sendfile-busy-encounters",
	  "times sendfile encountered an already busy page" },
	{ SF_ALLOCFAIL, "sfbufs-alloc-failed", "requests for sfbufs denied" },
	{ SF_ALLOCWAIT, "sfbufs-alloc-wait", "requests for sfbufs delayed" },
};

/*
 * The sfbufs and sendfile lines, when the capture holds those sysctls.
 * struct sfstat has 11 counters since FreeBSD 13 (sf_pages_bogus last) and
 * 10 before, when netstat had no bogus-page line either.
 */
static void
sendfile_report(const struct lines *out, struct tool_source *src)
{
	static const char *nsf_oids[] = { "kern.ipc.nsfbufsused",
	    "kern.ipc.nsfbufspeak", "kern.ipc.nsfbufs" };
	static const char *nsf_keys[] = { "nsfbufs-current", "nsfbufs-peak",
	    "nsfbufs" };
	uint64_t v[SF_COUNT], one;
	int nsf[3], rc, have = 0;
	struct tool_error e;
	size_t n, i;

	for (i = 0; i < 3; i++) {
		rc = tool_source_ints(src, nsf_oids[i], 4, &one, 1, &n, &e);
		if (rc < 0 || (rc == 0 && n != 1))
			errx(1, "sysctl %s: %s", nsf_oids[i], rc < 0 ? e.msg :
			    "empty");
		if (rc == 0) {
			nsf[i] = (int)(int32_t)one;
			have++;
		}
	}
	if (have == 3) {
		if (out->text != NULL)
			fprintf(out->text, "%d/%d/%d sfbufs in use "
			    "(current/peak/max)\n", nsf[0], nsf[1], nsf[2]);
		for (i = 0; i < 3; i++)
			report_number(out, nsf_keys[i], nsf[i]);
	}

	rc = tool_source_ints(src, "kern.ipc.sfstat", 8, v, SF_COUNT, &n, &e);
	if (rc == TOOL_ABSENT)
		return;
	if (rc < 0 || n < SF_COUNT - 1)
		errx(1, "sysctl kern.ipc.sfstat: %s", rc < 0 ? e.msg :
		    "not a struct sfstat");
	for (i = 0; i < sizeof(sendfile_lines) / sizeof(sendfile_lines[0]);
	    i++) {
		if ((size_t)sendfile_lines[i].index >= n)
			continue;
		numbers_line(out, "", sendfile_lines[i].note, 1,
		    sendfile_lines[i].key,
		    (uintmax_t)v[sendfile_lines[i].index]);
	}
}

/* The zones netstat -m reads, and the mbuf tags' bytes. */
struct mbuf_zones {
	struct zone	 mbuf, packet, cluster, jumbop, jumbo9, jumbo16;
	uintmax_t	 tag_bytes;
	bool		 have_malloc;
};

static void
read_zones(struct tool_source *src, struct memory_type_list *mtlp,
    struct mbuf_zones *z)
{
	struct memory_type *mtp;
	struct tool_error e;
	int rc;

	/* Both allocators: mbuf_tag is a malloc type, the rest are zones. */
	rc = tool_source_malloc(src, mtlp, 0, &e);
	if (rc < 0)
		tool_query_failed(src, "all", &e);
	z->have_malloc = rc == 0;
	rc = tool_source_uma(src, mtlp, 0, &e);
	if (rc < 0)
		tool_query_failed(src, "all", &e);

	zone(mtlp, "mbuf", NULL, &z->mbuf);
	zone(mtlp, "mbuf_packet", NULL, &z->packet);
	zone(mtlp, "mbuf_cluster", NULL, &z->cluster);
	z->tag_bytes = 0;
	if (z->have_malloc) {
		mtp = memstat_mtl_find(mtlp, ALLOCATOR_MALLOC, "mbuf_tag");
		if (mtp == NULL)
			errx(1, "memstat_mtl_find: malloc type mbuf_tag not "
			    "found");
		z->tag_bytes = memstat_get_bytes(mtp);
	}
	zone(mtlp, "mbuf_jumbo_page", "mbuf_jumbo_pagesize", &z->jumbop);
	zone(mtlp, "mbuf_jumbo_9k", NULL, &z->jumbo9);
	zone(mtlp, "mbuf_jumbo_16k", NULL, &z->jumbo16);
}

/* The lines of mbufs and clusters in use. */
static void
use_lines(struct lines *out, const struct mbuf_zones *z)
{
	const struct zone *jumbop = &z->jumbop;
	char note[128];

	numbers_line(out, "", "mbufs in use (current/cache/total)", 3,
	    "mbuf-current", z->mbuf.count + z->packet.count,
	    "mbuf-cache", z->mbuf.free + z->packet.free,
	    "mbuf-total", z->mbuf.count + z->packet.count + z->mbuf.free +
	    z->packet.free);
	/* A cached packet holds a cluster the cluster zone counts as used. */
	numbers_line(out, "",
	    "mbuf clusters in use (current/cache/total/max)", 4,
	    "cluster-current", z->cluster.count - z->packet.free,
	    "cluster-cache", z->cluster.free + z->packet.free,
	    "cluster-total", z->cluster.count + z->cluster.free,
	    "cluster-max", z->cluster.limit);
	numbers_line(out, "",
	    "mbuf+clusters out of packet secondary zone in use "
	    "(current/cache)", 2,
	    "packet-count", z->packet.count, "packet-free", z->packet.free);
	snprintf(note, sizeof(note), "%juk (page size) jumbo clusters in use "
	    "(current/cache/total/max)", jumbop->size / 1024);
	numbers_line(out, "", note, 4,
	    "jumbo-count", jumbop->count, "jumbo-cache", jumbop->free,
	    "jumbo-total", jumbop->count + jumbop->free,
	    "jumbo-max", jumbop->limit);
	report_number(out, "jumbo-page-size", (intmax_t)(jumbop->size / 1024));
	numbers_line(out, "",
	    "9k jumbo clusters in use (current/cache/total/max)", 4,
	    "jumbo9-count", z->jumbo9.count, "jumbo9-cache", z->jumbo9.free,
	    "jumbo9-total", z->jumbo9.count + z->jumbo9.free,
	    "jumbo9-max", z->jumbo9.limit);
	numbers_line(out, "",
	    "16k jumbo clusters in use (current/cache/total/max)", 4,
	    "jumbo16-count", z->jumbo16.count, "jumbo16-cache", z->jumbo16.free,
	    "jumbo16-total", z->jumbo16.count + z->jumbo16.free,
	    "jumbo16-limit", z->jumbo16.limit);
}

/* The bytes line and the requests denied and delayed. */
static void
byte_and_request_lines(struct lines *out, const struct mbuf_zones *z)
{
	const struct zone *mbuf = &z->mbuf, *packet = &z->packet,
	    *cluster = &z->cluster, *jumbop = &z->jumbop,
	    *jumbo9 = &z->jumbo9, *jumbo16 = &z->jumbo16;
	uintmax_t bytes_inuse, bytes_incache, bytes_total;
	char note[128];

	bytes_inuse = mbuf->bytes + packet->bytes +
	    packet->count * cluster->size +
	    (cluster->count - packet->count - packet->free) * cluster->size +
	    z->tag_bytes + jumbop->count * jumbop->size +
	    jumbo9->count * jumbo9->size + jumbo16->count * jumbo16->size;
	bytes_incache = mbuf->free * mbuf->size + packet->free * mbuf->size +
	    packet->free * cluster->size + cluster->free * cluster->size +
	    jumbop->free * jumbop->size + jumbo9->free * jumbo9->size +
	    jumbo16->free * jumbo16->size;
	bytes_total = bytes_inuse + bytes_incache;
	numbers_line(out, "K",
	    "bytes allocated to network (current/cache/total)", 3,
	    "bytes-in-use", bytes_inuse / 1024,
	    "bytes-in-cache", bytes_incache / 1024,
	    "bytes-total", bytes_total / 1024);

	numbers_line(out, "", "requests for mbufs denied "
	    "(mbufs/clusters/mbuf+clusters)", 3,
	    "mbuf-failures", mbuf->failures,
	    "cluster-failures", cluster->failures,
	    "packet-failures", packet->failures);
	numbers_line(out, "", "requests for mbufs delayed "
	    "(mbufs/clusters/mbuf+clusters)", 3,
	    "mbuf-sleeps", mbuf->sleeps, "cluster-sleeps", cluster->sleeps,
	    "packet-sleeps", packet->sleeps);
	snprintf(note, sizeof(note), "requests for jumbo clusters delayed "
	    "(%juk/9k/16k)", jumbop->size / 1024);
	numbers_line(out, "", note, 3, "jumbop-sleeps", jumbop->sleeps,
	    "jumbo9-sleeps", jumbo9->sleeps, "jumbo16-sleeps", jumbo16->sleeps);
	snprintf(note, sizeof(note), "requests for jumbo clusters denied "
	    "(%juk/9k/16k)", jumbop->size / 1024);
	numbers_line(out, "", note, 3, "jumbop-failures", jumbop->failures,
	    "jumbo9-failures", jumbo9->failures,
	    "jumbo16-failures", jumbo16->failures);
}

/*
 * FreeBSD's netstat -m, with FreeBSD's arithmetic (usr.bin/netstat/mbuf.c),
 * unsigned wrap included.
 */
void
freebsd_report(struct tool_source *src, struct memory_type_list *mtlp,
    struct tool_out *report, const struct tool_options *opts,
    struct json_object *numbers)
{
	struct mbuf_zones z;
	struct lines out;

	read_zones(src, mtlp, &z);
	/* Said only once the report is sure to follow: one line per outcome. */
	if (!z.have_malloc)
		warnx("%s holds no malloc statistics: mbuf_tag counted as 0",
		    tool_source_path(src));
	tool_out_init(report, opts->style);
	out = report_lines(report, opts->human, numbers);
	use_lines(&out, &z);
	byte_and_request_lines(&out, &z);
	sendfile_report(&out, src);
}

