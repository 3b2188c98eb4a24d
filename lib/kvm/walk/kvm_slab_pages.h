/*
 * kvm_slab_pages.h: every slab of the image found from the struct page
 * array, section by section (kvm_slab_pages.c): what the walks that
 * need all of a cache's slabs read, full ones included (SLUB lists only
 * the partial ones), and what finds slab_caches where no symbol names it.
 */
#ifndef KVM_SLAB_PAGES_H
#define KVM_SLAB_PAGES_H

#include "kvm/kernel/kvm_finders.h"
#include "kvm/kernel/kvm_memmap.h"

/* What tells a slab's first page, and the struct page array's shape. */
struct slab_pages {
	struct kvm_pages pages;
	struct kvm_member flags, page_type, slab_cache;
	struct kvm_member compound_head;	/* size 0: none in BTF */
	uint64_t	 slab_bit;	/* 1 << PG_slab, or 0: */
	uint32_t	 slab_type;	/* PGTY_slab in page_type's top byte */
};

/*
 * The layout, from BTF and VMCOREINFO: PG_slab in the page flags (to
 * 6.9), or the slab page type (6.10 on): 0, or -1 with the error
 * recorded (what says a page is a slab, named).
 */
int	_memstat_slab_pages_layout(struct memstat_kvm *kvm,
	    struct slab_pages *sp);

/*
 * fn for each slab's first page, in pfn order: its struct page's address
 * and bytes (sp->pages.page_size of them) and the slab_cache it names.  At most
 * *budget struct pages are read (NULL: all), pages a filtered dump left
 * out skipped.  fn returns 0 to go on, 1 to stop (then this returns 1),
 * -1 on failure (-1).  0 when every section was seen.
 */
int	_memstat_slab_pages_each(struct memstat_kvm *kvm,
	    const struct slab_pages *sp, uint64_t *budget,
	    int (*fn)(void *arg, uint64_t page, const uint8_t *bytes,
	    uint64_t cache), void *arg);

/*
 * Whether addr is a slab's memory: 1 if its page (or its compound page's
 * head) is a slab's, 0 if not or outside the direct map, -1 (error
 * recorded) if its struct page does not read.
 */
int	_memstat_slab_pages_holds(struct memstat_kvm *kvm,
	    const struct slab_pages *sp, uint64_t addr);

#endif /* !KVM_SLAB_PAGES_H */
