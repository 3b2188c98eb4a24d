/*
 * kmem_events.c: kmem events read by their recorded formats.
 */
#include <string.h>

#include "kmem_events.h"

static const struct {
	const char	*system, *name;
	enum kmem_kind	 kind;
} kmem_event_names[] = {
	{ "kmem", "kmalloc", KMEM_KMALLOC },
	{ "kmem", "kmalloc_node", KMEM_KMALLOC },
	{ "kmem", "kmem_cache_alloc", KMEM_CACHE_ALLOC },
	{ "kmem", "kmem_cache_alloc_node", KMEM_CACHE_ALLOC },
	{ "kmem", "kfree", KMEM_KFREE },
	{ "kmem", "kmem_cache_free", KMEM_CACHE_FREE },
	{ "kmem", "mm_page_alloc", KMEM_PAGE_ALLOC },
	{ "kmem", "mm_page_free", KMEM_PAGE_FREE },
	{ "kmem", "mm_page_free_batched", KMEM_PAGE_FREE },	/* order 0 */
	{ "ftrace", "kernel_stack", KMEM_STACK },
	{ "task", "task_newtask", KMEM_TASK_NEW },
	{ "task", "task_rename", KMEM_TASK_RENAME },
};

#define NKMEM_EVENT_NAMES \
	(sizeof(kmem_event_names) / sizeof(*kmem_event_names))

enum field_form {
	NUMBER,		/* 1, 2, 4 or 8 bytes */
	STRING_PLACE,	/* __data_loc: where a string is */
	CHARS,		/* char name[N]: a string of at most N bytes */
	FRAMES,		/* unsigned long name[]: as many as a count says */
};

/*
 * kernel_stack's frames, in each form it has had: "unsigned long
 * caller[8]" (its frames may run past the 8: the count says how many);
 * "unsigned long caller; size:0" (32-bit ARM's, a flexible array
 * declared as a scalar) or "caller[]" of size 0, both frames of the
 * kernel's long; and a __data_loc array (f->placed), where its place
 * word says.  f->size is one frame's.
 */
static bool
frames_field(struct tep_event *event, struct tep_format_field *field,
    struct kmem_field *f)
{
	int long_size = tep_get_long_size(event->tep);

	if (field->flags & TEP_FIELD_IS_DYNAMIC) {
		f->placed = true;
		f->size = field->elementsize == 4 || field->elementsize == 8 ?
		    (int)field->elementsize : long_size;
		return (field->size == 4 && (f->size == 4 || f->size == 8));
	}
	if ((field->flags & TEP_FIELD_IS_ARRAY) &&
	    (field->elementsize == 4 || field->elementsize == 8)) {
		f->size = field->elementsize;
		return (true);
	}
	f->size = long_size;
	return (field->size == 0 && (long_size == 4 || long_size == 8));
}

/*
 * A field of the given form at a place a record can have (the ring
 * buffer's records are smaller than 64 KiB).  required: the event is
 * useless without it.
 */
static int
find_field(struct tep_event *event, const char *name, bool required,
    enum field_form form, struct kmem_field *f, struct kt_error *e)
{
	static const char *const forms[] = { "number", "string's place",
	    "string", "stack" };
	struct tep_format_field *field = tep_find_field(event, name);
	bool ok;

	memset(f, 0, sizeof(*f));
	if (field == NULL) {
		if (required)
			return (kt_fail(e, "the %s event's format has no %s "
			    "field", event->name, name));
		return (0);
	}
	ok = field->offset >= 0 && field->offset <= 65535;
	switch (form) {
	case NUMBER:
	case STRING_PLACE:
		ok = ok && (form == STRING_PLACE) ==
		    ((field->flags & TEP_FIELD_IS_DYNAMIC) != 0) &&
		    !(field->flags & TEP_FIELD_IS_RELATIVE) &&
		    (field->size == 1 || field->size == 2 ||
		    field->size == 4 || field->size == 8);
		f->size = field->size;
		break;
	case CHARS:
		ok = ok && (field->flags & TEP_FIELD_IS_ARRAY) &&
		    field->elementsize == 1 && field->size > 0 &&
		    field->size <= 64;
		f->size = field->size;
		break;
	case FRAMES:
		ok = ok && frames_field(event, field, f);
		break;
	}
	if (!ok)
		return (kt_fail(e, "the %s event's format has a %s field of "
		    "%d bytes at %d: not a %s", event->name, name, field->size,
		    field->offset, forms[form]));
	f->offset = field->offset;
	f->is_signed = (field->flags & TEP_FIELD_IS_SIGNED) != 0;
	return (0);
}

