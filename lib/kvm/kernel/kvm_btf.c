/*
 * kvm_btf.c: struct layouts for a core image, from BTF: the kernel's own
 * blob between __start_BTF and __stop_BTF (CONFIG_DEBUG_INFO_BTF, as
 * Debian builds it; found by its header where the symbols lack those,
 * kvm_btf_find.c), read out of the dump, or a raw BTF file or an ELF
 * with a .BTF section named by -N; for the running kernel whose image
 * holds none, the types it publishes in /sys/kernel/btf/vmlinux.  Nothing about a layout is assumed:
 * every offset and bitfield the SLUB walk uses is looked up here.
 */
#include <sys/mman.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "kvm/kernel/kvm_btf_magic.h"
#include "kvm/kernel/kvm_finders.h"

/* vmlinux BTF is a few MiB; more is not a kernel's. */
#define MAX_BTF		((uint64_t)64 << 20)

void
_memstat_kvm_btf_free(struct memstat_kvm *kvm)
{
	btf__free(kvm->btf);
	kvm->btf = NULL;
}

static bool
system_has_types(const char *path)
{
	unsigned char magic[4];
	FILE *f;
	bool yes;

	if ((f = fopen(path, "r")) == NULL)
		return (false);
	yes = fread(magic, 1, 4, f) == 4 && (_memstat_kvm_is_btf(magic, 4) ||
	    memcmp(magic, "\177ELF", 4) == 0);
	fclose(f);
	return (yes);
}

/* The running kernel's own types, as it publishes them. */
static int
btf_of_running_kernel(struct memstat_kvm *kvm)
{
	libbpf_print_fn_t old;

	old = libbpf_set_print(NULL);
	kvm->btf = btf__parse_raw("/sys/kernel/btf/vmlinux");
	libbpf_set_print(old);
	return (kvm->btf != NULL ? 0 : -1);
}

static int
btf_load(struct memstat_kvm *kvm)
{
	uint64_t start, stop;
	void *buf;

	if (kvm->system != NULL && system_has_types(kvm->system)) {
		libbpf_print_fn_t old;

		/* libbpf prints its complaints; the library never prints. */
		old = libbpf_set_print(NULL);
		kvm->btf = btf__parse(kvm->system, NULL);
		libbpf_set_print(old);
		if (kvm->btf != NULL)
			return (0);
		/*
		 * A vmlinux without .BTF (libbpf says ENOENT, from 1.2 on
		 * ENODATA): the dump's own types serve.
		 */
		if (errno != ENOENT && errno != ENODATA)
			return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
			    "%s: no usable BTF: %s", kvm->system,
			    strerror(errno)));
	}
	if (_memstat_kvm_symbol(kvm, "__start_BTF", &start) != 0 ||
	    _memstat_kvm_symbol(kvm, "__stop_BTF", &stop) != 0) {
		if (kvm->live && btf_of_running_kernel(kvm) == 0)
			return (0);
		/*
		 * Symbols found, but no __start_BTF among them: the blob is
		 * looked for by its header, and "no BTF" said only then.
		 */
		if (kvm->err.code != MEMSTAT_ERROR_KVM_NOSYMBOL ||
		    kvm->syms == NULL ||
		    _memstat_kvm_btf_find(kvm, MAX_BTF, &start, &stop) != 0)
			return (-1);
	}
	if (stop <= start || stop - start > MAX_BTF)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "__start_BTF..__stop_BTF is not a BTF blob"));
	/*
	 * Mapped whole at once: a few MiB touched page by page cost more in
	 * page faults than the read itself (under a hypervisor, 15 us each).
	 */
	if ((buf = mmap(NULL, stop - start, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0)) == MAP_FAILED)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_NOMEMORY, "%s",
		    strerror(ENOMEM)));
	if (_memstat_kvm_read(kvm, start, buf, stop - start) != 0) {
		munmap(buf, stop - start);
		return (-1);
	}
	kvm->btf = btf__new(buf, (uint32_t)(stop - start));
	munmap(buf, stop - start);
	if (kvm->btf == NULL)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "the dump's BTF does not parse: %s", strerror(errno)));
	return (0);
}

/* The type behind typedefs and const/volatile. */
static const struct btf_type *
resolved(const struct btf *btf, uint32_t id, uint32_t *idp)
{
	int rid = btf__resolve_type(btf, id);

	if (rid < 0)
		return (NULL);
	if (idp != NULL)
		*idp = (uint32_t)rid;
	return (btf__type_by_id(btf, (uint32_t)rid));
}

