/* rt_collection — the passage collection (TSV pid<TAB>text), read through mmap and never copied
 * into the heap. The first open makes one sequential pass and writes an offset index beside the
 * file (or in the user's cache folder when that is not writable); later opens revalidate the
 * index (file size, mtime, a content sample) and map it, which costs next to nothing. Passages
 * are looked up by pid string (binary search in the index's pid-sorted table), so opening a
 * collection of millions of passages interns nothing. */
#ifndef RT_COLLECTION_H
#define RT_COLLECTION_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "rt_err.h"
#include "rt_progress.h"
#include "rt_report.h"

typedef struct rt_collection rt_collection;

/* Opens the collection at path. Lines that are blank or start with '#' are skipped; every other
 * line must be pid<TAB>text or the open fails with path:line (RT_EINPUT). The pid is the bytes
 * before the first tab (non-empty UTF-8 without control characters); the text is the rest of the
 * line, which may be empty or hold further tabs. A BOM, CRLF and a missing final newline are
 * accepted; a file with no passages is an error. Duplicate pids keep the first passage and are
 * reported as a warning naming the first duplicate's line.
 * The index is looked for at <path>.rtidx, then at
 * ${XDG_CACHE_HOME:-$HOME/.cache}/retriage/index/<hash of the absolute path>.rtidx; a stale or
 * broken one is rebuilt without a word, and a new one is written beside the file when its folder
 * is writable, else in the cache folder, else kept in memory (with a warning in the report).
 * progress (may be NULL) is reported to only while an index is built, as phase "collection": bytes
 * of the file scanned, every 64 MiB and at its end (a compressed file's bar covers both passes,
 * decompressing and indexing); on this thread. The file must not be truncated while the
 * collection is open (it is mapped). */
rt_status rt_collection_open(rt_collection **out, const char *path, const rt_progress *progress,
                             rt_report *report, rt_err *err);
void rt_collection_close(rt_collection **c);

/* As rt_collection_open, except that an index it builds is kept in memory and not written: the
 * caller writes it with rt_collection_save (the workspace does in its cache writer, so that a
 * first open does not wait for it). Nothing is reported about the index until then. */
rt_status rt_collection_open_unsaved(rt_collection **out, const char *path, const rt_progress *progress,
                                     rt_report *report, rt_err *err);

/* Whether the collection holds a built index not yet written. */
int rt_collection_unsaved(const rt_collection *c);

/* Writes an unsaved index as rt_collection_open would have (beside the file, else in the cache
 * folder; then served from the file) and reports it as that does. Nothing when none is unsaved. */
void rt_collection_save(rt_collection *c, rt_report *report);

/* The unsaved index is being written by another process (pid): reports it so and stops counting
 * it unsaved; the index here stays in memory. */
void rt_collection_saved_by(rt_collection *c, long pid, rt_report *report);

/* Number of passages (after duplicates were dropped). The lookups below only read, so several
 * threads may use one collection at once. */
size_t rt_collection_count(const rt_collection *c);

/* Whether pid is in the collection, told from the index alone (the pid's first 8 bytes, its length
 * and, beyond 8 bytes, a 64-bit hash of it), without reading the collection: a reopen checks the
 * judged pids without faulting in its pages. Exact for pids of up to 8 bytes. */
int rt_collection_has(const rt_collection *c, const char *pid, size_t len);

/* How many of the n pids (pids[k] of lens[k] bytes) are not in the collection: rt_collection_has
 * for each, answered in one sweep over the index in key order (a workspace's judged pids at every
 * open). */
size_t rt_collection_count_missing(const rt_collection *c, const char *const *pids, const size_t *lens,
                                   size_t n);

/* Finds the passage of the len bytes at pid. On 1, *text points into the mapping (not
 * NUL-terminated, may hold any bytes: sanitise before display) and *tlen is its length; valid
 * until the collection is closed. Returns 0 when the pid is not in the collection. */
int rt_collection_find(const rt_collection *c, const char *pid, size_t len, const char **text,
                       size_t *tlen);

/* Asks the system to read the first bytes (up to `bytes`) of the passages of the n pids in the
 * background, without waiting, for a screen about to show them: each is located from the index
 * alone (the passage is not touched), so that a screen of passages from a cold file costs about
 * one disk read's wait instead of one per row. Pids not in the collection are passed over. */
void rt_collection_prefetch(const rt_collection *c, const char *const *pids, const size_t *lens,
                            size_t n, size_t bytes);

/* Brings the whole collection file into the page cache on the calling thread (a background one:
 * it waits for the disk), 4 MiB at a time, reading the file without mapping it into the process:
 * chunks already cached are passed over (mincore), the others are asked for (POSIX_FADV_WILLNEED)
 * and waited for. A screen of passages from a cold file then waits for no disk read. Returns
 * early once *stop is set; does nothing for a file larger than a quarter of the memory (it would
 * push out what is in use) or no longer the file opened (another inode or size); stops when a
 * read fails. Returns the bytes it asked the disk for. */
size_t rt_collection_warm(const rt_collection *c, const atomic_int *stop);

/* The i-th passage in file order (i < count): its pid and text, borrowed as above. */
void rt_collection_at(const rt_collection *c, size_t i, const char **pid, size_t *pid_len,
                      const char **text, size_t *tlen);

/* True when this open reused a valid cached index; the index file's path (borrowed, valid until
 * close), or NULL when no index file could be written and the index lives in memory. */
int rt_collection_index_reused(const rt_collection *c);

/* 1 when the collection's file is no longer as it was opened (size, mtime, ctime, inode or
 * device differ: truncated, rewritten or replaced on disk; a mapping cut short under us always
 * shows here too), so that a passage not found can be told from a passage the file never had.
 * One stat. */
int rt_collection_changed(const rt_collection *c);

/* The file the collection maps (for a compressed one, its decompressed copy in the cache
 * folder). Borrowed: valid until rt_collection_close. */
const char *rt_collection_path(const rt_collection *c);

/* The mapped index file (*len bytes), or NULL when the index is on the heap; and the index
 * file's path, or NULL when there is none (yet). Borrowed: both valid until rt_collection_close;
 * rt_collection_save of an unsaved index sets them (it maps the file and frees the heap copy). */
const void *rt_collection_index_map(const rt_collection *c, size_t *len);
const char *rt_collection_index_path(const rt_collection *c);

#endif
