/*
 * report_dump.c: kmemtrace report --outstanding -M CORE: the slab objects
 * allocated in a core image (or /proc/kcore), in the report a recording
 * gives.  Where the kernel kept owners (slub_debug=U, SLAB_STORE_USER),
 * each object has its pid, CPU, age at the dump and stack, from
 * libmemstat's memstat_kvm_objects(); the caches that kept none can only
 * be counted (memstat_kvm_uma()'s allocated objects), and are, by cache.
 * Symbols are the image's own kallsyms (or -N's), given to a
 * libtraceevent handle as a recording's kallsyms are.
 */
#include <err.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "memstat.h"
#include "recording/kt_symbols.h"
#include "outstanding_model.h"
#include "report_dump.h"
#include "tool_output.h"

/* Ages count back from here: no ts below 0 for any age a kernel has. */
#define DUMP_END	(UINT64_C(1) << 62)
/* Kept objects' memory is said from here: the grouped forms' budget. */
#define KEPT_SAID_FROM	(UINT64_C(128) << 20)

/* A cache that kept no owners: its allocated objects, counted. */
struct unowned {
	const char	*name;
	uint64_t	 objects, bytes;
};

struct dump {
	const char	*core;
	void		*kvm;
	struct memstat_objects *ol;
	struct memory_type_list *mtl;	/* the caches' counts */
	struct tep_handle *tep;
	struct kt_symbols symbols;	/* the image's, which tep resolves by */
	struct outstanding_set *set;
	struct kmem_row	*caches;	/* as many as ol's, set's too */
	size_t		 ncaches, acaches;
	size_t		 owners;	/* caches that kept them */
	struct unowned	*unowned;
	size_t		 nunowned;
	uint64_t	 damaged;	/* objects with a bad owner */
	const int	*pids;		/* -p, sorted */
	size_t		 npids;
	size_t		*chosen;	/* by object, -p: the set's objects */
	const struct outstanding_options *o;
	enum tool_style	 style;
};

static const uint64_t *
dump_frames(const struct outstanding_set *set, uint32_t id, size_t *n)
{
	const struct dump *d = set->arg;

	return (memstat_objects_stack(d->ol, id, n));
}

/*
 * The command of the owner's pid in the image's task list; a pid not in
 * a list read whole had exited by then.
 */
static const char *
dump_comm(const struct outstanding_set *set, const struct kmem_live *l)
{
	const struct dump *d = set->arg;
	const char *comm = memstat_objects_command(d->ol, l->pid);

	if (comm == NULL && memstat_objects_tasks(d->ol) == MEMSTAT_TASKS_ALL)
		return ("(exited)");
	return (comm);
}

static void
add_symbol(const char *name, uint64_t addr, void *arg)
{
	/* The name is the handle's until it is closed, after tep. */
	if (kt_symbols_add(arg, name, addr) != 0)
		errx(1, "out of memory");
}

static int
cmp_pid(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x < y ? -1 : x > y);
}

/* -p: pids is sorted. */
static bool
pid_wanted(int pid, const int *pids, size_t npids)
{
	return (npids == 0 || bsearch(&pid, pids, npids, sizeof(*pids),
	    cmp_pid) != NULL);
}

static int
cmp_unowned(const void *a, const void *b)
{
	const struct unowned *x = a, *y = b;

	if (x->bytes != y->bytes)
		return (x->bytes > y->bytes ? -1 : 1);
	return (strcmp(x->name, y->name));
}

/* The caches' counts, read once: what the walk does not list. */
static void
caches_counted(struct dump *d)
{
	if (memstat_mtl_first(d->mtl) == NULL &&
	    memstat_kvm_uma(d->mtl, d->kvm) != 0)
		errx(1, "memstat_kvm_uma: %s", memstat_mtl_geterrmsg(d->mtl));
}