/*
 * Find member name in struct/union t, looking inside anonymous members
 * (slab.inuse and slab.slab_list sit in anonymous unions); bit offset and
 * the member's own index go out.  Depth-bounded: BTF read from a dump is
 * data, and a type may not contain itself.
 */
static bool
find_member(const struct btf *btf, const struct btf_type *t,
    const char *name, uint32_t base_bits, int depth, uint32_t *bits,
    const struct btf_type **owner, int *index)
{
	const struct btf_member *m = btf_members(t);
	const struct btf_type *mt;
	const char *mname;

	if (depth > 8)
		return (false);
	for (int i = 0; i < btf_vlen(t); i++, m++) {
		mname = btf__name_by_offset(btf, m->name_off);
		if (mname != NULL && strcmp(mname, name) == 0) {
			*bits = base_bits + btf_member_bit_offset(t, (uint32_t)i);
			*owner = t;
			*index = i;
			return (true);
		}
		if (mname == NULL || *mname == '\0') {
			mt = resolved(btf, m->type, NULL);
			if (mt != NULL && btf_is_composite(mt) &&
			    find_member(btf, mt, name, base_bits +
			    btf_member_bit_offset(t, (uint32_t)i), depth + 1,
			    bits, owner, index))
				return (true);
		}
	}
	return (false);
}

int
_memstat_kvm_member(struct memstat_kvm *kvm, const char *type,
    const char *member, struct kvm_member *m)
{
	const struct btf_type *t, *owner;
	uint32_t bits, bitsize;
	__s64 size;
	int id, index;

	if (kvm->btf == NULL && btf_load(kvm) != 0)
		return (-1);
	/* A struct, or a union (stackdepot's handle_parts). */
	if ((id = btf__find_by_name_kind(kvm->btf, type, BTF_KIND_STRUCT)) < 0)
		id = btf__find_by_name_kind(kvm->btf, type, BTF_KIND_UNION);
	if (id < 0 || (t = btf__type_by_id(kvm->btf, (uint32_t)id)) == NULL ||
	    !find_member(kvm->btf, t, member, 0, 0, &bits, &owner, &index))
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "no %s.%s in the kernel's BTF", type, member));
	bitsize = btf_member_bitfield_size(owner, (uint32_t)index);
	*m = (struct kvm_member){ 0 };
	if (bitsize != 0) {
		/* Read the aligned 32-bit word holding the field. */
		if (bitsize > 32 || (bits % 32) + bitsize > 32)
			return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
			    "%s.%s: a bitfield across words", type, member));
		m->offset = bits / 32 * 4;
		m->size = 4;
		/* A big-endian word's bits count from its highest. */
		m->bit_shift = kvm->arch.big_endian ? 32 - bits % 32 - bitsize :
		    bits % 32;
		m->bit_size = bitsize;
		return (0);
	}
	size = btf__resolve_size(kvm->btf, btf_members(owner)[index].type);
	/* Size 0: a flexible array (stack_record.entries[] before 6.8). */
	if (bits % 8 != 0 || size < 0 || size > (1 << 20))
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "%s.%s: unusable layout", type, member));
	m->offset = bits / 8;
	m->size = (uint32_t)size;
	return (0);
}

int
_memstat_kvm_members(struct memstat_kvm *kvm,
    const struct kvm_member_want *want, size_t n, void *base)
{
	for (size_t i = 0; i < n; i++)
		if (_memstat_kvm_member(kvm, want[i].type, want[i].member,
		    (struct kvm_member *)((char *)base + want[i].off)) != 0)
			return (-1);
	return (0);
}

int
_memstat_kvm_struct_size(struct memstat_kvm *kvm, const char *type,
    uint32_t *size)
{
	const struct btf_type *t;
	int id;

	if (kvm->btf == NULL && btf_load(kvm) != 0)
		return (-1);
	id = btf__find_by_name_kind(kvm->btf, type, BTF_KIND_STRUCT);
	if (id < 0 || (t = btf__type_by_id(kvm->btf, (uint32_t)id)) == NULL ||
	    t->size == 0 || t->size > (1U << 20))
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "no struct %s of a usable size in the kernel's BTF", type));
	*size = t->size;
	return (0);
}

