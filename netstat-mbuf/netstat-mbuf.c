/*
 * netstat-mbuf: FreeBSD's "netstat -m", mbuf statistics, of saved FreeBSD
 * data or of Linux (live or saved), whose socket buffers are reported in
 * the same current/cache/total form.
 */
#include <err.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "memstat.h"
#include "memstat_tool.h"

/* What netstat -m reads of one UMA zone. */
struct zone {
	uintmax_t	count, bytes, free, failures, sleeps, size, limit;
};

static void __attribute__((noreturn))
usage(void)
{
	fprintf(stderr,
	    "usage: netstat-mbuf [--libxo json[,pretty]] [-M core [-N system]]\n");
	exit(1);
}

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

/* Where report lines go: text, or the mbuf-statistics JSON object. */
struct lines {
	FILE			*text;
	struct json_object	*json;
};

/*
 * One report line: n numbers joined by '/', each followed by unit, then
 * the note (text only).  In JSON each number goes under its key.
 */
static void
line(const struct lines *out, const char *unit, const char *note, int n, ...)
{
	const char *key;
	uintmax_t v;
	va_list ap;

	va_start(ap, n);
	for (int i = 0; i < n; i++) {
		key = va_arg(ap, const char *);
		v = va_arg(ap, uintmax_t);
		if (out->text != NULL)
			fprintf(out->text, "%s%ju%s", i ? "/" : "", v, unit);
		else
			tool_json_set(out->json, key, tool_json_uint(v));
	}
	va_end(ap);
	if (out->text != NULL)
		fprintf(out->text, " %s\n", note);
}

/* "used/cached/total note"; in JSON under prefix-current, -cache, -total. */
static void
counts_line(const struct lines *out, const char *prefix, const char *note,
    uintmax_t used, uintmax_t cached)
{
	char k1[64], k2[64], k3[64];

	snprintf(k1, sizeof(k1), "%s-current", prefix);
	snprintf(k2, sizeof(k2), "%s-cache", prefix);
	snprintf(k3, sizeof(k3), "%s-total", prefix);
	line(out, "", note, 3, k1, used, k2, cached, k3, used + cached);
}

