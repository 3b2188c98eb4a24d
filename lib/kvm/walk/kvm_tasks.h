/*
 * kvm_tasks.h: the image's tasks into a memstat_objects (kvm_tasks.c),
 * for its owners' commands.  Never fails the query: tasks that cannot be
 * read leave memstat_objects_tasks() at MEMSTAT_TASKS_NONE or _PART.
 */
#ifndef KVM_TASKS_H
#define KVM_TASKS_H

#include "kvm/dump/kvm_handle.h"

struct memstat_objects;
void	_memstat_kvm_tasks(struct memstat_kvm *kvm, struct memstat_objects *ol);

#endif /* !KVM_TASKS_H */
