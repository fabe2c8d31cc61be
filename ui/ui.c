/* ui — the event loop: read a key (from the terminal, or from a script in headless mode), run its
 * action or edit the command line, redraw. Signal handlers only set a flag. */
#include "config.h"

#include <limits.h>
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wchar.h>

#include "actions.h"
#include "annotate.h"
#include "app.h"
#include "list.h"
#include "hint.h"
#include "keys.h"
#include "measure.h"
#include "rt_file.h"
#include "rt_outguard.h"
#include "rt_leakage.h"
#include "rt_mapguard.h"
#include "rt_mem.h"
#include "rt_reader.h"
#include "term.h"
#include "team.h"
#include "view.h"
#include "viewstate.h"
#include "ui.h"

static volatile sig_atomic_t got_signal;

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void on_signal(int sig) { got_signal = sig; }

/* ---- the command line -------------------------------------------------------------------- */

static void line_put(app *a, wint_t ch)
{
    char buf[MB_LEN_MAX];
    mbstate_t st;
    memset(&st, 0, sizeof st);
    size_t n = wcrtomb(buf, (wchar_t)ch, &st);
    if (n == (size_t)-1 || a->line_len + n + 1 >= sizeof a->line)
        return;
    memcpy(a->line + a->line_len, buf, n);
    a->line_len += n;
    a->line[a->line_len] = '\0';
}

static void line_backspace(app *a)
{
    if (a->line_len == 0) {
        a->prompt = 0;
        return;
    }
    do
        a->line_len--;
    while (a->line_len > 0 && ((unsigned char)a->line[a->line_len] & 0xC0) == 0x80);
    a->line[a->line_len] = '\0';
}

/* Handles one input event; is_key says whether ch is a curses KEY_ code. Returns the status of
 * a command run from the command line (0 or -1). */
static int handle(app *a, int is_key, wint_t ch)
{
    a->msg_keep = 0;
    if (!a->prompt)
        a->msg[0] = '\0';
    if (is_key && ch == KEY_RESIZE)
        return 0;
    if (a->prompt) {
        if (!is_key && (ch == '\r' || ch == '\n')) {
            int p = a->prompt;
            a->prompt = 0;
            if (p == ':')
                return actions_command(a, a->line);
            char cmd[sizeof a->line + 8];
            snprintf(cmd, sizeof cmd, "search %s", a->line);
            return actions_command(a, cmd);
        }
        if (!is_key && ch == 27)
            a->prompt = 0;
        else if ((is_key && ch == KEY_BACKSPACE) || (!is_key && (ch == 127 || ch == 8)))
            line_backspace(a);
        else if (!is_key && ch >= 32)
            line_put(a, ch);
        return 0;
    }
    int key = is_key || ch < 0x40000000 ? (int)ch : 0;   /* (codes above are the table's ranges) */
    if (!actions_key(a, key))
        app_message(a, 0, "no action on this key here (? lists the keys)");
    return 0;
}

/* ---- script mode ------------------------------------------------------------------------- */

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* After a frame: if the collection shrank under the workbench while it drew (rt_mapguard), say so
 * once and draw again without it; the journal and everything else keep working. */
static void check_collection(app *a)
{
    static int said;
    const char *path = rt_mapguard_tripped();
    if (!path || said)
        return;
    said = 1;
    size_t n = strlen(path);
    if (n > 5 && strcmp(path + n - 5, ".rtws") == 0)   /* the workspace cache, not the collection */
        app_message(a, 1, "%s: the workspace cache changed on disk; the rankings, judgments and values "
                    "read from it are no longer right (annotations are kept: quit and reopen, which "
                    "reads the inputs again)", path);
    else
        app_message(a, 1, "%s: the collection changed on disk; passages are not shown any more "
                    "(annotations are kept: quit and reopen to read them again)", path);
    app_draw(a);
}

static void timed_key(app *a, int is_key, wint_t ch, FILE *times)
{
    double t0 = times ? now_us() : 0;
    handle(a, is_key, ch);
    app_draw(a);
    check_collection(a);
    if (times)
        fprintf(times, "%.1f\n", now_us() - t0);
}

/* A script's mouse event: "Click X Y", "DoubleClick X Y", "WheelUp X Y", "WheelDown X Y" (the
 * n bytes at s; X the column and Y the row, from 0). Returns 0 when s is none. */
