/* rt_import — judgments or tags made elsewhere (a spreadsheet, another tool), read as the
 * operations of the annotators who made them, each with its via "import FILE:LINE". Reading
 * checks every line and writes nothing: the caller (retriage import) puts the operations into
 * the journals once every file has been read. */
#ifndef RT_IMPORT_H
#define RT_IMPORT_H

#include <stddef.h>

#include "rt_err.h"
#include "rt_op.h"
#include "rt_taxonomy.h"

/* One imported line: whose journal it goes to, and the operation. */
typedef struct rt_import_entry {
    char *annotator;
    rt_op op;
} rt_import_entry;

/* The entries read so far, in file order until rt_import_dedupe; zero-initialise it. */
typedef struct rt_import {
    rt_import_entry *e;
    size_t n, cap;
} rt_import;

/* Reads the file at path into im: with tags set, a TSV with a header [annotator] qid pid
 * category (a category by id, name, or the digit of its key; a number by position only when
 * the taxonomy gives no keys); else a TSV with a header [annotator] qid pid grade, or TREC
 * qrels without one. The header may have any number of columns, in any order; after it, every
 * line but a blank one is data (an annotator may start with '#'). annotator (borrowed) names
 * the journal when the file has no annotator column. tax (borrowed) resolves categories; it
 * may be NULL when tags is 0. Errors name path:line: RT_EUSAGE when the file has no annotator
 * column and annotator is NULL, RT_EINPUT for everything else; im keeps what it had. */
rt_status rt_import_read(rt_import *im, const char *path, int tags, const rt_taxonomy *tax,
                         const char *annotator, rt_err *err);

/* Sorts im by annotator and pair and drops repeated decisions; a pair judged twice with
 * different grades by one annotator is an RT_EINPUT error naming both lines. */
rt_status rt_import_dedupe(rt_import *im, rt_err *err);

/* Frees every entry and the array; im is empty after. */
void rt_import_clear(rt_import *im);

#endif