/* The allocated objects of the caches that kept none of their owners. */
static void
count_unowned(struct dump *d)
{
	struct memory_type *mtp;

	caches_counted(d);
	if ((d->unowned = calloc(memstat_objects_caches(d->ol) + 1,
	    sizeof(*d->unowned))) == NULL)
		errx(1, "out of memory");
	for (size_t c = 0; c < memstat_objects_caches(d->ol); c++) {
		const char *name = memstat_objects_cache_name(d->ol, c);

		if (memstat_objects_cache_owners(d->ol, c))
			continue;
		mtp = memstat_mtl_find(d->mtl, ALLOCATOR_UMA, name);
		if (mtp == NULL || (memstat_get_unknown(mtp) &
		    MEMSTAT_UNKNOWN_ALLOCATED) != 0 ||
		    memstat_get_allocated(mtp) == 0)
			continue;
		d->unowned[d->nunowned++] = (struct unowned){ .name = name,
		    .objects = memstat_get_allocated(mtp),
		    .bytes = memstat_get_allocated(mtp) *
		    memstat_objects_cache_size(d->ol, c) };
	}
	qsort(d->unowned, d->nunowned, sizeof(*d->unowned), cmp_unowned);
}

/* The library's object o, as the report reads an allocation. */
static void
object_live(const struct memstat_objects *ol, size_t o,
    struct kmem_live *out)
{
	size_t c = memstat_object_cache(ol, o);
	size_t stack = memstat_object_stack_id(ol, o);
	uint64_t age = memstat_object_age_ns(ol, o);

	*out = (struct kmem_live){
	    .ptr = memstat_object_address(ol, o),
	    .ts = age > DUMP_END ? DUMP_END : DUMP_END - age,
	    .bytes_alloc = memstat_objects_cache_size(ol, c),
	    .bytes_req = memstat_objects_cache_size(ol, c),
	    .call_site = memstat_object_callsite(ol, o),
	    .cache = (uint32_t)c,
	    .stack = stack == SIZE_MAX ? KMEM_NO_STACK : (uint32_t)stack,
	    .comm = KMEM_NO_COMM,
	    .pid = memstat_object_pid(ol, o),
	    .cpu = memstat_object_cpu(ol, o) };
}

/* A row for each cache the walk has listed so far: 0, or -1 (memory). */
static int
caches_sync(struct dump *d)
{
	size_t n = memstat_objects_caches(d->ol);
	struct kmem_row *bigger;

	if (n >= d->acaches) {
		if ((bigger = reallocarray(d->caches, n * 2 + 1,
		    sizeof(*bigger))) == NULL)
			return (-1);
		d->caches = bigger;
		d->acaches = n * 2 + 1;
	}
	for (; d->ncaches < n; d->ncaches++)
		d->caches[d->ncaches] = (struct kmem_row){ .name =
		    memstat_objects_cache_name(d->ol, d->ncaches), .name_len =
		    strlen(memstat_objects_cache_name(d->ol, d->ncaches)) };
	d->set->caches = d->caches;
	d->set->ncaches = n;
	return (0);
}

/*
 * By object: object i of the set, the library's object whose index the
 * set keeps (all of them, or -p's), read through its accessors when the
 * report looks, not copied.
 */
static void
dump_live_at(const struct outstanding_set *set, size_t i,
    struct kmem_live *out)
{
	const struct dump *d = set->arg;

	object_live(d->ol, d->chosen != NULL ? d->chosen[i] : i, out);
}

/* What the walk hands over goes to the report's fn. */
struct dump_walk {
	struct dump	*d;
	int		(*fn)(const struct kmem_live *l, void *arg);
	void		*arg;
};

static int
walk_object(const struct memstat_objects *ol, void *arg)
{
	struct dump_walk *w = arg;
	struct kmem_live l;

	if (caches_sync(w->d) != 0)
		return (-1);
	w->d->damaged += memstat_object_damage(ol, 0) != 0;
	if (!pid_wanted(memstat_object_pid(ol, 0), w->d->pids, w->d->npids))
		return (0);
	object_live(ol, 0, &l);
	return (w->fn(&l, w->arg));
}

/*
 * By stack, call site or pid, and folded: the image's objects handed to
 * the report as the library walks them, none kept.
 */
static int
dump_each(void *each_arg, int (*fn)(const struct kmem_live *l, void *arg),
    void *arg)
{
	struct dump_walk w = { .d = each_arg, .fn = fn, .arg = arg };
	struct dump *d = w.d;

	if (memstat_kvm_objects_each(d->ol, d->kvm, d->o->caches,
	    d->o->ncaches, walk_object, &w) != 0)
		errx(1, "memstat_kvm_objects: %s",
		    memstat_objects_geterrmsg(d->ol));
	return (caches_sync(d));
}

