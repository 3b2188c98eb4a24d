/*
 * frag_prom.c: the free lists as Prometheus families.
 */
#include <stdio.h>

#include "frag_prom.h"

/* A sample's labels: node, zone (when it has a name), order, type. */
struct labels {
	const char	*v[8];
	size_t		 n;
	char		 node[16], order[16];
};

static void
zone_labels(struct labels *l, const struct memstat_frag *frag, size_t z,
    int o, const char *type)
{
	const char *zone = memstat_frag_zone_name(frag, z);

	l->n = 0;
	snprintf(l->node, sizeof(l->node), "%d", memstat_frag_node(frag, z));
	snprintf(l->order, sizeof(l->order), "%d", o);
	l->v[2 * l->n] = "node";
	l->v[2 * l->n++ + 1] = l->node;
	if (zone[0] != '\0') {
		l->v[2 * l->n] = "zone";
		l->v[2 * l->n++ + 1] = zone;
	}
	if (type != NULL) {
		l->v[2 * l->n] = "type";
		l->v[2 * l->n++ + 1] = type;
	}
	l->v[2 * l->n] = "order";
	l->v[2 * l->n++ + 1] = l->order;
}

static const struct family {
	const char	*name;
	const char	*help;
	enum frag_index	 index;
	bool		 blocks;	/* the counts, not an index */
} families[] = {
	{ "memstat_frag_free_blocks", "Free blocks of the order",
	  INDEX_FMFI, true },
	{ "memstat_frag_fmfi_ratio", "Free memory fragmentation index "
	  "(FreeBSD's FMFI over 1000: at most 1, unbounded below)",
	  INDEX_FMFI, false },
	{ "memstat_frag_unusable_ratio", "Unusable free space index "
	  "(Linux's extfrag/unusable_index)", INDEX_UNUSABLE, false },
	{ "memstat_frag_extfrag_ratio", "Fragmentation index (Linux's "
	  "extfrag/extfrag_index; -1: a block of the order is free)",
	  INDEX_EXTFRAG, false },
};

void
frag_prom(struct tool_prom *p, const struct memstat_frag *frag,
    const struct frag_view *v)
{
	struct labels l;
	int at_least;

	for (size_t f = 0; f < sizeof(families) / sizeof(families[0]); f++) {
		const struct family *fam = &families[f];

		tool_prom_family(p, fam->name, fam->help);
		for (size_t z = 0; z < memstat_frag_zones(frag); z++) {
			/* A vm.phys_frag_idx says the FMFI alone. */
			if (!memstat_frag_has_blocks(frag, z) &&
			    (fam->blocks || fam->index != INDEX_FMFI))
				continue;
			for (int o = 0; o < memstat_frag_orders(frag, z);
			    o++) {
				zone_labels(&l, frag, z, o, NULL);
				if (fam->blocks)
					tool_prom_sample_uint(p, l.v, l.n,
					    memstat_frag_blocks(frag, z, o));
				else
					tool_prom_sample(p, l.v, l.n, (double)
					    frag_index_value(frag, z, o,
					    fam->index) / 1000);
			}
		}
	}
	if (!v->types)
		return;
	/* A count pagetypeinfo capped (">") is its floor. */
	tool_prom_family(p, "memstat_frag_type_free_blocks",
	    "Free blocks of the order per migrate type (Linux) or free list "
	    "and pool (FreeBSD); a count the kernel capped is its floor");
	for (size_t z = 0; z < memstat_frag_zones(frag); z++)
		for (size_t t = 0; t < memstat_frag_types(frag, z); t++)
			for (int o = 0; o < memstat_frag_orders(frag, z);
			    o++) {
				zone_labels(&l, frag, z, o,
				    memstat_frag_type_name(frag, z, t));
				tool_prom_sample_uint(p, l.v, l.n,
				    memstat_frag_type_blocks(frag, z, t, o,
				    &at_least));
			}
}
