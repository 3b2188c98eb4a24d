/*
 * kvm_reader_elf.c: the memory reader over an ELF core whose segments
 * carry kernel virtual addresses, drgn's way: a pread(2) per PT_LOAD,
 * VMCOREINFO from its note.  That is /proc/kcore, the running kernel as
 * an ELF core, and an ELF vmcore written with virtual addresses (QEMU's
 * dump-guest-memory with paging); an ELF core of physical addresses only
 * is left to libkdumpfile, which walks the page tables.  So is the ELF the
 * kernel itself makes of the crashed one (/proc/vmcore, makedumpfile -E):
 * its segments carry virtual addresses, but only of the kernel image and
 * the direct map, each a linear map of physical memory, so vmalloc,
 * per-CPU and struct page addresses are found only through the page
 * tables.  Nothing is
 * mapped: /proc/kcore is larger than any address space, and a dump cut
 * under us must give a short read, not a SIGBUS.  Every count read from
 * the file is bounded before it is used.
 */
#include <sys/stat.h>
#include <sys/vfs.h>

#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kvm/dump/kvm_elf_headers.h"
#include "kvm/dump/kvm_elf_phys.h"
#include "kvm/dump/kvm_elf_segments.h"
#include "kvm/dump/kvm_readers.h"
#include "kvm/dump/kvm_vmcoreinfo_text.h"

/* procfs's f_type (linux/magic.h). */
#define PROC_SUPER_MAGIC	0x9fa0
/* Kernel virtual addresses have the top bit set (x86-64, arm64, ...). */
#define KERNEL_HALF	(1ULL << 63)

/*
 * The linear maps seen so far (virtual less physical address): /proc/vmcore
 * has two, the kernel image's and the direct map's.  One more, or a
 * segment with no physical address (/proc/kcore's vmalloc and vmemmap), is
 * a core of every mapping; so is one whose segments give no physical
 * address at all (every p_paddr 0), which only its virtual ones can read.
 */
struct linear_maps {
	uint64_t	 delta[2];
	size_t		 n;
	bool		 other, paddr;
};

/* /proc/kcore, not a file: the running kernel made its headers. */
static bool
on_procfs(int fd)
{
	struct statfs sfs;

	return (fstatfs(fd, &sfs) == 0 && sfs.f_type == PROC_SUPER_MAGIC);
}

struct elf_state {
	int		 fd;
	bool		 procfs;	/* /proc/kcore: the running kernel */
	struct elf_segment *segs;	/* by vaddr, none overlapping */
	size_t		 nsegs;
	/* /proc/kcore's segments of known physical address, by it. */
	struct elf_phys	 phys;
	char		*vmcoreinfo;	/* NUL-terminated */
	unsigned	 machine;	/* the ELF header's e_machine */
	bool		 big;		/* its EI_DATA: big-endian */
};

static void
state_free(struct elf_state *es)
{
	if (es == NULL)
		return;
	if (es->fd != -1)
		close(es->fd);
	free(es->segs);
	_memstat_elf_phys_free(&es->phys);
	free(es->vmcoreinfo);
	free(es);
}

/*
 * One PT_NOTE's notes, read and searched for VMCOREINFO; *budget bounds
 * the bytes of notes read in all.
 */
static int
note_segment(struct memstat_kvm *kvm, struct elf_state *es,
    const Elf64_Phdr *ph, size_t *budget)
{
	unsigned char *notes;
	int rc;

	if (ph->p_filesz == 0 || ph->p_filesz > *budget)
		return (0);
	*budget -= ph->p_filesz;
	if ((notes = malloc(ph->p_filesz)) == NULL)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_NOMEMORY, "%s",
		    strerror(ENOMEM)));
	if (_memstat_elf_pread_all(es->fd, notes, ph->p_filesz,
	    ph->p_offset) != 0)
		rc = _memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM, "ELF note: %s",
		    errno ? strerror(errno) : "past the end of the file");
	else if (es->vmcoreinfo == NULL && _memstat_vmcoreinfo_in_notes(notes,
	    ph->p_filesz, es->big, &es->vmcoreinfo) != 0)
		rc = _memstat_kvm_fail(kvm, MEMSTAT_ERROR_NOMEMORY, "%s",
		    strerror(ENOMEM));
	else
		rc = 0;
	free(notes);
	return (rc);
}