/*
 * Bytes a kept object costs: the library's 40 and the report's 16, and
 * the lists' growth (525 MiB for 9.3 million, make bench-owners on
 * 2026-11-30); in JSON, its object in the tree and its text too (2.5 KiB
 * each on the bookworm owners dump), as JSON is written whole.
 */
#define KEPT_OBJECT_BYTES	64
#define KEPT_JSON_BYTES		2560

/*
 * By object, every object is kept: a line on stderr says how much memory
 * that takes where it is more than the grouped forms' budget, before the
 * walk, from the caches' counts (of all the caches: an upper bound).
 */
static void
kept_objects_said(struct dump *d)
{
	const struct outstanding_options *o = d->o;
	struct memory_type *mtp;
	uint64_t n = 0, each;

	caches_counted(d);
	for (mtp = memstat_mtl_first(d->mtl); mtp != NULL;
	    mtp = memstat_mtl_next(mtp)) {
		bool named = o->ncaches == 0;

		for (size_t i = 0; i < o->ncaches; i++)
			named |= strcmp(o->caches[i], memstat_get_name(mtp)) ==
			    0;
		if (named && (memstat_get_unknown(mtp) &
		    MEMSTAT_UNKNOWN_ALLOCATED) == 0)
			n += memstat_get_allocated(mtp);
	}
	each = d->style == STYLE_TEXT ? KEPT_OBJECT_BYTES : KEPT_JSON_BYTES;
	if (n * each >= KEPT_SAID_FROM)
		fprintf(stderr, "kmemtrace: --by object keeps every object%s: "
		    "up to %" PRIu64 " of them, about %" PRIu64 " MiB (--by "
		    "stack, callsite or pid keep groups)\n", d->style ==
		    STYLE_TEXT ? "" : " and its JSON", n, n * each >> 20);
}

/* By object: the objects listed, as the set's (-p's of them). */
static void
objects_listed(struct dump *d, struct outstanding_set *set)
{
	size_t n;

	kept_objects_said(d);
	if (memstat_kvm_objects(d->ol, d->kvm, d->o->caches, d->o->ncaches) !=
	    0)
		errx(1, "memstat_kvm_objects: %s",
		    memstat_objects_geterrmsg(d->ol));
	if (caches_sync(d) != 0)
		errx(1, "out of memory");
	n = memstat_objects_count(d->ol);
	if (d->npids > 0 && (d->chosen = calloc(n + 1,
	    sizeof(*d->chosen))) == NULL)
		errx(1, "out of memory");
	for (size_t i = 0; i < n; i++) {
		d->damaged += memstat_object_damage(d->ol, i) != 0;
		if (d->npids == 0)
			set->nlive++;
		else if (pid_wanted(memstat_object_pid(d->ol, i), d->pids,
		    d->npids))
			d->chosen[set->nlive++] = i;
	}
	set->live_at = dump_live_at;
}

/* The set the report reads: listed by object, else walked. */
static void
dump_set(struct dump *d, struct outstanding_set *set)
{
	*set = (struct outstanding_set){ .end = DUMP_END, .tep = d->tep,
	    .no_stacks = "no owners were kept: boot with slub_debug=U to "
	    "keep them (slub_debug=U,CACHE for some caches)",
	    .frames = dump_frames, .comm = dump_comm, .arg = d };
	d->set = set;
	if (d->o->by == BY_OBJECT && !d->o->folded)
		objects_listed(d, set);
	else {
		set->each = dump_each;
		set->each_arg = d;
	}
}

/*
 * After the walk: which caches kept owners, that -c's all exist, and the
 * image's symbols, which name the report's frames.
 */
static void
dump_walked(struct dump *d)
{
	const struct outstanding_options *o = d->o;

	if (memstat_kvm_symbols(d->kvm, add_symbol, &d->symbols) != 0)
		errx(1, "%s: %s", d->core, memstat_kvm_geterr(d->kvm));
	if (kt_symbols_attach(&d->symbols, d->tep) != 0)
		errx(1, "out of memory");

	for (size_t c = 0; c < d->ncaches; c++)
		d->owners += memstat_objects_cache_owners(d->ol, c) != 0;
	d->set->stacks = d->owners > 0;
	for (size_t i = 0; i < o->ncaches; i++) {
		size_t c;

		for (c = 0; c < d->ncaches; c++)
			if (strcmp(d->caches[c].name, o->caches[i]) == 0)
				break;
		if (c == d->ncaches)
			errx(1, "%s: no cache %s", d->core, o->caches[i]);
	}
}

