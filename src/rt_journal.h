/* rt_journal — an annotator's journal (DESIGN.md §6): one JSON object a line, appended and
 * fsync'd before the caller shows the change as done. Opening reads every operation back,
 * sets a torn last line aside, and takes the journal's lock; a second process gets the journal
 * read-only. This module knows the file; rt_op the line format; rt_annot what operations mean. */
#ifndef RT_JOURNAL_H
#define RT_JOURNAL_H

#include <stddef.h>
#include <stdint.h>

#include "rt_err.h"
#include "rt_op.h"
#include "rt_report.h"

typedef struct rt_journal rt_journal;

/* An annotator's name is its journal's file name: under this many bytes. */
enum { RT_JOURNAL_NAME_MAX = 200 };

/* Why annotator cannot name a journal or NULL when it can (Borrowed: a static string): it must be a name
 * rt_name_problem accepts (valid UTF-8, no control character, no space or invisible character at
 * an end — "alice " from a spreadsheet must not become a second alice —, no bidi control), under
 * RT_JOURNAL_NAME_MAX bytes, without '/' or a leading '.'.
 * A journal opened to write (and so perhaps created) must have such a name; one opened read-only
 * (a teammate's, already in the folder) only a name without '/' or a leading '.'. */
const char *rt_journal_name_problem(const char *annotator);

/* Opens (creating dir as needed; the file itself at the first append) the journal of annotator in dir. Existing operations
 * are read into *ops / *nops (caller frees each with rt_op_clear, then the array).
 * - Nothing is opened through a symbolic link: a journal folder that is a link, or a journal
 *   that is a link, a pipe, a device or a folder, is refused (RT_EINPUT), nothing touched; so is a
 *   file whose first line is not an operation (not a journal at all).
 * - A complete line that is not an operation is reported with file:line and the journal opens
 *   read-only (nothing cut or rewritten) until the user fixes or moves it; the good operations
 *   still load.
 * - Bytes after the last newline that look like an append cut short (the start of an operation
 *   line, zeros) are a torn write: copied to "<file>.torn-<time>" and cut off (when writable).
 * - When another process holds the lock, the journal or its folder is not writable, or the
 *   folder cannot be created, the journal opens read-only and rt_journal_readonly says why. */
rt_status rt_journal_open(rt_journal **out, const char *dir, const char *annotator,
                          rt_op **ops, size_t *nops, rt_report *report, rt_err *err);

/* Receives one operation read from journal j (which the caller may make read-only with
 * rt_journal_refuse); it owns op and must clear it. */
typedef void (*rt_journal_op_fn)(void *ctx, rt_journal *j, rt_op *op);

/* As rt_journal_open (readonly 0) or rt_journal_open_readonly, handing each operation to fn as it
 * is read instead of collecting them all first: what a large journal's replay wants. When the
 * file is refused (not a journal), fn has not been called. */
rt_status rt_journal_open_each(rt_journal **out, const char *dir, const char *annotator, int readonly,
                               rt_journal_op_fn fn, void *ctx, rt_report *report, rt_err *err);

/* Opens read-only without taking the lock and without changing anything (exports, reviews). */
rt_status rt_journal_open_readonly(rt_journal **out, const char *dir, const char *annotator,
                                   rt_op **ops, size_t *nops, rt_report *report, rt_err *err);

void rt_journal_close(rt_journal **j);

/* Closes j and, when this process created the journal and nothing was written to it, removes it
 * and the lock file it made: what a command that opened a journal for nothing leaves behind
 * (an import refused before writing). */
void rt_journal_discard(rt_journal **j);

/* Makes the journal read-only from now on, for reason why (copied; a first reason stands): what
 * the caller does when an operation it replays turns out to be invalid. */
void rt_journal_refuse(rt_journal *j, const char *why);

/* NULL when writable; otherwise why not; then the journal's path. Borrowed: valid until
 * rt_journal_close (a first reason stands: rt_journal_refuse does not replace it). */
const char *rt_journal_readonly(const rt_journal *j);
const char *rt_journal_path(const rt_journal *j);

/* The next sequence number. */
uint64_t rt_journal_next_seq(const rt_journal *j);

/* The tables the ids of the operations written to j index (copied; the tables are borrowed and
 * must outlive j): without them, an operation by ids that has no text form is refused by the
 * appends below. The session sets its workspace's. */
void rt_journal_set_names(rt_journal *j, const rt_op_names *names);

/* A writable journal whose file did not exist when it was opened is created only here, at the
 * first append (rt_journal_append and rt_journal_append_all call it; rt_jtxn before it stages):
 * an open that changes nothing leaves no empty journal behind. RT_OK when the file exists (or was
 * made now), RT_ELOCKED when read-only, RT_EIO when it cannot be created. */
rt_status rt_journal_materialize(rt_journal *j, rt_err *err);

/* Stamps op with the next sequence number and the time, appends it, and returns only when it is
 * on disk (write + fsync). The line is rt_op_to_json_names's (the text form where set, else made
 * from the ids through the journal's names). On failure the journal is left as it was and RT_EIO returned; a
 * sequence number past RT_OP_SEQ_MAX (whose line would not read back) is refused, RT_EINPUT,
 * nothing written. */
rt_status rt_journal_append(rt_journal *j, rt_op *op, rt_err *err);

/* Appends ops[0..n) all or nothing (an import): stamps each like rt_journal_append, then
 * replaces the journal atomically by a copy with the new lines (rt_file_replace_at), so a kill
 * leaves the journal as it was or with every line. The lock stays held; later appends go to the
 * new file. On failure nothing changed and RT_EIO names the journal (RT_EINPUT when the last
 * would pass RT_OP_SEQ_MAX). */
rt_status rt_journal_append_all(rt_journal *j, rt_op *ops, size_t n, rt_err *err);

/* The steps of rt_journal_append_all, for a commit of several journals at once (rt_jtxn):
 * rt_journal_render_append stamps ops[0..n) like rt_journal_append and returns in *out (the
 * caller frees it) the journal's bytes followed by the new lines, changing nothing on disk;
 * RT_ELOCKED when read-only, RT_EIO when the journal cannot be read back.
 * rt_journal_adopt makes newfd (the renamed-in copy of len bytes with n more operations, opened
 * O_RDWR | O_APPEND) the journal's file from now on, closing the old one. */
rt_status rt_journal_render_append(const rt_journal *j, rt_op *ops, size_t n, char **out, size_t *outlen,
                                   rt_err *err);
void rt_journal_adopt(rt_journal *j, int newfd, size_t len, size_t n);

/* The journal's folder as opened. Borrowed: valid until j is closed. */
const char *rt_journal_dir(const rt_journal *j);

/* The open file of a writable journal, -1 when read-only (borrowed: valid until j is closed or
 * adopts another file). */
int rt_journal_fd(const rt_journal *j);

/* For a journal opened read-only (another annotator's): the operations appended since it was
 * opened or last refreshed, complete lines only (a line being written waits for the next call),
 * into *ops / *nops (caller clears and frees). A line that is not an operation is reported and
 * skipped. *replaced is set when the file was replaced, cut or removed (an import, a repair): the
 * caller should open it again. Costs one lstat when nothing changed. */
rt_status rt_journal_refresh(rt_journal *j, rt_op **ops, size_t *nops, int *replaced, rt_report *report,
                             rt_err *err);

#endif
