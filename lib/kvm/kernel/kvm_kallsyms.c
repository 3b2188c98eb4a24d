/*
 * kvm_kallsyms.c: a kernel's symbols from its own kallsyms tables (see
 * kvm_kallsyms.h), in the dump or in the image of a -N vmlinuz.
 *
 * A report looks up a dozen names of the 100,000 to 200,000 a kernel
 * has.  The names are therefore not kept: one pass hashes each name as
 * its tokens come (each token's step of the hash is worked out once),
 * and a look-up decodes again only a name whose hash matches, from the
 * nearest mark, kept every MARK_EVERY names.  Addresses are read when
 * asked for, and each answer is kept: -w asks for the same dozen names
 * at every look, and on /proc/kcore a read is dear.  A table of every
 * name and address would cost more in first touches of fresh memory
 * than all the decoding does.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kvm/arch/kvm_arch.h"
#include "kvm/kernel/kvm_image.h"
#include "kvm/kernel/kvm_kallsyms.h"

#define TOKENS_MAX	65536	/* kallsyms_token_table's bytes read at most */
#define MARK_EVERY	256

/*
 * The hash is polynomial, h * HASH_MUL + c per character, so that a
 * token's effect is one multiply and one add whatever its length.
 */
#define HASH_SEED	2166136261u
#define HASH_MUL	16777619u

/*
 * kallsyms_names, read through a window so the whole table is never held:
 * a page at least, and ahead bytes more where they are there (the whole
 * window for a pass over the table, a page for a look-up's few names).
 */
#define WINDOW_AHEAD	(65536 - 4096)
struct window {
	const struct kallsyms_memory *mem;
	uint64_t	 base;		/* address of byte 0 of buf */
	unsigned char	 buf[4096 + WINDOW_AHEAD];
	size_t		 len, ahead;
};

/* A look-up's answer, kept. */
struct answer {
	char		*name;
	uint64_t	 addr;
	bool		 found;
};

/* What a token does to the hash of the name it is part of. */
struct token_step {
	uint32_t	 mul, add;	/* h * mul + add */
	uint32_t	 mul1, add1;	/* the same, less its first character */
	uint32_t	 len;
};

struct kallsyms {
	struct memstat_kvm *kvm;
	struct kvm_image *img;		/* -N vmlinuz's, or NULL: the dump's */
	struct kallsyms_memory m;
	struct kallsyms_tables t;
	uint64_t	 base;		/* kallsyms_relative_base's value */
	uint32_t	 num;
	bool		 relative;	/* _stext said the relative reading */
	uint32_t	*hashes;	/* num: each name's, less its type */
	uint64_t	*marks;		/* name i * MARK_EVERY's offset */
	char		*names;		/* every name, once each() asks */
	struct answer	*answers;
	size_t		 nanswers, aanswers;
	uint16_t	 tidx[256];
	struct token_step step[256];
	char		 tokens[TOKENS_MAX + 1];
	struct window	 w;
};

static uint32_t
name_hash(const char *name)
{
	uint32_t h = HASH_SEED;

	for (; *name != '\0'; name++)
		h = h * HASH_MUL + (unsigned char)*name;
	return (h);
}

static int
window_byte(struct window *w, uint64_t addr, unsigned char *c)
{
	if (addr - w->base >= w->len) {
		/* Up to the page end at least; more if the pages are there. */
		w->base = addr;
		w->len = 4096 - (addr & 4095);
		if (w->mem->read(w->mem->arg, addr, w->buf, w->len) != 0) {
			w->len = 0;
			return (-1);
		}
		if (w->mem->read(w->mem->arg, addr + w->len, w->buf + w->len,
		    w->ahead) == 0)
			w->len += w->ahead;
	}
	*c = w->buf[addr - w->base];
	return (0);
}

/*
 * The vmlinuz -N names, as memory at link-time addresses (its _stext and
 * .data less KASLR's move): 0, or -1 with the error.
 */
static int
image_memory(struct kallsyms *ks)
{
	struct memstat_kvm *kvm = ks->kvm;
	FILE *f;
	int rc;

	if ((f = fopen(kvm->system, "r")) == NULL)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM, "%s: %s",
		    kvm->system, strerror(errno)));
	rc = _memstat_kvm_image_load(kvm, f, &ks->img);
	fclose(f);
	if (rc != 0)
		return (-1);
	ks->m.read = _memstat_kvm_image_read;
	ks->m.arg = ks->img;
	ks->m.stext -= kvm->kaslr;
	if (ks->m.data != 0)
		ks->m.data -= kvm->kaslr;
	return (0);
}

