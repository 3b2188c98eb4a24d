/*
 * kvm_handle.h: a Linux kernel core image, read the way drgn reads one:
 * one handle fed by pluggable parts.  This is the bottom of the core-image
 * code (lib/kvm/dump/, the dump's floor): the handle, the memory reader
 * seam, and the read and fail helpers that everything above calls (the
 * readers, the architectures, the symbol and type finders, the walks).
 * It calls nothing above it: what the floors above know (the
 * architecture's translation) they hand down through the seam.
 */
#ifndef KVM_HANDLE_H
#define KVM_HANDLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kvm/dump/kvm_arch_state.h"
#include "kvm/dump/kvm_bytes.h"
#include "model/memstat_internal.h"

/*
 * An ELF core's bounds, the same for the header checks (kvm_headers.c)
 * and the segment reader: program headers a dump may have (QEMU's paging
 * dumps have one per run of mapped pages, 65,000 for a 256 MiB guest,
 * about a million for 4 GiB; they must also fit in the file), how many
 * are read at once, and the bytes of notes read in all, more than any
 * kernel's.
 */
#define MAX_PHDRS	(1u << 24)
#define PHDR_BATCH	512
#define MAX_NOTES	(1u << 20)

struct btf;
struct kvm_symtab;
struct memstat_kvm;

/*
 * Where the handle's memory comes from: libkdumpfile over a dump file
 * (kvm_reader_kdump.c), or anything else that can read kernel virtual
 * addresses and name VMCOREINFO's symbols (the fuzz targets hold a dump
 * in memory).  memstat_kvm_open() offers the file to each reader of
 * kvm_readers.h in turn.
 *
 * open: take the core image open on fd, deciding by content: 0 (fd is the
 * reader's now), KVM_READER_NOT_MINE (fd untouched), or -1 with the error
 * recorded (fd closed).  read and vmcoreinfo_symbol: 0, or -1 with the
 * error recorded (symbol: -1 with nothing recorded; the caller says what
 * was missing).  close may be NULL.
 */
#define KVM_READER_NOT_MINE	1

/*
 * A VMCOREINFO value by its key ("NUMBER(VA_BITS)"), NUL-terminated into
 * buf: 0, or -1 when the image has no such line (or a longer one).
 */
typedef int (*kvm_vmcoreinfo_fn)(void *arg, const char *key, char *buf,
    size_t len);
/* All of [paddr, paddr + len) of physical memory into buf: true, or false. */
typedef bool (*kvm_phys_fn)(void *arg, uint64_t paddr, void *buf, size_t len);

/*
 * What the file says of itself, for the kernel's floor to choose the
 * architecture by once open (kvm_open.c): arch_name, the architecture
 * the file names in libkdumpfile's words ("x86_64", "aarch64"), or NULL;
 * vmcoreinfo, its VMCOREINFO lines, called with reader_arg; arch_found,
 * told the architecture chosen (it may be NULL): 0, or -1 with the error
 * recorded.
 *
 * vmcoreinfo_in_ram (NULL: the reader always has VMCOREINFO, or fails to
 * open without it): where the dump carries none (QEMU's dumps of s390x,
 * ppc64 and riscv64 guests, whose machines have no vmcoreinfo device),
 * the kernel's own note looked for in the dump's memory, first where the
 * architecture's pointer to it says (at, with the reader's physical
 * memory: 0 and *paddr, or -1; at may be NULL), then at each page's
 * start.  0: the reader has VMCOREINFO; -1 with why recorded.
 */
typedef int (*kvm_vmcoreinfo_at_fn)(kvm_phys_fn read, void *arg, bool big,
    uint64_t *paddr);
struct kvm_reader {
	const char *name;
	int	(*open)(struct memstat_kvm *kvm, int fd);
	int	(*read)(struct memstat_kvm *kvm, uint64_t addr, void *buf,
		    size_t len);
	int	(*vmcoreinfo_symbol)(struct memstat_kvm *kvm,
		    const char *name, uint64_t *addr);
	void	(*close)(struct memstat_kvm *kvm);
	const char *(*arch_name)(struct memstat_kvm *kvm);
	kvm_vmcoreinfo_fn vmcoreinfo;
	int	(*arch_found)(struct memstat_kvm *kvm, const char *name);
	int	(*vmcoreinfo_in_ram)(struct memstat_kvm *kvm,
		    kvm_vmcoreinfo_at_fn at);
};