/* A PT_LOAD's mapping, counted among the linear maps. */
static void
linear_map_add(struct linear_maps *m, const Elf64_Phdr *ph)
{
	uint64_t delta = ph->p_vaddr - ph->p_paddr;

	if (ph->p_paddr != 0)
		m->paddr = true;
	if (ph->p_paddr == UINT64_MAX) {
		m->other = true;
		return;
	}
	for (size_t i = 0; i < m->n; i++)
		if (m->delta[i] == delta)
			return;
	if (m->n < 2)
		m->delta[m->n++] = delta;
	else
		m->other = true;
}

/* One program header: a PT_NOTE searched, a PT_LOAD kept. */
static int
add_phdr(struct memstat_kvm *kvm, struct elf_state *es, const Elf64_Phdr *ph,
    size_t i, uint64_t file_size, size_t *budget, bool *physical,
    struct linear_maps *maps)
{
	if (ph->p_type == PT_NOTE && note_segment(kvm, es, ph, budget) != 0)
		return (-1);
	if (ph->p_type != PT_LOAD)
		return (0);
	/*
	 * A segment not in the kernel's half, or one that runs past the
	 * top (kexec-tools 2.0.25 writes -1 for the arm64 image's address
	 * when it cannot tell it): a core to read by physical address.
	 * /proc/kcore's are the kernel's own addresses wherever they lie
	 * (s390x's direct map is at 0).
	 */
	if ((!es->procfs && (ph->p_vaddr & KERNEL_HALF) == 0) ||
	    ph->p_vaddr + ph->p_memsz < ph->p_vaddr ||
	    ph->p_vaddr + ph->p_filesz < ph->p_vaddr)
		*physical = true;
	linear_map_add(maps, ph);
	if (*physical || ph->p_filesz == 0)
		return (0);
	/*
	 * /proc/kcore places a segment at its address less PAGE_OFFSET:
	 * riscv64's vmalloc and struct pages, below its direct map, land
	 * past INT64_MAX, where pread(2) takes no offset.  They are read
	 * through the page tables, from the memory of known physical
	 * address (the direct map and the image).
	 */
	if (es->procfs && ph->p_offset > INT64_MAX - ph->p_filesz)
		return (0);
	if (es->procfs && ph->p_paddr != UINT64_MAX)
		es->phys.segs[es->phys.nsegs++] = (struct elf_segment){
		    ph->p_paddr, ph->p_filesz, ph->p_offset };
	if (ph->p_offset + ph->p_filesz < ph->p_offset ||
	    ph->p_offset + ph->p_filesz > file_size)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM,
		    "ELF segment %zu lies past the end of the file", i));
	es->segs[es->nsegs++] = (struct elf_segment){ ph->p_vaddr,
	    ph->p_filesz, ph->p_offset };
	return (0);
}

/*
 * The physical segments sorted, each that overlaps one kept before it
 * left out: the image's (KCORE_TEXT) lies in a RAM segment's memory.
 */
static void
phys_disjoint(struct elf_state *es)
{
	size_t kept = 0;

	struct elf_segment *v = es->phys.segs;

	if (es->phys.nsegs == 0)	/* a dump's: none kept */
		return;
	(void)_memstat_elf_segments_sort(v, es->phys.nsegs);
	for (size_t i = 0; i < es->phys.nsegs; i++)
		if (kept == 0 || v[i].addr >= v[kept - 1].addr +
		    v[kept - 1].size)
			v[kept++] = v[i];
	es->phys.nsegs = kept;
}

/*
 * The program headers: the PT_LOADs, every one at a kernel virtual
 * address, sorted, and the VMCOREINFO note.  0; KVM_READER_NOT_MINE (not
 * such a core); or -1.
 */