/*
 * The tables: those VMCOREINFO names (6.0 and later;
 * kallsyms_relative_base until 7.0), or else those found in the vmlinuz
 * -N named (its image loaded into ks->img), or in the dump's memory.
 */
static int
find_tables(struct kallsyms *ks, bool vmlinuz)
{
	struct memstat_kvm *kvm = ks->kvm;
	struct kallsyms_tables *t = &ks->t;

	*t = (struct kallsyms_tables){ .long_names = true };
	if (_memstat_kvm_kallsyms_memory(kvm, &ks->m) != 0)
		ks->m.stext = 0;
	if (_memstat_kvm_vmcoreinfo_symbol(kvm, "kallsyms_names",
	    &t->names) == 0 && _memstat_kvm_vmcoreinfo_symbol(kvm,
	    "kallsyms_num_syms", &t->num_syms) == 0 &&
	    _memstat_kvm_vmcoreinfo_symbol(kvm, "kallsyms_token_table",
	    &t->token_table) == 0 && _memstat_kvm_vmcoreinfo_symbol(kvm,
	    "kallsyms_token_index", &t->token_index) == 0 &&
	    _memstat_kvm_vmcoreinfo_symbol(kvm, "kallsyms_offsets",
	    &t->offsets) == 0) {
		if (_memstat_kvm_vmcoreinfo_symbol(kvm,
		    "kallsyms_relative_base", &t->relative_base) != 0)
			t->relative_base = 0;
		return (0);
	}
	if (vmlinuz && (ks->m.stext == 0 || image_memory(ks) != 0))
		return (-1);
	if (ks->m.stext != 0 && _memstat_kvm_kallsyms_find(&ks->m, t) == 0)
		return (0);
	return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM_NOSYMBOL,
	    "VMCOREINFO names no kallsyms tables (Linux before 6.0) and none "
	    "were found in the %s: name a System.map with -N",
	    vmlinuz ? "kernel image" : "kernel's memory"));
}

/* len bytes of the tables: 0, or -1 with the error recorded. */
static int
tables_read(struct kallsyms *ks, uint64_t addr, void *buf, size_t len)
{
	if (ks->m.read(ks->m.arg, addr, buf, len) == 0)
		return (0);
	if (ks->img != NULL)
		return (_memstat_kvm_fail(ks->kvm, MEMSTAT_ERROR_DATAERROR,
		    "%s: kallsyms tables cut short at 0x%" PRIx64,
		    ks->kvm->system, addr));
	return (-1);
}

/* n integers of size bytes of the tables (_memstat_kallsyms_read_ints). */
static int
tables_read_ints(struct kallsyms *ks, uint64_t addr, void *v, size_t n,
    size_t size)
{
	if (tables_read(ks, addr, v, n * size) != 0)
		return (-1);
	_memstat_kallsyms_ints(&ks->m, v, n, size);
	return (0);
}

/* kallsyms_names cut short: -1 with the error recorded. */
static int
names_cut(struct kallsyms *ks)
{
	if (ks->img != NULL)
		return (_memstat_kvm_fail(ks->kvm, MEMSTAT_ERROR_DATAERROR,
		    "%s: kallsyms_names cut short", ks->kvm->system));
	return (-1);
}

/*
 * A name's token count, from the byte(s) at *pos, *pos past them.  Since
 * 6.1 a name of 128 tokens or more takes two bytes.
 */
static int
name_length(struct kallsyms *ks, uint64_t *pos, uint32_t *len)
{
	unsigned char c, b;

	if (window_byte(&ks->w, (*pos)++, &c) != 0)
		return (-1);
	*len = c;
	if (ks->t.long_names && (c & 0x80)) {
		if (window_byte(&ks->w, (*pos)++, &b) != 0)
			return (-1);
		*len = (c & 0x7f) | (uint32_t)b << 7;
	}
	return (0);
}

/*
 * The name at *pos, its tokens expanded into name (KVM_MAX_NAME at most,
 * not NUL-terminated), *nlen long; *pos past it.  0, or -1 where cut.
 */
