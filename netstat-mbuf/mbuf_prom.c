/*
 * mbuf_prom.c: netstat-mbuf's numbers as Prometheus families.  One row
 * per JSON key the report may have: its family, the pool or protocol it
 * is about as a label, and its scale (kibibytes become bytes).  A total
 * that is the sum of other samples is left out, as the FreeBSD report's
 * own derived lines are; a key the source did not give is absent.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "mbuf_watch.h"

static const struct metric {
	const char	*key;
	const char	*family;
	const char	*help;
	const char	*label;		/* the sample's one label, or NULL */
	const char	*value;
	uint64_t	 scale;
} metrics[] = {
	/* FreeBSD: the mbuf zones, and Linux's sk_buff caches. */
#define	POOL(prefix, current, cache, limit, pool)			\
	{ prefix current, "memstat_mbuf_in_use_items",			\
	  "Items in use, per mbuf zone or sk_buff cache", "pool", pool, 1 },\
	{ prefix cache, "memstat_mbuf_cached_items",			\
	  "Items free in the zone's or cache's caches", "pool", pool, 1 },\
	{ prefix limit, "memstat_mbuf_limit_items",			\
	  "Most items the zone may hold", "pool", pool, 1 }
	POOL("mbuf", "-current", "-cache", "-max", "mbuf"),
	POOL("cluster", "-current", "-cache", "-max", "cluster"),
	POOL("packet", "-count", "-free", "-max", "packet"),
	POOL("jumbo", "-count", "-cache", "-max", "jumbo_page"),
	POOL("jumbo9", "-count", "-cache", "-max", "jumbo_9k"),
	POOL("jumbo16", "-count", "-cache", "-limit", "jumbo_16k"),
	POOL("skbuff", "-current", "-cache", "-max", "skbuff"),
	POOL("skbuff-fclone", "-current", "-cache", "-max", "skbuff_fclone"),
	POOL("skbuff-small-head", "-current", "-cache", "-max",
	    "skbuff_small_head"),
	POOL("skbuff-ext", "-current", "-cache", "-max", "skbuff_ext"),
#undef POOL
	{ "jumbo-page-size", "memstat_mbuf_jumbo_page_size_bytes",
	  "Size of a page-size jumbo cluster", NULL, NULL, 1024 },
	{ "bytes-in-use", "memstat_mbuf_network_bytes",
	  "Memory allocated to network, in use or cached (KiB granularity)",
	  "state", "in_use", 1024 },
	{ "bytes-in-cache", "memstat_mbuf_network_bytes", NULL,
	  "state", "cached", 1024 },
#define	DENIED(key, pool)						\
	{ key, "memstat_mbuf_denied_requests_total",			\
	  "Requests for mbufs or clusters denied", "pool", pool, 1 }
	DENIED("mbuf-failures", "mbuf"),
	DENIED("cluster-failures", "cluster"),
	DENIED("packet-failures", "packet"),
	DENIED("jumbop-failures", "jumbo_page"),
	DENIED("jumbo9-failures", "jumbo_9k"),
	DENIED("jumbo16-failures", "jumbo_16k"),
#undef DENIED
#define	DELAYED(key, pool)						\
	{ key, "memstat_mbuf_delayed_requests_total",			\
	  "Requests for mbufs or clusters delayed", "pool", pool, 1 }
	DELAYED("mbuf-sleeps", "mbuf"),
	DELAYED("cluster-sleeps", "cluster"),
	DELAYED("packet-sleeps", "packet"),
	DELAYED("jumbop-sleeps", "jumbo_page"),
	DELAYED("jumbo9-sleeps", "jumbo_9k"),
	DELAYED("jumbo16-sleeps", "jumbo_16k"),
#undef DELAYED
	{ "nsfbufs-current", "memstat_sfbufs", "Sendfile buffers",
	  "state", "in_use", 1 },
	{ "nsfbufs-peak", "memstat_sfbufs", NULL, "state", "peak", 1 },
	{ "nsfbufs", "memstat_sfbufs", NULL, "state", "max", 1 },
	{ "sendfile-syscalls", "memstat_sendfile_syscalls_total",
	  "sendfile(2) calls", NULL, NULL, 1 },
	{ "sendfile-no-io", "memstat_sendfile_without_io_total",
	  "sendfile(2) calls completed without an I/O request", NULL, NULL,
	  1 },
	{ "sendfile-io-count", "memstat_sendfile_io_requests_total",
	  "Requests for I/O initiated by sendfile", NULL, NULL, 1 },
	{ "sendfile-pages-sent", "memstat_sendfile_pages_read_total",
	  "Pages read by sendfile as part of a request", NULL, NULL, 1 },
	{ "sendfile-pages-valid", "memstat_sendfile_pages_valid_total",
	  "Pages valid at the time of a sendfile request", NULL, NULL, 1 },
	{ "sendfile-pages-bogus", "memstat_sendfile_pages_bogus_total",
	  "Pages valid and substituted to the bogus page", NULL, NULL, 1 },
	{ "sendfile-requested-readahead",
	  "memstat_sendfile_readahead_requested_pages_total",
	  "Pages requested for read ahead by applications", NULL, NULL, 1 },
	{ "sendfile-readahead", "memstat_sendfile_readahead_pages_total",
	  "Pages read ahead by sendfile", NULL, NULL, 1 },
	{ "sendfile-busy-encounters", "memstat_sendfile_busy_pages_total",
	  "Times sendfile met an already busy page", NULL, NULL, 1 },
	{ "sfbufs-alloc-failed", "memstat_sfbufs_denied_requests_total",
	  "Requests for sendfile buffers denied", NULL, NULL, 1 },
	{ "sfbufs-alloc-wait", "memstat_sfbufs_delayed_requests_total",
	  "Requests for sendfile buffers delayed", NULL, NULL, 1 },
	/* Linux: /proc/net/sockstat. */
	{ "sockets-in-use", "memstat_net_sockets",
	  "Sockets in use (IPv4 and IPv6)", "protocol", "all", 1 },
	{ "tcp-in-use", "memstat_net_sockets", NULL, "protocol", "tcp", 1 },
	{ "udp-in-use", "memstat_net_sockets", NULL, "protocol", "udp", 1 },
	{ "udplite-in-use", "memstat_net_sockets", NULL, "protocol",
	  "udplite", 1 },
	{ "raw-in-use", "memstat_net_sockets", NULL, "protocol", "raw", 1 },
	{ "tcp6-in-use", "memstat_net_ipv6_sockets", "IPv6 sockets in use",
	  "protocol", "tcp", 1 },
	{ "udp6-in-use", "memstat_net_ipv6_sockets", NULL, "protocol", "udp",
	  1 },
	{ "udplite6-in-use", "memstat_net_ipv6_sockets", NULL, "protocol",
	  "udplite", 1 },
	{ "raw6-in-use", "memstat_net_ipv6_sockets", NULL, "protocol", "raw",
	  1 },
	{ "tcp-allocated", "memstat_net_tcp_sockets",
	  "TCP sockets allocated, orphaned, in TIME_WAIT", "state",
	  "allocated", 1 },
	{ "tcp-orphaned", "memstat_net_tcp_sockets", NULL, "state",
	  "orphaned", 1 },
	{ "tcp-time-wait", "memstat_net_tcp_sockets", NULL, "state",
	  "time_wait", 1 },
	{ "tcp-memory", "memstat_net_socket_buffer_bytes",
	  "Socket buffer memory", "protocol", "tcp", 1024 },
	{ "udp-memory", "memstat_net_socket_buffer_bytes", NULL, "protocol",
	  "udp", 1024 },
	{ "tcp-memory-pressure", "memstat_net_socket_buffer_pressure_bytes",
	  "Socket buffer memory above which the kernel moderates buffers",
	  "protocol", "tcp", 1024 },
	{ "udp-memory-pressure", "memstat_net_socket_buffer_pressure_bytes",
	  NULL, "protocol", "udp", 1024 },
	{ "tcp-memory-limit", "memstat_net_socket_buffer_limit_bytes",
	  "Socket buffer memory the kernel does not allocate beyond",
	  "protocol", "tcp", 1024 },
	{ "udp-memory-limit", "memstat_net_socket_buffer_limit_bytes", NULL,
	  "protocol", "udp", 1024 },
	{ "fragment-queues", "memstat_net_ip_fragment_queues",
	  "IP fragment queues in use", NULL, NULL, 1 },
	{ "fragment-memory", "memstat_net_ip_fragment_bytes",
	  "IP fragment memory (KiB granularity)", NULL, NULL, 1024 },
};
#define NMETRICS	(sizeof(metrics) / sizeof(metrics[0]))