static void
dump_open(struct dump *d, const char *core, const char *system)
{
	char errbuf[MEMSTAT_KVM_ERRLEN];

	d->core = core;
	if ((d->kvm = memstat_kvm_open(core, system, errbuf)) == NULL)
		errx(1, "kvm_openfiles: %s", errbuf);
	if ((d->ol = memstat_objects_alloc()) == NULL ||
	    (d->mtl = memstat_mtl_alloc()) == NULL ||
	    (d->tep = tep_alloc()) == NULL)
		errx(1, "out of memory");
}

static void
dump_close(struct dump *d, struct outstanding_model *model)
{
	outstanding_model_free(model);
	free(d->caches);
	free(d->chosen);
	free(d->unowned);
	tep_free(d->tep);
	kt_symbols_free(&d->symbols);
	memstat_mtl_free(d->mtl);
	memstat_objects_free(d->ol);
	memstat_kvm_close(d->kvm);
}

/* ---- what the image says besides its objects ---- */

/*
 * Why owners' commands may be unknown: the task list not read, or read
 * in part (a filtered dump left out a page of it: sid's makedumpfile
 * 1.7.8 at -d 31 dropped kmemload's task_struct); NULL when all read.
 */
static const char *
commands_unknown(const struct dump *d)
{
	if (d->owners == 0)
		return (NULL);
	if (memstat_objects_tasks(d->ol) == MEMSTAT_TASKS_PART)
		return ("the task list is read in part: some tasks are in "
		    "pages the dump left out");
	return (memstat_objects_tasks_why(d->ol));
}

static void
header_text(FILE *f, const struct dump *d)
{
	size_t ncaches = memstat_objects_caches(d->ol);
	const char *why;
	double up;

	fprintf(f, "# core image %s", d->core);
	if (memstat_kvm_uptime(d->kvm, &up) == 0)
		fprintf(f, ", up %.2f s", up);
	if (memstat_objects_hz(d->ol) != 0)
		fprintf(f, ", HZ %" PRIu64, memstat_objects_hz(d->ol));
	else if (d->owners > 0)
		fprintf(f, ", HZ not found: ages unknown");
	fprintf(f, "\n# owners kept by %zu of %zu caches\n", d->owners,
	    ncaches);
	if (d->owners > 0 && (why = memstat_objects_hz_why(d->ol)) != NULL)
		fprintf(f, "# ages unknown: %s\n", why);
	if ((why = commands_unknown(d)) != NULL)
		fprintf(f, "# commands unknown: %s\n", why);
	for (size_t c = 0; c < ncaches; c++)
		if (memstat_objects_cache_damage(d->ol, c) != NULL)
			fprintf(f, "# %s: read in part: %s\n",
			    memstat_objects_cache_name(d->ol, c),
			    memstat_objects_cache_damage(d->ol, c));
	if (d->damaged > 0)
		fprintf(f, "# %" PRIu64 " objects' owners are out of range in "
		    "the image (pid, CPU, stack or age: shown as -1 or none)\n",
		    d->damaged);
}

static void
unowned_text(FILE *f, const struct dump *d)
{
	uint64_t objects = 0, bytes = 0;

	for (size_t i = 0; i < d->nunowned; i++) {
		objects += d->unowned[i].objects;
		bytes += d->unowned[i].bytes;
	}
	if (d->nunowned == 0)
		return;
	fprintf(f, "\n# without owners: %" PRIu64 " objects, %" PRIu64
	    " bytes, in %zu caches that kept none (slub_debug=U keeps "
	    "them)\n", objects, bytes, d->nunowned);
	for (size_t i = 0; i < d->nunowned; i++)
		fprintf(f, "%" PRIu64 " bytes in %" PRIu64 " object%s of %s\n",
		    d->unowned[i].bytes, d->unowned[i].objects,
		    d->unowned[i].objects == 1 ? "" : "s", d->unowned[i].name);
}

