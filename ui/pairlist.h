/* pairlist — what the views that list (query, passage) pairs share: the cursor and the rows on
 * screen, the focused pair, Enter opening its passage, x going to the next pair still to do, and
 * the two header rows (what the list is, the keys). Five views are such lists: a package to
 * judge, a package's review sample, the disagreements, the :grep hits and the judging pool. Each
 * supplies only what differs, a pairlist_ops: its rows, the pair of one, whether one is still to
 * do, and how one row draws; the view's record (view_ops.pairs) names it, and view.c calls these
 * functions for the view's cursor, focus, Enter and x when the view has none of its own. */
#ifndef RT_PAIRLIST_H
#define RT_PAIRLIST_H

#include <stddef.h>
#include <stdint.h>

#include "app.h"

/* The cursor, kept in the view's own state. */
typedef struct pairlist {
    size_t sel, top;   /* the focused row, the first row on screen */
} pairlist;

typedef struct pairlist_ops {
    /* The view's cursor (in its state: view_state). */
    pairlist *(*list)(app *a);
    /* How many rows the list has now. */
    size_t (*count)(app *a);
    /* The pair of row i (< count); 0 when it has none (the package it came from is gone). */
    int (*pair)(app *a, size_t i, uint32_t *qid, uint32_t *pid);
    /* Whether row i is still to do (x goes to the next such row, round from the focused one);
     * NULL: x is not the list's to answer. */
    int (*todo)(app *a, size_t i);
    const char *all_done;   /* x's message when no row is left to do */
    /* Draws row i on screen row y, focused or not. */
    void (*draw_row)(app *a, int y, size_t i, int focused);
} pairlist_ops;

/* The focused row, and in *n how many rows there are (the view's cursor for the movement keys).
 * Borrowed: a member of the view's state, valid until the workbench closes. */
size_t *pairlist_cursor(app *a, const pairlist_ops *o, size_t *n);

/* The focused pair; 0 when there is none. */
int pairlist_focus(app *a, const pairlist_ops *o, uint32_t *qid, uint32_t *pid);

/* Enter: the focused pair's passage in full (app_open_passage); 0. */
int pairlist_open(app *a, const pairlist_ops *o);

/* x: focuses the next row still to do after the focused one, round to it; when none is, says
 * o->all_done. 0. */
int pairlist_next_todo(app *a, const pairlist_ops *o);

/* After a decision on the focused row: the row below it focused, when there is one. */
void pairlist_advance(app *a, const pairlist_ops *o);

/* The header on rows y and y + 1: the formatted line (ROLE_HEADER), then the keys (dim). */
void pairlist_header(app *a, int y, const char *keys, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Draws the rows on screen rows [y, y + rows), the focused one among them: the cursor is kept in
 * range and on screen first. */
void pairlist_draw(app *a, const pairlist_ops *o, int y, size_t rows);

/* The columns of a row that shows a pair with its query (a package, a review sample): widths in
 * display columns of the qid, the query's text and the pid; the passage's start takes the rest. */
typedef struct pairlist_cols {
    int qid, query, pid;
} pairlist_cols;

/* Works out c for o's rows drawn in w columns: the qid and pid columns as wide as the widest id
 * (capped), the query's as wide as its longest text but at most 2/5 of what the ids leave, so
 * that the passage's start keeps the larger share. */
void pairlist_columns(app *a, const pairlist_ops *o, int w, pairlist_cols *c);

/* Draws, from (y, x) to the right edge, the qid, the query's text and the pid fitted to c (by
 * display width, sanitised: both come from files), then the passage's start with the query's
 * terms highlighted. */
void pairlist_draw_pair(app *a, int y, int x, const pairlist_cols *c, uint32_t qid, uint32_t pid, term_role role);

#endif