int
_memstat_kvm_enum_value(struct memstat_kvm *kvm, const char *name,
    int64_t *value)
{
	const struct btf_type *t;
	const struct btf_enum *e;
	const char *ename;
	uint32_t n;

	if (kvm->btf == NULL && btf_load(kvm) != 0)
		return (-1);
	n = btf__type_cnt(kvm->btf);
	for (uint32_t id = 1; id < n; id++) {
		if ((t = btf__type_by_id(kvm->btf, id)) == NULL ||
		    !btf_is_enum(t))
			continue;
		e = btf_enum(t);
		for (int i = 0; i < btf_vlen(t); i++, e++)
			if ((ename = btf__name_by_offset(kvm->btf,
			    e->name_off)) != NULL && strcmp(ename, name) == 0) {
				*value = e->val;
				return (0);
			}
	}
	return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
	    "no enumerator %s in the kernel's BTF", name));
}

int
_memstat_kvm_enum_each(struct memstat_kvm *kvm, const char *type,
    int (*fn)(void *arg, const char *name, int64_t value), void *arg)
{
	const struct btf_type *t;
	const struct btf_enum *e;
	const char *ename;
	int32_t id;
	int rc;

	if (kvm->btf == NULL && btf_load(kvm) != 0)
		return (-1);
	if ((id = btf__find_by_name_kind(kvm->btf, type, BTF_KIND_ENUM)) < 0 ||
	    (t = btf__type_by_id(kvm->btf, (uint32_t)id)) == NULL)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "no enum %s in the kernel's BTF", type));
	e = btf_enum(t);
	for (int i = 0; i < btf_vlen(t); i++, e++)
		if ((ename = btf__name_by_offset(kvm->btf, e->name_off)) !=
		    NULL && (rc = fn(arg, ename, e->val)) != 0)
			return (rc);
	return (0);
}

/* Whether t is a pointer to struct target. */
static bool
points_to(const struct btf *btf, const struct btf_type *t, const char *target)
{
	const struct btf_type *to;
	const char *name;

	if (t == NULL || !btf_is_ptr(t) ||
	    (to = resolved(btf, t->type, NULL)) == NULL || !btf_is_struct(to))
		return (false);
	name = btf__name_by_offset(btf, to->name_off);
	return (name != NULL && strcmp(name, target) == 0);
}

/*
 * In an array member's element: the element itself a pointer to target
 * (offset 0), or a struct with such a pointer among its members.
 */
static bool
element_pointer(const struct btf *btf, const struct btf_type *elem,
    const char *target, uint32_t *offset)
{
	const struct btf_member *m;

	if (points_to(btf, elem, target)) {
		*offset = 0;
		return (true);
	}
	if (!btf_is_struct(elem))
		return (false);
	m = btf_members(elem);
	for (int i = 0; i < btf_vlen(elem); i++, m++)
		if (btf_member_bitfield_size(elem, (uint32_t)i) == 0 &&
		    points_to(btf, resolved(btf, m->type, NULL), target)) {
			*offset = btf_member_bit_offset(elem, (uint32_t)i) / 8;
			return (true);
		}
	return (false);
}

int
_memstat_kvm_pointer_array(struct memstat_kvm *kvm, const char *type,
    const char *target, struct kvm_array *a)
{
	const struct btf_member *m;
	const struct btf_type *t, *mt, *elem;
	const struct btf_array *arr;
	uint32_t inner;
	__s64 esize;
	int id;

	if (kvm->btf == NULL && btf_load(kvm) != 0)
		return (-1);
	id = btf__find_by_name_kind(kvm->btf, type, BTF_KIND_STRUCT);
	if (id < 0 || (t = btf__type_by_id(kvm->btf, (uint32_t)id)) == NULL)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
		    "no struct %s in the kernel's BTF", type));
	m = btf_members(t);
	for (int i = 0; i < btf_vlen(t); i++, m++) {
		if ((mt = resolved(kvm->btf, m->type, NULL)) == NULL ||
		    !btf_is_array(mt))
			continue;
		arr = btf_array(mt);
		elem = resolved(kvm->btf, arr->type, NULL);
		esize = btf__resolve_size(kvm->btf, arr->type);
		if (elem == NULL || esize <= 0 || esize > 4096 ||
		    arr->nelems == 0 || arr->nelems > 65536 ||
		    !element_pointer(kvm->btf, elem, target, &inner))
			continue;
		*a = (struct kvm_array){
			.offset = btf_member_bit_offset(t, (uint32_t)i) / 8 +
			    inner,
			.stride = (uint32_t)esize,
			.count = arr->nelems,
		};
		return (0);
	}
	return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_DATAERROR,
	    "no array of struct %s pointers in the kernel's struct %s",
	    target, type));
}
