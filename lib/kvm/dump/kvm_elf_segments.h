/*
 * kvm_elf_segments.h: what the two ways of reading an ELF core share: a
 * whole pread(2), the machine's name, the program header count, and the
 * PT_LOADs sorted by
 * the address a reader looks them up by (kernel virtual for /proc/kcore
 * and paging dumps, physical for the others' direct map).
 */
#ifndef KVM_ELF_SEGMENTS_H
#define KVM_ELF_SEGMENTS_H

#include <elf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct elf_segment {
	uint64_t	 addr;		/* virtual or physical, the reader's */
	uint64_t	 size;		/* p_filesz: what the file holds */
	uint64_t	 offset;
};

/* All of len bytes at off: 0, or -1 with errno (0: the file ended). */
int	_memstat_elf_pread_all(int fd, void *buf, size_t len, uint64_t off);
/* The ELF machine's name as libkdumpfile says it, or NULL if unknown. */
const char *_memstat_elf_machine_name(unsigned machine);
/*
 * How many program headers: e_phnum, or with PN_XNUM (QEMU's paging dumps
 * have one per run of mapped pages, 65,000 for 256 MiB) section 0's
 * sh_info, as the ELF gABI says.  0 when the core gives none we take.
 */
uint64_t _memstat_elf_phdr_count(int fd, const Elf64_Ehdr *eh);
/*
 * segs[0..n) sorted by address: NULL, or the first segment that overlaps
 * the one before it.
 */
const struct elf_segment *_memstat_elf_segments_sort(
	    struct elf_segment *segs, size_t n);
/*
 * /proc/kcore maps some memory twice: on arm64 the kernel image lies in
 * the vmalloc range, and both are segments.  segs[0..*n) (room for 2 *
 * *n) made into segments that do not overlap, each address taken from
 * the smallest segment that holds it (the image's, not vmalloc's), and
 * sorted.  Only for the running kernel's own headers: a dump's that
 * overlap are refused.  0, or -1 when more than KCORE_SEGS were given.
 */
#define KCORE_SEGS	1024
int	_memstat_elf_segments_nest(struct elf_segment *segs, size_t *n);
/* The segment of sorted segs[0..n) holding addr, or NULL. */
const struct elf_segment *_memstat_elf_segment_of(
	    const struct elf_segment *segs, size_t n, uint64_t addr);

#endif /* !KVM_ELF_SEGMENTS_H */
