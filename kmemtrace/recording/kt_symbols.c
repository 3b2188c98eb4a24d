/*
 * kt_symbols.c: kallsyms parsed in place, and the resolver libtraceevent
 * asks for a function's name.
 */
#include <stdbool.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "kt_symbols.h"
#include "pages_present.h"

static int
grow(struct kt_symbols *s)
{
	struct kt_symbol *v;
	size_t a;

	if (s->n + 1 < s->alloc)	/* room for the sentinel too */
		return (0);
	a = s->alloc == 0 ? 4096 : s->alloc * 2;
	if ((v = reallocarray(s->v, a, sizeof(*v))) == NULL)
		return (-1);
	s->v = v;
	s->alloc = a;
	return (0);
}

static int
add(struct kt_symbols *s, unsigned long long addr, char *name, char *mod)
{
	if (grow(s) != 0)
		return (-1);
	s->v[s->n] = (struct kt_symbol){ addr, name, mod, s->n };
	s->n++;
	return (0);
}

static unsigned
hex_digit(char c)
{
	return (c <= '9' ? (unsigned)(c - '0') : (unsigned)((c | 0x20) -
	    'a' + 10));
}

/*
 * One line, "address type name[\t[module]]", as text_check_kallsyms()
 * let it through; its name and module ended in place.  Kept as
 * tep_parse_kallsyms() keeps them: not ARM's "$a" mapping symbols nor the
 * absolute ones (x86-64's per-CPU offsets).  A report prints names: a
 * byte outside printable ASCII (a module's local labels carry control
 * bytes) is a '?', whatever the locale, as the name is found.
 */
static int
parse_line(struct kt_symbols *s, char *line, char *end)
{
	unsigned long long addr = 0;
	char *p = line, *name, *mod = NULL, type;

	for (; *p != ' '; p++)
		addr = addr << 4 | hex_digit(*p);
	type = p[1];
	name = p + 3;
	for (p = name; p < end && *p != '\t'; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e)
			*p = '?';
	if (p < end) {
		*p = '\0';
		mod = p + 2;
		end[-1] = '\0';		/* the module's ']' */
	} else
		*end = '\0';
	if (name[0] == '$' || type == 'A' || type == 'a')
		return (0);
	return (add(s, addr, name, mod));
}

int
kt_symbols_parse(struct kt_symbols *s, char *text)
{
	char *line = text, *end;
	size_t lines = 1;
	struct kt_symbol *v;

	/* A line a symbol at most: room made once, not grown by copies. */
	for (const char *p = text; (p = strchr(p, '\n')) != NULL; p++)
		lines++;
	if (lines + 2 > s->alloc) {	/* and the sentinel */
		if ((v = reallocarray(s->v, lines + 2, sizeof(*v))) == NULL)
			return (-1);
		s->v = v;
		s->alloc = lines + 2;
		pages_present(v, s->alloc * sizeof(*v));
	}
	s->text = text;
	while (*line != '\0') {
		if ((end = strchr(line, '\n')) == NULL)
			end = line + strlen(line);
		bool last = *end == '\0';

		if (parse_line(s, line, end) != 0)
			return (-1);
		if (last)
			break;
		line = end + 1;
	}
	return (0);
}

int
kt_symbols_add(struct kt_symbols *s, const char *name, uint64_t addr)
{
	return (add(s, addr, (char *)name, NULL));
}

/*
 * By address; of one address, the last added first: libtraceevent adds
 * each symbol at its list's head, then sorts stably.
 */
static int
by_address(const void *a, const void *b)
{
	const struct kt_symbol *x = a, *y = b;

	if (x->addr != y->addr)
		return (x->addr < y->addr ? -1 : 1);
	return (x->order > y->order ? -1 : x->order < y->order);
}

/*
 * libtraceevent's func_bcmp(): the key is the symbol's address, or lies
 * between it and the next one's; the sentinel's address, 0, ends the
 * last symbol's span at the last symbol itself.
 */
static int
holding(const void *key, const void *elem)
{
	const struct kt_symbol *k = key, *e = elem;

	if (k->addr == e->addr || (k->addr > e->addr && k->addr <
	    e[1].addr))
		return (0);
	return (k->addr < e->addr ? -1 : 1);
}

static char *
resolve(void *priv, unsigned long long *addrp, char **modp)
{
	struct kt_symbols *s = priv;
	struct kt_symbol key = { .addr = *addrp }, *hit;

	if (kt_symbols_wait(s) != 0 || s->n == 0 || (hit = bsearch(&key, s->v,
	    s->n, sizeof(*s->v), holding)) == NULL)
		return (NULL);
	*addrp = hit->addr;
	*modp = hit->mod;
	return (hit->name);
}

/*
 * Whether s is in by_address()'s order once each run of one address is
 * turned round (made so then): a kernel's own symbols come sorted, and
 * qsort()'s copy of 100,000 of them cost a report more than its events.
 */
static bool
sorted(struct kt_symbols *s)
{
	for (size_t i = 1; i < s->n; i++)
		if (s->v[i].addr < s->v[i - 1].addr)
			return (false);
	for (size_t i = 0, j; i < s->n; i = j) {
		for (j = i + 1; j < s->n && s->v[j].addr == s->v[i].addr; j++)
			;
		for (size_t a = i, b = j - 1; a < b; a++, b--) {
			struct kt_symbol t = s->v[a];

			s->v[a] = s->v[b];
			s->v[b] = t;
		}
	}
	return (true);
}

static int
sort(struct kt_symbols *s)
{
	if (grow(s) != 0)
		return (-1);
	if (!sorted(s))
		qsort(s->v, s->n, sizeof(*s->v), by_address);
	s->v[s->n] = (struct kt_symbol){ 0 };	/* the sentinel */
	return (0);
}

int
kt_symbols_attach(struct kt_symbols *s, struct tep_handle *tep)
{
	if (sort(s) != 0)
		return (-1);
	return (tep_set_function_resolver(tep, resolve, s) != 0 ? -1 : 0);
}

static void *
loader(void *arg)
{
	struct kt_symbols *s = arg;

	s->load_rc = s->load(s, s->load_arg) != 0 || sort(s) != 0 ? -1 : 0;
	return (NULL);
}

int
kt_symbols_attach_loading(struct kt_symbols *s, struct tep_handle *tep,
    int (*load)(struct kt_symbols *, void *), void *arg)
{
	sigset_t all, old;

	if (tep_set_function_resolver(tep, resolve, s) != 0)
		return (-1);
	s->load = load;
	s->load_arg = arg;
	if (pthread_mutex_init(&s->lock, NULL) != 0) {
		loader(s);
		return (s->load_rc);
	}
	s->threaded = true;
	/* Signals are the caller's thread's to take. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	s->loading = pthread_create(&s->loader, NULL, loader, s) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (s->loading)
		return (0);
	loader(s);
	return (s->load_rc);
}

int
kt_symbols_wait(struct kt_symbols *s)
{
	if (!s->threaded)
		return (s->load_rc);
	pthread_mutex_lock(&s->lock);
	if (s->loading) {
		pthread_join(s->loader, NULL);
		s->loading = false;
	}
	pthread_mutex_unlock(&s->lock);
	return (s->load_rc);
}

void
kt_symbols_free(struct kt_symbols *s)
{
	kt_symbols_wait(s);
	if (s->threaded)
		pthread_mutex_destroy(&s->lock);
	free(s->v);
	free(s->text);
	*s = (struct kt_symbols){ 0 };
}
