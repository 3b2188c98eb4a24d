/*
 * kvm_symbols.c: symbol addresses for a core image.  VMCOREINFO names a
 * few (SYMBOL(x)=...); the rest come from the kernel's own kallsyms
 * tables (kvm_kallsyms.c), or from a System.map or a vmlinux's .symtab
 * given with -N (link-time addresses, moved by KERNELOFFSET).  No debug
 * package is needed.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "kvm/arch/kvm_arch.h"
#include "kvm/kernel/kvm_btf_magic.h"
#include "kvm/kernel/kvm_finders.h"
#include "kvm/kernel/kvm_image.h"
#include "kvm/kernel/kvm_kallsyms.h"

struct kvm_sym {
	const char	*name;
	uint64_t	 addr;
};

/*
 * The kernel's own tables (ks), or else the symbols of -N's System.map or
 * .symtab in the file's order, each with a hash of its name.  A report
 * looks up a few dozen names of the 100,000 or more a kernel has: a scan
 * of the hashes per look-up (a fraction of a millisecond, however a
 * hostile table collides) costs less than sorting the names or filling
 * a hash table, either of which cost more than the rest of a zone report.
 * Of two symbols of one name, the first.
 */
struct kvm_symtab {
	struct kallsyms	*ks;
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
	_memstat_kallsyms_free(st->ks);
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

/* "ffffffff81000000 T _stext" per line; link-time addresses. */
static int
system_map_load(struct memstat_kvm *kvm, FILE *f, struct kvm_symtab *st)
{
	char line[1024], type, name[KVM_MAX_NAME + 1];
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
			if (cap >= KVM_MAX_SYMS) {
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
		st->syms[st->n++].addr = _memstat_kvm_arch_relocate(kvm, a);
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
		if (n > KVM_MAX_SYMS) {
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
			st->syms[st->n++].addr =
			    _memstat_kvm_arch_relocate(kvm, sym.st_value);
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
			 * vmlinuz (an x86 bzImage, an arm64 or riscv64
			 * Image) the kallsyms tables in its image; a BTF
			 * file only types (kvm_btf.c).  Anything else must
			 * be a System.map.
			 */
			n = fread(magic, 1, sizeof(magic), f);
			if (n >= 4 && memcmp(magic, "\177ELF", 4) == 0)
				rc = elf_symtab_load(kvm, st);
			else if ((vmlinuz = _memstat_kvm_is_bzimage(magic,
			    n) || _memstat_kvm_boot_image(magic, n) != NULL))
				rc = 1;
			else if (!_memstat_kvm_is_btf(magic, n)) {
				rewind(f);
				rc = system_map_load(kvm, f, st);
			}
			fclose(f);
		}
	}
	if (rc == 1)
		rc = _memstat_kallsyms_open(kvm, vmlinuz, &st->ks);
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
	int rc;

	if (kvm->syms == NULL && symtab_load(kvm) != 0)
		return (-1);
	st = kvm->syms;
	if (st->ks != NULL) {
		if ((rc = _memstat_kallsyms_lookup(st->ks, name, addr)) <= 0)
			return (rc);
		goto none;
	}
	for (size_t i = 0; i < st->n; i++)
		if (st->hashes[i] == h && strcmp(st->syms[i].name, name) == 0) {
			*addr = st->syms[i].addr;
			return (0);
		}
none:
	return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM_NOSYMBOL,
	    "no symbol %s in the %s", name, kvm->system != NULL ?
	    kvm->system : "dump's kallsyms"));
}

bool
_memstat_kvm_code_only(struct memstat_kvm *kvm, const char *name)
{
	uint64_t addr;

	/* -N names the symbols: its own lack is the message already. */
	if (kvm->system != NULL ||
	    _memstat_kvm_symbol(kvm, "init_task", &addr) == 0 ||
	    kvm->syms == NULL)
		return (false);
	_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM_NOSYMBOL, "no symbol %s in "
	    "the dump's kallsyms, which name the kernel's code only (a "
	    "kernel built without CONFIG_KALLSYMS_ALL): name its System.map "
	    "with -N", name);
	return (true);
}

int
_memstat_kvm_symbols_each(struct memstat_kvm *kvm,
    void (*fn)(const char *name, uint64_t addr, void *arg), void *arg)
{
	if (kvm->syms == NULL && symtab_load(kvm) != 0)
		return (-1);
	if (kvm->syms->ks != NULL)
		return (_memstat_kallsyms_each(kvm->syms->ks, fn, arg));
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
