/*
 * kmem_events.c: kmem events read by their recorded formats.
 */
#include <string.h>

#include "kmem_events.h"

static const struct {
	const char	*name;
	enum kmem_kind	 kind;
} known[] = {
	{ "kmalloc", KMEM_KMALLOC },
	{ "kmalloc_node", KMEM_KMALLOC },
	{ "kmem_cache_alloc", KMEM_CACHE_ALLOC },
	{ "kmem_cache_alloc_node", KMEM_CACHE_ALLOC },
	{ "kfree", KMEM_KFREE },
	{ "kmem_cache_free", KMEM_CACHE_FREE },
	{ "mm_page_alloc", KMEM_PAGE_ALLOC },
	{ "mm_page_free", KMEM_PAGE_FREE },
};

/*
 * A numeric field: 1, 2, 4 or 8 bytes inside a record no bigger than the
 * ring buffer allows.  required: the event is useless without it.
 */
static int
find_field(struct tep_event *event, const char *name, bool required,
    bool dynamic, struct kmem_field *f, struct kt_error *e)
{
	struct tep_format_field *field = tep_find_field(event, name);

	memset(f, 0, sizeof(*f));
	if (field == NULL) {
		if (required)
			return (kt_fail(e, "the %s event's format has no %s "
			    "field", event->name, name));
		return (0);
	}
	if (dynamic != ((field->flags & TEP_FIELD_IS_DYNAMIC) != 0) ||
	    (dynamic && (field->flags & TEP_FIELD_IS_RELATIVE)) ||
	    field->offset < 0 || field->offset > 65535 ||
	    (field->size != 1 && field->size != 2 && field->size != 4 &&
	    field->size != 8))
		return (kt_fail(e, "the %s event's format has a %s field of "
		    "%d bytes at %d: not a %s", event->name, name, field->size,
		    field->offset, dynamic ? "string's place" : "number"));
	f->offset = field->offset;
	f->size = field->size;
	f->is_signed = (field->flags & TEP_FIELD_IS_SIGNED) != 0;
	return (0);
}

static int
common_field(struct tep_handle *tep, const char *name, struct kmem_field *f,
    struct kt_error *e)
{
	struct tep_format_field *field = NULL;
	struct tep_event *event;

	/* Every event has the same common fields: take any kmem one's. */
	for (size_t i = 0; field == NULL && i < sizeof(known) / sizeof(*known);
	    i++)
		if ((event = tep_find_event_by_name(tep, "kmem",
		    known[i].name)) != NULL)
			field = tep_find_common_field(event, name);
	if (field == NULL || field->offset < 0 || field->offset > 64 ||
	    (field->size != 2 && field->size != 4))
		return (kt_fail(e, "the kmem events' formats have no usable "
		    "%s field", name));
	*f = (struct kmem_field){ .offset = field->offset, .size = field->size,
	    .is_signed = (field->flags & TEP_FIELD_IS_SIGNED) != 0 };
	return (0);
}

