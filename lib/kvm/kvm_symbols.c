/*
 * kvm_symbols.c: symbol addresses for a core image.  VMCOREINFO names a
 * few (SYMBOL(x)=...); the rest come from the kernel's own kallsyms
 * tables, which VMCOREINFO points at since Linux 6.0 and which
 * kvm_kallsyms_find.c finds in the kernel's memory before, decoded from
 * the dump, or from a System.map given with -N (link-time addresses,
 * moved by KERNELOFFSET).  No debug package is needed.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "kvm/kvm_finders.h"
#include "kvm/kvm_image.h"
#include "kvm/kvm_kallsyms.h"

/* More than any kernel has (~100k with KALLSYMS_ALL); bounds a bad count. */
#define MAX_SYMS	(1u << 22)
#define MAX_NAME	512
#define TOKENS_MAX	65536	/* kallsyms_token_table's bytes read at most */
/* The kernel image's link-time base: what KASLR moves. */
#define KERNEL_MAP	0xffffffff80000000ULL

struct kvm_sym {
	const char	*name;
	uint64_t	 addr;
};

/*
 * The symbols in the table's order, each with a hash of its name.  A
 * report looks up a few dozen names of the 100,000 or more a kernel has:
 * a scan of the hashes per look-up (a fraction of a millisecond, however
 * a hostile table collides) costs less than sorting the names or filling
 * a hash table, either of which cost more than the rest of a zone report.
 * Of two symbols of one name, the first.
 */
struct kvm_symtab {
	struct kvm_sym	*syms;
	uint32_t	*hashes;	/* name_hash() of each symbol's name */
	size_t		 n;
	char		*names;		/* every name, NUL-separated */
};

void
_memstat_kvm_symtab_free(struct kvm_symtab *st)
{
	if (st == NULL)
		return;
	free(st->syms);
	free(st->hashes);
	free(st->names);
	free(st);
}

/* FNV-1a. */
static uint32_t
name_hash(const char *name)
{
	uint32_t h = 2166136261u;

	for (; *name != '\0'; name++)
		h = (h ^ (unsigned char)*name) * 16777619u;
	return (h);
}

/* A growing NUL-separated name store; offsets until it stops moving. */
struct names {
	char	*buf;
	size_t	 len, cap;
};

static int
names_add(struct names *nm, const char *s, size_t len, size_t *off)
{
	char *p;

	if (nm->cap - nm->len < len + 1) {
		size_t cap = nm->cap ? nm->cap * 2 : 1 << 20;

		while (cap - nm->len < len + 1)
			cap *= 2;
		if ((p = realloc(nm->buf, cap)) == NULL)
			return (-1);
		nm->buf = p;
		nm->cap = cap;
	}
	memcpy(nm->buf + nm->len, s, len);
	nm->buf[nm->len + len] = '\0';
	*off = nm->len;
	nm->len += len + 1;
	return (0);
}

/*
 * Turn name offsets (stashed in .name) into pointers, and hash them: 0, or
 * -1 when memory runs out.
 */
static int
symtab_finish(struct kvm_symtab *st)
{
	if ((st->hashes = calloc(st->n + 1, sizeof(*st->hashes))) == NULL)
		return (-1);
	for (size_t i = 0; i < st->n; i++) {
		st->syms[i].name = st->names + (uintptr_t)st->syms[i].name;
		st->hashes[i] = name_hash(st->syms[i].name);
	}
	return (0);
}

/* kallsyms_names, read through a window so the whole table is never held. */
struct window {
	const struct kallsyms_memory *mem;
	uint64_t	 base;		/* address of byte 0 of buf */
	unsigned char	 buf[65536];
	size_t		 len;
};

static int
window_byte(struct window *w, uint64_t addr, unsigned char *c)
{
	if (addr < w->base || addr >= w->base + w->len) {
		/* Up to the page end at least; more if the pages are there. */
		w->base = addr;
		w->len = 4096 - (addr & 4095);
		if (w->mem->read(w->mem->arg, addr, w->buf, w->len) != 0)
			return (-1);
		if (w->mem->read(w->mem->arg, addr + w->len, w->buf + w->len,
		    sizeof(w->buf) - 4096) == 0)
			w->len += sizeof(w->buf) - 4096;
	}
	*c = w->buf[addr - w->base];
	return (0);
}

static int
vmcoreinfo_symbol(struct memstat_kvm *kvm, const char *name, uint64_t *addr)
{
	return (_memstat_kvm_vmcoreinfo_symbol(kvm, name, addr));
}

