/* rt_file — the one owner of writing to disk durably: whole writes, appends that are on disk
 * before they return, folder syncs, mkdir -p, and output files replaced atomically. Exports,
 * pools, the leak output, the collection index and the journal all write through here.
 *
 * Output targets (rt_outfile_open), the policy every -o follows:
 * - a regular file (or a new name) is replaced atomically: a temporary file beside it
 *   (TARGET.tmp-PID-N), fsync, rename over it, folder fsync; a reader or a crash sees the old
 *   contents or the whole new ones. An existing file keeps its permission bits.
 * - a device, FIFO or socket (-o /dev/null, -o /dev/stdout, a pipe) is written in place: it is
 *   opened for writing without truncating or replacing anything.
 * - a symbolic link to a regular file (or a dangling one) is refused: retriage never writes
 *   through a link it did not make. A link to a device or FIFO (/dev/stdout) is written in place.
 * Before making its temporary file, the writer removes TARGET.tmp-PID-N files of processes that
 * no longer exist (left by a kill), never another live process's. */
#ifndef RT_FILE_H
#define RT_FILE_H

#include <stdio.h>
#include <sys/types.h>

#include "rt_err.h"

/* Writes all len bytes (restarting after EINTR and short writes); 0, or -1 with errno set. */
int rt_file_write_all(int fd, const void *buf, size_t len);

/* Appends len bytes at the end of fd (opened O_APPEND) and fsyncs; returns only once they are
 * on disk. *size is the file's length before, and after on success. On failure whatever reached
 * the file is cut off again (so nothing unacknowledged remains) and RT_EIO names path. */
rt_status rt_file_append(int fd, off_t *size, const void *buf, size_t len, const char *path,
                         rt_err *err);

/* Creates name in dirfd (never through a link, never over an existing entry) holding len bytes,
 * fsync'd; 0, or -1 with errno set and nothing left behind. */
int rt_file_create_at(int dirfd, const char *name, const void *buf, size_t len);

/* Replaces the file name in dirfd by one holding len bytes, atomically: a temporary beside it
 * (name.tmp-PID-N, created exclusively, never through a link) is written with mode, fsync'd and
 * renamed over name, then the folder is synced. A crash leaves the old file or the new one (and at
 * worst a temporary, which the next call removes once its process is dead). newfd not NULL: it
 * receives the new file opened with flags. 0, or -1 with errno set and nothing changed. */
int rt_file_replace_at(int dirfd, const char *name, const void *buf, size_t len, mode_t mode, int flags,
                       int *newfd);

/* Removes the temporaries of name (name.tmp-PID-N) that rt_file_replace_at left in dirfd when its
 * process was killed (that process is dead); what a writer of name does before writing. */
void rt_file_sweep_stale_at(int dirfd, const char *name);

/* Cuts fd to size and fsyncs; 0, or -1 with errno set. */
int rt_file_truncate(int fd, off_t size);

/* Makes a new entry in a folder durable (fsync of the folder). Best effort: some file systems
 * refuse to sync a folder. The first takes an open folder, the second the folder of path. */
void rt_file_sync_dirfd(int dirfd);
void rt_file_sync_dir_of(const char *path);

/* mkdir -p dir with mode for the folders it creates. RT_EIO naming the folder that failed. */
rt_status rt_file_mkdirs(const char *dir, mode_t mode, rt_err *err);

/* For tests: when path is not NULL or empty, waits until that file exists (at most two minutes,
 * so that a test that died leaves nothing waiting for ever). A test holds a background step there
 * (the cache's writer, the collection's thread: rt_tuning's waits), acts, then lets it go,
 * instead of guessing how long the step takes. */
void rt_file_test_hold(const char *path);

/* ${XDG_CACHE_HOME:-$HOME/.cache}/retriage/WHAT, or NULL when neither names an absolute folder;
 * the folder may not exist yet. Owned: the caller frees it with free. */
char *rt_file_cache_dir(const char *what);

/* ${VAR:-$HOME/FALLBACK}/retriage/WHAT, as rt_file_cache_dir (which is it for the cache): for the
 * other XDG folders (the state folder's journals, rt_wskey). Owned: the caller frees it. */
char *rt_file_xdg_dir(const char *var, const char *fallback, const char *what);

typedef struct rt_outfile rt_outfile;

/* Opens path for writing by the policy above and sets *out. RT_EIO (naming path) when the folder
 * is missing or not writable; RT_EUSAGE for a symbolic link to a regular file. */
rt_status rt_outfile_open(rt_outfile **out, const char *path, rt_err *err);

/* The stream to write to. Borrowed: valid until rt_outfile_commit or rt_outfile_discard. */
FILE *rt_outfile_stream(const rt_outfile *f);

/* Finishes: flushes and fsyncs, then renames the temporary file over the target and syncs the
 * folder (a device or FIFO: flushes). On any failure (a write error earlier included, e.g. no
 * space left) the target is left as it was, the temporary file removed, and RT_EIO returned with
 * the target's name and the reason. Frees *f and sets it to NULL either way. */
rt_status rt_outfile_commit(rt_outfile **f, rt_err *err);

/* Closes and removes the temporary file, leaving the target as it was; frees *f (NULL is fine). */
void rt_outfile_discard(rt_outfile **f);

#endif
