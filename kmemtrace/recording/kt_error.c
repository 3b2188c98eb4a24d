/*
 * kt_error.c: an error's message.
 */
#include <stdarg.h>
#include <stdio.h>

#include "kt_error.h"

int
kt_fail(struct kt_error *e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return (-1);
}
