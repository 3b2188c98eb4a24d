/*
 * kvm_elf_headers.c: ELF headers made this machine's (kvm_elf_headers.h).
 * Each field is taken from the header's bytes, kept aside, at its offset
 * and size in the struct: the same layout in either order.
 */
#include <stddef.h>
#include <string.h>

#include "kvm/dump/kvm_bytes.h"
#include "kvm/dump/kvm_elf_headers.h"

#define FIELD(raw, type, field, big) \
	_memstat_uint_in((raw) + offsetof(type, field), \
	    sizeof(((type *)0)->field), (big))

bool
_memstat_elf_ehdr(Elf64_Ehdr *eh)
{
	unsigned char raw[sizeof(*eh)];
	bool big;

	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    (eh->e_ident[EI_DATA] != ELFDATA2LSB &&
	    eh->e_ident[EI_DATA] != ELFDATA2MSB))
		return (false);
	big = eh->e_ident[EI_DATA] == ELFDATA2MSB;
	memcpy(raw, eh, sizeof(raw));
	eh->e_type = (Elf64_Half)FIELD(raw, Elf64_Ehdr, e_type, big);
	eh->e_machine = (Elf64_Half)FIELD(raw, Elf64_Ehdr, e_machine, big);
	eh->e_version = (Elf64_Word)FIELD(raw, Elf64_Ehdr, e_version, big);
	eh->e_entry = FIELD(raw, Elf64_Ehdr, e_entry, big);
	eh->e_phoff = FIELD(raw, Elf64_Ehdr, e_phoff, big);
	eh->e_shoff = FIELD(raw, Elf64_Ehdr, e_shoff, big);
	eh->e_flags = (Elf64_Word)FIELD(raw, Elf64_Ehdr, e_flags, big);
	eh->e_ehsize = (Elf64_Half)FIELD(raw, Elf64_Ehdr, e_ehsize, big);
	eh->e_phentsize = (Elf64_Half)FIELD(raw, Elf64_Ehdr, e_phentsize,
	    big);
	eh->e_phnum = (Elf64_Half)FIELD(raw, Elf64_Ehdr, e_phnum, big);
	eh->e_shentsize = (Elf64_Half)FIELD(raw, Elf64_Ehdr, e_shentsize,
	    big);
	eh->e_shnum = (Elf64_Half)FIELD(raw, Elf64_Ehdr, e_shnum, big);
	eh->e_shstrndx = (Elf64_Half)FIELD(raw, Elf64_Ehdr, e_shstrndx, big);
	return (true);
}

void
_memstat_elf_phdrs(Elf64_Phdr *ph, size_t n, bool big)
{
	unsigned char raw[sizeof(*ph)];

	for (size_t i = 0; i < n; i++) {
		memcpy(raw, &ph[i], sizeof(raw));
		ph[i].p_type = (Elf64_Word)FIELD(raw, Elf64_Phdr, p_type, big);
		ph[i].p_flags = (Elf64_Word)FIELD(raw, Elf64_Phdr, p_flags,
		    big);
		ph[i].p_offset = FIELD(raw, Elf64_Phdr, p_offset, big);
		ph[i].p_vaddr = FIELD(raw, Elf64_Phdr, p_vaddr, big);
		ph[i].p_paddr = FIELD(raw, Elf64_Phdr, p_paddr, big);
		ph[i].p_filesz = FIELD(raw, Elf64_Phdr, p_filesz, big);
		ph[i].p_memsz = FIELD(raw, Elf64_Phdr, p_memsz, big);
		ph[i].p_align = FIELD(raw, Elf64_Phdr, p_align, big);
	}
}

void
_memstat_elf_shdr(Elf64_Shdr *sh, bool big)
{
	unsigned char raw[sizeof(*sh)];

	memcpy(raw, sh, sizeof(raw));
	sh->sh_name = (Elf64_Word)FIELD(raw, Elf64_Shdr, sh_name, big);
	sh->sh_type = (Elf64_Word)FIELD(raw, Elf64_Shdr, sh_type, big);
	sh->sh_flags = FIELD(raw, Elf64_Shdr, sh_flags, big);
	sh->sh_addr = FIELD(raw, Elf64_Shdr, sh_addr, big);
	sh->sh_offset = FIELD(raw, Elf64_Shdr, sh_offset, big);
	sh->sh_size = FIELD(raw, Elf64_Shdr, sh_size, big);
	sh->sh_link = (Elf64_Word)FIELD(raw, Elf64_Shdr, sh_link, big);
	sh->sh_info = (Elf64_Word)FIELD(raw, Elf64_Shdr, sh_info, big);
	sh->sh_addralign = FIELD(raw, Elf64_Shdr, sh_addralign, big);
	sh->sh_entsize = FIELD(raw, Elf64_Shdr, sh_entsize, big);
}

void
_memstat_elf_nhdr(Elf64_Nhdr *nh, bool big)
{
	unsigned char raw[sizeof(*nh)];

	memcpy(raw, nh, sizeof(raw));
	nh->n_namesz = (Elf64_Word)FIELD(raw, Elf64_Nhdr, n_namesz, big);
	nh->n_descsz = (Elf64_Word)FIELD(raw, Elf64_Nhdr, n_descsz, big);
	nh->n_type = (Elf64_Word)FIELD(raw, Elf64_Nhdr, n_type, big);
}
