/*
 * source_dir.h: a recording directory (recording.h) as a source.
 */
#ifndef SOURCE_DIR_H
#define SOURCE_DIR_H

#include "source.h"

int	kt_recording_open(struct kt_source *src, const char *path,
	    struct kt_error *e);
/*
 * Only what a recording lost (its stats and its pages' flags) and its
 * size in bytes, without reading its events: kmemtrace record's last word.
 */
int	kt_recording_loss(struct kt_source *src, const char *path,
	    uint64_t *bytes, struct kt_error *e);

#endif /* !SOURCE_DIR_H */
