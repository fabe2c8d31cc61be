/* term — curses setup for a tty or headless (newterm on /dev/null), roles to attributes. */
#include "config.h"

#include <limits.h>
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "term.h"

static int headless_mode, no_color;
static int attrs[ROLE_COUNT];
static SCREEN *screen;
static FILE *null_out, *null_in;

static void setup_roles(void)
{
    no_color = getenv("NO_COLOR") && *getenv("NO_COLOR");
    int color = !no_color && has_colors();
    if (color) {
        start_color();
        use_default_colors();
        init_pair(1, COLOR_BLACK, COLOR_CYAN);    /* bars */
        init_pair(2, COLOR_GREEN, -1);
        init_pair(3, COLOR_RED, -1);
        init_pair(4, COLOR_YELLOW, -1);
        init_pair(5, COLOR_MAGENTA, -1);
        init_pair(6, COLOR_CYAN, -1);
        init_pair(7, COLOR_BLUE, -1);
    }
    attrs[ROLE_NORMAL] = A_NORMAL;
    attrs[ROLE_TITLE] = color ? COLOR_PAIR(1) | A_BOLD : A_REVERSE | A_BOLD;
    attrs[ROLE_STATUS] = color ? COLOR_PAIR(1) : A_REVERSE;
    attrs[ROLE_HEADER] = A_BOLD | A_UNDERLINE;
    attrs[ROLE_SELECTED] = A_REVERSE;
    attrs[ROLE_REL] = color ? COLOR_PAIR(2) | A_BOLD : A_BOLD;
    attrs[ROLE_NONREL] = color ? COLOR_PAIR(3) : A_NORMAL;
    attrs[ROLE_UNJUDGED] = color ? COLOR_PAIR(7) | A_DIM : A_DIM;
    attrs[ROLE_FIRST_REL] = color ? COLOR_PAIR(2) | A_BOLD : A_BOLD | A_UNDERLINE;
    attrs[ROLE_HL_TERM] = color ? COLOR_PAIR(4) | A_BOLD : A_BOLD | A_UNDERLINE;
    attrs[ROLE_HL_CHAR] = color ? COLOR_PAIR(4) : A_UNDERLINE;
    attrs[ROLE_ESCAPED] = color ? COLOR_PAIR(5) | A_BOLD : A_REVERSE;
    attrs[ROLE_DIM] = A_DIM;
    attrs[ROLE_ERROR] = color ? COLOR_PAIR(3) | A_BOLD : A_BOLD | A_REVERSE;
    attrs[ROLE_GOOD] = color ? COLOR_PAIR(2) : A_BOLD;
    attrs[ROLE_BAD] = color ? COLOR_PAIR(3) : A_UNDERLINE;
    attrs[ROLE_HL_MATCH] = A_REVERSE | A_BOLD;
    attrs[ROLE_HL_ANSWER] = color ? COLOR_PAIR(6) | A_BOLD | A_UNDERLINE : A_BOLD | A_UNDERLINE;
}

static char why[200];

const char *term_error(void) { return why; }

int term_init(int headless, int cols, int rows)
{
    headless_mode = headless;
    if (headless) {
        null_out = fopen("/dev/null", "w");
        null_in = fopen("/dev/null", "r");
        /* A fixed terminal type, so that headless snapshots do not depend on $TERM. */
        screen = newterm("xterm-256color", null_out, null_in);
        if (!screen)
            return -1;
        set_term(screen);
        resize_term(rows, cols);
    } else {
        /* newterm, not initscr: initscr exits on an unknown terminal; and a terminal that
         * cannot move the cursor (TERM=dumb) would show a blank screen. Both get a message. */
        const char *t = getenv("TERM");
        snprintf(why, sizeof why, "the terminal type \"%s\" is unknown here", t && *t ? t : "(TERM is not set)");
        screen = t && *t ? newterm(t, stdout, stdin) : NULL;
        if (!screen)
            return -1;
        set_term(screen);
        const char *cup = tigetstr("cup");
        if (!cup || cup == (char *)-1 || LINES < 1 || COLS < 1) {
            snprintf(why, sizeof why, "the terminal type \"%s\" cannot move the cursor, which the "
                     "workbench needs", t);
            endwin();
            delscreen(screen);
            screen = NULL;
            return -1;
        }
    }
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    curs_set(0);
    set_escdelay(25);
    setup_roles();
    return 0;
}

void term_end(void)
{
    endwin();
    if (screen) {
        delscreen(screen);
        screen = NULL;
    }
    if (null_out)
        fclose(null_out);
    if (null_in)
        fclose(null_in);
    null_out = null_in = NULL;
}

void term_end_if_started(void)
{
    if (screen)
        term_end();
}

int term_attr(term_role role) { return attrs[role]; }
int term_is_headless(void) { return headless_mode; }
int term_no_color(void) { return no_color; }

void term_resize(int cols, int rows) { resize_term(rows, cols); }

static char attr_letter(attr_t a, short pair)
{
    if (a & A_REVERSE)
        return 'R';
    if (pair && (a & A_BOLD))
        return (char)('A' + pair);    /* colour pair + bold: B..H */
    if (pair)
        return (char)('a' + pair);    /* colour pair: b..h */
    if ((a & A_BOLD) && (a & A_UNDERLINE))
        return 'X';
    if (a & A_BOLD)
        return '*';
    if (a & A_UNDERLINE)
        return '_';
    if (a & A_DIM)
        return ':';
    return '.';
}

void term_snapshot(FILE *f, int with_attrs)
{
    int rows = getmaxy(stdscr), cols = getmaxx(stdscr);
    char *line = malloc((size_t)cols * MB_LEN_MAX + 1);
    char *att = malloc((size_t)cols + 1);
    if (!line || !att) {
        free(line);
        free(att);
        return;
    }
    for (int pass = 0; pass < (with_attrs ? 2 : 1); pass++) {
        if (pass)
            fputs("--- attributes ---\n", f);
        for (int y = 0; y < rows; y++) {
            size_t n = 0, na = 0, keep = 0, keepa = 0;
            for (int x = 0; x < cols; x++) {
                cchar_t cc;
                wchar_t wch[CCHARW_MAX + 1];
                attr_t a;
                short pair;
                if (mvwin_wch(stdscr, y, x, &cc) == ERR || getcchar(&cc, wch, &a, &pair, NULL) == ERR) {
                    wch[0] = L' ';
                    wch[1] = 0;
                    a = 0;
                    pair = 0;
                }
                int w = wcwidth(wch[0]);
                mbstate_t st;
                memset(&st, 0, sizeof st);
                for (int k = 0; k < CCHARW_MAX && wch[k]; k++) {
                    size_t b = wcrtomb(line + n, wch[k], &st);
                    if (b != (size_t)-1)
                        n += b;
                }
                char al = attr_letter(a, pair);
                att[na++] = al;
                if (w == 2 && x + 1 < cols) {
                    att[na++] = al;
                    x++;
                }
                if (wch[0] != L' ')
                    keep = n;
                if (al != '.')
                    keepa = na;
            }
            if (pass == 0)
                fprintf(f, "%.*s\n", (int)keep, line);
            else
                fprintf(f, "%.*s\n", (int)keepa, att);
        }
    }
    free(line);
    free(att);
}
