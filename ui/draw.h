/* draw — the thin drawing layer: text fitted to columns by display width (never splitting a
 * wide character, never overflowing), with roles and query-overlap highlighting. */
#ifndef RT_DRAW_H
#define RT_DRAW_H

#include <stddef.h>
#include <stdint.h>

#include "rt_overlap.h"
#include "rt_text.h"
#include "term.h"

/* Draws len bytes of (untrusted) UTF-8 at s at row y, column x, in at most w columns, padding
 * the rest of the w columns with blanks. ov (may be NULL) highlights query overlap. Returns the
 * columns the text took. */
int draw_text(int y, int x, int w, const char *s, size_t len, term_role role, const rt_overlap *ov);

/* printf-style draw_text of trusted text. */
int draw_fmt(int y, int x, int w, term_role role, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* A mark (beside rt_overlap's) for the bytes of a search match: drawn as ROLE_HL_MATCH. */
#define DRAW_MARK_MATCH 3
/* The bytes of the span closest to an answer (the hint): drawn as ROLE_HL_ANSWER. */
#define DRAW_MARK_ANSWER 4

/* Draws glyphs [from, to) at (y, x) within w columns, padding with blanks; mark (may be NULL)
 * gives each source byte's overlap kind. Returns columns used. */
int draw_glyphs(int y, int x, int w, const rt_glyphs *g, size_t from, size_t to,
                const uint8_t *mark, term_role role);

/* Draws len bytes of (untrusted) UTF-8 at s wrapped to w columns (rt_glyphs_wrap: after spaces,
 * anywhere in CJK text) on at most rows rows from row y; returns the rows drawn. draw_wrapped_rows
 * says how many rows the whole text needs, so a view can make room before drawing. */
int draw_wrapped(int y, int x, int w, int rows, const char *s, size_t len, term_role role);
int draw_wrapped_rows(int w, const char *s, size_t len);

/* Fills w columns at (y, x) with blanks in role. */
void draw_fill(int y, int x, int w, term_role role);

#endif
