/*
 * kvm_image.h: a kernel image named by -N (a vmlinuz, or a vmlinux), as
 * memory at its link-time addresses, for the kallsyms finder.
 */
#ifndef KVM_IMAGE_H
#define KVM_IMAGE_H

#include <stdbool.h>
#include <stdio.h>

#include "kvm/dump/kvm_handle.h"

struct kvm_image;

/* Whether the first n bytes h are an x86 bzImage's (a vmlinuz). */
bool	_memstat_kvm_is_bzimage(const unsigned char *h, size_t n);
/*
 * Whether they are an arm64 or riscv64 kernel Image's (their boot
 * header's magic at 56): "arm64", "riscv64", or NULL.
 */
const char *_memstat_kvm_boot_image(const unsigned char *h, size_t n);
/* f read whole (a vmlinuz decompressed): 0, or -1 with the error. */
int	_memstat_kvm_image_load(struct memstat_kvm *kvm, FILE *f,
	    struct kvm_image **img);
/* len bytes at link-time address addr: 0, or -1 (not in the image). */
int	_memstat_kvm_image_read(void *img, uint64_t addr, void *buf,
	    size_t len);
void	_memstat_kvm_image_free(struct kvm_image *img);

#endif /* !KVM_IMAGE_H */
