/* actions — the one table of user actions: command name, keys, views, handler and help line.
 * Key dispatch, the ':' command line, the help view and the man page's key section all read it,
 * so they cannot drift apart. */
#ifndef RT_ACTIONS_H
#define RT_ACTIONS_H

#include <stdio.h>

#include "app.h"

typedef int (*action_fn)(app *a, const char *arg);

typedef struct action {
    const char *name;      /* command name, for :name; NULL for a key that only follows another */
    int key[4];            /* key codes (keys.h: characters, curses KEY_ codes, KEY_RANGE), 0-terminated;
                              help and the man page name them with key_name */
    unsigned views;        /* views where the keys work (commands work everywhere) */
    action_fn fn;          /* returns 0, or -1 after setting an error message; the event loop
                              redraws the whole screen after every key, so no action paints */
    const char *args;      /* argument synopsis, "" when none */
    const char *help;
    pending_kind after;    /* nonzero: the key only works right after t, r or a false-negative tag */
} action;

extern const action ui_actions[];
extern const size_t ui_nactions;

/* Runs the action bound to key in the current view; returns 0 when no action is bound. */
int actions_key(app *a, int key);

/* Copies the word at *p into buf (n bytes; "" when it does not fit), then moves *p past it and
 * the blanks after it: how every command splits its arguments. */
void actions_word(const char **p, char *buf, size_t n);

/* Runs a command line (without the ':'); returns 0 or -1 (message set). */
int actions_command(app *a, const char *line);

/* The keys of x as help shows them ("Ctrl-F, PgDn, Space"; "r then 0-3" for a follow-up key)
 * into buf; returns buf (Borrowed: it is the caller's buf). */
const char *actions_keys(const action *x, char *buf, size_t n);

/* The keys of the action named name (for status legends) into buf; returns buf (Borrowed: it is
 * the caller's buf). */
const char *actions_keys_of(const char *name, char *buf, size_t n);

/* Writes the key table as man-page text (roff) or plain text. */
void actions_write_keys(FILE *f, int roff);

#endif
