/*
 * kmem_tasks.h: which command each task ran, over the recording: the
 * tasks at its start (record -g saves them), then every task made
 * (task_newtask) or renamed by exec (task_rename) as its events come.
 * An allocation is told its task's command at its own time, where the
 * kernel's saved_cmdlines only knows the last one of a bounded few.
 */
#ifndef KMEM_TASKS_H
#define KMEM_TASKS_H

#include <stddef.h>
#include <stdint.h>

#include "u64map.h"

#define KMEM_NO_COMM	UINT32_MAX
#define KMEM_COMM_LEN	63	/* /proc names kernel threads at length */

struct kmem_tasks {
	char		 (*comms)[KMEM_COMM_LEN + 1];	/* every one seen */
	size_t		 ncomms, acomms;
	struct u64map	 now;		/* pid -> its command's index */
};

int	kmem_tasks_init(struct kmem_tasks *t);
void	kmem_tasks_free(struct kmem_tasks *t);
/* pid runs comm (len bytes, cut to KMEM_COMM_LEN) from now on; -1: no memory. */
int	kmem_tasks_set(struct kmem_tasks *t, int pid, const char *comm,
	    size_t len);
/* comm kept as set() keeps it, for no task: its index; KMEM_NO_COMM. */
uint32_t kmem_tasks_keep(struct kmem_tasks *t, const char *comm);
/* pid's command now, or KMEM_NO_COMM. */
uint32_t kmem_tasks_now(const struct kmem_tasks *t, int pid);
const char *kmem_tasks_comm(const struct kmem_tasks *t, uint32_t id);

#endif /* !KMEM_TASKS_H */
