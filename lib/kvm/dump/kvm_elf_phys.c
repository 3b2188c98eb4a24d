/*
 * kvm_elf_phys.c: an ELF core's physical memory by pread(2) (see
 * kvm_elf_phys.h).  Anything this cannot read whole from one segment is
 * left to libkdumpfile, which says why it cannot either.
 */
#include <sys/stat.h>

#include <stdlib.h>
#include <string.h>

#include "kvm/dump/kvm_elf_headers.h"
#include "kvm/dump/kvm_elf_phys.h"
#include "kvm/dump/kvm_elf_qemu.h"
#include "kvm/dump/kvm_handle.h"

/*
 * The PT_LOADs of ph[0..n) that hold bytes within the file, kept, each
 * where it lies: moved by the notes' shift if after them.
 */
static void
keep_loads(struct elf_phys *ep, Elf64_Phdr *ph, size_t n,
    uint64_t file_size)
{
	for (size_t i = 0; i < n; i++) {
		if (ph[i].p_offset >= ep->notes_claimed_end)
			ph[i].p_offset += (uint64_t)ep->shift;
		if (ph[i].p_type != PT_LOAD || ph[i].p_filesz == 0 ||
		    ph[i].p_paddr + ph[i].p_filesz < ph[i].p_paddr ||
		    ph[i].p_offset > file_size ||
		    ph[i].p_filesz > file_size - ph[i].p_offset)
			continue;
		ep->segs[ep->nsegs++] = (struct elf_segment){
		    ph[i].p_paddr, ph[i].p_filesz, ph[i].p_offset };
	}
}

/* QEMU writes its notes first: where they and what follows them lie. */
static void
find_notes(struct elf_phys *ep, int fd, const Elf64_Phdr *first,
    uint64_t file_size)
{
	struct kvm_dump_file f = { .fd = fd, .flat = NULL };

	ep->notes_claimed_end = UINT64_MAX;
	if (first->p_type != PT_NOTE || first->p_offset > file_size ||
	    first->p_filesz > file_size - first->p_offset)
		return;
	ep->notes_claimed_end = first->p_offset + first->p_filesz;
	ep->shift = _memstat_elf_qemu_shift(&f, file_size, first->p_offset,
	    first->p_filesz);
	ep->notes_offset = first->p_offset;
	ep->notes_size = first->p_filesz + (uint64_t)ep->shift;
}

int
_memstat_elf_phys_load(struct elf_phys *ep, int fd)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph[PHDR_BATCH];
	struct stat st;
	uint64_t count;
	size_t batch;

	memset(ep, 0, sizeof(*ep));
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    _memstat_elf_pread_all(fd, &eh, sizeof(eh), 0) != 0 ||
	    !_memstat_elf_ehdr(&eh) || eh.e_phentsize != sizeof(Elf64_Phdr) ||
	    (count = _memstat_elf_phdr_count(fd, &eh)) == 0)
		return (0);
	if ((ep->segs = calloc(count, sizeof(*ep->segs))) == NULL)
		return (-1);
	ep->machine = eh.e_machine;
	for (uint64_t i = 0; i < count; i += batch) {
		batch = count - i < PHDR_BATCH ? count - i : PHDR_BATCH;
		if (_memstat_elf_pread_all(fd, ph, batch * sizeof(*ph),
		    eh.e_phoff + i * sizeof(*ph)) != 0) {
			_memstat_elf_phys_free(ep);
			return (0);
		}
		_memstat_elf_phdrs(ph, batch, _memstat_elf_big(&eh));
		if (i == 0)
			find_notes(ep, fd, ph, (uint64_t)st.st_size);
		keep_loads(ep, ph, batch, (uint64_t)st.st_size);
	}
	if (_memstat_elf_segments_sort(ep->segs, ep->nsegs) != NULL)
		_memstat_elf_phys_free(ep);
	return (0);
}

bool
_memstat_elf_phys_read(const struct elf_phys *ep, int fd, uint64_t paddr,
    void *buf, size_t len)
{
	const struct elf_segment *s = _memstat_elf_segment_of(ep->segs,
	    ep->nsegs, paddr);

	return (s != NULL && len <= s->size - (paddr - s->addr) &&
	    _memstat_elf_pread_all(fd, buf, len, s->offset +
	    (paddr - s->addr)) == 0);
}

void
_memstat_elf_phys_free(struct elf_phys *ep)
{
	free(ep->segs);
	ep->segs = NULL;
	ep->nsegs = 0;
}
