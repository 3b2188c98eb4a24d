/*
 * kvm_bytes.h: an unsigned integer from bytes in a byte order given, on a
 * machine of either: how a core image's numbers are read (its memory in
 * the kernel's order, kvm_handle.h; its headers in the file's, ELF's
 * EI_DATA), so that nothing above swaps bytes itself.
 */
#ifndef KVM_BYTES_H
#define KVM_BYTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The unsigned integer of size bytes (1 to 8) at p. */
static inline uint64_t
_memstat_uint_in(const void *p, size_t size, bool big_endian)
{
	const unsigned char *b = p;
	uint64_t v = 0;

	for (size_t i = 0; i < size; i++)
		v = v << 8 | b[big_endian ? i : size - 1 - i];
	return (v);
}

#endif /* !KVM_BYTES_H */
