/*
 * kvm_tasks.c: the image's tasks, for the commands of slab objects'
 * owners (pids): every process on init_task.tasks, init_task among them,
 * and every thread of each on its signal->thread_head (task_struct.
 * thread_node, every kernel since 3.14).  A filtered dump may leave a
 * task_struct's page out: its thread group is passed over, and where
 * the list's link is lost with it, the rest of the list is walked back
 * from its head (list_head.prev) to the gap; the tasks are then read in
 * part.  The running kernel's list moves: a walk that fails is walked
 * again, a few times at most.  Every walk is bounded.
 */
#include <errno.h>
#include <string.h>

#include "kvm/walk/kvm_slub_slab.h"
#include "kvm/walk/kvm_tasks.h"
#include "objects/objects_internal.h"

#define MAX_TASKS	(1u << 22)	/* PID_MAX_LIMIT */
#define COMM_LEN	16		/* TASK_COMM_LEN */

struct task_layout {
	struct kvm_member tasks, pid, comm, signal, thread_node, thread_head,
	    next, prev;
};

struct task_walk {
	struct memstat_kvm *kvm;
	struct memstat_objects *ol;
	struct task_layout l;
	size_t		 steps;		/* entries visited, bounded */
	bool		 part;
};

static int
layout_load(struct memstat_kvm *kvm, struct task_layout *l)
{
	static const struct kvm_member_want want[] = {
#define W(t, m, f) KVM_WANT(struct task_layout, t, m, f)
		W("task_struct", "tasks", tasks),
		W("task_struct", "pid", pid),
		W("task_struct", "comm", comm),
		W("task_struct", "signal", signal),
		W("task_struct", "thread_node", thread_node),
		W("signal_struct", "thread_head", thread_head),
		W("list_head", "next", next),
		W("list_head", "prev", prev),
#undef W
	};

	return (_memstat_kvm_members(kvm, want, sizeof(want) / sizeof(want[0]),
	    l));
}

static bool
step(struct task_walk *w)
{
	if (++w->steps <= MAX_TASKS)
		return (true);
	_memstat_kvm_fail(w->kvm, MEMSTAT_ERROR_DATAERROR,
	    "the task list does not end (a cycle?)");
	return (false);
}

static int
task_add(struct task_walk *w, uint64_t task)
{
	char comm[COMM_LEN + 1] = { 0 };
	uint64_t pid;

	if (_memstat_slub_member(w->kvm, task, &w->l.pid, &pid) != 0 ||
	    _memstat_kvm_read(w->kvm, task + w->l.comm.offset, comm,
	    w->l.comm.size < COMM_LEN ? w->l.comm.size : COMM_LEN) != 0)
		return (-1);
	if (_memstat_objects_task_add(w->ol, (int32_t)pid, comm) != 0)
		return (_memstat_kvm_fail(w->kvm, MEMSTAT_ERROR_NOMEMORY, "%s",
		    strerror(ENOMEM)));
	return (0);
}

/* Every thread of the process whose task_struct is at leader. */
static int
group(struct task_walk *w, uint64_t leader)
{
	uint64_t sig, head, e;

	if (_memstat_slub_member(w->kvm, leader, &w->l.signal, &sig) != 0)
		return (-1);
	head = sig + w->l.thread_head.offset;
	if (_memstat_slub_member(w->kvm, head, &w->l.next, &e) != 0)
		return (-1);
	while (e != head) {
		if (!step(w) || task_add(w, e - w->l.thread_node.offset) != 0 ||
		    _memstat_slub_member(w->kvm, e, &w->l.next, &e) != 0)
			return (-1);
	}
	return (0);
}

/* The processes from init_task on, then back from the end to a gap. */
static int
walk(struct task_walk *w, uint64_t init_task)
{
	struct memstat_kvm *kvm = w->kvm;
	uint64_t head = init_task + w->l.tasks.offset, e = head, gap = 0;

	/* A read on a page the dump left out: the walk goes on without. */
	do {
		if (!step(w))
			return (-1);
		if (group(w, e - w->l.tasks.offset) != 0 &&
		    !_memstat_kvm_left_out_mark(kvm, &w->part))
			return (-1);
		if (_memstat_slub_member(kvm, e, &w->l.next, &e) != 0) {
			if (!_memstat_kvm_left_out_mark(kvm, &w->part))
				return (-1);
			gap = e;
			break;
		}
	} while (e != head);
	if (gap == 0)
		return (0);
	if (_memstat_slub_member(kvm, head, &w->l.prev, &e) != 0)
		return (_memstat_kvm_left_out_mark(kvm, &w->part) ? 0 : -1);
	while (e != gap && e != head) {
		if (!step(w))
			return (-1);
		if (group(w, e - w->l.tasks.offset) != 0 &&
		    !_memstat_kvm_left_out_mark(kvm, &w->part))
			return (-1);
		if (_memstat_slub_member(kvm, e, &w->l.prev, &e) != 0)
			return (_memstat_kvm_left_out_mark(kvm, &w->part) ?
			    0 : -1);
	}
	return (0);
}

void
_memstat_kvm_tasks(struct memstat_kvm *kvm, struct memstat_objects *ol)
{
	struct task_walk w = { .kvm = kvm, .ol = ol };
	uint64_t init_task;
	int tries = 0;

	if (_memstat_kvm_symbol(kvm, "init_task", &init_task) != 0)
		(void)_memstat_kvm_code_only(kvm, "init_task");
	else if (layout_load(kvm, &w.l) == 0)
		for (;;) {
			ol->ntasks = 0;
			w.steps = 0;
			w.part = false;
			if (walk(&w, init_task) == 0) {
				_memstat_objects_tasks_done(ol, w.part ?
				    MEMSTAT_TASKS_PART : MEMSTAT_TASKS_ALL);
				return;
			}
			if (!_memstat_kvm_again(kvm, &tries))
				break;
		}
	/* Not read: why, once, whichever step stopped it. */
	ol->ntasks = 0;
	_memstat_objects_why(&ol->tasks_why, kvm->err.msg);
}