int
kmem_events_init(struct kmem_events *ev, struct tep_handle *tep,
    struct kt_error *e)
{
	memset(ev, 0, sizeof(*ev));
	ev->tep = tep;
	ev->swap = tep_is_file_bigendian(tep) !=
	    (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	for (size_t i = 0; i < sizeof(known) / sizeof(*known); i++) {
		struct tep_event *event = tep_find_event_by_name(tep, "kmem",
		    known[i].name);
		struct kmem_event_desc *d;
		bool slab = known[i].kind <= KMEM_CACHE_FREE;
		bool alloc = known[i].kind == KMEM_KMALLOC ||
		    known[i].kind == KMEM_CACHE_ALLOC;

		if (event == NULL)
			continue;
		d = &ev->desc[ev->ndesc++];
		d->id = event->id;
		d->kind = known[i].kind;
		d->event = event;
		if (slab && (find_field(event, "call_site", true, false,
		    &d->call_site, e) != 0 ||
		    find_field(event, "ptr", true, false, &d->ptr, e) != 0))
			return (-1);
		if (alloc && (find_field(event, "bytes_req", true, false,
		    &d->bytes_req, e) != 0 ||
		    find_field(event, "bytes_alloc", true, false,
		    &d->bytes_alloc, e) != 0 ||
		    find_field(event, "gfp_flags", true, false, &d->gfp_flags,
		    e) != 0 ||
		    find_field(event, "node", false, false, &d->node, e) != 0))
			return (-1);
		if ((known[i].kind == KMEM_CACHE_ALLOC ||
		    known[i].kind == KMEM_CACHE_FREE) &&
		    find_field(event, "name", false, true, &d->name, e) != 0)
			return (-1);
		if (!slab && (find_field(event, "pfn", true, false, &d->pfn,
		    e) != 0 ||
		    find_field(event, "order", true, false, &d->order, e) != 0))
			return (-1);
		if (known[i].kind == KMEM_PAGE_ALLOC &&
		    (find_field(event, "gfp_flags", true, false, &d->gfp_flags,
		    e) != 0 ||
		    find_field(event, "migratetype", true, false,
		    &d->migratetype, e) != 0))
			return (-1);
		/* One check per record: where its last field ends. */
		const struct kmem_field *all[] = { &d->call_site, &d->ptr,
		    &d->bytes_req, &d->bytes_alloc, &d->gfp_flags, &d->node,
		    &d->name, &d->pfn, &d->order, &d->migratetype };
		for (size_t k = 0; k < sizeof(all) / sizeof(*all); k++)
			if (all[k]->size != 0 && (size_t)(all[k]->offset +
			    all[k]->size) > d->min_size)
				d->min_size = (size_t)(all[k]->offset +
				    all[k]->size);
		if (slab)
			ev->have_slab = true;
		else
			ev->have_page = true;
	}
	if (ev->ndesc == 0)
		return (kt_fail(e, "no kmem events are described"));
	if (common_field(tep, "common_type", &ev->type, e) != 0 ||
	    common_field(tep, "common_pid", &ev->pid, e) != 0)
		return (-1);
	return (0);
}

/*
 * A field's value; the caller checked it lies inside the record.  In the
 * host's byte order it is read here (the common case, once per field of
 * every event); else by libtraceevent, which swaps.
 */
static inline uint64_t
number(const struct kmem_events *ev, const struct kt_record *rec,
    const struct kmem_field *f)
{
	const char *p = (const char *)rec->data + f->offset;
	uint64_t v;

	if (!ev->swap) {
		switch (f->size) {
		case 8: { uint64_t x; memcpy(&x, p, 8); v = x; break; }
		case 4: { uint32_t x; memcpy(&x, p, 4); v = x; break; }
		case 2: { uint16_t x; memcpy(&x, p, 2); v = x; break; }
		default: v = (uint8_t)*p; break;
		}
	} else
		v = tep_read_number(ev->tep, p, f->size);

	if (f->is_signed && f->size < 8 && (v >> (f->size * 8 - 1)) & 1)
		v |= ~0ULL << (f->size * 8);
	return (v);
}

static bool
inside(const struct kt_record *rec, const struct kmem_field *f)
{
	return (f->size == 0 || (size_t)f->offset + (size_t)f->size <=
	    rec->size);
}

int
kmem_events_decode(const struct kmem_events *ev, const struct kt_record *rec,
    struct kmem_event *out)
{
	const struct kmem_event_desc *d = NULL;
	int id;

	if (!inside(rec, &ev->type) || !inside(rec, &ev->pid))
		return (-1);
	id = (int)number(ev, rec, &ev->type);
	for (int i = 0; d == NULL && i < ev->ndesc; i++)
		if (ev->desc[i].id == id)
			d = &ev->desc[i];
	if (d == NULL)
		return (1);
	if (rec->size < d->min_size)
		return (-1);	/* a field would lie past the record */
	memset(out, 0, sizeof(*out));
	out->kind = d->kind;
	out->cpu = rec->cpu;
	out->ts = rec->ts;
	out->record = rec;
	out->pid = (int)number(ev, rec, &ev->pid);
	out->node = -1;
#define FIELD(x)	if (d->x.size != 0) out->x = number(ev, rec, &d->x)
	FIELD(call_site);
	FIELD(ptr);
	FIELD(bytes_req);
	FIELD(bytes_alloc);
	FIELD(gfp_flags);
	FIELD(pfn);
#undef FIELD
	if (d->node.size != 0)
		out->node = (int)number(ev, rec, &d->node);
	if (d->order.size != 0)
		out->order = (unsigned)number(ev, rec, &d->order);
	if (d->migratetype.size != 0)
		out->migratetype = (int)number(ev, rec, &d->migratetype);
	if (d->name.size != 0) {
		/* __data_loc: offset in the low 16 bits, length above. */
		uint32_t loc = (uint32_t)number(ev, rec, &d->name);
		size_t off = loc & 0xffff, len = loc >> 16;

		if (off + len > rec->size)
			return (-1);
		out->name = (const char *)rec->data + off;
		while (len > 0 && out->name[len - 1] == '\0')
			len--;
		out->name_len = len;
	}
	return (0);
}
