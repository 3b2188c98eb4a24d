/*
 * kvm_image.h: a kernel dump held in memory, for the fuzz targets of the
 * kallsyms decoder and the SLUB walk: the bytes a real walk read, by
 * address, and the VMCOREINFO symbols it asked for.  As a file:
 *
 *	'S' u8 n, name[n], u64 address		a VMCOREINFO SYMBOL()
 *	'M' u64 address, u32 n, bytes[n]	memory
 *
 * little-endian, records back to back; parsing stops at the first record
 * that does not fit.  kvm_seed writes such files from a real dump.
 */
#ifndef FUZZ_KVM_IMAGE_H
#define FUZZ_KVM_IMAGE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct memstat_kvm;
struct kvm_image;

struct kvm_image *kvm_image_parse(const uint8_t *data, size_t len);
void	kvm_image_free(struct kvm_image *img);

/* A handle whose reader is the image (which must outlive it). */
struct memstat_kvm *kvm_image_handle(struct kvm_image *img);

/*
 * From now on, every read and VMCOREINFO symbol kvm resolves is also
 * written to out as an image record (a seed).  patch_name, if not NULL, is
 * a symbol whose u32 reads as at most patch_max: a seed with fewer
 * kallsyms entries runs faster.
 */
void	kvm_image_record(struct memstat_kvm *kvm, FILE *out,
	    const char *patch_name, uint32_t patch_max);

#endif /* !FUZZ_KVM_IMAGE_H */
