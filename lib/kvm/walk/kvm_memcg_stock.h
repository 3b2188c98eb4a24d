/*
 * kvm_memcg_stock.h: the slab bytes the CPUs hold back from memory.stat
 * (kvm_memcg_stock.c), for the cgroup walk to say beside its own counts.
 */
#ifndef KVM_MEMCG_STOCK_H
#define KVM_MEMCG_STOCK_H

#include "kvm/kernel/kvm_finders.h"

/*
 * Where the kernel keeps them: a per-CPU object stock (5.19 on: the
 * obj_cgroup it serves and the slab bytes not yet counted), or each
 * memcg's per-CPU counts not yet added to its own and its ancestors'
 * (before the counts were flushed by rstat, 5.13: 5.10's batches).
 */
struct memcg_stock_layout {
	bool		 per_objcg;	/* else per memcg */
	uint32_t	 ncpus;
	uint64_t	*cpu_offset;
	uint64_t	 stock;		/* the per-CPU object stock */
	/* The counts in a CPU's stock, or in a memcg's per-CPU counts. */
	struct kvm_member reclaimable, unreclaimable;
	struct kvm_member objcg;
	/* 7.x: several obj_cgroups cached, the counts cached[index]'s. */
	bool		 indexed;
	struct kvm_member index;
	struct kvm_member memcg_percpu;	/* 5.10: vmstats_percpu */
};

/* 0, or -1 with why the stocks cannot be read recorded on the handle. */
int	_memstat_memcg_stock_layout(struct memstat_kvm *kvm,
	    struct memcg_stock_layout *sl);
void	_memstat_memcg_stock_layout_free(struct memcg_stock_layout *sl);
/*
 * per_objcg: each CPU's stock, fn(arg, objcg, bytes) for each holding
 * bytes (negative ones are frees not yet counted).  0, -1 (the error
 * recorded), or what fn returned if not 0.
 */
int	_memstat_memcg_stock_objcgs(struct memstat_kvm *kvm,
	    const struct memcg_stock_layout *sl,
	    int (*fn)(void *arg, uint64_t objcg, int64_t bytes), void *arg);
/* Otherwise: one memcg's bytes over every CPU: 0, or -1. */
int	_memstat_memcg_stock_memcg(struct memstat_kvm *kvm,
	    const struct memcg_stock_layout *sl, uint64_t memcg,
	    int64_t *bytes);

#endif /* !KVM_MEMCG_STOCK_H */