/* A stack's and the task events' fields. */
static int
stack_and_task_fields(struct kmem_event_desc *d, struct kt_error *e)
{
	struct tep_event *event = d->event;

	switch (d->kind) {
	case KMEM_STACK:
		return (find_field(event, "size", true, NUMBER, &d->nframes,
		    e) != 0 || find_field(event, "caller", true, FRAMES,
		    &d->frames, e) != 0 ? -1 : 0);
	case KMEM_TASK_NEW:
		return (find_field(event, "pid", true, NUMBER, &d->task_pid,
		    e) != 0 || find_field(event, "comm", true, CHARS,
		    &d->comm, e) != 0 ? -1 : 0);
	case KMEM_TASK_RENAME:
		/* 6.14 dropped pid: the task renames itself. */
		return (find_field(event, "pid", false, NUMBER, &d->task_pid,
		    e) != 0 || find_field(event, "newcomm", true, CHARS,
		    &d->comm, e) != 0 ? -1 : 0);
	default:
		return (0);
	}
}

static int
common_field(struct tep_handle *tep, const char *name, struct kmem_field *f,
    struct kt_error *e)
{
	struct tep_format_field *field = NULL;
	struct tep_event *event;

	/* Every event has the same common fields: take any kmem one's. */
	for (size_t i = 0; field == NULL && i < NKMEM_EVENT_NAMES; i++) {
		const char *system = kmem_event_names[i].system;

		if (strcmp(system, "kmem") == 0 && (event =
		    tep_find_event_by_name(tep, system,
		    kmem_event_names[i].name)) != NULL)
			field = tep_find_common_field(event, name);
	}
	if (field == NULL || field->offset < 0 || field->offset > 64 ||
	    (field->size != 2 && field->size != 4))
		return (kt_fail(e, "the kmem events' formats have no usable "
		    "%s field", name));
	*f = (struct kmem_field){ .offset = field->offset, .size = field->size,
	    .is_signed = (field->flags & TEP_FIELD_IS_SIGNED) != 0 };
	return (0);
}

static bool
slab_alloc_kind(enum kmem_kind kind)
{
	return (kind == KMEM_KMALLOC || kind == KMEM_CACHE_ALLOC);
}

