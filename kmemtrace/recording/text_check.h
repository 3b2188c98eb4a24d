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
/*
 * NULL if an event format is printable text whose "print fmt:" line has
 * its quotes closed and its brackets balanced; else why not.
 * libtraceevent 1.7.1's parser dereferences NULL on a print fmt cut in
 * the middle of an expression.
 */
const char *text_check_format(const char *text);
/* A name of printable non-blank bytes, shorter than max. */
bool	text_is_word(const char *s, size_t max);

#endif /* !TEXT_CHECK_H */
