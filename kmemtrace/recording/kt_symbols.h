/*
 * kt_symbols.h: the recorded kernel's symbols, for libtraceevent to name
 * addresses with (tep_set_function_resolver()).  Its own parser of
 * kallsyms, tep_parse_kallsyms(), scans each line with sscanf and copies
 * each name twice: on a kernel of 200,000 symbols that cost a report
 * more than its events.  Here the names stay in the file's text, and an
 * address finds the same symbol libtraceevent's table would: sorted by
 * address, those of one address in the reverse of their order, the
 * sentinel after the last.
 */
#ifndef KT_SYMBOLS_H
#define KT_SYMBOLS_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <event-parse.h>

struct kt_symbol {
	unsigned long long addr;
	char		*name;
	char		*mod;		/* a module's symbol: its module */
	size_t		 order;		/* as added: ties are broken by it */
};

struct kt_symbols {
	struct kt_symbol *v;
	size_t		 n, alloc;
	char		*text;		/* the kallsyms the names point into */
	/*
	 * Loaded on a thread (kt_symbols_attach_loading()) until joined,
	 * under lock: the two halves of a report may both ask for a name.
	 */
	pthread_t	 loader;
	bool		 threaded, loading;
	pthread_mutex_t	 lock;
	int		 (*load)(struct kt_symbols *, void *);
	void		*load_arg;
	int		 load_rc;
};

/*
 * text (NUL-terminated, checked by text_check_kallsyms(), now owned by
 * s) parsed: its functions, as tep_parse_kallsyms() keeps them.  0, or -1
 * out of memory.
 */
int	kt_symbols_parse(struct kt_symbols *s, char *text);
/* One symbol whose name outlives s.  0, or -1 out of memory. */
int	kt_symbols_add(struct kt_symbols *s, const char *name, uint64_t addr);
/* Sorted and handed to tep, which must not outlive s.  0, or -1. */
int	kt_symbols_attach(struct kt_symbols *s, struct tep_handle *tep);
/*
 * Handed to tep now, filled by load(s, arg) (kt_symbols_parse() or
 * kt_symbols_add(): 0, or -1) on a thread of its own meanwhile, sorted
 * there too; tep's first lookup waits for it.  Where no thread can be
 * made, load runs here.  0, or -1 (load's, or out of memory).
 */
int	kt_symbols_attach_loading(struct kt_symbols *s, struct tep_handle *tep,
	    int (*load)(struct kt_symbols *, void *), void *arg);
/* Waits for the loading thread, if any: what its load returned, or 0. */
int	kt_symbols_wait(struct kt_symbols *s);
void	kt_symbols_free(struct kt_symbols *s);

#endif /* !KT_SYMBOLS_H */
