/*
 * text_check.c: kallsyms and saved_cmdlines as the kernel writes them.
 */
#include <ctype.h>
#include <string.h>

#include "text_check.h"

#define MAX_NAME	1024

/*
 * A symbol's name is any bytes up to the tab before its module: a
 * module's local labels carry control bytes (arm64's virtio_blk has
 * ".L14472\0021") and spaces (riscv64's has ".L0 ").  What is not
 * printable is replaced when the names are read (kt_symbols.c).
 */
static bool
is_name_byte(char c)
{
	return (c != '\t' && c != '\n' && c != '\r' && c != '\0');
}

/* A module's name, between the brackets: printable, as the kernel's are. */
static bool
is_module_byte(char c)
{
	return (isgraph((unsigned char)c) != 0 && c != ']');
}

/* One kallsyms line, [s, end). */
static bool
kallsyms_line(const char *s, const char *end)
{
	const char *p = s, *name;

	while (p < end && isxdigit((unsigned char)*p))
		p++;
	/* The type is nm's letter, or '?' where it has none (ppc64's
	 * __nosave_begin). */
	if (p == s || p - s > 16 || p + 3 > end || p[0] != ' ' ||
	    !isgraph((unsigned char)p[1]) || p[2] != ' ')
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
		if (!is_module_byte(*p))
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

/* Whether "field:TYPE NAME;" (NAME maybe with [N]) is a line of text. */
static bool
has_field(const char *text, const char *name, size_t len)
{
	for (const char *p = text; (p = strstr(p, "\tfield:")) != NULL; p++) {
		const char *semi = strchr(p, ';'), *end, *start;

		if (semi == NULL)
			return (false);
		end = semi;
		if (end > p && end[-1] == ']')
			while (end > p && *end != '[')
				end--;
		for (start = end; start > p && (isalnum((unsigned char)
		    start[-1]) || start[-1] == '_'); start--)
			;
		if ((size_t)(end - start) == len &&
		    strncmp(start, name, len) == 0)
			return (true);
	}
	return (false);
}

/*
 * Every REC->name of the print fmt is a field: libtraceevent's printer
 * follows a missing one to NULL.
 */
static const char *
fields_named(const char *text, const char *fmt)
{
	const char *end = strchr(fmt + 1, '\n'), *p = fmt;

	if (end == NULL)
		end = fmt + strlen(fmt);
	while ((p = strstr(p, "REC->")) != NULL && p < end) {
		size_t len = 0;

		p += 5;
		while (isalnum((unsigned char)p[len]) || p[len] == '_')
			len++;
		if (len == 0 || !has_field(text, p, len))
			return ("its print fmt names a field it does not have");
		p += len;
	}
	return (NULL);
}

const char *
text_check_format(const char *text)
{
	const char *fmt = strstr(text, "\nprint fmt: "), *p;
	char stack[256];
	size_t depth = 0;
	bool quoted = false;

	for (p = text; *p != '\0'; p++)
		if (!isprint((unsigned char)*p) && *p != '\n' && *p != '\t')
			return ("not text");
	if (fmt == NULL)
		return ("no print fmt line");
	for (p = fmt + strlen("\nprint fmt: "); *p != '\0' && *p != '\n'; p++) {
		if (quoted) {
			if (*p == '\\' && p[1] != '\0' && p[1] != '\n')
				p++;
			else if (*p == '"')
				quoted = false;
			continue;
		}
		switch (*p) {
		case '"':
			quoted = true;
			break;
		case '(':
		case '{':
		case '[':
			if (depth == sizeof(stack))
				return ("its print fmt nests too deep");
			stack[depth++] = *p == '(' ? ')' : *p == '{' ? '}' : ']';
			break;
		case ')':
		case '}':
		case ']':
			if (depth == 0 || stack[--depth] != *p)
				return ("its print fmt's brackets do not match");
			break;
		}
	}
	if (quoted || depth != 0)
		return ("its print fmt is cut short");
	for (; *p != '\0'; p++)
		if (!isspace((unsigned char)*p))
			return ("text follows its print fmt");
	return (fields_named(text, fmt));
}
