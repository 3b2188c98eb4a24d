/*
 * tool_options.c: the options the reports share.
 */
#include <err.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool_options.h"

#ifndef MEMSTAT_VERSION
#define MEMSTAT_VERSION	"unknown"
#endif

void
tool_usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", getprogname());
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (%s --help lists the options)\n", getprogname());
	exit(1);
}

/* A --libxo value: comma-separated words, of which this port knows three. */
static int
libxo_style(const char *value, enum tool_style *style)
{
	char *copy, *word, *p;
	bool json = false, pretty = false, text = false;

	if ((copy = strdup(value)) == NULL)
		err(1, "strdup");
	for (p = copy; (word = strsep(&p, ",")) != NULL;) {
		if (strcmp(word, "json") == 0)
			json = true;
		else if (strcmp(word, "pretty") == 0)
			pretty = true;
		else if (strcmp(word, "text") == 0)
			text = true;
		else {
			free(copy);
			return (-1);
		}
	}
	free(copy);
	if (json == text)
		return (-1);
	*style = json ? (pretty ? STYLE_JSON_PRETTY : STYLE_JSON) : STYLE_TEXT;
	return (0);
}

int
tool_parse_libxo(int argc, char *argv[], enum tool_style *style)
{
	const char *value;
	int i, out;

	*style = STYLE_TEXT;
	/* getopt(3) names the program by argv[0]: make it the short name. */
	argv[0] = (char *)getprogname();
	for (i = out = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			while (i < argc)
				argv[out++] = argv[i++];
			break;
		}
		if (strcmp(argv[i], "--libxo") == 0) {
			if (i + 1 == argc)
				tool_usage_error("--libxo needs a style: json, "
				    "json,pretty or text");
			value = argv[++i];
		} else if (strncmp(argv[i], "--libxo=", 8) == 0)
			value = argv[i] + 8;
		else {
			argv[out++] = argv[i];
			continue;
		}
		if (libxo_style(value, style) != 0)
			tool_usage_error("--libxo %s: this port writes json, "
			    "json,pretty or text", value);
	}
	argv[out] = NULL;
	return (out);
}

/* -w's seconds: a positive number, at most a day. */
static double
seconds(const char *opt, const char *arg)
{
	char *end;
	double s;

	errno = 0;
	s = strtod(arg, &end);
	if (*arg == '\0' || *end != '\0' || errno != 0 || !(s > 0) ||
	    s > 86400)
		tool_usage_error("%s %s: a number of seconds, above 0 and at "
		    "most a day", opt, arg);
	return (s);
}

/* -c's count: from 1. */
static long
count(const char *opt, const char *arg)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(arg, &end, 10);
	if (*arg == '\0' || *end != '\0' || errno != 0 || n < 1)
		tool_usage_error("%s %s: a count, from 1", opt, arg);
	return (n);
}

bool
tool_common_option(struct tool_options *opts, int ch, const char *arg,
    char *const argv[], const struct tool_help *help)
{
	switch (ch) {
	case 'M':
		opts->memf = strcmp(arg, "-") == 0 ? "/dev/stdin" : arg;
		return (true);
	case 'N':
		opts->nlistf = arg;
		return (true);
	case 'h':
		opts->human = true;
		return (true);
	case 'n':
		if (opts->nnames == TOOL_MAX_NAMES)
			tool_usage_error("-n: at most %d names",
			    TOOL_MAX_NAMES);
		opts->names[opts->nnames++] = arg;
		return (true);
	case 's':
		opts->sort = arg;	/* the report checks the key */
		return (true);
	case 't':
		opts->totals = true;
		return (true);
	case 'w':
		opts->wait = seconds("-w", arg);
		return (true);
	case 'c':
		opts->count = count("-c", arg);
		return (true);
	case TOOL_OPT_PROMETHEUS:
		opts->prometheus = arg;
		return (true);
	case TOOL_OPT_REPLAY:
		opts->nreplay = 1;	/* the operands, counted when done */
		return (true);
	case TOOL_OPT_HELP:
		printf("usage: %s\n%s", help->synopsis, help->options);
		exit(0);
	case TOOL_OPT_VERSION:
		printf("%s (memstat) %s\n", getprogname(), MEMSTAT_VERSION);
		exit(0);
	case ':':
		tool_usage_error("option %s needs an argument",
		    argv[optind - 1]);
	case '?':
		if (optopt != 0 && optopt < 0x100)
			tool_usage_error("unknown option -%c", optopt);
		tool_usage_error("unknown option %s", argv[optind - 1]);
	default:
		return (false);
	}
}

void
tool_options_done(struct tool_options *opts, int argc, char *const argv[])
{
	if (opts->nreplay > 0) {
		if (opts->memf != NULL || opts->wait > 0)
			tool_usage_error("--replay reads its trees in turn: "
			    "it takes neither -M nor -w");
		if (argc - optind < 2)
			tool_usage_error("--replay: name two saved trees or "
			    "more, in the order they were saved");
		opts->replay = argv + optind;
		opts->nreplay = (size_t)(argc - optind);
		optind = argc;
	}
	if (optind != argc)
		tool_usage_error("unexpected argument %s", argv[optind]);
	if (opts->count > 0 && opts->wait == 0)
		tool_usage_error("-c counts the looks of -w: give -w too");
	if (opts->nlistf != NULL && opts->memf == NULL)
		tool_usage_error("-N names the kernel of a core image: name "
		    "the image with -M");
}