static int mouse_event(const char *s, size_t n, int *x, int *y, int *clicks, int *wheel)
{
    static const struct { const char *name; int clicks, wheel; } ev[] = {
        {"Click", 1, 0}, {"DoubleClick", 2, 0}, {"WheelUp", 0, -1}, {"WheelDown", 0, 1},
    };
    char buf[64], name[16];
    if (n >= sizeof buf)
        return 0;
    memcpy(buf, s, n);
    buf[n] = '\0';
    int used = 0;
    if (sscanf(buf, "%15s %d %d%n", name, x, y, &used) != 3 || (size_t)used != n || *x < 0 || *y < 0)
        return 0;
    for (size_t i = 0; i < sizeof ev / sizeof ev[0]; i++)
        if (strcmp(name, ev[i].name) == 0) {
            *clicks = ev[i].clicks;
            *wheel = ev[i].wheel;
            return 1;
        }
    return 0;
}

/* Sends the keys of one script line; returns 0, or -1 with a message in err. */
static int script_keys(app *a, const char *s, FILE *times, char *err, size_t errn)
{
    mbstate_t st;
    memset(&st, 0, sizeof st);
    while (*s) {
        if (*s == ' ') {
            s++;
            continue;
        }
        if (*s == '<') {
            const char *e = strchr(s, '>');
            if (!e) {
                snprintf(err, errn, "unclosed <key name>");
                return -1;
            }
            size_t n = (size_t)(e - s - 1);
            int is_key, code, mx, my, clicks, wheel;
            if (mouse_event(s + 1, n, &mx, &my, &clicks, &wheel)) {
                if (!a->mouse) {
                    snprintf(err, errn, "mouse events in a script need --mouse");
                    return -1;
                }
                double t0 = times ? now_us() : 0;
                a->msg[0] = '\0';
                app_mouse(a, mx, my, clicks, wheel);
                app_draw(a);
                if (times)
                    fprintf(times, "%.1f\n", now_us() - t0);
            } else if (keys_lookup(s + 1, n, &is_key, &code)) {
                timed_key(a, is_key, (wint_t)code, times);
            } else {
                snprintf(err, errn, "unknown key <%.*s>", (int)n, s + 1);
                return -1;
            }
            s = e + 1;
            continue;
        }
        wchar_t wc;
        size_t n = mbrtowc(&wc, s, strlen(s), &st);
        if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
            snprintf(err, errn, "invalid UTF-8 in the script");
            return -1;
        }
        timed_key(a, 0, (wint_t)wc, times);
        s += n;
    }
    return 0;
}

