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
