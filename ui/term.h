/* term — the terminal: a real tty or a headless offscreen screen of fixed size, the attribute of
 * each drawing role (colour, or monochrome under NO_COLOR), and restoring the terminal on exit. */
#ifndef RT_TERM_H
#define RT_TERM_H

#include <stdio.h>

typedef enum term_role {
    ROLE_NORMAL = 0,
    ROLE_TITLE,        /* top bar */
    ROLE_STATUS,       /* bottom bar */
    ROLE_HEADER,       /* table headers */
    ROLE_SELECTED,     /* the cursor row or cell */
    ROLE_REL,          /* relevant badge */
    ROLE_NONREL,       /* judged non-relevant badge */
    ROLE_UNJUDGED,     /* unjudged badge */
    ROLE_FIRST_REL,    /* the first relevant passage of a run */
    ROLE_HL_TERM,      /* shared bigram / word / number */
    ROLE_HL_CHAR,      /* shared single character */
    ROLE_ESCAPED,      /* a control character shown as an escape */
    ROLE_DIM,
    ROLE_ERROR,
    ROLE_GOOD,         /* positive delta */
    ROLE_BAD,          /* negative delta */
    ROLE_HL_MATCH,     /* a match of the passage search */
    ROLE_HL_ANSWER,    /* the span closest to an answer (the distant-supervision hint) */
    ROLE_COUNT
} term_role;

/* Why term_init failed (for the message). Borrowed: a static buffer, rewritten by the next
 * term_init. */
const char *term_error(void);

/* Starts curses on the terminal, or headless (cols x rows, no tty used) when headless. */
int term_init(int headless, int cols, int rows);
void term_end(void);
/* Ends curses when it was started (a fatal path: the terminal restored before a message). */
void term_end_if_started(void);

/* The curses attribute of a role. */
int term_attr(term_role role);
int term_is_headless(void);
int term_no_color(void);

/* Resizes the headless screen. */
void term_resize(int cols, int rows);

/* Writes the screen as text (one line per row, trailing blanks trimmed) to f; with attrs, a
 * second block follows giving one letter per cell for the attributes (see the man page). */
void term_snapshot(FILE *f, int attrs);

#endif
