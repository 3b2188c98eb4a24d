/*
 * tool_options.c: the options every report shares.
 */
#include <err.h>
#include <stdlib.h>
#include <string.h>

#include "tool_options.h"

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
	if (json && text)
		return (-1);
	*style = json ? (pretty ? STYLE_JSON_PRETTY : STYLE_JSON) : STYLE_TEXT;
	return (0);
}

int
tool_parse_libxo(int argc, char *argv[], enum tool_style *style)
{
	const char *value;
	int i, out, rc = 0;

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
				return (-1);
			value = argv[++i];
		} else if (strncmp(argv[i], "--libxo=", 8) == 0)
			value = argv[i] + 8;
		else {
			argv[out++] = argv[i];
			continue;
		}
		if (libxo_style(value, style) != 0)
			rc = -1;
	}
	argv[out] = NULL;
	return (rc == 0 ? out : -1);
}

bool
tool_common_option(struct tool_options *opts, int ch, const char *arg)
{
	switch (ch) {
	case 'M':
		opts->memf = arg;
		return (true);
	case 'N':
		opts->nlistf = arg;
		return (true);
	default:
		return (false);
	}
}
