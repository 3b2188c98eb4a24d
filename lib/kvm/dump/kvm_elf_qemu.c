/*
 * kvm_elf_qemu.c: where a QEMU ELF dump's contents lie (kvm_elf_qemu.h).
 * Every length here comes from the file: each is bounded before it is
 * read, and the notes walked are bounded by the file's note budget.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE		/* memmem */
#endif
#include <string.h>

#include "kvm/dump/kvm_elf_headers.h"
#include "kvm/dump/kvm_elf_qemu.h"
#include "kvm/dump/kvm_handle.h"

/* QEMU's whole table: "", ".shstrtab" and its own sections' names. */
#define MAX_NAMES	4096

/* Whether the notes at off end exactly len bytes on. */
static bool
notes_end_at(const struct kvm_dump_file *f, bool big, uint64_t off,
    uint64_t len)
{
	Elf64_Nhdr nh;
	uint64_t at = 0, step;

	while (at < len) {
		if (len - at < sizeof(nh) || _memstat_dump_pread_all(f, &nh,
		    sizeof(nh), off + at) != 0)
			return (false);
		_memstat_elf_nhdr(&nh, big);
		step = sizeof(nh) + (((uint64_t)nh.n_namesz + 3) & ~3ULL) +
		    (((uint64_t)nh.n_descsz + 3) & ~3ULL);
		if (nh.n_namesz == 0 || step > len - at)
			return (false);
		at += step;
	}
	return (true);
}

int64_t
_memstat_elf_qemu_shift(const struct kvm_dump_file *f, uint64_t size,
    uint64_t note_off, uint64_t note_len)
{
	Elf64_Ehdr eh;
	Elf64_Shdr sh;
	char names[MAX_NAMES];
	uint64_t at;
	int64_t shift;

	if (_memstat_dump_pread_all(f, &eh, sizeof(eh), 0) != 0 ||
	    !_memstat_elf_ehdr(&eh) || eh.e_shentsize != sizeof(sh) ||
	    eh.e_shstrndx == SHN_UNDEF || eh.e_shstrndx >= eh.e_shnum ||
	    eh.e_shoff > size ||
	    _memstat_dump_pread_all(f, &sh, sizeof(sh), eh.e_shoff +
	    (uint64_t)eh.e_shstrndx * sizeof(sh)) != 0)
		return (0);
	_memstat_elf_shdr(&sh, _memstat_elf_big(&eh));
	/* The names, the file's last bytes: "\0.shstrtab\0" among them. */
	if (sh.sh_type != SHT_STRTAB || sh.sh_size < 2 ||
	    sh.sh_size > sizeof(names) || sh.sh_size > size)
		return (0);
	at = size - sh.sh_size;
	if (at == sh.sh_offset || sh.sh_offset > (uint64_t)INT64_MAX ||
	    at > (uint64_t)INT64_MAX ||
	    _memstat_dump_pread_all(f, names, sh.sh_size, at) != 0 ||
	    names[0] != '\0' || names[sh.sh_size - 1] != '\0' ||
	    memmem(names, sh.sh_size, "\0.shstrtab\0", 11) == NULL)
		return (0);
	shift = (int64_t)at - (int64_t)sh.sh_offset;
	/* Only what follows the notes moved: the names lay after them. */
	if (note_len > MAX_NOTES || note_off > size ||
	    sh.sh_offset < note_off + note_len ||
	    (shift < 0 && (uint64_t)-shift >= note_len) ||
	    (shift > 0 && (uint64_t)shift > MAX_NOTES - note_len) ||
	    !notes_end_at(f, _memstat_elf_big(&eh), note_off,
	    note_len + (uint64_t)shift))
		return (0);
	return (shift);
}