static int
read_name(struct kallsyms *ks, uint64_t *pos, char *name, size_t *nlen)
{
	unsigned char c;
	uint32_t len;

	if (name_length(ks, pos, &len) != 0)
		return (-1);
	*nlen = 0;
	for (uint32_t k = 0; k < len; k++) {
		if (window_byte(&ks->w, (*pos)++, &c) != 0)
			return (-1);
		for (const char *tk = ks->tokens + ks->tidx[c]; *tk != '\0' &&
		    *nlen < KVM_MAX_NAME; tk++)
			name[(*nlen)++] = *tk;
	}
	return (0);
}

/*
 * The token table, as far as its index reaches (NUL-filled past it), and
 * each token's step of the hash: 0, or -1 with the error recorded.
 */
static int
read_tokens(struct kallsyms *ks)
{
	size_t maxtok = 0;

	for (int i = 0; i < 256; i++)
		if (ks->tidx[i] > maxtok)
			maxtok = ks->tidx[i];
	/* The last token ends within a few bytes of its start. */
	if (maxtok + 256 > TOKENS_MAX)
		return (_memstat_kvm_fail(ks->kvm, MEMSTAT_ERROR_DATAERROR,
		    "kallsyms_token_index out of range"));
	memset(ks->tokens, 0, sizeof(ks->tokens));
	if (tables_read(ks, ks->t.token_table, ks->tokens, maxtok + 256) != 0)
		return (-1);
	for (int i = 0; i < 256; i++) {
		struct token_step *s = &ks->step[i];
		const char *tk = ks->tokens + ks->tidx[i];

		*s = (struct token_step){ .mul = 1, .mul1 = 1 };
		for (; *tk != '\0'; tk++, s->len++) {
			s->mul *= HASH_MUL;
			s->add = s->add * HASH_MUL + (unsigned char)*tk;
			if (s->len == 0)
				continue;
			s->mul1 *= HASH_MUL;
			s->add1 = s->add1 * HASH_MUL + (unsigned char)*tk;
		}
	}
	return (0);
}

/*
 * Every name's hash, less its first character (the nm-style type
 * letter); a name with nothing past it hashes as "", which no look-up
 * asks for.  0, or -1 where the table is cut.
 */
static int
hash_names(struct kallsyms *ks)
{
	const struct token_step *s;
	uint64_t pos = ks->t.names;
	unsigned char c;
	uint32_t len, h;
	bool typed;

	ks->w.ahead = WINDOW_AHEAD;
	for (uint32_t i = 0; i < ks->num; i++) {
		if (i % MARK_EVERY == 0)
			ks->marks[i / MARK_EVERY] = pos - ks->t.names;
		if (name_length(ks, &pos, &len) != 0)
			return (names_cut(ks));
		h = HASH_SEED;
		typed = false;
		for (uint32_t k = 0; k < len; k++) {
			if (window_byte(&ks->w, pos++, &c) != 0)
				return (names_cut(ks));
			s = &ks->step[c];
			if (typed)
				h = h * s->mul + s->add;
			else if (s->len != 0) {
				h = h * s->mul1 + s->add1;
				typed = true;
			}
		}
		ks->hashes[i] = h;
	}
	return (0);
}

/* Where the decoding of kallsyms_names stands: name i starts at pos. */
struct cursor {
	uint32_t	 i;
	uint64_t	 pos;
};

/*
 * Whether symbol i is named name: 1 or 0, or -1 where the table is cut.
 * The cursor moves on from where it is, or from the mark before i if
 * that is nearer: a look-up, whose candidates come in order, decodes
 * the table once at most however many hashes collide.
 */
static int
name_is(struct kallsyms *ks, struct cursor *cur, uint32_t i,
    const char *name)
{
	char buf[KVM_MAX_NAME + 1];
	size_t nlen = 0;
	uint32_t len;

	if (cur->i > i || cur->i < i - i % MARK_EVERY)
		*cur = (struct cursor){ i - i % MARK_EVERY,
		    ks->t.names + ks->marks[i / MARK_EVERY] };
	for (; cur->i < i; cur->i++) {
		if (name_length(ks, &cur->pos, &len) != 0)
			return (names_cut(ks));
		cur->pos += len;
	}
	if (read_name(ks, &cur->pos, buf, &nlen) != 0)
		return (names_cut(ks));
	cur->i++;
	return (nlen >= 1 && strlen(name) == nlen - 1 &&
	    memcmp(buf + 1, name, nlen - 1) == 0);
}

