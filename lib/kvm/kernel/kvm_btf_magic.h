/*
 * kvm_btf_magic.h: whether a file is raw BTF, by its first bytes: the
 * symbols' loader (kvm_symbols.c) and the types' (kvm_btf.c) ask alike.
 */
#ifndef KVM_BTF_MAGIC_H
#define KVM_BTF_MAGIC_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Whether the n bytes at m begin a raw BTF file: its magic 0xeb9f in
 * either byte order (a big-endian kernel's starts eb 9f).
 */
static inline bool
_memstat_kvm_is_btf(const unsigned char *m, size_t n)
{
	return (n >= 2 && ((m[0] == 0x9f && m[1] == 0xeb) ||
	    (m[0] == 0xeb && m[1] == 0x9f)));
}

#endif /* !KVM_BTF_MAGIC_H */
