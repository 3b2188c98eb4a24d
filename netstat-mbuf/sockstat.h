/*
 * sockstat.h: Linux's /proc/net/sockstat and /proc/net/sockstat6, the
 * socket half of netstat-mbuf's Linux report.
 */
#ifndef NETSTAT_MBUF_SOCKSTAT_H
#define NETSTAT_MBUF_SOCKSTAT_H

#include <stdbool.h>
#include <stdint.h>

#include "tool_source.h"

/*
 * Socket counts, and socket buffer memory in pages of pagesize bytes.
 * sockstat's "inuse" counts are IPv4's and sockstat6's IPv6's; the other
 * TCP and UDP figures (alloc, orphan, tw, mem) are the protocol's over both.
 */
struct sockstat {
	uint64_t	 sockets;		/* sockets: used */
	uint64_t	 tcp_inuse, tcp_orphan, tcp_tw, tcp_alloc, tcp_mem;
	uint64_t	 udp_inuse, udp_mem;
	uint64_t	 udplite_inuse, raw_inuse;
	uint64_t	 frag_inuse, frag_memory;	/* memory in bytes */
	bool		 has_ipv6;		/* sockstat6 was there */
	uint64_t	 tcp6_inuse, udp6_inuse, udplite6_inuse, raw6_inuse;
	uint64_t	 frag6_inuse, frag6_memory;
	uint64_t	 pagesize;
	/*
	 * The socket buffer limits, in pages, from proc/sys/net/ipv4's
	 * tcp_mem and udp_mem ("min pressure max"): above pressure the kernel
	 * moderates the buffers, at max it refuses them.
	 */
	bool		 has_limits;
	uint64_t	 tcp_pressure, tcp_limit, udp_pressure, udp_limit;
};

/*
 * 0, TOOL_ABSENT (no sockstat in the source), or -1 with e set.  A source
 * without sockstat6 (an older capture, a kernel without IPv6) has IPv4's
 * counts only: has_ipv6 is false; one without both limits' files (a
 * capture older than them) has no limits: has_limits is false.
 */
int	sockstat_read(struct tool_source *src, struct sockstat *ss,
	    struct tool_error *e);

#endif /* !NETSTAT_MBUF_SOCKSTAT_H */
