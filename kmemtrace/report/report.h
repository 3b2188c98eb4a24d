/*
 * report.h: kmemtrace report, the subcommand.
 */
#ifndef REPORT_H
#define REPORT_H

/* argv[0] is "report"; returns the exit status. */
int	kmemtrace_report(int argc, char *argv[]);

#endif /* !REPORT_H */