static int
read_headers(struct memstat_kvm *kvm, struct elf_state *es)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph[PHDR_BATCH];
	const struct elf_segment *overlap;
	struct stat st;
	size_t budget = MAX_NOTES, batch;
	uint64_t file_size = UINT64_MAX, count;
	struct linear_maps maps = { .n = 0 };
	bool physical = false;

	if (_memstat_elf_pread_all(es->fd, &eh, sizeof(eh), 0) != 0 ||
	    !_memstat_elf_ehdr(&eh) || eh.e_type != ET_CORE ||
	    eh.e_phentsize != sizeof(Elf64_Phdr) ||
	    (count = _memstat_elf_phdr_count(es->fd, &eh)) == 0)
		return (KVM_READER_NOT_MINE);
	es->machine = eh.e_machine;
	es->big = _memstat_elf_big(&eh);
	/*
	 * A regular file's segments lie within it; /proc/kcore is no file:
	 * its size is what the kernel made of its segments' offsets, which
	 * riscv64's, below the direct map, wrap past.
	 */
	es->procfs = on_procfs(es->fd);
	if (!es->procfs && fstat(es->fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    st.st_size > 0)
		file_size = (uint64_t)st.st_size;
	/* /proc/kcore's may overlap: room to split each in two. */
	if ((es->segs = calloc(count, (es->procfs ? 2 : 1) *
	    sizeof(*es->segs))) == NULL || (es->procfs &&
	    (es->phys.segs = calloc(count, sizeof(*es->phys.segs))) == NULL))
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_NOMEMORY, "%s",
		    strerror(ENOMEM)));
	/* Read PHDR_BATCH at a time: one pread each would be 65,000. */
	for (size_t i = 0; i < count; i += batch) {
		batch = count - i < PHDR_BATCH ? count - i : PHDR_BATCH;
		if (_memstat_elf_pread_all(es->fd, ph, batch * sizeof(*ph),
		    eh.e_phoff + i * sizeof(*ph)) != 0)
			return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM,
			    "ELF program headers %zu to %zu: %s", i,
			    i + batch - 1, errno ? strerror(errno) :
			    "past the end of the file"));
		_memstat_elf_phdrs(ph, batch, es->big);
		for (size_t j = 0; j < batch; j++)
			if (add_phdr(kvm, es, &ph[j], i + j, file_size,
			    &budget, &physical, &maps) != 0)
				return (-1);
	}
	/*
	 * Physical addresses, linear maps only, or no VMCOREINFO:
	 * libkdumpfile's.
	 */
	if (physical || (maps.paddr && !maps.other) || es->nsegs == 0 ||
	    es->vmcoreinfo == NULL)
		return (KVM_READER_NOT_MINE);
	if ((overlap = _memstat_elf_segments_sort(es->segs, es->nsegs)) !=
	    NULL && (!es->procfs ||
	    _memstat_elf_segments_nest(es->segs, &es->nsegs) != 0))
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM,
		    "ELF segments overlap at 0x%" PRIx64, overlap->addr));
	phys_disjoint(es);
	return (0);
}

/* kvm_phys_fn over /proc/kcore's segments of known physical address. */
static bool
phys_read(void *arg, uint64_t paddr, void *buf, size_t len)
{
	const struct elf_state *es = arg;

	return (_memstat_elf_phys_read(&es->phys, es->fd, paddr, buf, len));
}

/*
 * Up to the end of addr's page, read through the page tables (the
 * segments /proc/kcore cannot place): the bytes read, or 0.
 */
static size_t
read_walked(struct memstat_kvm *kvm, struct elf_state *es, uint64_t addr,
    void *buf, size_t len)
{
	uint64_t paddr, page;
	size_t n;

	if (es->phys.nsegs == 0 || kvm->translation == NULL ||
	    kvm->translation->walk(kvm, addr, &paddr, phys_read, es) != 0)
		return (0);
	page = 1ULL << kvm->translation->page_shift(kvm);
	n = page - (addr & (page - 1)) < len ? (size_t)(page - (addr &
	    (page - 1))) : len;
	return (phys_read(es, paddr, buf, n) ? n : 0);
}

