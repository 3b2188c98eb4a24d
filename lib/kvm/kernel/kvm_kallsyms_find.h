/*
 * kvm_kallsyms_find.h: where a kernel's kallsyms tables are, and in
 * which memory: the dump's, or a kernel image's; found by their
 * structure in the kernel's read-only data where VMCOREINFO names none
 * (before 6.0).
 */
#ifndef KVM_KALLSYMS_FIND_H
#define KVM_KALLSYMS_FIND_H

#include "kvm/dump/kvm_handle.h"

/* More than any kernel has (~200k with KALLSYMS_ALL); bounds a bad count. */
#define KVM_MAX_SYMS	(1u << 22)
/* KSYM_NAME_LEN since 6.1: no symbol's name is longer. */
#define KVM_MAX_NAME	512

struct kallsyms_tables {
	uint64_t	 num_syms;	/* a u32 */
	uint64_t	 names;
	uint64_t	 token_table;
	uint64_t	 token_index;	/* 256 u16 */
	uint64_t	 offsets;	/* num_syms s32 */
	uint64_t	 relative_base;	/* a u64; 0 since 7.0 (slot-relative) */
	bool		 long_names;	/* 2-byte lengths of big names (6.1) */
};

/*
 * The memory the tables are in: the dump's, at run-time addresses, or a
 * kernel image's (-N vmlinuz), at link-time ones.  read: 0, or -1.
 */
struct kallsyms_memory {
	int		(*read)(void *arg, uint64_t addr, void *buf,
			    size_t len);
	void		*arg;
	uint64_t	 stext;		/* _stext, in this memory */
	uint64_t	 data;		/* .data (init_uts_ns), or 0 */
	bool		 big_endian;	/* the kernel's byte order */
};

/*
 * n integers of size bytes (2, 4 or 8) read from m into v, an array of
 * uint16_t, int32_t or uint64_t, made this machine's from m's byte order.
 */
void	_memstat_kallsyms_ints(const struct kallsyms_memory *m, void *v,
	    size_t n, size_t size);

/* The dump's memory, _stext and init_uts_ns from its VMCOREINFO. */
int	_memstat_kvm_kallsyms_memory(struct memstat_kvm *kvm,
	    struct kallsyms_memory *m);

/*
 * The tables of a kernel whose VMCOREINFO names none, found between
 * _stext and .data and verified link by link: 0, or -1 (none found).
 */
int	_memstat_kvm_kallsyms_find(const struct kallsyms_memory *m,
	    struct kallsyms_tables *t);

#endif /* !KVM_KALLSYMS_FIND_H */
