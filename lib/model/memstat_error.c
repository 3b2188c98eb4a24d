/*
 * memstat_error.c: the error codes' words (FreeBSD's exact strings) and
 * the record of a failure that carries a code with its message.
 */
#include <stdarg.h>
#include <stdio.h>

#include "model/memstat_internal.h"

const char *
memstat_strerror(int error)
{
	switch (error) {
	case MEMSTAT_ERROR_NOMEMORY:
		return ("Cannot allocate memory");
	case MEMSTAT_ERROR_VERSION:
		return ("Version mismatch");
	case MEMSTAT_ERROR_PERMISSION:
		return ("Permission denied");
	case MEMSTAT_ERROR_DATAERROR:
		return ("Data format error");
	case MEMSTAT_ERROR_KVM:
		return ("KVM error");
	case MEMSTAT_ERROR_KVM_NOSYMBOL:
		return ("KVM unable to find symbol");
	case MEMSTAT_ERROR_KVM_SHORTREAD:
		return ("KVM short read");
	default:
		return ("Unknown error");
	}
}

int
_memstat_err_vset(struct memstat_err *e, int code, const char *fmt,
    va_list ap)
{
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	e->code = code;
	return (-1);
}

int
_memstat_err_set(struct memstat_err *e, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	_memstat_err_vset(e, code, fmt, ap);
	va_end(ap);
	return (-1);
}

int
_memstat_err_code(struct memstat_err *e, int code)
{
	return (_memstat_err_set(e, code, "%s", memstat_strerror(code)));
}
