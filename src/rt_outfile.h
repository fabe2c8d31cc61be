/* rt_outfile — writes an output file (an export, a pool) atomically: into a temporary file in the
 * same folder, then fsync and rename over the target, so that a reader, or the file after a
 * crash, holds the old contents or the whole new ones, never a part. */
#ifndef RT_OUTFILE_H
#define RT_OUTFILE_H

#include <stdio.h>

#include "rt_err.h"

typedef struct rt_outfile rt_outfile;

/* Creates a temporary file beside path (named path.tmp-PID-N) and sets *out to it. An existing
 * target keeps its permission bits; a new one gets 0666 less the umask. RT_EIO when the folder
 * is missing or not writable. */
rt_status rt_outfile_open(rt_outfile **out, const char *path, rt_err *err);

/* The stream to write to; borrowed, valid until commit or discard. */
FILE *rt_outfile_stream(const rt_outfile *f);

/* Flushes, fsyncs and closes the temporary file, renames it over the target and syncs the
 * folder. On any failure (a write error earlier included) the target is left as it was, the
 * temporary file is removed, and RT_EIO is returned. Frees *f and sets it to NULL either way. */
rt_status rt_outfile_commit(rt_outfile **f, rt_err *err);

/* Closes and removes the temporary file, leaving the target as it was; frees *f (NULL is fine). */
void rt_outfile_discard(rt_outfile **f);

#endif