static int run_script(app *a, const ui_opts *o)
{
    rt_reader *r;
    rt_err e;
    if (rt_reader_open(&r, o->script, &e) != RT_OK) {
        term_end();
        fprintf(stderr, "retriage: %s\n", e.msg);
        return 2;
    }
    rt_outfile *tf = NULL;
    rt_outguard *g = rt_outguard_new();   /* never over the workspace's inputs or journals */
    rt_outguard_add_session(g, a->s);
    rt_status gst = o->key_times ? rt_outguard_open(&tf, o->key_times, g, &e) : RT_OK;
    rt_outguard_free(&g);
    if (gst != RT_OK) {
        term_end();
        fprintf(stderr, "retriage: %s\n", e.msg);
        rt_reader_close(&r);
        return 2;
    }
    FILE *times = tf ? rt_outfile_stream(tf) : NULL;
    char *line, err[600] = "";
    size_t len;
    int rc = 0, st;
    app_draw(a);
    if (o->echo && a->msg[0]) {   /* what the open said (restored: …, load warnings) */
        puts(a->msg);
        fflush(stdout);
    }
    rt_loader_warm(a->s->ws);   /* the first screen is up: the rest of the cache in the background */
    list_contrast_ahead(a);
    while (!a->quit && (st = rt_reader_next(r, &line, &len, &e)) == 1) {
        while (len && (line[len - 1] == ' ' || line[len - 1] == '\t'))
            line[--len] = '\0';
        if (len == 0 || line[0] == '#')
            continue;
        team_poll(a);   /* what the other annotators appended meanwhile */
        if (line[0] == ':' && strncmp(line, ":sleep", 6) == 0 && (line[6] == ' ' || !line[6])) {
            long ms = strtol(line + 6, NULL, 10);   /* script mode: let time pass (another process works) */
            if (ms > 0 && ms <= 60000)
                nanosleep(&(struct timespec){ms / 1000, (ms % 1000) * 1000000L}, NULL);
            team_poll(a);
            app_draw(a);
        } else if (strcmp(line, ":idle") == 0) {
            /* script mode: the work done ahead of need in the background is done (at most 60 s;
             * a test waits for it instead of guessing a pause) */
            for (int i = 0; i < 12000 && list_contrast_ahead_busy(a); i++)
                nanosleep(&(struct timespec){0, 5 * 1000 * 1000}, NULL);
            app_draw(a);
        } else if (line[0] == ':') {
            double t0 = times ? now_us() : 0;
            a->msg[0] = '\0';
            if (actions_command(a, line + 1) != 0) {
                snprintf(err, sizeof err, "%s", a->msg);
                rc = 2;
            }
            app_draw(a);
            check_collection(a);
            if (times)
                fprintf(times, "%.1f\n", now_us() - t0);
        } else if (script_keys(a, line, times, err, sizeof err) != 0) {
            rc = 2;
        }
        if (o->echo && a->msg[0] && !rc) {
            puts(a->msg);
            fflush(stdout);
        }
        if (rc) {
            size_t no = rt_reader_lineno(r);
            term_end();
            fprintf(stderr, "retriage: %s:%zu: %s\n", o->script, no, err);
            break;
        }
    }
    rt_reader_close(&r);
    if (times)
        (void)rt_outfile_commit(&tf, &e);
    return rc;
}

/* ---- interactive ------------------------------------------------------------------------- */

static void run_tty(app *a)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    /* wake up now and then to see the signal flag; redraw only after input, or to show a run
     * come in (looked for more often while they are being read) */
    timeout(rt_loader_runs_loading(a->s->ws, NULL, NULL) ? 50 : 250);
    int dirty = 1;
    double drawn = 0;
    while (!a->quit && !got_signal) {
        if (dirty) {
            drawn = mono_s();
            app_draw(a);
            check_collection(a);
            refresh();
            rt_loader_warm(a->s->ws);   /* once the first screen is up; then nothing */
            list_contrast_ahead(a);
        }
        wint_t ch;
        int r = get_wch(&ch);
        dirty = r != ERR;
        if (app_loading(a)) {   /* what the first screen did not wait for: the
                                                       runs as each comes in, the collection's progress */
            /* a run is taken in a step at a time, a key handled between two (none waits more than
             * a step); the progress is drawn again every 50 ms meanwhile, not after every step */
            dirty |= app_settle(a, 0) || (r == ERR && mono_s() - drawn >= 0.05);
        }
        dirty |= measure_poll(a);   /* a measure asked for is in */
        timeout(rt_loader_busy(a->s->ws) ? 0 : rt_loader_runs_loading(a->s->ws, NULL, NULL) || a->mjob ? 50 : 250);
        if (a->team) {   /* others' appends show within a second, keys or not */
            unsigned gen = team_generation(a);
            team_poll(a);
            dirty |= team_generation(a) != gen;
        }
        if (r == ERR)
            continue;
        MEVENT ev;
        if (r == KEY_CODE_YES && ch == KEY_MOUSE) {
            if (getmouse(&ev) == OK) {
                a->msg[0] = '\0';
                if (ev.bstate & BUTTON4_PRESSED)
                    app_mouse(a, ev.x, ev.y, 0, -1);
                else if (ev.bstate & BUTTON5_PRESSED)
                    app_mouse(a, ev.x, ev.y, 0, 1);
                else if (ev.bstate & BUTTON1_DOUBLE_CLICKED)
                    app_mouse(a, ev.x, ev.y, 2, 0);
                else if (ev.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED))
                    app_mouse(a, ev.x, ev.y, 1, 0);
            }
            continue;
        }
        handle(a, r == KEY_CODE_YES, ch);
    }
}

/* Frees what the workbench built over the session: the list, the views' own state. */
static void app_free(app *a)
{
    rt_overlap_free(&a->ov);
    free(a->set);
    free(a->fresh_state);
    view_release_all(a);
    rt_leakage_free(&a->leak);
    hint_release(a);
    team_release(a);
    measure_release(a);
}

