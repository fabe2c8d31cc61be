/* rt_jtxn — new operations for several journals of one folder, committed all or nothing (an
 * import for a team): each journal's new copy is staged beside it, then one marker file names
 * them all (the commit point), then each copy is renamed over its journal. A kill before the
 * marker leaves every journal as it was; after it, the next open of any journal in the folder
 * finishes the renames (rt_jtxn_recover), so every journal has its new lines. */
#ifndef RT_JTXN_H
#define RT_JTXN_H

#include <stddef.h>

#include "rt_err.h"
#include "rt_journal.h"
#include "rt_op.h"
#include "rt_report.h"

typedef struct rt_jtxn rt_jtxn;

/* Called after each durable step of rt_jtxn_stage and rt_jtxn_commit, numbered from 1 (one step
 * per journal staged, then: the marker written, the marker in place (the commit point), each
 * journal renamed, the renames synced, the marker removed). A non-zero return makes that step
 * fail as an I/O error would: a hook for the tests of crash and disk-full safety. */
typedef int (*rt_jtxn_step_fn)(void *ctx, unsigned step);

/* Starts a transaction on the journal folder dir: takes the folder's import lock (RT_ELOCKED when
 * another import holds it), finishes an interrupted one (rt_jtxn_recover) and removes copies a
 * killed import staged and never committed. RT_EINPUT when an interrupted import's marker is
 * still there after that (damaged, or a rename failed): its copies are kept, nothing is written.
 * *out is owned by the caller (rt_jtxn_free). */
rt_status rt_jtxn_begin(rt_jtxn **out, const char *dir, rt_report *report, rt_err *err);

/* Sets the step hook (NULL: none). */
void rt_jtxn_set_hook(rt_jtxn *t, rt_jtxn_step_fn fn, void *ctx);

/* Stages ops[0..n) for j, a writable journal of the transaction's folder (stamped as
 * rt_journal_append stamps them): its new copy is written and fsync'd under a hidden name.
 * Nothing a reader sees changes. j must stay open until the commit or rt_jtxn_free. */
rt_status rt_jtxn_stage(rt_jtxn *t, rt_journal *j, rt_op *ops, size_t n, rt_err *err);

/* Commits every staged journal. Before the commit point a failure leaves every journal as it
 * was (RT_EIO naming the cause); after it the journals are renamed in turn, and a failure there
 * is finished by the next open. Each journal then writes to its new file. */
rt_status rt_jtxn_commit(rt_jtxn *t, rt_err *err);

/* Releases t; when it was not committed, removes the staged copies (every journal as it was). */
void rt_jtxn_free(rt_jtxn **t);

/* Finishes a transaction a kill interrupted after its commit point, when the folder (open as
 * dirfd, its name dir for messages) holds its marker and no import is running; says so in report.
 * A journal changed since it was staged is not replaced: a warning names it and its staged copy.
 * A line report already holds is not added again (each journal of the folder opened tries).
 * Costs one fstatat when there is no marker. */
void rt_jtxn_recover(int dirfd, const char *dir, rt_report *report);

/* After rt_jtxn_recover could not finish it (a folder this process cannot write): the name of
 * the copy an import committed for the journal file journal of dirfd, the journal still as the
 * import staged it, so that a reader reads the import's lines rather than a journal the import
 * has replaced; NULL when there is none. Owned: the caller frees it. */
char *rt_jtxn_pending(int dirfd, const char *journal);

#endif