/*
 * Symbol i's address from its offset, by the three encodings.  Since
 * 7.0 each offset is relative to its own slot (offset_to_ptr()).
 * Before, with KALLSYMS_ABSOLUTE_PERCPU (Debian 6.1) a negative offset
 * is relative to the base and a positive one absolute; without it every
 * offset is relative to the base.  Which of those two holds, _stext
 * decided (ks->relative).  An image's addresses are link-time ones,
 * moved by KASLR in address_of().
 */
static uint64_t
table_address(const struct kallsyms *ks, uint32_t i, int32_t off,
    bool relative)
{
	if (ks->t.relative_base == 0)
		return (ks->t.offsets + 4 * (uint64_t)i +
		    (uint64_t)(int64_t)off);
	if (relative)
		return (ks->base + (uint32_t)off);
	return (off >= 0 ? (uint64_t)off :
	    ks->base - 1 - (uint64_t)(int64_t)off);
}

static uint64_t
address_of(const struct kallsyms *ks, uint32_t i, int32_t off)
{
	uint64_t addr = table_address(ks, i, off, ks->relative);

	return (ks->img != NULL ? _memstat_kvm_arch_relocate(ks->kvm, addr) :
	    addr);
}

/* Symbol i's offset: 0, or -1 with the error recorded. */
static int
read_offset(struct kallsyms *ks, uint32_t i, int32_t *off)
{
	return (tables_read_ints(ks, ks->t.offsets + 4 * (uint64_t)i, off, 1,
	    4));
}

/* The first symbol named name: its index, or -1 (none), or -2 (cut). */
static int64_t
find_name(struct kallsyms *ks, const char *name)
{
	struct cursor cur = { 0, ks->t.names };
	uint32_t h = name_hash(name);
	int rc;

	if (*name == '\0')
		return (-1);
	ks->w.ahead = 4096;
	for (uint32_t i = 0; i < ks->num; i++) {
		if (ks->hashes[i] != h)
			continue;
		if ((rc = name_is(ks, &cur, i, name)) < 0)
			return (-2);
		if (rc == 1)
			return (i);
	}
	return (-1);
}

/*
 * Which reading of the offsets holds: the one that puts _stext where
 * VMCOREINFO says.  0, or -1 with the error recorded.
 */
static int
settle_reading(struct kallsyms *ks)
{
	int64_t i;
	int32_t off;
	bool abs_ok, rel_ok;

	if (ks->m.stext == 0 || (i = find_name(ks, "_stext")) == -1)
		return (0);
	if (i < 0 || read_offset(ks, (uint32_t)i, &off) != 0)
		return (-1);
	abs_ok = table_address(ks, (uint32_t)i, off, false) == ks->m.stext;
	rel_ok = table_address(ks, (uint32_t)i, off, true) == ks->m.stext;
	if (!abs_ok && !rel_ok)
		return (_memstat_kvm_fail(ks->kvm, MEMSTAT_ERROR_DATAERROR,
		    "kallsyms addresses do not match VMCOREINFO's _stext"));
	ks->relative = !abs_ok;
	return (0);
}

void
_memstat_kallsyms_free(struct kallsyms *ks)
{
	if (ks == NULL)
		return;
	free(ks->hashes);
	free(ks->marks);
	free(ks->names);
	for (size_t i = 0; i < ks->nanswers; i++)
		free(ks->answers[i].name);
	free(ks->answers);
	_memstat_kvm_image_free(ks->img);
	free(ks);
}

static int
nomem(struct memstat_kvm *kvm)
{
	return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_NOMEMORY, "%s",
	    strerror(ENOMEM)));
}

int
_memstat_kallsyms_open(struct memstat_kvm *kvm, bool vmlinuz,
    struct kallsyms **ksp)
{
	struct kallsyms *ks;

	if ((ks = calloc(1, sizeof(*ks))) == NULL)
		return (nomem(kvm));
	ks->kvm = kvm;
	ks->w.mem = &ks->m;
	if (find_tables(ks, vmlinuz) != 0 ||
	    tables_read_ints(ks, ks->t.num_syms, &ks->num, 1, 4) != 0 ||
	    tables_read_ints(ks, ks->t.token_index, ks->tidx, 256, 2) != 0 ||
	    (ks->t.relative_base != 0 &&
	    tables_read_ints(ks, ks->t.relative_base, &ks->base, 1, 8) != 0))
		goto fail;
	if (ks->num == 0 || ks->num > KVM_MAX_SYMS) {
		_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "kallsyms_num_syms is %" PRIu32, ks->num);
		goto fail;
	}
	if (read_tokens(ks) != 0)
		goto fail;
	if ((ks->hashes = calloc(ks->num, sizeof(*ks->hashes))) == NULL ||
	    (ks->marks = calloc(ks->num / MARK_EVERY + 1,
	    sizeof(*ks->marks))) == NULL) {
		nomem(kvm);
		goto fail;
	}
	if (hash_names(ks) != 0 || settle_reading(ks) != 0)
		goto fail;
	*ksp = ks;
	return (0);
