/*
 * kvm_vmcoreinfo_text.h: VMCOREINFO as its text, for the readers that
 * find it themselves (an ELF core's note, a kdump file's sub-header):
 * lines "KEY=value", the kernel's own.
 */
#ifndef KVM_VMCOREINFO_TEXT_H
#define KVM_VMCOREINFO_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The VMCOREINFO note among len bytes of ELF notes (big-endian, or
 * little): a NUL-terminated copy into *text, or *text left as it was
 * when there is none.  Notes that run past the end end the search.  0,
 * or -1 when memory runs out.
 */
int	_memstat_vmcoreinfo_in_notes(const unsigned char *notes, size_t len,
	    bool big, char **text);
/*
 * The kernel's VMCOREINFO note in physical memory at paddr (read by
 * read), as crash_save_vmcoreinfo_init() made it: a note header, its
 * name "VMCOREINFO", its text with an OSRELEASE line, in the byte order
 * *big says or else in the other, which *big then says: the kernel's
 * (QEMU 7.2 labels a little-endian ppc64 guest's dump big-endian).  0
 * with a NUL-terminated copy in *text; 1: none there; -1 when memory
 * runs out.
 */
int	_memstat_vmcoreinfo_note_at(bool (*read)(void *arg, uint64_t paddr,
	    void *buf, size_t len), void *arg, uint64_t paddr, bool *big,
	    char **text);
/* A line "KEY=value": its value, *len bytes up to the newline, or NULL. */
const char *_memstat_vmcoreinfo_value(const char *text, const char *key,
	    size_t *len);
/* key's value NUL-terminated into buf[len]: 0, or -1 (kvm_vmcoreinfo_fn). */
int	_memstat_vmcoreinfo_line(const char *text, const char *key, char *buf,
	    size_t len);
/* SYMBOL(name)'s address: 0, or -1 when absent or not a number. */
int	_memstat_vmcoreinfo_symbol(const char *text, const char *name,
	    uint64_t *addr);

#endif /* !KVM_VMCOREINFO_TEXT_H */
