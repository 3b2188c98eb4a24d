/*
 * kmem_tasks.c: a command is kept per event that names it (a few per
 * process), never freed: objects allocated earlier keep its index.
 */
#include <stdlib.h>
#include <string.h>

#include "kmem_tasks.h"

int
kmem_tasks_init(struct kmem_tasks *t)
{
	memset(t, 0, sizeof(*t));
	return (u64map_init(&t->now));
}

void
kmem_tasks_free(struct kmem_tasks *t)
{
	free(t->comms);
	u64map_free(&t->now);
}

static int
room(struct kmem_tasks *t)
{
	if (t->ncomms == t->acomms) {
		size_t a = t->acomms == 0 ? 256 : t->acomms * 2;
		void *p;

		if (a > UINT32_MAX - 2 ||
		    (p = reallocarray(t->comms, a, sizeof(*t->comms))) == NULL)
			return (-1);
		t->comms = p;
		t->acomms = a;
	}
	return (0);
}

int
kmem_tasks_set(struct kmem_tasks *t, int pid, const char *comm, size_t len)
{
	uint32_t *v;
	bool made;

	if (room(t) != 0 || (v = u64map_insert(&t->now,
	    (uint64_t)(uint32_t)pid, &made)) == NULL)
		return (-1);
	if (len > KMEM_COMM_LEN)
		len = KMEM_COMM_LEN;
	memcpy(t->comms[t->ncomms], comm, len);
	t->comms[t->ncomms][len] = '\0';
	*v = (uint32_t)t->ncomms++;
	return (0);
}

uint32_t
kmem_tasks_keep(struct kmem_tasks *t, const char *comm)
{
	if (room(t) != 0)
		return (KMEM_NO_COMM);
	memcpy(t->comms[t->ncomms], comm, sizeof(*t->comms));
	return ((uint32_t)t->ncomms++);
}

uint32_t
kmem_tasks_now(const struct kmem_tasks *t, int pid)
{
	uint32_t *v = u64map_find(&t->now, (uint64_t)(uint32_t)pid);

	return (v != NULL ? *v : KMEM_NO_COMM);
}

const char *
kmem_tasks_comm(const struct kmem_tasks *t, uint32_t id)
{
	return (t->comms[id]);
}