/* Quitting while runs were still being read or the collection indexed: what the next open would
 * use is finished first (the runs when a workspace cache will keep them, the collection's index),
 * saying so; a signal meanwhile (a second ^C), or one that ended the workbench other than ^C
 * (SIGTERM, SIGHUP: the terminal is gone), gives it up, and the rest is abandoned to the exit
 * (a run read from a pipe that never ends cannot hold the workbench open, nor its journal lock). */
static void finish_loading(rt_session *s, int headless)
{
    rt_workspace *ws = s->ws;
    rt_err e;
    if (headless) {   /* a script settled everything before it started */
        (void)rt_session_wait(s, RT_LOAD_ALL, &e);
        return;
    }
    int runs = rt_loader_runs_loading(ws, NULL, NULL) && ws->cache, index = rt_loader_collection_loading(ws, NULL, NULL);
    if ((runs || index) && got_signal != SIGTERM && got_signal != SIGHUP) {
        size_t in = 0, of = 0;
        uint64_t done = 0, total = 0;
        rt_loader_runs_loading(ws, &in, &of);
        rt_loader_collection_loading(ws, &done, &total);
        char what[160] = "";
        if (runs)
            snprintf(what, sizeof what, "reading the runs (%zu of %zu read)%s", in, of, index ? " and " : "");
        if (index)
            snprintf(what + strlen(what), sizeof what - strlen(what), "the collection's index (%d%% read)",
                     total ? (int)(100 * done / total) : 0);
        fprintf(stderr, "retriage: finishing %s for the next open (^C again quits without)\n", what);
        got_signal = 0;
        rt_load_event ev;
        while (!got_signal && ((rt_loader_runs_loading(ws, NULL, NULL) && ws->cache) ||
                               rt_loader_collection_loading(ws, NULL, NULL)))
            if (rt_session_poll(s, 20, &ev) && ev.kind == RT_LOAD_FAILED)   /* 20 ms: ^C is seen */
                fprintf(stderr, "retriage: %s\n", ev.err.msg);
    }
    rt_loader_abandon(ws);   /* what is still being read: left to the exit */
}

/* Gives back the keys typed ahead during a wait (ncurses returns the last pushed first). */
static void unget_keys(const int *kind, const wint_t *key, int n)
{
    for (int i = n - 1; i >= 0; i--)
        if (kind[i] == KEY_CODE_YES)
            ungetch((int)key[i]);
        else
            unget_wch((wchar_t)key[i]);
}

int app_wait(app *a, unsigned what)
{
    enum { AHEAD = 64 };
    int kind[AHEAD];
    wint_t key[AHEAD];
    int nkeys = 0;
    double drawn = 0;
    int said = 0;   /* the line holds the waiting message: not what settling adds to */
    int noted = 0;  /* what came in meanwhile brought load warnings: the command's message says so */
    for (;;) {
        if (said)
            a->msg[0] = '\0';
        app_settle(a, 0);
        noted |= a->warn_note;
        int runs = (what & APP_WAIT_RUNS) && rt_loader_runs_loading(a->s->ws, NULL, NULL);
        int coll = (what & APP_WAIT_COLLECTION) && rt_loader_collection_loading(a->s->ws, NULL, NULL);
        if (!runs && !coll) {
            unget_keys(kind, key, nkeys);   /* typed meanwhile: the next commands */
            if (noted && !a->warn_note) {   /* said on a waiting message since cleared */
                if (!a->msg[0])
                    app_message(a, 0, "%zu load warnings: press L to read them", rt_report_warnings(a->s->ws->report));
                a->warn_note = 1;
            }
            return 1;
        }
        if (term_is_headless()) {   /* a script settles everything before it starts: not reached */
            app_settle(a, 1);
            return 1;
        }
        if (got_signal)
            return 0;
        size_t in, of;
        uint64_t done, total;
        said = 1;
        if (runs && rt_loader_runs_loading(a->s->ws, &in, &of))
            app_message(a, 0, "waiting for the runs still being read (%zu of %zu read)… Esc gives up", in, of);
        else if (rt_loader_collection_loading(a->s->ws, &done, &total))
            app_message(a, 0, "waiting for the collection's index (%d%%)… Esc gives up",
                        total ? (int)(100 * done / total) : 0);
        else
            said = 0;
        int busy = rt_loader_busy(a->s->ws);   /* a run half taken in: its next step at once */
        if (!busy || mono_s() - drawn >= 0.05) {
            drawn = mono_s();
            app_draw(a);
            refresh();
        }
        timeout(busy ? 0 : 50);
        wint_t ch;
        int r = get_wch(&ch);
        if (r == OK && (ch == 27 || ch == 3)) {   /* Esc, or ^C as a key: what was typed ahead goes too */
            app_message(a, 1, "gave up waiting: the command was not run");
            a->msg_keep = 1;
            return 0;
        }
        if (r != ERR && !(r == KEY_CODE_YES && ch == KEY_RESIZE) && nkeys < AHEAD) {
            kind[nkeys] = r;
            key[nkeys++] = ch;
        }
    }
}