/* The report's lines: text, or the members of its mbuf-statistics object. */
static struct lines
report_lines(struct tool_out *report)
{
	struct lines out = { .text = report->text };

	if (report->json != NULL)
		out.json = tool_json_set(report->json, "mbuf-statistics",
		    tool_json_new(json_type_object));
	return (out);
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
	char errbuf[512];
	size_t n, i;

	for (i = 0; i < 3; i++) {
		rc = tool_source_ints(src, nsf_oids[i], 4, &one, 1, &n, errbuf,
		    sizeof(errbuf));
		if (rc < 0 || (rc == 0 && n != 1))
			errx(1, "sysctl %s: %s", nsf_oids[i], rc < 0 ? errbuf :
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
		else
			for (i = 0; i < 3; i++)
				tool_json_set(out->json, nsf_keys[i],
				    json_object_new_int(nsf[i]));
	}

	rc = tool_source_ints(src, "kern.ipc.sfstat", 8, v, SF_COUNT, &n,
	    errbuf, sizeof(errbuf));
	if (rc == TOOL_ABSENT)
		return;
	if (rc < 0 || n < SF_COUNT - 1)
		errx(1, "sysctl kern.ipc.sfstat: %s", rc < 0 ? errbuf :
		    "not a struct sfstat");
	for (i = 0; i < sizeof(sendfile_lines) / sizeof(sendfile_lines[0]);
	    i++) {
		if ((size_t)sendfile_lines[i].index >= n)
			continue;
		line(out, "", sendfile_lines[i].note, 1, sendfile_lines[i].key,
		    (uintmax_t)v[sendfile_lines[i].index]);
	}
}

/*
 * FreeBSD's netstat -m, with FreeBSD's arithmetic (usr.bin/netstat/mbuf.c),
 * unsigned wrap included.
 */
static void
freebsd_report(struct tool_source *src, struct memory_type_list *mtlp,
    struct tool_out *report, enum tool_style style)
{
	struct zone mbuf, packet, cluster, jumbop, jumbo9, jumbo16;
	uintmax_t tag_bytes, bytes_inuse, bytes_incache, bytes_total;
	struct memory_type *mtp;
	struct lines out;
	char errbuf[512], note[128];
	bool have_malloc;
	int rc;

	/* Both allocators: mbuf_tag is a malloc type, the rest are zones. */
	rc = tool_source_malloc(src, mtlp, 0, errbuf, sizeof(errbuf));
	if (rc < 0)
		tool_query_failed(src, "all", errbuf);
	have_malloc = rc == 0;
	rc = tool_source_uma(src, mtlp, 0, errbuf, sizeof(errbuf));
	if (rc < 0)
		tool_query_failed(src, "all", errbuf);

	zone(mtlp, "mbuf", NULL, &mbuf);
	zone(mtlp, "mbuf_packet", NULL, &packet);
	zone(mtlp, "mbuf_cluster", NULL, &cluster);
	if (have_malloc) {
		mtp = memstat_mtl_find(mtlp, ALLOCATOR_MALLOC, "mbuf_tag");
		if (mtp == NULL)
			errx(1, "memstat_mtl_find: malloc type mbuf_tag not "
			    "found");
		tag_bytes = memstat_get_bytes(mtp);
	} else
		tag_bytes = 0;
	zone(mtlp, "mbuf_jumbo_page", "mbuf_jumbo_pagesize", &jumbop);
	zone(mtlp, "mbuf_jumbo_9k", NULL, &jumbo9);
	zone(mtlp, "mbuf_jumbo_16k", NULL, &jumbo16);
	/* Said only once the report is sure to follow: one line per outcome. */
	if (!have_malloc)
		warnx("%s holds no malloc statistics: mbuf_tag counted as 0",
		    tool_source_path(src));

	tool_out_init(report, style);
	out = report_lines(report);
	line(&out, "", "mbufs in use (current/cache/total)", 3,
	    "mbuf-current", mbuf.count + packet.count,
	    "mbuf-cache", mbuf.free + packet.free,
	    "mbuf-total", mbuf.count + packet.count + mbuf.free + packet.free);
	/* Every cached packet holds a cluster the cluster zone counts as used. */
	line(&out, "", "mbuf clusters in use (current/cache/total/max)", 4,
	    "cluster-current", cluster.count - packet.free,
	    "cluster-cache", cluster.free + packet.free,
	    "cluster-total", cluster.count + cluster.free,
	    "cluster-max", cluster.limit);
	line(&out, "", "mbuf+clusters out of packet secondary zone in use "
	    "(current/cache)", 2,
	    "packet-count", packet.count, "packet-free", packet.free);
	snprintf(note, sizeof(note), "%juk (page size) jumbo clusters in use "
	    "(current/cache/total/max)", jumbop.size / 1024);
	line(&out, "", note, 4,
	    "jumbo-count", jumbop.count, "jumbo-cache", jumbop.free,
	    "jumbo-total", jumbop.count + jumbop.free,
	    "jumbo-max", jumbop.limit);
	if (out.json != NULL)
		tool_json_set(out.json, "jumbo-page-size",
		    tool_json_uint(jumbop.size / 1024));
	line(&out, "", "9k jumbo clusters in use (current/cache/total/max)", 4,
	    "jumbo9-count", jumbo9.count, "jumbo9-cache", jumbo9.free,
	    "jumbo9-total", jumbo9.count + jumbo9.free,
	    "jumbo9-max", jumbo9.limit);
	line(&out, "", "16k jumbo clusters in use (current/cache/total/max)", 4,
	    "jumbo16-count", jumbo16.count, "jumbo16-cache", jumbo16.free,
	    "jumbo16-total", jumbo16.count + jumbo16.free,
	    "jumbo16-limit", jumbo16.limit);

	bytes_inuse = mbuf.bytes + packet.bytes +
	    packet.count * cluster.size +
	    (cluster.count - packet.count - packet.free) * cluster.size +
	    tag_bytes + jumbop.count * jumbop.size +
	    jumbo9.count * jumbo9.size + jumbo16.count * jumbo16.size;
	bytes_incache = mbuf.free * mbuf.size + packet.free * mbuf.size +
	    packet.free * cluster.size + cluster.free * cluster.size +
	    jumbop.free * jumbop.size + jumbo9.free * jumbo9.size +
	    jumbo16.free * jumbo16.size;
	bytes_total = bytes_inuse + bytes_incache;
	line(&out, "K", "bytes allocated to network (current/cache/total)", 3,
	    "bytes-in-use", bytes_inuse / 1024,
	    "bytes-in-cache", bytes_incache / 1024,
	    "bytes-total", bytes_total / 1024);

	line(&out, "", "requests for mbufs denied "
	    "(mbufs/clusters/mbuf+clusters)", 3,
	    "mbuf-failures", mbuf.failures,
	    "cluster-failures", cluster.failures,
	    "packet-failures", packet.failures);
	line(&out, "", "requests for mbufs delayed "
	    "(mbufs/clusters/mbuf+clusters)", 3,
	    "mbuf-sleeps", mbuf.sleeps, "cluster-sleeps", cluster.sleeps,
	    "packet-sleeps", packet.sleeps);
	snprintf(note, sizeof(note), "requests for jumbo clusters delayed "
	    "(%juk/9k/16k)", jumbop.size / 1024);
	line(&out, "", note, 3, "jumbop-sleeps", jumbop.sleeps,
	    "jumbo9-sleeps", jumbo9.sleeps, "jumbo16-sleeps", jumbo16.sleeps);
	snprintf(note, sizeof(note), "requests for jumbo clusters denied "
	    "(%juk/9k/16k)", jumbop.size / 1024);
	line(&out, "", note, 3, "jumbop-failures", jumbop.failures,
	    "jumbo9-failures", jumbo9.failures,
	    "jumbo16-failures", jumbo16.failures);

	sendfile_report(&out, src);

}

/* --- Linux: socket buffers ---------------------------------------------- */

/* The slab caches of struct sk_buff and its parts, as netstat -m's zones. */
static const struct {
	const char	*cache;
	const char	*key;
	const char	*what;
} skb_caches[] = {
	{ "skbuff_head_cache", "skbuff", "sk_buffs" },
	{ "skbuff_fclone_cache", "skbuff-fclone", "fast-clone sk_buff pairs" },
	{ "skbuff_small_head", "skbuff-small-head", "small packet data heads" },
	{ "skbuff_ext_cache", "skbuff-ext", "sk_buff extensions" },
};

/*
 * The entry holding name's objects: its own row, or the row it is merged
 * into (name is then one of its aliases).  NULL when the kernel has no
 * such cache.
 */
static struct memory_type *
slab_cache(struct memory_type_list *mtlp, const char *name)
{
	struct memory_type *mtp;
	size_t i, n;

	if ((mtp = memstat_mtl_find(mtlp, ALLOCATOR_UMA, name)) != NULL)
		return (mtp);
	for (mtp = memstat_mtl_first(mtlp); mtp != NULL;
	    mtp = memstat_mtl_next(mtp)) {
		n = memstat_get_alias_count(mtp);
		for (i = 0; i < n; i++)
			if (strcmp(memstat_get_alias(mtp, i), name) == 0)
				return (mtp);
	}
	return (NULL);
}

static void
socket_report(const struct lines *out, const struct tool_sockstat *ss)
{
	uintmax_t ps = ss->pagesize;

	line(out, "", "sockets in use", 1, "sockets-in-use",
	    (uintmax_t)ss->sockets);
	line(out, "", "TCP sockets in use (current/allocated/orphaned/"
	    "TIME_WAIT)", 4, "tcp-in-use", (uintmax_t)ss->tcp_inuse,
	    "tcp-allocated", (uintmax_t)ss->tcp_alloc,
	    "tcp-orphaned", (uintmax_t)ss->tcp_orphan,
	    "tcp-time-wait", (uintmax_t)ss->tcp_tw);
	line(out, "", "UDP/UDP-Lite/raw sockets in use", 3,
	    "udp-in-use", (uintmax_t)ss->udp_inuse,
	    "udplite-in-use", (uintmax_t)ss->udplite_inuse,
	    "raw-in-use", (uintmax_t)ss->raw_inuse);
	line(out, "K", "bytes of socket buffer memory (TCP/UDP)", 2,
	    "tcp-memory", (uintmax_t)ss->tcp_mem * ps / 1024,
	    "udp-memory", (uintmax_t)ss->udp_mem * ps / 1024);
	line(out, "", "IP fragment queues in use", 1, "fragment-queues",
	    (uintmax_t)ss->frag_inuse);
	line(out, "K", "bytes of IP fragment memory", 1, "fragment-memory",
	    (uintmax_t)ss->frag_memory / 1024);
}

/*
 * A Linux kernel's socket buffers in netstat -m's form: each sk_buff cache
 * present as current/cache/total objects, their bytes, then the socket
 * counts and memory of /proc/net/sockstat.  A merged cache's objects
 * belong to all its names together, so they are shown for what they are
 * and left out of the bytes line rather than counted as network memory.
 */
static void
linux_report(struct tool_source *src, struct memory_type_list *mtlp,
    struct tool_out *report, enum tool_style style)
{
	uintmax_t used, cached, size, inuse = 0, incache = 0;
	struct memory_type *mtp;
	struct tool_sockstat ss;
	struct lines out;
	char errbuf[512], key[64], note[256];
	size_t i, shared;
	bool row_is_cache;
	int rc;

	if (tool_source_uma(src, mtlp, MEMSTAT_LINUX_ALIASES, errbuf,
	    sizeof(errbuf)) != 0)
		tool_query_failed(src, "all", errbuf);
	if ((rc = tool_source_sockstat(src, &ss, errbuf, sizeof(errbuf))) < 0)
		errx(1, "%s", errbuf);
	/* A core image has no /proc files: its report has no socket lines. */
	if (rc == TOOL_ABSENT && !tool_source_is_core(src))
		warnx("%s holds no proc/net/sockstat: socket lines left out",
		    tool_source_path(src));

	tool_out_init(report, style);
	out = report_lines(report);
	for (i = 0; i < sizeof(skb_caches) / sizeof(skb_caches[0]); i++) {
		if ((mtp = slab_cache(mtlp, skb_caches[i].cache)) == NULL)
			continue;
		used = memstat_get_count(mtp);
		cached = memstat_get_free(mtp);
		size = memstat_get_size(mtp);
		shared = memstat_get_alias_count(mtp);
		row_is_cache = strcmp(memstat_get_name(mtp),
		    skb_caches[i].cache) == 0;
		if (row_is_cache && shared == 0) {
			snprintf(note, sizeof(note), "%s in use "
			    "(current/cache/total)", skb_caches[i].what);
			inuse += used * size;
			incache += cached * size;
		} else {
			/*
			 * The cache's other names: its aliases, less this
			 * one, plus the row's own name; as many either way.
			 */
			snprintf(note, sizeof(note), "objects in use "
			    "(current/cache/total) of %s, merged with %zu "
			    "other cache%s%s%s", skb_caches[i].cache, shared,
			    shared == 1 ? "" : "s",
			    row_is_cache ? "" : " under ",
			    row_is_cache ? "" : memstat_get_name(mtp));
			if (out.json != NULL) {
				snprintf(key, sizeof(key), "%s-shared-in",
				    skb_caches[i].key);
				tool_json_set(out.json, key,
				    json_object_new_string(
				    memstat_get_name(mtp)));
			}
		}
		counts_line(&out, skb_caches[i].key, note, used, cached);
	}
	line(&out, "K", "bytes allocated to network (current/cache/total)", 3,
	    "bytes-in-use", inuse / 1024, "bytes-in-cache", incache / 1024,
	    "bytes-total", (inuse + incache) / 1024);
	if (rc == 0)
		socket_report(&out, &ss);
}

int
main(int argc, char *argv[])
{
	struct memory_type_list *mtlp;
	struct tool_source *src;
	struct tool_out report;
	enum tool_style style;
	const char *memf = NULL, *nlistf = NULL;
	int ch;

	if ((argc = tool_parse_libxo(argc, argv, &style)) < 0)
		usage();
	while ((ch = getopt(argc, argv, "hM:N:")) != -1) {
		switch (ch) {
		case 'M':
			memf = optarg;
			break;
		case 'N':
			nlistf = optarg;
			break;
		case 'h':
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();

	src = tool_open_core(memf, nlistf);
	if ((mtlp = memstat_mtl_alloc()) == NULL)
		err(1, "memstat_mtl_alloc");
	if (tool_source_linux(src))
		linux_report(src, mtlp, &report, style);
	else
		freebsd_report(src, mtlp, &report, style);
	tool_out_finish(&report);
	memstat_mtl_free(mtlp);
	tool_source_close(src);
	return (0);
}
