/* ui — the workbench screen. The only layer that includes curses; it reads the workspace through
 * the core and never includes Faiss headers (their OK enum clashes with curses' OK macro). */
#ifndef RT_UI_H
#define RT_UI_H

#include "rt_session.h"

typedef struct ui_opts {
    const char *script;      /* headless: replay this script instead of reading a terminal */
    int cols, rows;          /* headless screen size */
    const char *key_times;   /* headless: write each key's handling time (µs) to this file */
    int echo;                /* headless: print each status message on standard output */
    int mouse;               /* headless: obey the script's mouse events (--mouse) */
    int no_mouse;            /* --no-mouse: never take the mouse */
    int fresh;               /* --fresh: do not restore the last view state */
    char **annotators;       /* the team: these annotators (NULL: every journal of the folder) */
    size_t nannotators;
} ui_opts;

/* Runs the workbench on the session's workspace until the user quits. Returns 0, or 2 after a script error (the
 * message, with the script's line number, has been printed to stderr). */
int ui_run(rt_session *s, const ui_opts *opts);

#endif
