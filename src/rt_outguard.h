/* rt_outguard — which files an output (-o, the workbench's :export) must never replace: what
 * retriage reads or keeps. An export written over a journal, a base qrels file, a run, the
 * workspace file or a cache loses data without a word; so every output is opened through
 * rt_outguard_open, which refuses such a target (RT_EINPUT, the file untouched) and names it and
 * why. Files are compared by identity (device and inode), so "./x", a hard link or a path through
 * a symlinked folder is caught; a target that does not exist yet is fine unless it would land
 * where retriage reads every file (a journal folder, a cache folder). */
#ifndef RT_OUTGUARD_H
#define RT_OUTGUARD_H

#include "rt_err.h"
#include "rt_file.h"

struct rt_session;
struct rt_workspace;

typedef struct rt_outguard rt_outguard;

/* An empty guard (it protects only what its own checks find). Owned: freed with
 * rt_outguard_free, which sets *g to NULL. */
rt_outguard *rt_outguard_new(void);
void rt_outguard_free(rt_outguard **g);

/* Protects the file at path (NULL or a path that does not exist is skipped), what saying what it
 * is ("the qrels", "a run"; a static string, not copied). Identity is taken now. */
void rt_outguard_add(rt_outguard *g, const char *path, const char *what);

/* Protects a journal folder: no NAME.jsonl in it (existing or not), lock file, import marker or
 * NAME.jsonl.SOMETHING kept beside a journal may be written, since the team reads every
 * NAME.jsonl there as a journal and the rest holds lines set aside. */
void rt_outguard_add_journal_dir(rt_outguard *g, const char *dir);

/* Protects every input of ws: its JSON file and every file that file names (resolved against its
 * folder), the qrels, runs, queries, collection and its index, answers and leakage files loaded. */
void rt_outguard_add_workspace(rt_outguard *g, const struct rt_workspace *ws);

/* rt_outguard_add_workspace of s's workspace and rt_outguard_add_journal_dir of its journal
 * folder: what the workbench's outputs must spare. */
void rt_outguard_add_session(rt_outguard *g, const struct rt_session *s);

/* RT_OK when path may be written. Otherwise RT_EINPUT with "PATH: will not write over …" saying
 * what it is. Beside the protected files (g may be NULL) the check refuses on its own: a journal
 * (its first line that is not blank is an operation, read whole as rt_journal_open reads it, or
 * its lock file NAME.lock is beside it), a journal lock (NAME.jsonl.lock), a NAME.jsonl in a
 * folder holding journals and what retriage keeps there (.import.txn, NAME.jsonl.SOMETHING), a file a process holds a lock on, and caches (.rtws, .rtidx, anything
 * under retriage's cache folder). "-" and devices, pipes and sockets (-o /dev/null, /dev/stdout)
 * are never refused. */
rt_status rt_outguard_check(const rt_outguard *g, const char *path, rt_err *err);

/* rt_outguard_check, then rt_outfile_open: the way every output file is opened. */
rt_status rt_outguard_open(rt_outfile **out, const char *path, const rt_outguard *g, rt_err *err);

#endif
