/*
 * sockstat.h: Linux's /proc/net/sockstat, the socket half of
 * netstat-mbuf's Linux report.
 */
#ifndef NETSTAT_MBUF_SOCKSTAT_H
#define NETSTAT_MBUF_SOCKSTAT_H

#include <stdint.h>

#include "tool_source.h"

/* Socket counts, and socket buffer memory in pages of pagesize bytes. */
struct sockstat {
	uint64_t	 sockets;		/* sockets: used */
	uint64_t	 tcp_inuse, tcp_orphan, tcp_tw, tcp_alloc, tcp_mem;
	uint64_t	 udp_inuse, udp_mem;
	uint64_t	 udplite_inuse, raw_inuse;
	uint64_t	 frag_inuse, frag_memory;	/* memory in bytes */
	uint64_t	 pagesize;
};

/* 0, TOOL_ABSENT (no such file in the source), or -1 with e set. */
int	sockstat_read(struct tool_source *src, struct sockstat *ss,
	    struct tool_error *e);

#endif /* !NETSTAT_MBUF_SOCKSTAT_H */
