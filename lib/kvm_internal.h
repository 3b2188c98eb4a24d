/*
 * kvm_internal.h: a Linux kernel core image, read the way drgn reads one:
 * one handle fed by pluggable parts: the dump reader (libkdumpfile, with
 * makedumpfile's flattened stream reassembled first), a symbol finder
 * (the kallsyms tables VMCOREINFO points at, or a System.map), and a type
 * finder (the dump's own BTF, or a BTF file, through libbpf).
 */
#ifndef KVM_INTERNAL_H
#define KVM_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kvm_kdumpfile.h"

#include "memstat_internal.h"

struct btf;
struct kvm_symtab;
struct memstat_kvm;

/*
 * Where the handle's memory comes from: libkdumpfile over a dump file
 * (kvm_open.c), or anything else that can read kernel virtual addresses
 * and name VMCOREINFO's symbols (the fuzz targets hold a dump in memory).
 * Both return 0, or -1 with the error recorded on the handle (symbol: -1
 * with nothing recorded; the caller says what was missing).
 */
struct kvm_reader {
	int	(*read)(struct memstat_kvm *kvm, uint64_t addr, void *buf,
		    size_t len);
	int	(*vmcoreinfo_symbol)(struct memstat_kvm *kvm,
		    const char *name, uint64_t *addr);
};

struct memstat_kvm {
	const struct kvm_reader	*reader;
	void			*reader_arg;	/* the reader's own state */
	kdump_ctx_t		*ctx;
	int			 fd;		/* the dump, or its reassembly */
	uint64_t		 kaslr;		/* KERNELOFFSET */
	struct kvm_symtab	*syms;		/* NULL: not loaded yet */
	char			*system;	/* -N, or NULL */
	struct btf		*btf;		/* NULL: not loaded yet */
	int			 error;		/* MEMSTAT_ERROR_* of err */
	char			 err[MEMSTAT_KVM_ERRLEN];
};

/* Record an error and its message; returns -1. */
int	_memstat_kvm_fail(struct memstat_kvm *kvm, int error, const char *fmt,
	    ...) __attribute__((format(printf, 3, 4)));

/* Read kernel virtual memory: 0, or -1 with the error recorded. */
int	_memstat_kvm_read(struct memstat_kvm *kvm, uint64_t addr, void *buf,
	    size_t len);
int	_memstat_kvm_read_u64(struct memstat_kvm *kvm, uint64_t addr,
	    uint64_t *v);
int	_memstat_kvm_read_u32(struct memstat_kvm *kvm, uint64_t addr,
	    uint32_t *v);
/* A NUL-terminated string of at most max - 1 bytes into buf. */
int	_memstat_kvm_read_string(struct memstat_kvm *kvm, uint64_t addr,
	    char *buf, size_t max);

/*
 * The tables a kdump or ELF header points at lie within fd's file (so
 * libkdumpfile allocates nothing the file does not hold): 0, or -1 with
 * the error recorded.  *diskdump says whether fd is a kdump file.
 */
int	_memstat_kvm_check_headers(struct memstat_kvm *kvm, int fd,
	    bool *diskdump);

/*
 * The descriptor to read the dump open on fd through: fd itself, or, for
 * makedumpfile's flattened stream, an unlinked temporary file holding its
 * reassembly (fd is closed).  -1, fd closed, with the error recorded.
 */
int	_memstat_kvm_unflatten(struct memstat_kvm *kvm, int fd);

/* A SYMBOL(name) line of VMCOREINFO: 0, or -1 (nothing recorded). */
int	_memstat_kvm_vmcoreinfo_symbol(struct memstat_kvm *kvm,
	    const char *name, uint64_t *addr);

/* A symbol's run-time address: 0, or -1 with KVM_NOSYMBOL recorded. */
int	_memstat_kvm_symbol(struct memstat_kvm *kvm, const char *name,
	    uint64_t *addr);
void	_memstat_kvm_symtab_free(struct kvm_symtab *st);

/* Where a struct member lives, from BTF. */
struct kvm_member {
	uint32_t	 offset;	/* bytes, of the containing word */
	uint32_t	 size;		/* bytes to read */
	uint32_t	 bit_shift;	/* bitfields: within that word */
	uint32_t	 bit_size;	/* 0: not a bitfield */
};
/* 0, or -1 with DATAERROR recorded (type or member missing). */
int	_memstat_kvm_member(struct memstat_kvm *kvm, const char *type,
	    const char *member, struct kvm_member *m);
void	_memstat_kvm_btf_free(struct memstat_kvm *kvm);

#endif /* !KVM_INTERNAL_H */