/* One event's fields, by its format: 0, or -1 when the format lies. */
static int
describe_event(struct kmem_event_desc *d, const char *name, struct kt_error *e)
{
	struct tep_event *event = d->event;
	enum kmem_kind kind = d->kind;
	bool slab = kind <= KMEM_CACHE_FREE;
	bool page = kind == KMEM_PAGE_ALLOC || kind == KMEM_PAGE_FREE;
	bool alloc = slab_alloc_kind(kind);

	if (slab && (find_field(event, "call_site", true, NUMBER,
	    &d->call_site, e) != 0 ||
	    find_field(event, "ptr", true, NUMBER, &d->ptr, e) != 0))
		return (-1);
	if (alloc && (find_field(event, "bytes_req", true, NUMBER,
	    &d->bytes_req, e) != 0 ||
	    find_field(event, "bytes_alloc", true, NUMBER,
	    &d->bytes_alloc, e) != 0 ||
	    find_field(event, "gfp_flags", true, NUMBER,
	    &d->gfp_flags, e) != 0 ||
	    find_field(event, "node", false, NUMBER, &d->node, e) != 0))
		return (-1);
	if ((kind == KMEM_CACHE_ALLOC || kind == KMEM_CACHE_FREE) &&
	    find_field(event, "name", false, STRING_PLACE, &d->name, e) != 0)
		return (-1);
	if (page && (find_field(event, "pfn", true, NUMBER, &d->pfn, e) != 0 ||
	    find_field(event, "order", strcmp(name, "mm_page_free_batched") !=
	    0, NUMBER, &d->order, e) != 0))
		return (-1);
	if (kind == KMEM_PAGE_ALLOC &&
	    (find_field(event, "gfp_flags", true, NUMBER, &d->gfp_flags,
	    e) != 0 ||
	    find_field(event, "migratetype", true, NUMBER, &d->migratetype,
	    e) != 0))
		return (-1);
	if (stack_and_task_fields(d, e) != 0)
		return (-1);
	/*
	 * One check per record: where its last field ends (a stack: where
	 * its frames, or the word that places them, begin; they are
	 * counted apart).
	 */
	const struct kmem_field *all[] = { &d->call_site, &d->ptr,
	    &d->bytes_req, &d->bytes_alloc, &d->gfp_flags, &d->node, &d->name,
	    &d->pfn, &d->order, &d->migratetype, &d->nframes, &d->task_pid,
	    &d->comm };
	for (size_t k = 0; k < sizeof(all) / sizeof(*all); k++)
		if (all[k]->size != 0 && (size_t)(all[k]->offset +
		    all[k]->size) > d->min_size)
			d->min_size = (size_t)(all[k]->offset + all[k]->size);
	if ((size_t)d->frames.offset + (d->frames.placed ? 4 : 0) >
	    d->min_size)
		d->min_size = (size_t)d->frames.offset +
		    (d->frames.placed ? 4 : 0);
	return (0);
}

/*
 * Whether d is a slab event of the common shape: in the host's byte
 * order, its numbers 8 bytes wide (GFP flags 4 or 8), its node and pid
 * 4-byte ints.  Most records are such: kmem_events_decode() reads them
 * with no switch on a field's width (a fifth of a report's time).
 */
static bool
is_plain(const struct kmem_events *ev, const struct kmem_event_desc *d)
{
	bool alloc = slab_alloc_kind(d->kind);

	if (ev->swap || d->kind > KMEM_CACHE_FREE || ev->pid.size != 4 ||
	    d->call_site.size != 8 || d->ptr.size != 8)
		return (false);
	if (!alloc)
		return (true);
	return (d->bytes_req.size == 8 && d->bytes_alloc.size == 8 &&
	    (d->gfp_flags.size == 8 || d->gfp_flags.size == 4) &&
	    (d->node.size == 0 || (d->node.size == 4 && d->node.is_signed)));
}

int
kmem_events_init(struct kmem_events *ev, struct tep_handle *tep,
    struct kt_error *e)
{
	struct kt_error why;

