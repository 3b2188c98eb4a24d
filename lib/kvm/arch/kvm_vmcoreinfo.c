/*
 * kvm_vmcoreinfo.c: VMCOREINFO's numbers (kvm_vmcoreinfo.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kvm/arch/kvm_vmcoreinfo.h"

int
_memstat_kvm_vmcoreinfo_number(kvm_vmcoreinfo_fn vmcoreinfo, void *arg,
    const char *key, int base, uint64_t *v)
{
	char buf[64], *end;

	if (vmcoreinfo(arg, key, buf, sizeof(buf)) != 0 || buf[0] == '\0')
		return (-1);
	/* Not octal: "0x" says hexadecimal, anything else is decimal. */
	if (base == 0 && strncmp(buf, "0x", 2) != 0)
		base = 10;
	errno = 0;
	*v = strtoull(buf, &end, base);
	return (*end != '\0' || errno != 0 ? -1 : 0);
}

int
_memstat_kvm_vmcoreinfo_need(struct memstat_kvm *kvm, const char *machine,
    kvm_vmcoreinfo_fn vmcoreinfo, void *arg, const char *key, int base,
    uint64_t *v)
{
	if (_memstat_kvm_vmcoreinfo_number(vmcoreinfo, arg, key, base, v) == 0)
		return (0);
	return (_memstat_kvm_fail(kvm, MEMSTAT_ERROR_KVM, "an %s image whose "
	    "VMCOREINFO has no %s: its addresses cannot be translated",
	    machine, key));
}