fail:
	_memstat_kallsyms_free(ks);
	return (-1);
}

/* The answer kept for name, or NULL. */
static const struct answer *
answered(const struct kallsyms *ks, const char *name)
{
	for (size_t i = 0; i < ks->nanswers; i++)
		if (strcmp(ks->answers[i].name, name) == 0)
			return (&ks->answers[i]);
	return (NULL);
}

/* Keep an answer; one that cannot be kept is asked for again. */
static void
keep_answer(struct kallsyms *ks, const char *name, bool found, uint64_t addr)
{
	struct answer *a;
	size_t cap;

	if (ks->nanswers == ks->aanswers) {
		cap = ks->aanswers != 0 ? 2 * ks->aanswers : 32;
		if ((a = reallocarray(ks->answers, cap, sizeof(*a))) == NULL)
			return;
		ks->answers = a;
		ks->aanswers = cap;
	}
	a = &ks->answers[ks->nanswers];
	if ((a->name = strdup(name)) == NULL)
		return;
	a->found = found;
	a->addr = addr;
	ks->nanswers++;
}

int
_memstat_kallsyms_lookup(struct kallsyms *ks, const char *name,
    uint64_t *addr)
{
	const struct answer *a;
	int64_t i;
	int32_t off;

	if ((a = answered(ks, name)) != NULL) {
		if (!a->found)
			return (1);
		*addr = a->addr;
		return (0);
	}
	if ((i = find_name(ks, name)) == -1) {
		keep_answer(ks, name, false, 0);
		return (1);
	}
	if (i < 0 || read_offset(ks, (uint32_t)i, &off) != 0)
		return (-1);
	*addr = address_of(ks, (uint32_t)i, off);
	keep_answer(ks, name, true, *addr);
	return (0);
}

/*
 * Every name, less its type letter, NUL-terminated one after the other
 * ("" for a symbol without one) into ks->names, where they stay until
 * the handle is closed: 0, or -1 with the error recorded.
 */
static int
decode_names(struct kallsyms *ks)
{
	char name[KVM_MAX_NAME + 1], *p;
	uint64_t pos = ks->t.names;
	size_t nlen, len = 0, cap = 0;
	int rc;

	ks->w.ahead = WINDOW_AHEAD;
	for (uint32_t i = 0; i < ks->num; i++) {
		if (read_name(ks, &pos, name, &nlen) != 0) {
			rc = names_cut(ks);
			goto fail;
		}
		if (nlen < 2)
			nlen = 1;
		if (cap - len < nlen) {
			cap = cap ? 2 * cap : 1 << 20;
			if ((p = realloc(ks->names, cap)) == NULL) {
				rc = nomem(ks->kvm);
				goto fail;
			}
			ks->names = p;
		}
		memcpy(ks->names + len, name + 1, nlen - 1);
		ks->names[len + nlen - 1] = '\0';
		len += nlen;
	}
	return (0);
fail:
	free(ks->names);
	ks->names = NULL;
	return (rc);
}

int
_memstat_kallsyms_each(struct kallsyms *ks,
    void (*fn)(const char *name, uint64_t addr, void *arg), void *arg)
{
	const char *name;
	int32_t *offs;

	if (ks->names == NULL && decode_names(ks) != 0)
		return (-1);
	if ((offs = calloc(ks->num, sizeof(*offs))) == NULL)
		return (nomem(ks->kvm));
	if (tables_read_ints(ks, ks->t.offsets, offs, ks->num, 4) != 0) {
		free(offs);
		return (-1);
	}
	name = ks->names;
	for (uint32_t i = 0; i < ks->num; name += strlen(name) + 1, i++)
		if (*name != '\0')
			fn(name, address_of(ks, i, offs[i]), arg);
	free(offs);
	return (0);
}
