/*
 * text_check.c: kallsyms and saved_cmdlines as the kernel writes them.
 */
#include <ctype.h>
#include <string.h>

#include "text_check.h"

#define MAX_NAME	1024

static bool
is_name_byte(char c)
{
	return (isgraph((unsigned char)c) != 0);
}

/* One kallsyms line, [s, end). */
static bool
kallsyms_line(const char *s, const char *end)
{
	const char *p = s, *name;

	while (p < end && isxdigit((unsigned char)*p))
		p++;
	if (p == s || p - s > 16 || p + 3 > end || p[0] != ' ' ||
	    !isalpha((unsigned char)p[1]) || p[2] != ' ')
		return (false);
	for (name = p += 3; p < end && is_name_byte(*p); p++)
		;
	if (p == name || p - name > MAX_NAME)
		return (false);
	if (p == end)
		return (true);
	/* "\t[module]" */
	if (end - p < 4 || p[0] != '\t' || p[1] != '[' || end[-1] != ']')
		return (false);
	for (p += 2; p < end - 1; p++)
		if (!is_name_byte(*p) || *p == ']')
			return (false);
	return (true);
}

static bool
cmdline_line(const char *s, const char *end)
{
	const char *p = s;

	while (p < end && isdigit((unsigned char)*p))
		p++;
	if (p == s || p - s > 10 || p == end || *p != ' ')
		return (false);
	if (end - p - 1 > MAX_NAME)
		return (false);
	for (p++; p < end; p++)
		if (!isprint((unsigned char)*p))
			return (false);
	return (true);
}

static size_t
check_lines(const char *text, bool (*ok)(const char *, const char *))
{
	size_t n = 0;

	while (*text != '\0') {
		const char *nl = strchr(text, '\n');
		const char *end = nl != NULL ? nl : text + strlen(text);

		n++;
		if (!ok(text, end))
			return (n);
		text = nl != NULL ? nl + 1 : end;
	}
	return (0);
}

size_t
text_check_kallsyms(const char *text)
{
	return (check_lines(text, kallsyms_line));
}

size_t
text_check_cmdlines(const char *text)
{
	return (check_lines(text, cmdline_line));
}

bool
text_is_word(const char *s, size_t max)
{
	size_t n = 0;

	for (; s[n] != '\0'; n++)
		if (!is_name_byte(s[n]))
			return (false);
	return (n > 0 && n < max);
}
