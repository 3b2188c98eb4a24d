/*
 * kvm_seed: write a fuzz seed (kvm_image.h) from a real dump: what the
 * kallsyms decoder reads for a look-up and for every symbol (with
 * kallsyms_num_syms cut to a few thousand: the seed stays small), or
 * what the SLUB walk, or the free-list walk (vmstat-frag -t), reads once
 * the dump's symbols and types are loaded.
 *
 *	kvm_seed kallsyms|slub|buddy dump out
 */
#include <err.h>
#include <stdio.h>
#include <string.h>

#include "kvm_image.h"
#include "kvm/kernel/kvm_finders.h"

static void
ignore(const char *name, uint64_t addr, void *arg)
{
	(void)name;
	(void)addr;
	(void)arg;
}

int
main(int argc, char *argv[])
{
	char errbuf[MEMSTAT_KVM_ERRLEN];
	struct memory_type_list *list;
	struct memstat_kvm *kvm;
	struct kvm_member m;
	uint64_t addr;
	FILE *out;

	if (argc != 4 || (strcmp(argv[1], "kallsyms") != 0 &&
	    strcmp(argv[1], "slub") != 0 && strcmp(argv[1], "buddy") != 0))
		errx(1, "usage: kvm_seed kallsyms|slub|buddy dump out");
	if ((kvm = memstat_kvm_open(argv[2], NULL, errbuf)) == NULL)
		errx(1, "%s: %s", argv[2], errbuf);
	if ((out = fopen(argv[3], "wb")) == NULL)
		err(1, "%s", argv[3]);
	if (strcmp(argv[1], "kallsyms") == 0) {
		kvm_image_record(kvm, out, "kallsyms_num_syms", 3000);
		if (_memstat_kvm_symbol(kvm, "slab_caches", &addr) != 0 &&
		    kvm->syms == NULL)
			errx(1, "%s: %s", argv[2], memstat_kvm_geterr(kvm));
		/*
		 * The offsets too, which only each() reads whole; where the
		 * count was cut (VMCOREINFO names the tables), so that the
		 * seed stays small.
		 */
		if (_memstat_kvm_vmcoreinfo_symbol(kvm, "kallsyms_num_syms",
		    &addr) == 0)
			(void)_memstat_kvm_symbols_each(kvm, ignore, NULL);
	} else if (strcmp(argv[1], "buddy") == 0) {
		struct memstat_frag *frag = memstat_frag_alloc();

		if (frag == NULL || _memstat_kvm_member(kvm, "zone", "name",
		    &m) != 0 || _memstat_kvm_symbol(kvm, "node_data",
		    &addr) != 0 || _memstat_kvm_symbol(kvm, "nr_node_ids",
		    &addr) != 0 || _memstat_kvm_symbol(kvm,
		    "migratetype_names", &addr) != 0)
			errx(1, "%s: %s", argv[2], memstat_kvm_geterr(kvm));
		kvm_image_record(kvm, out, NULL, 0);
		if (memstat_frag_kvm(frag, kvm, MEMSTAT_FRAG_TYPES) != 0)
			errx(1, "%s: %s", argv[2], memstat_frag_geterrmsg(frag));
		memstat_frag_free(frag);
	} else {
		if (_memstat_kvm_member(kvm, "kmem_cache", "name", &m) != 0)
			errx(1, "%s: %s", argv[2], memstat_kvm_geterr(kvm));
		kvm_image_record(kvm, out, NULL, 0);
		if ((list = memstat_mtl_alloc()) == NULL ||
		    memstat_kvm_all(list, kvm) != 0)
			errx(1, "%s: %s", argv[2], memstat_kvm_geterr(kvm));
		memstat_mtl_free(list);
	}
	if (fclose(out) != 0)
		err(1, "%s", argv[3]);
	/* The recorder is the handle's reader now: not closed, just left. */
	return (0);
}
