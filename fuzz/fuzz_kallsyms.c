/*
 * fuzz_kallsyms.c: the kallsyms decoder over a dump held in memory
 * (kvm_image.h): VMCOREINFO's pointers to the tables and the tables'
 * bytes, seeded from the minimized fixture dumps by kvm_seed.
 */
#include <stdlib.h>

#include "kvm_image.h"
#include "kvm/kernel/kvm_finders.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
ignore(const char *name, uint64_t addr, void *arg)
{
	(void)name;
	(void)addr;
	(void)arg;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kvm_image *img = kvm_image_parse(data, size);
	struct memstat_kvm *kvm = kvm_image_handle(img);
	uint64_t addr;

	/*
	 * The first lookup hashes every name; the next reuses the hashes;
	 * each() decodes every name whole.
	 */
	if (_memstat_kvm_symbol(kvm, "slab_caches", &addr) != 0 &&
	    (kvm->err.code == 0 || kvm->err.msg[0] == '\0'))
		abort();
	if (kvm->syms != NULL) {
		(void)_memstat_kvm_symbol(kvm, "nr_node_ids", &addr);
		(void)_memstat_kvm_symbols_each(kvm, ignore, NULL);
	}
	memstat_kvm_close(kvm);
	kvm_image_free(img);
	return (0);
}