/*
 * The kernel's own translation of its addresses, which the architectures'
 * floor hands the handle once it knows the image's (kvm_arch.h), as
 * drgn's program hands its memory reader a page-table walk: a reader of
 * physical memory asks it before its own translation.  linear: the direct
 * map and the kernel image, by subtraction (true with *paddr); walk: the
 * image's page tables, read by read (0 with *paddr; 1 where the
 * architecture leaves the walk to the reader; -1 not mapped, nothing
 * recorded); page_shift: the kernel's page size in bits.
 */
struct kvm_translation {
	bool	(*linear)(const struct memstat_kvm *kvm, uint64_t vaddr,
		    uint64_t *paddr);
	int	(*walk)(struct memstat_kvm *kvm, uint64_t vaddr,
		    uint64_t *paddr, kvm_phys_fn read, void *arg);
	unsigned (*page_shift)(const struct memstat_kvm *kvm);
};

struct memstat_kvm {
	const struct kvm_reader	*reader;
	void			*reader_arg;	/* the reader's own state */
	uint64_t		 kaslr;		/* KERNELOFFSET */
	struct kvm_symtab	*syms;		/* NULL: not loaded yet */
	char			*system;	/* -N, or NULL */
	struct btf		*btf;		/* NULL: not loaded yet */
	bool			 live;		/* the running kernel's memory */
	int			 flags;		/* memstat_kvm_setflags()'s */
	struct kvm_arch_state	 arch;		/* kvm_arch.h */
	/* The architecture's, once set up; NULL: none known yet. */
	const struct kvm_translation *translation;
	/* slab_caches, where found by structure (kvm_slub_find.c), or 0. */
	uint64_t		 slab_caches;
	struct memstat_err	 err;		/* the last failure */
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
/* An unsigned integer of size bytes (1 to 8) of the image, in its order. */
static inline uint64_t
_memstat_kvm_uint(const struct memstat_kvm *kvm, const void *p, size_t size)
{
	return (_memstat_uint_in(p, size, kvm->arch.big_endian));
}
static inline uint64_t
_memstat_kvm_u64(const struct memstat_kvm *kvm, const void *p)
{
	return (_memstat_kvm_uint(kvm, p, 8));
}
static inline uint32_t
_memstat_kvm_u32(const struct memstat_kvm *kvm, const void *p)
{
	return ((uint32_t)_memstat_kvm_uint(kvm, p, 4));
}
/* A NUL-terminated string of at most max - 1 bytes into buf. */
int	_memstat_kvm_read_string(struct memstat_kvm *kvm, uint64_t addr,
	    char *buf, size_t max);

/*
 * The running kernel's memory (/proc/kcore) moves while it is walked: a
 * list may end elsewhere, a count may change between two reads.  After a
 * part of a walk failed on bad data or a short read, or found its counts
 * moved: whether to walk that part again.  True on the live kernel for
 * fewer than KVM_LIVE_TRIES tries; never for a dump, which does not move.
 */
#define KVM_LIVE_TRIES	8
bool	_memstat_kvm_again(struct memstat_kvm *kvm, int *tries);
/*
 * Whether the read that failed last was of a page a dump does not hold
 * (a filtered dump left it out, makedumpfile -d): a walk passes over
 * what it was part of and marks it read in part.  Never on the live
 * kernel, where such a read is the walk's to try again.
 */
bool	_memstat_kvm_left_out(const struct memstat_kvm *kvm);
/* The same, and if so *marked set: the walk's "read in part". */
bool	_memstat_kvm_left_out_mark(const struct memstat_kvm *kvm,
	    bool *marked);

/*
 * A list walk's guard against a loop that misses its head, whatever count
 * a damaged dump claims for the list (Brent's: the entry saved at each
 * power of two steps comes round again within twice the loop's length).
 * No list entry is at 0.
 */
struct kvm_loop {
	uint64_t	 saved, power, steps;
};
#define KVM_LOOP_INIT	{ 0, 1, 0 }
static inline bool
_memstat_kvm_loops(struct kvm_loop *g, uint64_t entry)
{
	if (entry == g->saved)
		return (true);
	if (++g->steps == g->power) {
		g->saved = entry;
		g->power *= 2;
		g->steps = 0;
	}
	return (false);
}

/* A SYMBOL(name) line of VMCOREINFO: 0, or -1 (nothing recorded). */
int	_memstat_kvm_vmcoreinfo_symbol(struct memstat_kvm *kvm,
	    const char *name, uint64_t *addr);

#endif /* !KVM_HANDLE_H */
