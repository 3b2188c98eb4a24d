/*
 * mbuf_linux.c: a Linux kernel's socket buffers in netstat -m's form: the
 * sk_buff slab caches as its zones, then /proc/net/sockstat's sockets.
 */
#include <err.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "mbuf.h"
#include "sockstat.h"

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

/*
 * The socket lines count IPv4 and IPv6 together (sockstat's and
 * sockstat6's "inuse"), then, when the source has sockstat6, say how many
 * of them are IPv6's.
 */
static void
socket_report(const struct lines *out, const struct sockstat *ss)
{
	uintmax_t ps = ss->pagesize;

	numbers_line(out, "", "sockets in use", 1, "sockets-in-use",
	    (uintmax_t)ss->sockets);
	numbers_line(out, "", "TCP sockets in use (current/allocated/orphaned/"
	    "TIME_WAIT)", 4,
	    "tcp-in-use", (uintmax_t)(ss->tcp_inuse + ss->tcp6_inuse),
	    "tcp-allocated", (uintmax_t)ss->tcp_alloc,
	    "tcp-orphaned", (uintmax_t)ss->tcp_orphan,
	    "tcp-time-wait", (uintmax_t)ss->tcp_tw);
	numbers_line(out, "", "UDP/UDP-Lite/raw sockets in use", 3,
	    "udp-in-use", (uintmax_t)(ss->udp_inuse + ss->udp6_inuse),
	    "udplite-in-use",
	    (uintmax_t)(ss->udplite_inuse + ss->udplite6_inuse),
	    "raw-in-use", (uintmax_t)(ss->raw_inuse + ss->raw6_inuse));
	if (ss->has_ipv6)
		numbers_line(out, "", "of them IPv6 (TCP/UDP/UDP-Lite/raw)", 4,
		    "tcp6-in-use", (uintmax_t)ss->tcp6_inuse,
		    "udp6-in-use", (uintmax_t)ss->udp6_inuse,
		    "udplite6-in-use", (uintmax_t)ss->udplite6_inuse,
		    "raw6-in-use", (uintmax_t)ss->raw6_inuse);
	numbers_line(out, "K", "bytes of socket buffer memory (TCP/UDP)", 2,
	    "tcp-memory", (uintmax_t)ss->tcp_mem * ps / 1024,
	    "udp-memory", (uintmax_t)ss->udp_mem * ps / 1024);
	/* ps is a uintmax_t: the products are what numbers_line() reads. */
	if (ss->has_limits) {
		numbers_line(out, "K", "bytes of TCP socket buffer memory at "
		    "pressure/limit", 2,
		    "tcp-memory-pressure", ss->tcp_pressure * ps / 1024,
		    "tcp-memory-limit", ss->tcp_limit * ps / 1024);
		numbers_line(out, "K", "bytes of UDP socket buffer memory at "
		    "pressure/limit", 2,
		    "udp-memory-pressure", ss->udp_pressure * ps / 1024,
		    "udp-memory-limit", ss->udp_limit * ps / 1024);
	}
	numbers_line(out, "", "IP fragment queues in use", 1,
	    "fragment-queues", (uintmax_t)(ss->frag_inuse + ss->frag6_inuse));
	numbers_line(out, "K", "bytes of IP fragment memory", 1,
	    "fragment-memory",
	    (uintmax_t)(ss->frag_memory + ss->frag6_memory) / 1024);
}

/*
 * A Linux kernel's socket buffers in netstat -m's form: each sk_buff cache
 * present as current/cache/total objects, their bytes, then the socket
 * counts and memory of /proc/net/sockstat.  A merged cache's objects
 * belong to all its names together, so they are shown for what they are
 * and left out of the bytes line rather than counted as network memory.
 */
void
linux_report(struct tool_source *src, struct memory_type_list *mtlp,
    struct tool_out *report, const struct tool_options *opts,
    struct json_object *numbers)
{
	uintmax_t used, cached, size, inuse = 0, incache = 0;
	struct memory_type *mtp;
	struct tool_error e;
	struct sockstat ss;
	struct lines out;
	char key[64], note[256];
	size_t i, shared;
	bool row_is_cache;
	int rc;

	if (tool_source_uma(src, mtlp, MEMSTAT_LINUX_ALIASES, &e) != 0)
		tool_query_failed(src, "all", &e);
	if ((rc = sockstat_read(src, &ss, &e)) < 0)
		errx(1, "%s", e.msg);
	/* A core image has no /proc files: its report has no socket lines. */
	if (rc == TOOL_ABSENT && tool_source_has_files(src))
		warnx("%s holds no proc/net/sockstat: socket lines left out",
		    tool_source_path(src));

	tool_out_init(report, opts->style);
	out = report_lines(report, opts->human, numbers);
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
			snprintf(key, sizeof(key), "%s-shared-in",
			    skb_caches[i].key);
			report_name(&out, key, memstat_get_name(mtp));
		}
		counts_line(&out, skb_caches[i].key, note, used, cached);
	}
	numbers_line(&out, "K",
	    "bytes allocated to network (current/cache/total)", 3,
	    "bytes-in-use", inuse / 1024, "bytes-in-cache", incache / 1024,
	    "bytes-total", (inuse + incache) / 1024);
	if (rc == 0)
		socket_report(&out, &ss);
}

