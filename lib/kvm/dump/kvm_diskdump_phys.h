/*
 * kvm_diskdump_phys.h: a kdump-compressed file's physical memory read
 * page by page, as kvm_elf_phys.h reads an ELF core's.  libkdumpfile
 * reads such a file through its page cache, searched entry by entry, two
 * reads of the file for each page and zlib's uncompress() for each: on
 * the objects of a 4 GiB flattened dump, two thirds of the walk.  Here a
 * page is found by its bit's rank in the dump's bitmap, a slab's pages
 * are read together and inflated by libdeflate (twice zlib's speed
 * on these pages), the last 1 MiB of them are kept, and a read of many
 * whole pages (the BTF) is inflated by every CPU, straight into the
 * caller's buffer.
 *
 * Only what is plainly read is read here: a 64-bit little-endian dump,
 * not split, whose page is stored whole or deflated.  Anything else
 * (another compression, a page the dump left out, a descriptor or page
 * that does not check) is libkdumpfile's, which says why it cannot read
 * it either.
 */
#ifndef KVM_DISKDUMP_PHYS_H
#define KVM_DISKDUMP_PHYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kvm/dump/kvm_dump_file.h"

struct diskdump_phys;

/*
 * The dump's page index if it is one this reads (else *dd is NULL and
 * every read is libkdumpfile's), its header's numbers in the order big
 * says (kvm_headers.c chose it when it checked them).  0, or -1 when
 * memory runs out.
 */
int	_memstat_diskdump_phys_load(struct diskdump_phys **dd,
	    const struct kvm_dump_file *f, bool big);
/* The end of the physical memory the dump's bitmap covers. */
uint64_t _memstat_diskdump_phys_end(const struct diskdump_phys *dd);
/*
 * The first page of [paddr, paddr + len) that the dump left out (its
 * bitmap's bit clear: makedumpfile -d), into *left: true, or false when
 * the dump holds them all (or dd is NULL).
 */
bool	_memstat_diskdump_phys_left_out(const struct diskdump_phys *dd,
	    uint64_t paddr, size_t len, uint64_t *left);
/* All of [paddr, paddr + len) into buf: true, or false. */
bool	_memstat_diskdump_phys_read(struct diskdump_phys *dd,
	    const struct kvm_dump_file *f, uint64_t paddr, void *buf,
	    size_t len);
/*
 * The dump's VMCOREINFO, where its sub-header places it (header version
 * 3 on: makedumpfile's and QEMU's) if that is one (an OSRELEASE line),
 * else the note among its ELF notes (4 on), *in_notes then true:
 * NUL-terminated into *text, NULL when neither holds it.  0, or -1 when
 * memory runs out.
 */
int	_memstat_diskdump_phys_vmcoreinfo(const struct diskdump_phys *dd,
	    const struct kvm_dump_file *f, char **text, bool *in_notes);
void	_memstat_diskdump_phys_free(struct diskdump_phys *dd);

#endif /* !KVM_DISKDUMP_PHYS_H */
