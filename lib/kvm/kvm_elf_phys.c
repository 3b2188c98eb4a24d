/*
 * kvm_elf_phys.c: an ELF core's physical memory by pread(2) (see
 * kvm_elf_phys.h).  Anything this cannot read whole from one segment is
 * left to libkdumpfile, which says why it cannot either.
 */
#include <sys/stat.h>

#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kvm/kvm_elf_phys.h"
#include "kvm/kvm_handle.h"

static bool
pread_whole(int fd, void *buf, size_t len, uint64_t off)
{
	ssize_t n;

	for (size_t done = 0; done < len; done += (size_t)n) {
		if (off + done > (uint64_t)INT64_MAX)
			return (false);
		n = pread(fd, (char *)buf + done, len - done,
		    (off_t)(off + done));
		if (n < 0 && errno == EINTR) {
			n = 0;
			continue;
		}
		if (n <= 0)
			return (false);
	}
	return (true);
}

static int
by_paddr(const void *a, const void *b)
{
	const struct elf_phys_segment *x = a, *y = b;

	return ((x->paddr > y->paddr) - (x->paddr < y->paddr));
}

/* The program header count: e_phnum, or section 0's sh_info (PN_XNUM). */
static uint64_t
phdr_count(int fd, const Elf64_Ehdr *eh)
{
	Elf64_Shdr sh0;

	if (eh->e_phnum != PN_XNUM)
		return (eh->e_phnum);
	if (eh->e_shoff == 0 || !pread_whole(fd, &sh0, sizeof(sh0),
	    eh->e_shoff) || sh0.sh_info > MAX_PHDRS)
		return (0);
	return (sh0.sh_info);
}

/* The PT_LOADs of [first, first + n) that hold bytes, kept. */
static void
keep_loads(struct elf_phys *ep, const Elf64_Phdr *ph, size_t n,
    uint64_t file_size)
{
	for (size_t i = 0; i < n; i++) {
		if (ph[i].p_type != PT_LOAD || ph[i].p_filesz == 0 ||
		    ph[i].p_paddr + ph[i].p_filesz < ph[i].p_paddr ||
		    ph[i].p_offset > file_size ||
		    ph[i].p_filesz > file_size - ph[i].p_offset)
			continue;
		ep->segs[ep->nsegs++] = (struct elf_phys_segment){
		    ph[i].p_paddr, ph[i].p_filesz, ph[i].p_offset };
	}
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
	    !pread_whole(fd, &eh, sizeof(eh), 0) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh.e_phentsize != sizeof(Elf64_Phdr) ||
	    (count = phdr_count(fd, &eh)) == 0)
		return (0);
	if ((ep->segs = calloc(count, sizeof(*ep->segs))) == NULL)
		return (-1);
	for (uint64_t i = 0; i < count; i += batch) {
		batch = count - i < PHDR_BATCH ? count - i : PHDR_BATCH;
		if (!pread_whole(fd, ph, batch * sizeof(*ph), eh.e_phoff +
		    i * sizeof(*ph))) {
			_memstat_elf_phys_free(ep);
			return (0);
		}
		keep_loads(ep, ph, batch, (uint64_t)st.st_size);
	}
	qsort(ep->segs, ep->nsegs, sizeof(*ep->segs), by_paddr);
	for (size_t i = 1; i < ep->nsegs; i++)
		if (ep->segs[i].paddr < ep->segs[i - 1].paddr +
		    ep->segs[i - 1].size) {
			_memstat_elf_phys_free(ep);
			return (0);
		}
	return (0);
}

bool
_memstat_elf_phys_read(const struct elf_phys *ep, int fd, uint64_t paddr,
    void *buf, size_t len)
{
	size_t lo = 0, hi = ep->nsegs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct elf_phys_segment *s = &ep->segs[mid];

		if (paddr < s->paddr)
			hi = mid;
		else if (paddr - s->paddr >= s->size)
			lo = mid + 1;
		else
			return (len <= s->size - (paddr - s->paddr) &&
			    pread_whole(fd, buf, len, s->offset +
			    (paddr - s->paddr)));
	}
	return (false);
}

void
_memstat_elf_phys_free(struct elf_phys *ep)
{
	free(ep->segs);
	ep->segs = NULL;
	ep->nsegs = 0;
}