/*
 * The vmlinuz -N names, as memory at link-time addresses (its _stext and
 * .data less KASLR's move): 0, or -1 with the error.
 */
static int
image_memory(struct memstat_kvm *kvm, struct kvm_image **img,
    struct kallsyms_memory *m)
{
	FILE *f;
	int rc;

	if ((f = fopen(kvm->system, "r")) == NULL)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM, "%s: %s",
		    kvm->system, strerror(errno)));
	rc = _memstat_kvm_image_load(kvm, f, img);
	fclose(f);
	if (rc != 0)
		return (-1);
	m->read = _memstat_kvm_image_read;
	m->arg = *img;
	m->stext -= kvm->kaslr;
	if (m->data != 0)
		m->data -= kvm->kaslr;
	return (0);
}

/*
 * The tables: those VMCOREINFO names (6.0 and later;
 * kallsyms_relative_base until 7.0), or else those found in the vmlinuz
 * -N named (decompressed into *img), or in the dump's memory.
 */
static int
kallsyms_tables(struct memstat_kvm *kvm, bool vmlinuz, struct kvm_image **img,
    struct kallsyms_memory *m, struct kallsyms_tables *t)
{
	*t = (struct kallsyms_tables){ .long_names = true };
	if (_memstat_kvm_kallsyms_memory(kvm, m) != 0)
		m->stext = 0;
	if (vmcoreinfo_symbol(kvm, "kallsyms_names", &t->names) == 0 &&
	    vmcoreinfo_symbol(kvm, "kallsyms_num_syms", &t->num_syms) == 0 &&
	    vmcoreinfo_symbol(kvm, "kallsyms_token_table", &t->token_table) ==
	    0 && vmcoreinfo_symbol(kvm, "kallsyms_token_index",
	    &t->token_index) == 0 &&
	    vmcoreinfo_symbol(kvm, "kallsyms_offsets", &t->offsets) == 0) {
		if (vmcoreinfo_symbol(kvm, "kallsyms_relative_base",
		    &t->relative_base) != 0)
			t->relative_base = 0;
		return (0);
	}
	if (vmlinuz && (m->stext == 0 || image_memory(kvm, img, m) != 0))
		return (-1);
	if (m->stext != 0 && _memstat_kvm_kallsyms_find(m, t) == 0)
		return (0);
	return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM_NOSYMBOL,
	    "VMCOREINFO names no kallsyms tables (Linux before 6.0) and none "
	    "were found in the %s: name a System.map with -N",
	    vmlinuz ? "kernel image" : "kernel's memory"));
}

/* len bytes of the tables: 0, or -1 with the error recorded. */
static int
tables_read(struct memstat_kvm *kvm, const struct kallsyms_memory *m,
    uint64_t addr, void *buf, size_t len)
{
	if (m->read(m->arg, addr, buf, len) == 0)
		return (0);
	if (m->arg != kvm)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "%s: kallsyms tables cut short at 0x%" PRIx64,
		    kvm->system, addr));
	return (-1);
}

/*
 * The name at *pos of kallsyms_names, its tokens expanded into name
 * (MAX_NAME at most, not NUL-terminated), *nlen long; *pos past it.  0,
 * or -1 where the table is cut.
 */
static int
read_name(struct window *w, uint64_t *pos, bool long_names,
    const char *tokens, const uint16_t *tidx, char *name, size_t *nlen)
{
	unsigned char c, b;
	uint32_t len;

	if (window_byte(w, (*pos)++, &c) != 0)
		return (-1);
	len = c;
	/* Since 6.1 a name of 128 tokens or more takes two bytes. */
	if (long_names && (len & 0x80)) {
		if (window_byte(w, (*pos)++, &b) != 0)
			return (-1);
		len = (len & 0x7f) | (uint32_t)b << 7;
	}
	*nlen = 0;
	for (uint32_t k = 0; k < len; k++) {
		if (window_byte(w, (*pos)++, &c) != 0)
			return (-1);
		for (const char *tk = tokens + tidx[c]; *tk != '\0' &&
		    *nlen < MAX_NAME; tk++)
			name[(*nlen)++] = *tk;
	}
	return (0);
}

/*
 * The token table, as far as its index reaches, into tokens (TOKENS_MAX
 * + 1 bytes, NUL-filled past it): 0, or -1 with the error recorded.
 */
