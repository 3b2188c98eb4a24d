/*
 * frag_report.c: one look at the free lists.  Linux zones are named as
 * the kernel names them ("Node 0, zone   Normal "), FreeBSD domains as
 * "Domain 0 ".
 */
#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "frag_report.h"
#include "tool_output.h"

static const char *const index_names[] = { "fmfi", "unusable", "extfrag" };

int
frag_index_parse(const char *name)
{
	for (int i = 0; i < 3; i++)
		if (strcmp(name, index_names[i]) == 0)
			return (i);
	return (-1);
}

const char *
frag_index_name(enum frag_index index)
{
	return (index_names[index]);
}

int64_t
frag_index_value(const struct memstat_frag *frag, size_t z, int o,
    enum frag_index index)
{
	uint64_t blocks[MEMSTAT_FRAG_MAXORDER];
	int n = memstat_frag_orders(frag, z);

	if (index == INDEX_FMFI)
		return (memstat_frag_zone_fmfi(frag, z, o));
	for (int k = 0; k < n; k++)
		blocks[k] = memstat_frag_blocks(frag, z, k);
	return (index == INDEX_UNUSABLE ? memstat_frag_unusable(blocks, n, o) :
	    memstat_frag_extfrag(blocks, n, o));
}

static void
zone_prefix(FILE *f, const struct memstat_frag *frag, size_t z)
{
	const char *name = memstat_frag_zone_name(frag, z);

	if (name[0] == '\0')
		fprintf(f, "Domain %d ", memstat_frag_node(frag, z));
	else
		fprintf(f, "Node %d, zone %8s ", memstat_frag_node(frag, z),
		    name);
}

static void
type_prefix(FILE *f, const struct memstat_frag *frag, size_t z, size_t t)
{
	const char *name = memstat_frag_zone_name(frag, z);

	if (name[0] == '\0')
		fprintf(f, "Domain %d, %-14s ", memstat_frag_node(frag, z),
		    memstat_frag_type_name(frag, z, t));
	else
		fprintf(f, "Node %4d, zone %8s, type %12s ",
		    memstat_frag_node(frag, z), name,
		    memstat_frag_type_name(frag, z, t));
}

void
frag_report_text(FILE *f, const struct memstat_frag *frag,
    const struct frag_view *v)
{
	size_t nz = memstat_frag_zones(frag);

	for (size_t z = 0; z < nz && (v->blocks || !v->types); z++) {
		int n = memstat_frag_orders(frag, z);

		zone_prefix(f, frag, z);
		for (int o = 0; o < n; o++) {
			int64_t x;

			if (v->blocks) {
				fprintf(f, "%6" PRIu64 " ",
				    memstat_frag_blocks(frag, z, o));
				continue;
			}
			x = frag_index_value(frag, z, o, v->index);
			/* mm/vmstat.c's own formats, its arithmetic too. */
			if (v->index == INDEX_UNUSABLE)
				fprintf(f, "%d.%03d ", (int)x / 1000,
				    (int)x % 1000);
			else if (v->index == INDEX_EXTFRAG)
				fprintf(f, "%2d.%03d ", (int)x / 1000,
				    (int)x % 1000);
			else
				fprintf(f, "%6" PRId64 " ", x);
		}
		fputc('\n', f);
	}
	for (size_t z = 0; z < nz && v->types; z++)
		for (size_t t = 0; t < memstat_frag_types(frag, z); t++) {
			type_prefix(f, frag, z, t);
			for (int o = 0; o < memstat_frag_orders(frag, z); o++) {
				int floor;
				uint64_t n = memstat_frag_type_blocks(frag, z,
				    t, o, &floor);

				fprintf(f, "%s%6" PRIu64 " ", floor ? ">" : "",
				    n);
			}
			fputc('\n', f);
		}
}

/* key: v, or null where it is not known. */
static void
maybe(struct json_object *o, const char *key, struct json_object *v)
{
	if (v != NULL)
		tool_json_set(o, key, v);
	else if (json_object_object_add(o, key, NULL) != 0)
		errx(1, "JSON: %s", strerror(ENOMEM));
}

struct json_object *
frag_report_json(const struct memstat_frag *frag, const struct frag_view *v)
{
	struct json_object *zones = tool_json_new(json_type_array);

	for (size_t z = 0; z < memstat_frag_zones(frag); z++) {
		struct json_object *zo = tool_json_new(json_type_object);
		struct json_object *orders = tool_json_new(json_type_array);
		const char *name = memstat_frag_zone_name(frag, z);
		bool blocks = memstat_frag_has_blocks(frag, z);
		int n = memstat_frag_orders(frag, z);

		tool_json_set(zo, name[0] != '\0' ? "node" : "domain",
		    json_object_new_int(memstat_frag_node(frag, z)));
		if (name[0] != '\0')
			tool_json_set(zo, "zone", json_object_new_string(name));
		for (int o = 0; o < n; o++) {
			struct json_object *oo = tool_json_new(json_type_object);

			tool_json_set(oo, "order", json_object_new_int(o));
			maybe(oo, "blocks", blocks ? tool_json_uint(
			    memstat_frag_blocks(frag, z, o)) : NULL);
			tool_json_set(oo, "fmfi", json_object_new_int64(
			    frag_index_value(frag, z, o, INDEX_FMFI)));
			maybe(oo, "unusable", blocks ? json_object_new_int64(
			    frag_index_value(frag, z, o, INDEX_UNUSABLE)) :
			    NULL);
			maybe(oo, "extfrag", blocks ? json_object_new_int64(
			    frag_index_value(frag, z, o, INDEX_EXTFRAG)) :
			    NULL);
			tool_json_set(orders, NULL, oo);
		}
		tool_json_set(zo, "orders", orders);
		if (v->types) {
			struct json_object *types =
			    tool_json_new(json_type_array);

			for (size_t t = 0; t < memstat_frag_types(frag, z);
			    t++) {
				struct json_object *to =
				    tool_json_new(json_type_object);
				struct json_object *counts =
				    tool_json_new(json_type_array);

				tool_json_set(to, "type", json_object_new_string(
				    memstat_frag_type_name(frag, z, t)));
				for (int o = 0; o < n; o++) {
					struct json_object *c =
					    tool_json_new(json_type_object);
					int floor;
					uint64_t b = memstat_frag_type_blocks(
					    frag, z, t, o, &floor);

					tool_json_set(c, "order",
					    json_object_new_int(o));
					tool_json_set(c, "blocks",
					    tool_json_uint(b));
					/* A floor stays one: never exact. */
					tool_json_set(c, "at-least",
					    json_object_new_boolean(floor));
					tool_json_set(counts, NULL, c);
				}
				tool_json_set(to, "orders", counts);
				tool_json_set(types, NULL, to);
			}
			tool_json_set(zo, "types", types);
		}
		tool_json_set(zones, NULL, zo);
	}
	return (zones);
}
