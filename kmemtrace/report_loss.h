/*
 * report_loss.h: what a recording lost, said the same way by record's
 * last line and by every report: never silent, per CPU.
 */
#ifndef REPORT_LOSS_H
#define REPORT_LOSS_H

#include <stdbool.h>
#include <stdio.h>

#include <json-c/json.h>

#include "source.h"

/* "none", or per CPU what was lost, on one line. */
void	report_loss_text(FILE *f, const struct kt_source *src);
/* An array, one object per CPU: counts, null where unknown. */
struct json_object *report_loss_json(const struct kt_source *src);
/* kmemtrace record's last line, on f, of the recording at path. */
void	report_loss_summary(FILE *f, const char *path);

#endif /* !REPORT_LOSS_H */