static int
read_tokens(struct memstat_kvm *kvm, const struct kallsyms_memory *m,
    const struct kallsyms_tables *t, const uint16_t tidx[256], char *tokens)
{
	size_t maxtok = 0;

	for (int i = 0; i < 256; i++)
		if (tidx[i] > maxtok)
			maxtok = tidx[i];
	/* The last token ends within a few bytes of its start. */
	if (maxtok + 256 > TOKENS_MAX)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "kallsyms_token_index out of range"));
	memset(tokens, 0, TOKENS_MAX + 1);
	return (tables_read(kvm, m, t->token_table, tokens, maxtok + 256));
}

/*
 * Symbol i's address, by the three encodings.  Since 7.0 each offset is
 * relative to its own slot (offset_to_ptr()).  Before, with
 * KALLSYMS_ABSOLUTE_PERCPU (Debian 6.1) a negative offset is relative to
 * the base and a positive one absolute; without it every offset is
 * relative to the base.  Both of those are given; _stext, which
 * VMCOREINFO also gives, decides.
 */
static void
symbol_address(const struct kallsyms_tables *t, uint64_t base,
    const int32_t *offs, uint32_t i, uint64_t *addr_abs, uint64_t *addr_rel)
{
	if (t->relative_base == 0) {
		*addr_abs = *addr_rel = t->offsets + 4 * (uint64_t)i +
		    (uint64_t)(int64_t)offs[i];
		return;
	}
	*addr_abs = offs[i] >= 0 ? (uint64_t)offs[i] :
	    base - 1 - (uint64_t)(int64_t)offs[i];
	*addr_rel = base + (uint32_t)offs[i];
}

/*
 * The symbols' addresses: the absolute reading of each unless _stext
 * said the relative one (rel[]) is right; an image's moved by KASLR, as
 * its addresses are link-time ones.  0, or -1 when neither reading is.
 */
static int
settle_addresses(struct memstat_kvm *kvm, struct kvm_symtab *st,
    const uint64_t *rel, bool abs_ok, bool rel_ok, bool image)
{
	if (!abs_ok) {
		if (!rel_ok)
			return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
			    "kallsyms addresses do not match VMCOREINFO's "
			    "_stext"));
		for (size_t i = 0; i < st->n; i++)
			st->syms[i].addr = rel[i];
	}
	if (image)
		for (size_t i = 0; i < st->n; i++)
			if (st->syms[i].addr >= KERNEL_MAP)
				st->syms[i].addr += kvm->kaslr;
	return (0);
}

static int
kallsyms_load(struct memstat_kvm *kvm, struct kvm_symtab *st, bool vmlinuz)
{
	struct kvm_image *img = NULL;
	struct kallsyms_memory m;
	struct kallsyms_tables t;
	uint64_t base = 0, pos, addr_abs, addr_rel;
	uint16_t tidx[256];
	char tokens[TOKENS_MAX + 1], name[MAX_NAME + 1];
	struct names nm = { 0 };
	struct window *w;
	int32_t *offs = NULL;
	uint64_t *rel = NULL;
	uint32_t num, i;
	size_t nlen, off;
	bool abs_ok = true, rel_ok = true;
	int rc = -1;

	w = NULL;
	if (kallsyms_tables(kvm, vmlinuz, &img, &m, &t) != 0 ||
	    tables_read(kvm, &m, t.num_syms, &num, 4) != 0 ||
	    tables_read(kvm, &m, t.token_index, tidx, sizeof(tidx)) != 0 ||
	    (t.relative_base != 0 &&
	    tables_read(kvm, &m, t.relative_base, &base, 8) != 0))
		goto out;
	if (num == 0 || num > MAX_SYMS) {
		_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "kallsyms_num_syms is %" PRIu32, num);
		goto out;
	}
	if (read_tokens(kvm, &m, &t, tidx, tokens) != 0)
		goto out;
	if ((offs = calloc(num, sizeof(*offs))) == NULL ||
	    (rel = calloc(num, sizeof(*rel))) == NULL ||
	    (st->syms = calloc(num, sizeof(*st->syms))) == NULL ||
	    (w = calloc(1, sizeof(*w))) == NULL) {
		_memstat_kvm_fail(kvm, MEMSTAT_ERROR_NOMEMORY, "%s",
		    strerror(ENOMEM));
		goto out;
	}
	w->mem = &m;
	if (tables_read(kvm, &m, t.offsets, offs, (size_t)num * 4) != 0)
		goto out;

	for (i = 0, pos = t.names; i < num; i++) {
		if (read_name(w, &pos, t.long_names, tokens, tidx, name,
		    &nlen) != 0)
			goto cut;
		/* name[0] is the nm-style type letter. */
		if (nlen < 2)
			continue;
		if (names_add(&nm, name + 1, nlen - 1, &off) != 0) {
			_memstat_kvm_fail(kvm, MEMSTAT_ERROR_NOMEMORY, "%s",
			    strerror(ENOMEM));
			goto out;
		}
		st->syms[st->n].name = (const char *)(uintptr_t)off;
		symbol_address(&t, base, offs, i, &addr_abs, &addr_rel);
		st->syms[st->n].addr = addr_abs;
		rel[st->n] = addr_rel;
		if (strcmp(name + 1, "_stext") == 0 && m.stext != 0) {
			abs_ok = addr_abs == m.stext;
			rel_ok = addr_rel == m.stext;
		}
		st->n++;
	}
	if (settle_addresses(kvm, st, rel, abs_ok, rel_ok, m.arg != kvm) != 0)
		goto out;
	st->names = nm.buf;
	nm.buf = NULL;
	if (symtab_finish(st) != 0) {
		_memstat_kvm_fail(kvm, MEMSTAT_ERROR_NOMEMORY, "%s",
		    strerror(ENOMEM));
		goto out;
	}
	rc = 0;
	goto out;