int ui_run(rt_session *s, const ui_opts *o)
{
    rt_workspace *ws = s->ws;
    rt_err e;
    /* A script replays against the whole workspace: runs and a collection still being read are
     * waited for (and a bad one fails the run, as it fails a command). The runs first: once they
     * are in, the list starts its contrasts ahead while the collection is indexed, as on a
     * terminal, so that a script's keys take as long as a person's would. */
    int headless = o && o->script;
    if (headless)
        rt_loader_hurry(ws);   /* everything is waited for: the collection beside the runs */
    if (headless && rt_session_wait(s, RT_LOAD_RUNS, &e) < 0) {
        fprintf(stderr, "retriage: %s\n", e.msg);
        return 2;
    }
    app a = {.s = s, .bk = 5,
             .annotators = o ? o->annotators : NULL, .nannotators = o ? o->nannotators : 0};
    list_start(&a);
    if (headless) {
        list_contrast_ahead(&a);
        if (rt_session_wait(s, RT_LOAD_ALL, &e) < 0) {
            fprintf(stderr, "retriage: %s\n", e.msg);
            app_free(&a);
            return 2;
        }
    }
    rt_load_event ev;
    while (rt_loader_queued(ws))   /* in before the first screen: nothing to say of them */
        (void)rt_session_poll(s, 0, &ev);
    a.seen_runs = ws->nruns;   /* what the app starts from: everything in so far */
    a.seen_nq = ws->nq;
    a.seen_gen = ws->generation;
    app_compute_stats(&a);
    app_refresh_rows(&a);
    if (ws->nq)
        app_set_query(&a, 0);
    rt_mapguard_set_fatal(0);   /* a shrunk collection is shown as such, not a crash */
    if (term_init(headless, o ? o->cols : 80, o ? o->rows : 24) != 0) {
        fprintf(stderr, "retriage: cannot start the workbench: %s; run it in a terminal such as "
                "xterm (TERM=xterm-256color), or use 'retriage export' and 'retriage eval' without "
                "a screen\n", term_error());
        app_free(&a);
        return 2;
    }
    team_open_if_any(&a);   /* others' journals beside: the team views open at once */
    if (rt_session_readonly(s))
        app_message(&a, 1, "read-only: %s", rt_session_readonly(s));
    else if (rt_report_warnings(ws->report))
        app_message(&a, 0, "%zu load warnings: press L to read them", rt_report_warnings(ws->report));
    a.warned = rt_report_warnings(ws->report);
    viewstate_open(&a, o && o->fresh);
    int rc = 0;
    if (headless) {
        a.mouse = o && o->mouse;
        rc = run_script(&a, o);
    } else {
        a.mouse = !(o && o->no_mouse);
        if (a.mouse) {   /* clicks, double clicks and the wheel; --no-mouse leaves them to the terminal */
            mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON1_DOUBLE_CLICKED | BUTTON4_PRESSED | BUTTON5_PRESSED,
                      NULL);
            mouseinterval(200);
        }
        run_tty(&a);
    }
    if (rc == 0)
        term_end();
    char why[700];
    if (rc == 0 && s->journal_dir && *s->journal_dir && viewstate_close(&a, why, sizeof why) != 0)
        fprintf(stderr, "retriage: the view state was not kept for the next open: %s\n", why);
    finish_loading(s, headless);
    app_free(&a);
    return rc;
}
