/*
 * text_check.h: the recording's text files checked line by line before
 * libtraceevent parses them (its parsers warn on stderr and go on).
 */
#ifndef TEXT_CHECK_H
#define TEXT_CHECK_H

#include <stdbool.h>
#include <stddef.h>

/* 0 if every line is "hexaddress type name[\t[module]]", else its number. */
size_t	text_check_kallsyms(const char *text);
/* 0 if every line is "pid command", else its number. */
size_t	text_check_cmdlines(const char *text);
/* A name of printable non-blank bytes, shorter than max. */
bool	text_is_word(const char *s, size_t max);

#endif /* !TEXT_CHECK_H */