cut:
	if (m.arg != kvm)
		_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "%s: kallsyms_names cut short", kvm->system);
out:
	free(nm.buf);
	free(offs);
	free(rel);
	free(w);
	_memstat_kvm_image_free(img);
	return (rc);
}

/* "ffffffff81000000 T _stext" per line; link-time addresses. */
static int
system_map_load(struct memstat_kvm *kvm, FILE *f, struct kvm_symtab *st)
{
	char line[1024], type, name[MAX_NAME + 1];
	struct names nm = { 0 };
	unsigned long long a;
	size_t cap = 0, off;
	struct kvm_sym *p;

	while (fgets(line, sizeof(line), f) != NULL) {
		/*
		 * Debian ships "ffffffffffffffff B The real System.map is in
		 * the linux-image-<version>-dbg package" as System.map.
		 */
		if (st->n == 0 && strstr(line, " The real System.map is in ") !=
		    NULL) {
			line[strcspn(line, "\n")] = '\0';
			_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR, "%s: "
			    "Debian's placeholder, no System.map (\"%s\"): "
			    "leave -N out, the dump's own kallsyms serve",
			    kvm->system, strstr(line, "The real"));
			goto fail;
		}
		if (sscanf(line, "%llx %c %512s", &a, &type, name) != 3) {
			_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
			    "%s: not a System.map", kvm->system);
			goto fail;
		}
		if (st->n == cap) {
			if (cap >= MAX_SYMS) {
				_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
				    "%s: too many symbols", kvm->system);
				goto fail;
			}
			cap = cap ? cap * 2 : 65536;
			if ((p = reallocarray(st->syms, cap, sizeof(*p))) ==
			    NULL)
				goto nomem;
			st->syms = p;
		}
		if (names_add(&nm, name, strlen(name), &off) != 0)
			goto nomem;
		st->syms[st->n].name = (const char *)(uintptr_t)off;
		st->syms[st->n++].addr = a >= KERNEL_MAP ? a + kvm->kaslr : a;
	}
	if (st->n == 0) {
		_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "%s: no symbols", kvm->system);
		goto fail;
	}
	st->names = nm.buf;
	if (symtab_finish(st) != 0)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_NOMEMORY, "%s",
		    strerror(ENOMEM)));
	return (0);
nomem:
	_memstat_kvm_fail(kvm, MEMSTAT_ERROR_NOMEMORY, "%s", strerror(ENOMEM));
fail:
	/* The names gathered so far are not the table's yet. */
	free(nm.buf);
	return (-1);
}

/*
 * A vmlinux's .symtab (link-time addresses).  1 if it has none (Debian's
 * stripped image): the dump's kallsyms serve then.
 */
