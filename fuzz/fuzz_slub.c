/*
 * fuzz_slub.c: the BTF-driven SLUB walk over a dump held in memory
 * (kvm_image.h).  The types and symbols are the fixture dump's, loaded
 * once; the memory the walk reads is the input, seeded by kvm_seed with
 * what a walk of the same dump read.  A walk that fails must leave a list
 * as it was and say why.
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

	(void)argc;
	(void)argv;
	snprintf(path, sizeof(path), "%s/%s", fuzz_repo(), FIXTURE);
	if ((fixture = memstat_kvm_open(path, NULL, errbuf)) == NULL ||
	    _memstat_kvm_member(fixture, "kmem_cache", "name", &m) != 0) {
		fprintf(stderr, "fuzz_slub: %s: %s\n", path, fixture == NULL ?
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
	struct memory_type_list *list;
	uint64_t before;
	size_t n, n_after;

	kvm->syms = fixture->syms;
	kvm->btf = fixture->btf;
	if ((list = memstat_mtl_alloc()) == NULL)
		abort();
	before = fuzz_list_digest(list, &n);
	if (memstat_kvm_all(list, kvm) != 0) {
		if (memstat_mtl_geterror(list) == 0 || kvm->err.msg[0] == '\0' ||
		    fuzz_list_digest(list, &n_after) != before || n_after != n)
			abort();
	} else
		(void)memstat_kvm_all(list, kvm);	/* the refresh path */
	memstat_mtl_free(list);
	kvm->syms = NULL;
	kvm->btf = NULL;
	memstat_kvm_close(kvm);
	kvm_image_free(img);
	return (0);
}
