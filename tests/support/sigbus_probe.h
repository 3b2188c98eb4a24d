/*
 * sigbus_probe.h: whether this machine's SIGBUS, raised by a read past
 * the end of a file cut while mapped, says where the read was (si_addr
 * in the page read).  Linux does on every architecture; qemu-user 7.2
 * (s390x's, riscv64's) hands the guest another number, and what relies
 * on it (the tool layer's map of a stream, tool_map.c) cannot be tested
 * there.
 */
#ifndef SIGBUS_PROBE_H
#define SIGBUS_PROBE_H

#include <stdbool.h>

/* Tried in a child process, which may die of it: true or false. */
bool	sigbus_says_where(void);

#endif /* !SIGBUS_PROBE_H */
