/*
 * record.h: kmemtrace record, the subcommand.
 */
#ifndef RECORD_H
#define RECORD_H

/* argv[0] is "record"; returns the exit status. */
int	kmemtrace_record(int argc, char *argv[]);

#endif /* !RECORD_H */
