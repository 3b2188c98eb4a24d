/*
 * kvm_elf_headers.h: an ELF file's headers, read as its bytes, made this
 * machine's from the file's own byte order (EI_DATA): an ELF core's and
 * a kernel image's, read on a machine of either order.
 */
#ifndef KVM_ELF_HEADERS_H
#define KVM_ELF_HEADERS_H

#include <elf.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * The file header, read as the file's first bytes, made this machine's
 * in place: false (untouched) unless it is a 64-bit ELF header of
 * either byte order.
 */
bool	_memstat_elf_ehdr(Elf64_Ehdr *eh);
/* Whether the file of header eh (made this machine's) is big-endian. */
static inline bool
_memstat_elf_big(const Elf64_Ehdr *eh)
{
	return (eh->e_ident[EI_DATA] == ELFDATA2MSB);
}
/* n program headers, a section header, a note header, made so in place. */
void	_memstat_elf_phdrs(Elf64_Phdr *ph, size_t n, bool big);
void	_memstat_elf_shdr(Elf64_Shdr *sh, bool big);
void	_memstat_elf_nhdr(Elf64_Nhdr *nh, bool big);

#endif /* !KVM_ELF_HEADERS_H */