/*
 * A family's samples must be together: each family is written at its
 * first row, with every row of it (the table is short).  A merged cache's
 * objects are labelled with the cache they are counted in.
 */
void
mbuf_prom(struct tool_prom *p, struct json_object *numbers)
{
	struct json_object *v, *shared;
	const char *labels[4], *dash;
	char key[64];
	size_t n;

	for (size_t f = 0; f < NMETRICS; f++) {
		bool first = true;

		for (size_t i = 0; i < f; i++)
			if (strcmp(metrics[i].family, metrics[f].family) == 0)
				first = false;
		if (!first)
			continue;
		tool_prom_family(p, metrics[f].family, metrics[f].help);
		for (size_t i = f; i < NMETRICS; i++) {
			const struct metric *m = &metrics[i];

			if (strcmp(m->family, metrics[f].family) != 0 ||
			    !json_object_object_get_ex(numbers, m->key, &v) ||
			    !json_object_is_type(v, json_type_int))
				continue;
			n = 0;
			if (m->label != NULL) {
				labels[2 * n] = m->label;
				labels[2 * n++ + 1] = m->value;
			}
			/* "skbuff-fclone-current" -> "skbuff-fclone-shared-in" */
			if ((dash = strrchr(m->key, '-')) != NULL)
				snprintf(key, sizeof(key), "%.*s-shared-in",
				    (int)(dash - m->key), m->key);
			if (dash != NULL &&
			    json_object_object_get_ex(numbers, key, &shared)) {
				labels[2 * n] = "shared_in";
				labels[2 * n++ + 1] =
				    json_object_get_string(shared);
			}
			tool_prom_sample_uint(p, labels, n,
			    (uint64_t)json_object_get_int64(v) * m->scale);
		}
	}
}
