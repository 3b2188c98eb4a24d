/*
 * kvm_handle.c: the read and fail helpers of a core image's handle, over
 * whichever memory reader the handle was opened with.  Every failure
 * leaves a code and a message on the handle; nothing is printed.
 */
#include <string.h>

#include "kvm/dump/kvm_handle.h"

int
_memstat_kvm_fail(struct memstat_kvm *kvm, int error, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	_memstat_err_vset(&kvm->err, error, fmt, ap);
	va_end(ap);
	return (-1);
}

int
_memstat_kvm_read(struct memstat_kvm *kvm, uint64_t addr, void *buf,
    size_t len)
{
	return (kvm->reader->read(kvm, addr, buf, len));
}

bool
_memstat_kvm_again(struct memstat_kvm *kvm, int *tries)
{
	if (!kvm->live || (kvm->err.code != MEMSTAT_ERROR_DATAERROR &&
	    kvm->err.code != MEMSTAT_ERROR_KVM_SHORTREAD))
		return (false);
	return (++*tries < KVM_LIVE_TRIES);
}

bool
_memstat_kvm_left_out(const struct memstat_kvm *kvm)
{
	return (!kvm->live && kvm->err.code == MEMSTAT_ERROR_KVM_SHORTREAD);
}

bool
_memstat_kvm_left_out_mark(const struct memstat_kvm *kvm, bool *marked)
{
	if (!_memstat_kvm_left_out(kvm))
		return (false);
	*marked = true;
	return (true);
}

int
_memstat_kvm_vmcoreinfo_symbol(struct memstat_kvm *kvm, const char *name,
    uint64_t *addr)
{
	return (kvm->reader->vmcoreinfo_symbol(kvm, name, addr));
}

int
_memstat_kvm_read_u64(struct memstat_kvm *kvm, uint64_t addr, uint64_t *v)
{
	unsigned char b[8];

	if (_memstat_kvm_read(kvm, addr, b, sizeof(b)) != 0)
		return (-1);
	*v = _memstat_kvm_u64(kvm, b);
	return (0);
}

int
_memstat_kvm_read_u32(struct memstat_kvm *kvm, uint64_t addr, uint32_t *v)
{
	unsigned char b[4];

	if (_memstat_kvm_read(kvm, addr, b, sizeof(b)) != 0)
		return (-1);
	*v = _memstat_kvm_u32(kvm, b);
	return (0);
}

int
_memstat_kvm_read_string(struct memstat_kvm *kvm, uint64_t addr, char *buf,
    size_t max)
{
	size_t n = 0, chunk;

	/* In small pieces, none crossing a page: the next may be absent. */
	while (n < max - 1) {
		chunk = 4096 - ((addr + n) & 4095);
		if (chunk > max - 1 - n)
			chunk = max - 1 - n;
		if (_memstat_kvm_read(kvm, addr + n, buf + n, chunk) != 0)
			return (-1);
		if (memchr(buf + n, '\0', chunk) != NULL)
			return (0);
		n += chunk;
	}
	buf[max - 1] = '\0';
	return (0);
}
