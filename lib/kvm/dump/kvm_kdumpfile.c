/*
 * kvm_kdumpfile.c: the trampolines of kvm_kdumpfile.h: each calls the
 * function of the same name in libkdumpfile, loaded with dlopen(3) the
 * first time a core image is opened.
 */
#include <dlfcn.h>
#include <stdio.h>

#include "kvm/dump/kvm_kdumpfile.h"

#define LIBKDUMPFILE	"libkdumpfile.so.10"

static struct {
	kdump_ctx_t	*(*new)(void);
	void		 (*free)(kdump_ctx_t *);
	kdump_status	 (*open_fdset)(kdump_ctx_t *, unsigned, const int *);
	kdump_status	 (*read)(kdump_ctx_t *, kdump_addrspace_t,
			    kdump_addr_t, void *, size_t *);
	const char	*(*get_err)(kdump_ctx_t *);
	kdump_status	 (*set_attr)(kdump_ctx_t *, const char *,
			    const kdump_attr_t *);
	kdump_status	 (*get_typed_attr)(kdump_ctx_t *, const char *,
			    kdump_attr_t *);
	kdump_status	 (*vmcoreinfo_line)(kdump_ctx_t *, const char *,
			    char **);
	kdump_status	 (*vmcoreinfo_symbol)(kdump_ctx_t *, const char *,
			    kdump_addr_t *);
} kd;

int
_memstat_kdumpfile_load(char *err, size_t errlen)
{
	static const char *const names[] = { "kdump_new", "kdump_free",
	    "kdump_open_fdset", "kdump_read", "kdump_get_err",
	    "kdump_set_attr", "kdump_get_typed_attr", "kdump_vmcoreinfo_line",
	    "kdump_vmcoreinfo_symbol" };
	void **slots = (void **)&kd;
	void *lib;

	if (kd.new != NULL)
		return (0);
	if ((lib = dlopen(LIBKDUMPFILE, RTLD_NOW | RTLD_LOCAL)) == NULL) {
		snprintf(err, errlen, "%s", dlerror());
		return (-1);
	}
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if ((slots[i] = dlsym(lib, names[i])) == NULL) {
			snprintf(err, errlen, "%s: no %s", LIBKDUMPFILE,
			    names[i]);
			for (size_t j = 0; j < i; j++)
				slots[j] = NULL;
			dlclose(lib);
			return (-1);
		}
	return (0);
}

kdump_ctx_t *
kdump_new(void)
{
	return (kd.new());
}

void
kdump_free(kdump_ctx_t *ctx)
{
	kd.free(ctx);
}

kdump_status
kdump_open_fdset(kdump_ctx_t *ctx, unsigned nfds, const int *fds)
{
	return (kd.open_fdset(ctx, nfds, fds));
}

kdump_status
kdump_read(kdump_ctx_t *ctx, kdump_addrspace_t as, kdump_addr_t addr,
    void *buffer, size_t *plength)
{
	return (kd.read(ctx, as, addr, buffer, plength));
}

const char *
kdump_get_err(kdump_ctx_t *ctx)
{
	return (kd.get_err(ctx));
}

kdump_status
kdump_set_attr(kdump_ctx_t *ctx, const char *key, const kdump_attr_t *valp)
{
	return (kd.set_attr(ctx, key, valp));
}

kdump_status
kdump_get_typed_attr(kdump_ctx_t *ctx, const char *key, kdump_attr_t *valp)
{
	return (kd.get_typed_attr(ctx, key, valp));
}

kdump_status
kdump_vmcoreinfo_line(kdump_ctx_t *ctx, const char *key, char **val)
{
	return (kd.vmcoreinfo_line(ctx, key, val));
}

kdump_status
kdump_vmcoreinfo_symbol(kdump_ctx_t *ctx, const char *symname,
    kdump_addr_t *symvalue)
{
	return (kd.vmcoreinfo_symbol(ctx, symname, symvalue));
}