static struct json_object *
source_json(const struct dump *d)
{
	struct json_object *o = tool_json_new(json_type_object);
	struct json_object *a = tool_json_new(json_type_array);
	size_t ncaches = memstat_objects_caches(d->ol);
	const char *why;
	double up;

	tool_json_set(o, "kind", json_object_new_string("core image"));
	tool_json_set(o, "path", json_object_new_string(d->core));
	if (memstat_kvm_uptime(d->kvm, &up) == 0)
		tool_json_set(o, "uptime-seconds", json_object_new_double(up));
	tool_json_stat(o, "hz", memstat_objects_hz(d->ol),
	    memstat_objects_hz(d->ol) != 0);
	if (d->owners > 0 && (why = memstat_objects_hz_why(d->ol)) != NULL)
		tool_json_set(o, "ages-unknown", json_object_new_string(why));
	if ((why = commands_unknown(d)) != NULL)
		tool_json_set(o, "commands-unknown",
		    json_object_new_string(why));
	tool_json_set(o, "caches", tool_json_uint(ncaches));
	tool_json_set(o, "caches-with-owners", tool_json_uint(d->owners));
	tool_json_set(o, "objects-with-bad-owners", tool_json_uint(d->damaged));
	for (size_t c = 0; c < ncaches; c++) {
		struct json_object *x;

		if (memstat_objects_cache_damage(d->ol, c) == NULL)
			continue;
		x = tool_json_new(json_type_object);
		tool_json_set(x, "cache", json_object_new_string(
		    memstat_objects_cache_name(d->ol, c)));
		tool_json_set(x, "damage", json_object_new_string(
		    memstat_objects_cache_damage(d->ol, c)));
		if (json_object_array_add(a, x) != 0)
			abort();
	}
	tool_json_set(o, "caches-read-in-part", a);
	return (o);
}

static struct json_object *
unowned_json(const struct dump *d)
{
	struct json_object *a = tool_json_new(json_type_array);

	for (size_t i = 0; i < d->nunowned; i++) {
		struct json_object *x = tool_json_new(json_type_object);

		tool_json_set(x, "cache", json_object_new_string(
		    d->unowned[i].name));
		tool_json_set(x, "objects", tool_json_uint(
		    d->unowned[i].objects));
		tool_json_set(x, "bytes", tool_json_uint(d->unowned[i].bytes));
		if (json_object_array_add(a, x) != 0)
			abort();
	}
	return (a);
}

void
report_dump(const char *core, const char *system, enum tool_style style,
    struct outstanding_options *o, const int *pids, size_t npids)
{
	struct outstanding_model *model;
	struct outstanding_set set;
	struct json_object *body;
	struct tool_out out;
	struct dump d = { .o = o, .pids = pids, .npids = npids,
	    .style = style };
	int rc;

	dump_open(&d, core, system);
	if ((int)o->by < 0)
		o->by = BY_STACK;
	dump_set(&d, &set);
	if ((model = outstanding_model_build(&set, o)) == NULL)
		errx(1, "out of memory");
	dump_walked(&d);
	if (npids == 0)
		count_unowned(&d);
	/*
	 * No cache kept owners: no object was listed, and the groups (none)
	 * are named by call site, what a later dump with owners groups by.
	 */
	if (o->by == BY_STACK && d.owners == 0)
		o->by = BY_CALLSITE;
	/* By object, text as large as the objects: not held whole. */
	if (style == STYLE_TEXT && !o->folded && o->by == BY_OBJECT)
		tool_out_init_streamed(&out);
	else
		tool_out_init(&out, style);
	if (o->folded) {
		rc = report_outstanding_folded(out.text, model);
		for (size_t i = 0; i < d.nunowned; i++)
			fprintf(out.text, "[%s] %" PRIu64 "\n",
			    d.unowned[i].name, d.unowned[i].bytes);
	} else if (style != STYLE_TEXT) {
		body = tool_json_set(out.json, "kmemtrace",
		    tool_json_new(json_type_object));
		tool_json_set(body, "source", source_json(&d));
		rc = report_outstanding_json(body, model);
		tool_json_set(body, "without-owners", unowned_json(&d));
	} else {
		header_text(out.text, &d);
		rc = report_outstanding_text(out.text, model);
		unowned_text(out.text, &d);
	}
	if (rc != 0)
		errx(1, "out of memory");
	tool_out_finish(&out);
	dump_close(&d, model);
}
