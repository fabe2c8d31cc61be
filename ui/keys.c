/* keys — key names, written once. */
#include "config.h"

#include <limits.h>
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "keys.h"

static const struct {
    const char *name;
    int is_key, code;
} names[] = {
    {"Enter", 0, '\r'}, {"Enter", 0, '\n'}, {"Enter", 1, KEY_ENTER}, {"Esc", 0, 27},
    {"Tab", 0, '\t'}, {"Space", 0, ' '}, {"Backspace", 1, KEY_BACKSPACE}, {"Up", 1, KEY_UP},
    {"Down", 1, KEY_DOWN}, {"Left", 1, KEY_LEFT}, {"Right", 1, KEY_RIGHT}, {"PgUp", 1, KEY_PPAGE},
    {"PgDn", 1, KEY_NPAGE}, {"Home", 1, KEY_HOME}, {"End", 1, KEY_END}, {"lt", 0, '<'},
};

int keys_match(int k, int pressed)
{
    if (KEY_IS_RANGE(k))
        return pressed >= KEY_RANGE_LO(k) && pressed <= KEY_RANGE_HI(k);
    return k == pressed;
}

const char *keys_name(int k, char *buf, size_t n)
{
    if (KEY_IS_RANGE(k)) {
        snprintf(buf, n, "%c-%c", KEY_RANGE_LO(k), KEY_RANGE_HI(k));
        return buf;
    }
    /* '<' is "lt" only inside a script's <…>; shown, it is itself */
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].code == k && k != '<') {
            snprintf(buf, n, "%s", names[i].name);
            return buf;
        }
    if (k > 0 && k < 32)
        snprintf(buf, n, "Ctrl-%c", k + '@');
    else
        snprintf(buf, n, "%lc", (wint_t)k);
    return buf;
}

int keys_lookup(const char *name, size_t n, int *is_key, int *code)
{
    if (n == 3 && name[0] == 'C' && name[1] == '-') {
        *is_key = 0;
        *code = CTRL(name[2]);
        return 1;
    }
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strlen(names[i].name) == n && strncmp(names[i].name, name, n) == 0) {
            *is_key = names[i].is_key;
            *code = names[i].code;
            return 1;
        }
    return 0;
}
