/*
 * fuzz_buddy.c: the BTF-driven free-list walk (vmstat-frag on a core
 * image) over a dump held in memory (kvm_image.h), as fuzz_slub.c does
 * the SLUB walk: the fixture dump's types and symbols, the input's
 * memory, seeded by kvm_seed buddy.  A walk that fails must leave the
 * model empty and say why; one that succeeds must have counted no more
 * blocks of a migrate type than its order has.
 */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_support.h"
#include "kvm_image.h"
#include "kvm/kernel/kvm_finders.h"

#define FIXTURE	"fixtures/vmcore/debian12-6.1/vmcore.elf"

int	LLVMFuzzerInitialize(int *argc, char ***argv);
int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct memstat_kvm	*fixture;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char path[4096], errbuf[MEMSTAT_KVM_ERRLEN];
	struct kvm_member m;
	uint64_t addr;

	(void)argc;
	(void)argv;
	snprintf(path, sizeof(path), "%s/%s", fuzz_repo(), FIXTURE);
	/* Types and symbols loaded once, as the walk will want them. */
	if ((fixture = memstat_kvm_open(path, NULL, errbuf)) == NULL ||
	    _memstat_kvm_member(fixture, "zone", "name", &m) != 0 ||
	    _memstat_kvm_symbol(fixture, "node_data", &addr) != 0) {
		fprintf(stderr, "fuzz_buddy: %s: %s\n", path, fixture == NULL ?
		    errbuf : memstat_kvm_geterr(fixture));
		abort();
	}
	return (0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kvm_image *img = kvm_image_parse(data, size);
	struct memstat_kvm *kvm = kvm_image_handle(img);
	struct memstat_frag *frag = memstat_frag_alloc();

	if (frag == NULL)
		abort();
	kvm->syms = fixture->syms;
	kvm->btf = fixture->btf;
	for (int flags = 0; flags <= MEMSTAT_FRAG_TYPES; flags++) {
		if (memstat_frag_kvm(frag, kvm, flags) != 0) {
			if (memstat_frag_zones(frag) != 0 ||
			    memstat_frag_geterror(frag) == 0)
				abort();
			continue;
		}
		for (size_t z = 0; z < memstat_frag_zones(frag); z++)
			for (int o = 0; o < memstat_frag_orders(frag, z); o++) {
				uint64_t sum = 0;

				for (size_t t = 0;
				    t < memstat_frag_types(frag, z); t++)
					sum += memstat_frag_type_blocks(frag, z,
					    t, o, NULL);
				if (sum > memstat_frag_blocks(frag, z, o))
					abort();
			}
	}
	memstat_frag_free(frag);
	kvm->syms = NULL;
	kvm->btf = NULL;
	memstat_kvm_close(kvm);
	kvm_image_free(img);
	return (0);
}
