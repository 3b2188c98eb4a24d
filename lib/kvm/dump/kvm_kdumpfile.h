/*
 * kvm_kdumpfile.h: libkdumpfile, bound on first use.  Every report would
 * otherwise pay for loading it and what it links (libstdc++ among them)
 * at each start, core image or not: that doubled the live vmstat-z's
 * run time.  The names below are redirected before the library's header
 * is read, so its inline helpers call the trampolines too.
 */
#ifndef KVM_KDUMPFILE_H
#define KVM_KDUMPFILE_H

#define kdump_new		_memstat_kdump_new
#define kdump_free		_memstat_kdump_free
#define kdump_open_fdset	_memstat_kdump_open_fdset
#define kdump_read		_memstat_kdump_read
#define kdump_get_err		_memstat_kdump_get_err
#define kdump_set_attr		_memstat_kdump_set_attr
#define kdump_get_typed_attr	_memstat_kdump_get_typed_attr
#define kdump_vmcoreinfo_line	_memstat_kdump_vmcoreinfo_line
#define kdump_vmcoreinfo_symbol	_memstat_kdump_vmcoreinfo_symbol

#include <libkdumpfile/kdumpfile.h>

/* Load libkdumpfile: 0, or -1 with what went wrong in err. */
int	_memstat_kdumpfile_load(char *err, size_t errlen);

#endif /* !KVM_KDUMPFILE_H */
