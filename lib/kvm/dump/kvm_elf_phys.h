/*
 * kvm_elf_phys.h: an ELF core of physical memory read by pread(2), by its
 * PT_LOADs' physical addresses.  libkdumpfile reads such a core through
 * its page cache, searched entry by entry for every page of every read
 * and every page-table step: most of an object walk's time on a large
 * dump.  The kernel's direct map is linear (a virtual address there less
 * page_offset_base is the physical one), so a read of it needs neither.
 */
#ifndef KVM_ELF_PHYS_H
#define KVM_ELF_PHYS_H

#include "kvm/dump/kvm_elf_segments.h"

struct elf_phys {
	struct elf_segment *segs;	/* by physical address */
	size_t		 nsegs;
	unsigned	 machine;	/* e_machine */
	/*
	 * The notes QEMU writes first, as they lie: shift bytes from
	 * where the headers say, as is all after notes_claimed_end
	 * (kvm_elf_qemu.h).  notes_size 0: none first.
	 */
	uint64_t	 notes_offset, notes_size, notes_claimed_end;
	int64_t		 shift;
};

/*
 * fd's PT_LOADs, if it is a 64-bit ELF core (of either byte order) whose
 * segments lie in the file and do not overlap; else none (nsegs 0), and
 * every read goes to libkdumpfile.  The headers were checked already
 * (kvm_headers.c).  0, or -1 when memory runs out.
 */
int	_memstat_elf_phys_load(struct elf_phys *ep, int fd);
/* All of [paddr, paddr + len) from one segment into buf: true, or false. */
bool	_memstat_elf_phys_read(const struct elf_phys *ep, int fd,
	    uint64_t paddr, void *buf, size_t len);
void	_memstat_elf_phys_free(struct elf_phys *ep);

#endif /* !KVM_ELF_PHYS_H */