	memset(ev, 0, sizeof(*ev));
	ev->tep = tep;
	ev->swap = tep_is_file_bigendian(tep) !=
	    (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	for (size_t i = 0; i < NKMEM_EVENT_NAMES; i++) {
		struct tep_event *event = tep_find_event_by_name(tep,
		    kmem_event_names[i].system, kmem_event_names[i].name);
		struct kmem_event_desc *d;
		enum kmem_kind kind = kmem_event_names[i].kind;

		if (event == NULL)
			continue;
		d = &ev->desc[ev->ndesc];
		memset(d, 0, sizeof(*d));
		d->id = event->id;
		d->kind = kind;
		d->event = event;
		/*
		 * A format that lies is held against the reports that use
		 * its event (kmem_events_need), not against the others: a
		 * trace.dat carries every event's format.
		 */
		if (describe_event(d, kmem_event_names[i].name, &why) != 0) {
			if (ev->unusable[kind].msg[0] == '\0')
				ev->unusable[kind] = why;
			continue;
		}
		if (ev->desc_hint[d->id & (KMEM_DESC_HINTS - 1)] == 0)
			ev->desc_hint[d->id & (KMEM_DESC_HINTS - 1)] =
			    (int8_t)(ev->ndesc + 1);
		ev->ndesc++;
		if (kind <= KMEM_CACHE_FREE)
			ev->have_slab = true;
		else if (kind == KMEM_PAGE_ALLOC || kind == KMEM_PAGE_FREE)
			ev->have_page = true;
		else if (kind == KMEM_STACK)
			ev->have_stacks = true;
	}
	if (!ev->have_slab && !ev->have_page) {
		for (int k = 0; k <= KMEM_PAGE_FREE; k++)
			if (ev->unusable[k].msg[0] != '\0') {
				*e = ev->unusable[k];
				return (-1);
			}
		return (kt_fail(e, "no kmem events are described"));
	}
	if (common_field(tep, "common_type", &ev->type, e) != 0 ||
	    common_field(tep, "common_pid", &ev->pid, e) != 0)
		return (-1);
	ev->common_end = (size_t)(ev->type.offset + ev->type.size);
	if ((size_t)(ev->pid.offset + ev->pid.size) > ev->common_end)
		ev->common_end = (size_t)(ev->pid.offset + ev->pid.size);
	ev->type_u16 = !ev->swap && ev->type.size == 2 && !ev->type.is_signed;
	for (int i = 0; i < ev->ndesc; i++)
		ev->desc[i].plain = is_plain(ev, &ev->desc[i]);
	return (0);
}

int
kmem_events_need(const struct kmem_events *ev, bool slab, bool page,
    bool stacks, struct kt_error *e)
{
	for (int k = 0; k <= KMEM_TASK_RENAME; k++) {
		bool used = k <= KMEM_CACHE_FREE ? slab : k <= KMEM_PAGE_FREE ?
		    page : stacks;

		if (used && ev->unusable[k].msg[0] != '\0') {
			*e = ev->unusable[k];
			return (-1);
		}
	}
	return (0);
}

/*
 * A field's value; the caller checked it lies inside the record.  In the
 * host's byte order it is read here (the common case, once per field of
 * every event); else by libtraceevent, which swaps.
 */
static inline uint64_t
field_value(const struct kmem_events *ev, const struct kt_record *rec,
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

/* The description of event id, or NULL: not a kmem event. */
static const struct kmem_event_desc *
desc_of(const struct kmem_events *ev, int id)
{
	for (int i = 0; i < ev->ndesc; i++)
		if (ev->desc[i].id == id)
			return (&ev->desc[i]);
	return (NULL);
}

/* The numbers of d's event, field by field. */
static void
numbers(const struct kmem_events *ev, const struct kmem_event_desc *d,
    const struct kt_record *rec, struct kmem_event *out)
{
#define FIELD(x)	(d->x.size != 0 ? field_value(ev, rec, &d->x) : 0)
	out->pid = (int)field_value(ev, rec, &ev->pid);
	out->call_site = FIELD(call_site);
	out->ptr = FIELD(ptr);
	out->bytes_req = FIELD(bytes_req);
	out->bytes_alloc = FIELD(bytes_alloc);
	out->gfp_flags = FIELD(gfp_flags);
	out->node = d->node.size != 0 ? (int)field_value(ev, rec, &d->node) :
	    -1;
	out->pfn = FIELD(pfn);
	out->order = (unsigned)FIELD(order);
	out->migratetype = (int)FIELD(migratetype);
#undef FIELD
}

static inline uint64_t
u64_at(const struct kt_record *rec, const struct kmem_field *f)
{
	uint64_t v;

	memcpy(&v, (const char *)rec->data + f->offset, sizeof(v));
	return (v);
}

static inline int32_t
i32_at(const struct kt_record *rec, const struct kmem_field *f)
{
	int32_t v;

	memcpy(&v, (const char *)rec->data + f->offset, sizeof(v));
	return (v);
}

/* The same for a plain event (is_plain()). */
static void
plain_numbers(const struct kmem_events *ev, const struct kmem_event_desc *d,
    const struct kt_record *rec, struct kmem_event *out)
{
	out->pid = i32_at(rec, &ev->pid);
	out->call_site = u64_at(rec, &d->call_site);
	out->ptr = u64_at(rec, &d->ptr);
	if (slab_alloc_kind(d->kind)) {
		out->bytes_req = u64_at(rec, &d->bytes_req);
		out->bytes_alloc = u64_at(rec, &d->bytes_alloc);
		out->gfp_flags = d->gfp_flags.size == 8 ?
		    u64_at(rec, &d->gfp_flags) :
		    (uint32_t)i32_at(rec, &d->gfp_flags);
		out->node = d->node.size != 0 ? i32_at(rec, &d->node) : -1;
	} else {
		out->bytes_req = out->bytes_alloc = out->gfp_flags = 0;
		out->node = -1;
	}
	out->pfn = 0;
	out->order = 0;
	out->migratetype = 0;
}

int
kmem_events_decode(const struct kmem_events *ev, const struct kt_record *rec,
    struct kmem_event *out)
{
	const struct kmem_event_desc *d;
	int id, hint;

	if (rec->size < ev->common_end)
		return (-1);
	if (ev->type_u16) {
		uint16_t type;

		memcpy(&type, (const char *)rec->data + ev->type.offset, 2);
		id = type;
	} else
		id = (int)field_value(ev, rec, &ev->type);
	hint = ev->desc_hint[id & (KMEM_DESC_HINTS - 1)];
	if (hint > 0 && ev->desc[hint - 1].id == id)
		d = &ev->desc[hint - 1];
	else if ((d = desc_of(ev, id)) == NULL)
		return (1);
	if (rec->size < d->min_size)
		return (-1);	/* a field would lie past the record */
	/*
	 * Field by field, not memset(): this runs for every record, and
	 * the string instruction a memset of the whole event becomes costs
	 * more than the fields' own reads.
	 */
	out->kind = d->kind;
	out->cpu = rec->cpu;
	out->ts = rec->ts;
	if (d->plain)
		plain_numbers(ev, d, rec, out);
	else
		numbers(ev, d, rec, out);
	out->name = NULL;
	out->name_len = 0;
	out->frames = NULL;
	out->nframes = 0;
	out->frame_size = 0;
	out->task_pid = 0;
	out->comm = NULL;
	out->comm_len = 0;
	out->record = rec;
	if (d->name.size != 0) {
		/* __data_loc: offset in the low 16 bits, length above. */
		uint32_t loc = (uint32_t)field_value(ev, rec, &d->name);
		size_t off = loc & 0xffff, len = loc >> 16;

		if (off + len > rec->size)
			return (-1);
		out->name = (const char *)rec->data + off;
		while (len > 0 && out->name[len - 1] == '\0')
			len--;
		out->name_len = len;
	}
	if (d->kind == KMEM_STACK) {
		/* The frames the count says, all inside the record. */
		uint64_t n = field_value(ev, rec, &d->nframes);
		size_t at = (size_t)d->frames.offset, room;

		room = rec->size - at;
		if (d->frames.placed) {
			/* __data_loc: offset in the low 16 bits, length */
			const struct kmem_field loc = { .offset =
			    d->frames.offset, .size = 4 };
			uint32_t place = (uint32_t)field_value(ev, rec, &loc);

			at = place & 0xffff;
			room = place >> 16;
			if (at + room > rec->size)
				return (-2);
		}
		if ((d->nframes.is_signed && (int64_t)n < 0) ||
		    n > room / (size_t)d->frames.size)
			return (-2);
		out->frames = (const char *)rec->data + at;
		out->nframes = (size_t)n;
		out->frame_size = d->frames.size;
	}
	if (d->comm.size != 0) {
		out->comm = (const char *)rec->data + d->comm.offset;
		out->comm_len = strnlen(out->comm, (size_t)d->comm.size);
		out->task_pid = d->task_pid.size != 0 ?
		    (int)field_value(ev, rec, &d->task_pid) : out->pid;
	}
	return (0);
}

void
kmem_events_frames(const struct kmem_events *ev, const struct kmem_event *s,
    uint64_t *out, size_t n)
{
	const char *p = s->frames;

	/* The common case in one copy: a call per frame cost more than it. */
	if (!ev->swap && s->frame_size == 8) {
		memcpy(out, p, n * 8);
		return;
	}
	/* Else frames of another byte order, or of 4 bytes. */
	for (size_t i = 0; i < n; i++, p += s->frame_size) {
		uint32_t x;

		if (ev->swap)
			out[i] = tep_read_number(ev->tep, p, s->frame_size);
		else {
			memcpy(&x, p, 4);
			out[i] = x;
		}
	}
}
