/*
 * recording_loss.h: what a recording lost, said the same way by record's
 * last line and by every report: never silent, per CPU.
 */
#ifndef RECORDING_LOSS_H
#define RECORDING_LOSS_H

#include <stdbool.h>
#include <stdio.h>

#include <json-c/json.h>

#include "source.h"

/* "none", or per CPU what was lost, on one line. */
void	recording_loss_text(FILE *f, const struct kt_source *src);
/* An array, one object per CPU: counts, null where unknown. */
struct json_object *recording_loss_json(const struct kt_source *src);
/* kmemtrace record's last line, on f, of the recording at path. */
void	recording_loss_summary(FILE *f, const char *path);

#endif /* !RECORDING_LOSS_H */
