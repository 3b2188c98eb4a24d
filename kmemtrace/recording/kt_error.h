/*
 * kt_error.h: what went wrong, as the one line the tool prints.
 */
#ifndef KT_ERROR_H
#define KT_ERROR_H

struct kt_error {
	char	 msg[256];
};

/* Sets e's message; returns -1, for "return (kt_fail(e, ...));". */
int	kt_fail(struct kt_error *e, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

#endif /* !KT_ERROR_H */
