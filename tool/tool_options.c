/*
 * tool_options.c: the options the reports share.
 */
#include <err.h>
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
	if (optind != argc)
		tool_usage_error("unexpected argument %s", argv[optind]);
	if (opts->nlistf != NULL && opts->memf == NULL)
		tool_usage_error("-N names the kernel of a core image: name "
		    "the image with -M");
}
