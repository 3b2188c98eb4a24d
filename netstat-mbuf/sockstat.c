/*
 * sockstat.c: Linux's /proc/net/sockstat and sockstat6, the socket half
 * of netstat-mbuf's Linux report.  Lines are "PROTO: key value ...";
 * protocols and keys this port does not know are skipped, so a newer
 * kernel's additions do not break it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sockstat.h"

struct field {
	const char	*proto;
	const char	*key;
	size_t		 offset;
};

#define F(proto, key, member) \
	{ proto, key, offsetof(struct sockstat, member) }
static const struct field fields[] = {
	F("sockets", "used", sockets),
	F("TCP", "inuse", tcp_inuse),
	F("TCP", "orphan", tcp_orphan),
	F("TCP", "tw", tcp_tw),
	F("TCP", "alloc", tcp_alloc),
	F("TCP", "mem", tcp_mem),
	F("UDP", "inuse", udp_inuse),
	F("UDP", "mem", udp_mem),
	F("UDPLITE", "inuse", udplite_inuse),
	F("RAW", "inuse", raw_inuse),
	F("FRAG", "inuse", frag_inuse),
	F("FRAG", "memory", frag_memory),
	F("TCP6", "inuse", tcp6_inuse),
	F("UDP6", "inuse", udp6_inuse),
	F("UDPLITE6", "inuse", udplite6_inuse),
	F("RAW6", "inuse", raw6_inuse),
	F("FRAG6", "inuse", frag6_inuse),
	F("FRAG6", "memory", frag6_memory),
};
#undef F

static bool
parse_u64(const char *s, uint64_t *v)
{
	uint64_t x = 0;

	if (*s == '\0')
		return (false);
	for (; *s != '\0'; s++) {
		if (*s < '0' || *s > '9' || __builtin_mul_overflow(x, 10, &x) ||
		    __builtin_add_overflow(x, (uint64_t)(*s - '0'), &x))
			return (false);
	}
	*v = x;
	return (true);
}

static void
store(struct sockstat *ss, const char *proto, const char *key,
    uint64_t v)
{
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (strcmp(fields[i].proto, proto) == 0 &&
		    strcmp(fields[i].key, key) == 0)
			*(uint64_t *)((char *)ss + fields[i].offset) = v;
}

/* One line, NUL-terminated: false if it is not "PROTO: (key value)*". */
static bool
parse_line(struct sockstat *ss, char *line)
{
	char *colon, *key, *value, *save;
	uint64_t v;

	if ((colon = strchr(line, ':')) == NULL || colon == line ||
	    (colon[1] != ' ' && colon[1] != '\0'))
		return (false);
	*colon = '\0';
	for (key = strtok_r(colon + 1, " ", &save); key != NULL;
	    key = strtok_r(NULL, " ", &save)) {
		if ((value = strtok_r(NULL, " ", &save)) == NULL ||
		    !parse_u64(value, &v))
			return (false);
		store(ss, line, key, v);
	}
	return (true);
}

/* -1, with e saying that file is not what the kernel writes. */
static int
data_error(struct tool_source *src, const char *file, struct tool_error *e)
{
	char path[4096];

	return (tool_error_set(e, MEMSTAT_ERROR_DATAERROR, "%s: %s",
	    tool_source_file_path(src, file, path, sizeof(path)),
	    memstat_strerror(MEMSTAT_ERROR_DATAERROR)));
}

/*
 * One file, whole: 0, TOOL_ABSENT, or -1 with e set.  *first is whether
 * a line starts with first (sockstat's "sockets:"; NULL: no such line).
 */
static int
read_file(struct tool_source *src, const char *file, const char *first,
    struct sockstat *ss, struct tool_error *e)
{
	char *buf, *line, *nl;
	bool seen = first == NULL;
	int rc;

	if ((rc = tool_source_text(src, file, &buf, e)) != 0)
		return (rc);
	for (line = buf; *line != '\0'; line = nl + 1) {
		if ((nl = strchr(line, '\n')) == NULL) {
			rc = -1;	/* cut short */
			break;
		}
		*nl = '\0';
		seen = seen || strncmp(line, first, strlen(first)) == 0;
		if (!parse_line(ss, line)) {
			rc = -1;
			break;
		}
	}
	free(buf);
	return (rc != 0 || !seen ? data_error(src, file, e) : 0);
}

/*
 * A limit's file, "min pressure max" in pages: 0, TOOL_ABSENT, or -1 with
 * e set.
 */
static int
read_limit(struct tool_source *src, const char *file, uint64_t *pressure,
    uint64_t *limit, struct tool_error *e)
{
	char *buf, *fields[4], *save;
	size_t n = 0;
	int rc;

	if ((rc = tool_source_text(src, file, &buf, e)) != 0)
		return (rc);
	for (char *f = strtok_r(buf, " \t\n", &save); f != NULL && n < 4;
	    f = strtok_r(NULL, " \t\n", &save))
		fields[n++] = f;
	rc = n == 3 && parse_u64(fields[1], pressure) &&
	    parse_u64(fields[2], limit) ? 0 : -1;
	free(buf);
	return (rc != 0 ? data_error(src, file, e) : 0);
}

int
sockstat_read(struct tool_source *src, struct sockstat *ss,
    struct tool_error *e)
{
	int rc;

	*ss = (struct sockstat){ 0 };
	if ((rc = read_file(src, "proc/net/sockstat", "sockets:", ss, e)) != 0)
		return (rc);
	rc = read_file(src, "proc/net/sockstat6", NULL, ss, e);
	if (rc < 0)
		return (rc);
	ss->has_ipv6 = rc == 0;
	ss->pagesize = tool_source_pagesize(src);
	if ((rc = read_limit(src, "proc/sys/net/ipv4/tcp_mem",
	    &ss->tcp_pressure, &ss->tcp_limit, e)) < 0)
		return (rc);
	if (rc == 0 && (rc = read_limit(src, "proc/sys/net/ipv4/udp_mem",
	    &ss->udp_pressure, &ss->udp_limit, e)) < 0)
		return (rc);
	ss->has_limits = rc == 0;
	return (0);
}
