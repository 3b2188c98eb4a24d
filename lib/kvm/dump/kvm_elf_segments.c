/*
 * kvm_elf_segments.c: an ELF core's segments, found and read (see
 * kvm_elf_segments.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kvm/dump/kvm_dump_file.h"
#include "kvm/dump/kvm_elf_headers.h"
#include "kvm/dump/kvm_elf_segments.h"
#include "kvm/dump/kvm_handle.h"

int
_memstat_elf_pread_all(int fd, void *buf, size_t len, uint64_t off)
{
	const struct kvm_dump_file file = { .fd = fd };

	return (_memstat_dump_pread_all(&file, buf, len, off));
}

const char *
_memstat_elf_machine_name(unsigned machine)
{
	switch (machine) {
	case EM_X86_64:
		return ("x86_64");
	case EM_AARCH64:
		return ("aarch64");
	case EM_PPC64:
		return ("ppc64");
	case EM_S390:
		return ("s390x");
	case EM_RISCV:
		return ("riscv64");
	case EM_386:
		return ("ia32");
	case EM_ARM:
		return ("arm");
	default:
		return (NULL);
	}
}

uint64_t
_memstat_elf_phdr_count(int fd, const Elf64_Ehdr *eh)
{
	Elf64_Shdr sh0;

	if (eh->e_phnum != PN_XNUM)
		return (eh->e_phnum);
	if (eh->e_shoff == 0 || eh->e_shentsize != sizeof(sh0) ||
	    _memstat_elf_pread_all(fd, &sh0, sizeof(sh0), eh->e_shoff) != 0)
		return (0);
	_memstat_elf_shdr(&sh0, _memstat_elf_big(eh));
	if (sh0.sh_info > MAX_PHDRS)
		return (0);
	return (sh0.sh_info);
}

static int
by_addr(const void *a, const void *b)
{
	const struct elf_segment *x = a, *y = b;

	return ((x->addr > y->addr) - (x->addr < y->addr));
}

const struct elf_segment *
_memstat_elf_segments_sort(struct elf_segment *segs, size_t n)
{
	qsort(segs, n, sizeof(*segs), by_addr);
	for (size_t i = 1; i < n; i++)
		if (segs[i].addr < segs[i - 1].addr + segs[i - 1].size)
			return (&segs[i]);
	return (NULL);
}

static int
by_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return ((x > y) - (x < y));
}

int
_memstat_elf_segments_nest(struct elf_segment *segs, size_t *n)
{
	uint64_t edges[2 * KCORE_SEGS];
	struct elf_segment in[KCORE_SEGS];
	size_t nin = *n, nedges = 0, out = 0;

	if (nin > KCORE_SEGS)
		return (-1);
	memcpy(in, segs, nin * sizeof(*in));
	for (size_t i = 0; i < nin; i++) {
		edges[nedges++] = in[i].addr;
		edges[nedges++] = in[i].addr + in[i].size;
	}
	qsort(edges, nedges, sizeof(*edges), by_u64);
	/* Each piece between two edges, from the smallest segment on it. */
	for (size_t e = 0; e + 1 < nedges; e++) {
		uint64_t lo = edges[e], hi = edges[e + 1];
		const struct elf_segment *best = NULL;
		struct elf_segment *last = out > 0 ? &segs[out - 1] : NULL;

		if (lo == hi)
			continue;
		for (size_t i = 0; i < nin; i++)
			if (in[i].addr <= lo && hi - in[i].addr <= in[i].size &&
			    (best == NULL || in[i].size < best->size))
				best = &in[i];
		if (best == NULL)
			continue;
		if (last != NULL && last->addr + last->size == lo &&
		    last->offset + last->size == best->offset +
		    (lo - best->addr))
			last->size += hi - lo;
		else
			segs[out++] = (struct elf_segment){ lo, hi - lo,
			    best->offset + (lo - best->addr) };
	}
	*n = out;
	return (0);
}

const struct elf_segment *
_memstat_elf_segment_of(const struct elf_segment *segs, size_t n,
    uint64_t addr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct elf_segment *s = &segs[mid];

		if (addr < s->addr)
			hi = mid;
		else if (addr - s->addr >= s->size)
			lo = mid + 1;
		else
			return (s);
	}
	return (NULL);
}