static int
elf_symtab_load(struct memstat_kvm *kvm, struct kvm_symtab *st)
{
	struct names nm = { 0 };
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	GElf_Sym sym;
	Elf_Data *data;
	const char *name;
	size_t n, off, i;
	Elf *elf;
	int fd, rc = 1;

	if (elf_version(EV_CURRENT) == EV_NONE ||
	    (fd = open(kvm->system, O_RDONLY | O_CLOEXEC)) == -1)
		return (1);
	if ((elf = elf_begin(fd, ELF_C_READ, NULL)) == NULL) {
		close(fd);
		return (1);
	}
	while ((scn = elf_nextscn(elf, scn)) != NULL && rc == 1) {
		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_SYMTAB ||
		    sh.sh_entsize == 0 || (data = elf_getdata(scn, NULL)) == NULL)
			continue;
		n = sh.sh_size / sh.sh_entsize;
		if (n > MAX_SYMS) {
			rc = _memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
			    "%s: %zu symbols", kvm->system, n);
			break;
		}
		if ((st->syms = calloc(n + 1, sizeof(*st->syms))) == NULL) {
			rc = _memstat_kvm_fail(kvm, MEMSTAT_ERROR_NOMEMORY,
			    "%s", strerror(ENOMEM));
			break;
		}
		rc = 0;
		for (i = 0; i < n; i++) {
			if (gelf_getsym(data, (int)i, &sym) == NULL ||
			    (name = elf_strptr(elf, sh.sh_link, sym.st_name)) ==
			    NULL || *name == '\0')
				continue;
			if (names_add(&nm, name, strlen(name), &off) != 0) {
				rc = _memstat_kvm_fail(kvm,
				    MEMSTAT_ERROR_NOMEMORY, "%s",
				    strerror(ENOMEM));
				break;
			}
			st->syms[st->n].name = (const char *)(uintptr_t)off;
			st->syms[st->n++].addr = sym.st_value >= KERNEL_MAP ?
			    sym.st_value + kvm->kaslr : sym.st_value;
		}
	}
	elf_end(elf);
	close(fd);
	if (rc != 0) {
		free(nm.buf);
		return (rc);
	}
	st->names = nm.buf;
	if (symtab_finish(st) != 0)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_NOMEMORY, "%s",
		    strerror(ENOMEM)));
	return (0);
}

static int
symtab_load(struct memstat_kvm *kvm)
{
	struct kvm_symtab *st;
	unsigned char magic[1024];
	bool vmlinuz = false;
	size_t n;
	FILE *f;
	int rc;

	if ((st = calloc(1, sizeof(*st))) == NULL)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_NOMEMORY, "%s",
		    strerror(ENOMEM)));
	rc = 1;
	if (kvm->system != NULL) {
		if ((f = fopen(kvm->system, "r")) == NULL) {
			_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM, "%s: %s",
			    kvm->system, strerror(errno));
			rc = -1;
		} else {
			/*
			 * A vmlinux gives its .symtab, if not stripped; a
			 * vmlinuz the kallsyms tables in its image; a BTF
			 * file only types (kvm_btf.c).  Anything else must
			 * be a System.map.
			 */
			n = fread(magic, 1, sizeof(magic), f);
			if (n >= 4 && memcmp(magic, "\177ELF", 4) == 0)
				rc = elf_symtab_load(kvm, st);
			else if ((vmlinuz = _memstat_kvm_is_bzimage(magic,
			    n)))
				rc = 1;
			else if (!(n >= 2 && magic[0] == 0x9f &&
			    magic[1] == 0xeb)) {
				rewind(f);
				rc = system_map_load(kvm, f, st);
			}
			fclose(f);
		}
	}
	if (rc == 1)
		rc = kallsyms_load(kvm, st, vmlinuz);
	if (rc != 0) {
		_memstat_kvm_symtab_free(st);
		return (-1);
	}
	kvm->syms = st;
	return (0);
}

int
_memstat_kvm_symbol(struct memstat_kvm *kvm, const char *name, uint64_t *addr)
{
	const struct kvm_symtab *st;
	uint32_t h = name_hash(name);

	if (kvm->syms == NULL && symtab_load(kvm) != 0)
		return (-1);
	st = kvm->syms;
	for (size_t i = 0; i < st->n; i++)
		if (st->hashes[i] == h && strcmp(st->syms[i].name, name) == 0) {
			*addr = st->syms[i].addr;
			return (0);
		}
	return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM_NOSYMBOL,
	    "no symbol %s in the %s", name, kvm->system != NULL ?
	    kvm->system : "dump's kallsyms"));
}

int
_memstat_kvm_symbols_each(struct memstat_kvm *kvm,
    void (*fn)(const char *name, uint64_t addr, void *arg), void *arg)
{
	if (kvm->syms == NULL && symtab_load(kvm) != 0)
		return (-1);
	for (size_t i = 0; i < kvm->syms->n; i++)
		fn(kvm->syms->syms[i].name, kvm->syms->syms[i].addr, arg);
	return (0);
}

int
memstat_kvm_symbols(void *kvm_handle,
    void (*fn)(const char *name, uint64_t addr, void *arg), void *arg)
{
	return (_memstat_kvm_symbols_each(kvm_handle, fn, arg));
}
