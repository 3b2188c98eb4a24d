/*
 * kvm_finders.h: the symbol finder (the kallsyms tables VMCOREINFO points
 * at, or -N's System.map or vmlinux) and the type finder (the dump's own
 * BTF, or -N's, through libbpf) of a core image.  Both read through the
 * handle's memory reader and load on first use.
 */
#ifndef KVM_FINDERS_H
#define KVM_FINDERS_H

#include "kvm/dump/kvm_handle.h"

/* A symbol's run-time address: 0, or -1 with KVM_NOSYMBOL recorded. */
int	_memstat_kvm_symbol(struct memstat_kvm *kvm, const char *name,
	    uint64_t *addr);
void	_memstat_kvm_symtab_free(struct kvm_symtab *st);
/*
 * Whether the symbols name the kernel's code only (kallsyms of a kernel
 * built without CONFIG_KALLSYMS_ALL: no init_task among them), so that a
 * data symbol missing says nothing of the kernel.  Then name's absence
 * recorded so (KVM_NOSYMBOL, -N named as the way out): true.
 */
bool	_memstat_kvm_code_only(struct memstat_kvm *kvm, const char *name);
/* Every symbol of the table, in its order (fixtures/tools/kallsyms). */
int	_memstat_kvm_symbols_each(struct memstat_kvm *kvm,
	    void (*fn)(const char *name, uint64_t addr, void *arg), void *arg);

/* Where a struct member lives, from BTF. */
struct kvm_member {
	uint32_t	 offset;	/* bytes, of the containing word */
	uint32_t	 size;		/* bytes to read */
	uint32_t	 bit_shift;	/* bitfields: within that word */
	uint32_t	 bit_size;	/* 0: not a bitfield */
};
/*
 * A member as an unsigned number in the image's byte order (at most 8
 * bytes), from its word's bytes, or from its struct's read already.
 */
static inline uint64_t
_memstat_kvm_member_word(const struct memstat_kvm *kvm, const void *word,
    const struct kvm_member *m)
{
	uint64_t v;

	v = _memstat_kvm_uint(kvm, word, m->size < 8 ? m->size : 8);
	if (m->bit_size != 0)
		v = (v >> m->bit_shift) & ((1ULL << m->bit_size) - 1);
	return (v);
}
static inline uint64_t
_memstat_kvm_member_of(const struct memstat_kvm *kvm, const void *bytes,
    const struct kvm_member *m)
{
	return (_memstat_kvm_member_word(kvm, (const char *)bytes + m->offset,
	    m));
}
/*
 * Several members at once: each want's member into the kvm_member at
 * offset off of the layout struct base (KVM_WANT() writes one).  0, or -1
 * at the first one missing.
 */
struct kvm_member_want {
	const char	*type, *member;
	size_t		 off;
};
#define KVM_WANT(layout, t, m, f) { t, m, offsetof(layout, f) }
int	_memstat_kvm_members(struct memstat_kvm *kvm,
	    const struct kvm_member_want *want, size_t n, void *base);
/* 0, or -1 with DATAERROR recorded (type or member missing). */
int	_memstat_kvm_member(struct memstat_kvm *kvm, const char *type,
	    const char *member, struct kvm_member *m);
/* A struct's size, from BTF: 0, or -1 with DATAERROR recorded. */
int	_memstat_kvm_struct_size(struct memstat_kvm *kvm, const char *type,
	    uint32_t *size);
/* An enumerator's value (KERNFS_LINK), from BTF: 0, or -1 (DATAERROR). */
int	_memstat_kvm_enum_value(struct memstat_kvm *kvm, const char *name,
	    int64_t *value);
/*
 * fn for each enumerator of enum type (migratetype), in order: its name
 * and value.  fn returns 0 to go on, else that is returned.  0, or -1
 * with the error recorded (no such enum).
 */
int	_memstat_kvm_enum_each(struct memstat_kvm *kvm, const char *type,
	    int (*fn)(void *arg, const char *name, int64_t value), void *arg);
/*
 * Where a struct keeps one pointer to struct target per index (per node,
 * per CPU): the pointer of index i is at offset + i * stride.  Found by
 * type, not by name: kmem_cache's node[] of pointers became, in 7.x,
 * per_node[] of structs holding the node pointer beside a barn pointer.
 */
struct kvm_array {
	uint32_t	 offset;
	uint32_t	 stride;
	uint32_t	 count;
};
int	_memstat_kvm_pointer_array(struct memstat_kvm *kvm, const char *type,
	    const char *target, struct kvm_array *a);
void	_memstat_kvm_btf_free(struct memstat_kvm *kvm);
/*
 * The kernel's BTF blob found by its header between _etext and _edata,
 * no larger than max (kvm_btf_find.c): 0 with [*start, *stop), or -1
 * with what was missing recorded.
 */
int	_memstat_kvm_btf_find(struct memstat_kvm *kvm, uint64_t max,
	    uint64_t *start, uint64_t *stop);

/* The kernel's HZ and its jiffies now (kvm_jiffies.c): 0, or -1. */
int	_memstat_kvm_hz(struct memstat_kvm *kvm, uint64_t *hz);
int	_memstat_kvm_jiffies(struct memstat_kvm *kvm, uint64_t *jiffies);

#endif /* !KVM_FINDERS_H */