static int
elf_reader_read(struct memstat_kvm *kvm, uint64_t addr, void *buf,
    size_t len)
{
	struct elf_state *es = kvm->reader_arg;
	const struct elf_segment *s;
	size_t n;

	/* A read may run from one segment into the next. */
	while (len > 0) {
		if ((s = _memstat_elf_segment_of(es->segs, es->nsegs,
		    addr)) == NULL && (n = read_walked(kvm, es, addr, buf,
		    len)) > 0) {
			buf = (char *)buf + n;
			addr += n;
			len -= n;
			continue;
		}
		if (s == NULL)
			return (_memstat_kvm_fail(kvm,
			    MEMSTAT_ERROR_KVM_SHORTREAD, "cannot read %zu "
			    "bytes at 0x%" PRIx64 ": no segment holds it", len,
			    addr));
		n = s->size - (addr - s->addr) < len ?
		    (size_t)(s->size - (addr - s->addr)) : len;
		if (_memstat_elf_pread_all(es->fd, buf, n, s->offset +
		    (addr - s->addr)) != 0)
			return (_memstat_kvm_fail(kvm,
			    MEMSTAT_ERROR_KVM_SHORTREAD, "cannot read %zu "
			    "bytes at 0x%" PRIx64 ": %s", n, addr, errno ?
			    strerror(errno) : "past the end of the file"));
		buf = (char *)buf + n;
		addr += n;
		len -= n;
	}
	return (0);
}

/* kvm_vmcoreinfo_fn over the note's text. */
static int
elf_reader_vmcoreinfo(void *arg, const char *key, char *buf, size_t len)
{
	return (_memstat_vmcoreinfo_line(((const struct elf_state *)arg)->
	    vmcoreinfo, key, buf, len));
}

static int
elf_reader_symbol(struct memstat_kvm *kvm, const char *name, uint64_t *addr)
{
	return (_memstat_vmcoreinfo_symbol(((struct elf_state *)kvm->
	    reader_arg)->vmcoreinfo, name, addr));
}

static const char *
elf_reader_arch_name(struct memstat_kvm *kvm)
{
	return (_memstat_elf_machine_name(
	    ((struct elf_state *)kvm->reader_arg)->machine));
}

static void
elf_reader_close(struct memstat_kvm *kvm)
{
	state_free(kvm->reader_arg);
	kvm->reader_arg = NULL;
}

static int
elf_reader_open(struct memstat_kvm *kvm, int fd)
{
	struct elf_state *es;
	size_t len;
	int rc;

	if ((es = calloc(1, sizeof(*es))) == NULL)
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_NOMEMORY, "%s",
		    strerror(ENOMEM)));
	es->fd = fd;
	if ((rc = read_headers(kvm, es)) != 0) {
		/* Not ours: the file goes back to the caller, untouched. */
		if (rc == KVM_READER_NOT_MINE)
			es->fd = -1;
		state_free(es);
		return (rc);
	}
	if (_memstat_vmcoreinfo_value(es->vmcoreinfo, "OSRELEASE", &len) ==
	    NULL) {
		state_free(es);
		return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM,
		    "no OSRELEASE in the core's VMCOREINFO: not a Linux "
		    "kernel's"));
	}
	/* /proc/kcore: the running kernel, whose memory moves under us. */
	kvm->live = es->procfs;
	kvm->arch.big_endian = es->big;
	kvm->reader_arg = es;
	return (0);
}

const struct kvm_reader _memstat_kvm_elf_reader = {
	.name = "ELF segments",
	.open = elf_reader_open,
	.read = elf_reader_read,
	.vmcoreinfo_symbol = elf_reader_symbol,
	.close = elf_reader_close,
	.arch_name = elf_reader_arch_name,
	.vmcoreinfo = elf_reader_vmcoreinfo,
};
