/*
 * kvm_elf_qemu.h: a QEMU ELF dump whose contents lie off from where its
 * headers say.  QEMU (7.2, Debian 12's) sizes an arm64 guest's notes as
 * the first CPU's times the CPUs, but writes each CPU's SVE note at the
 * vector length that CPU stopped with: where they differ, the notes it
 * writes are longer or shorter than the headers reserve, and everything
 * written after them (memory, then the section names) lies that many
 * bytes off.  crash and drgn read such a dump's memory from the wrong
 * place.
 */
#ifndef KVM_ELF_QEMU_H
#define KVM_ELF_QEMU_H

#include <stdint.h>

#include "kvm/dump/kvm_dump_file.h"

/*
 * How far past where its headers say the contents of f (size bytes)
 * after its note segment [note_off, note_off + note_len) lie: 0 unless
 * the file proves it.  QEMU writes its section names last, so the
 * file's last bytes are that table; where the section header puts it
 * elsewhere, the distance is the shift, taken only if the notes, read
 * from note_off, then end exactly note_len plus the shift on.
 */
int64_t	_memstat_elf_qemu_shift(const struct kvm_dump_file *f, uint64_t size,
	    uint64_t note_off, uint64_t note_len);

#endif /* !KVM_ELF_QEMU_H */
