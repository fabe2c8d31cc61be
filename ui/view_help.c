/* view_help — the keys and commands, generated from the action table. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "actions.h"
#include "draw.h"
#include "view.h"

#define KEYS_W 21
#define CMD_W 30

/* Lines of the help: the intro, a header, then one or two lines per action (two when the
 * command synopsis is too long to leave room for the description). Writes line i to buf. */
static int help_line(size_t i, char *buf, size_t n, term_role *role)
{
    *role = ROLE_NORMAL;
    if (i == 0)
        return snprintf(buf, n, "Keys work in the views named; every action is also a :command.");
    if (i == 1)
        return snprintf(buf, n, " ");
    if (i == 2) {
        *role = ROLE_HEADER;
        return snprintf(buf, n, "%-*s%-*s%s", KEYS_W, "keys", CMD_W, "command", "what it does");
    }
    size_t k = 3;
    for (size_t a = 0; a < ui_nactions; a++) {
        const action *x = &ui_actions[a];
        char cmd[160] = "", keys[64];
        int cl = x->name ? snprintf(cmd, sizeof cmd, ":%s%s%s", x->name, *x->args ? " " : "", x->args) : 0;
        actions_keys(x, keys, sizeof keys);
        if (cl < CMD_W) {
            if (k++ == i)
                return snprintf(buf, n, "%-*s%-*s%s", KEYS_W, keys, CMD_W, cmd, x->help);
        } else {
            if (k++ == i)
                return snprintf(buf, n, "%-*s%s", KEYS_W, keys, cmd);
            if (k++ == i)
                return snprintf(buf, n, "%-*s%s", KEYS_W + CMD_W, "", x->help);
        }
    }
    return -1;
}

static void draw(app *a, int top, int height)
{
    char buf[512];
    term_role role;
    size_t total = 0;
    while (help_line(total, buf, sizeof buf, &role) >= 0)
        total++;
    size_t maxscroll = total > (size_t)height ? total - (size_t)height : 0;
    if (a->scroll > maxscroll)
        a->scroll = maxscroll;
    for (int row = 0; row < height; row++) {
        int n = help_line(a->scroll + (size_t)row, buf, sizeof buf, &role);
        if (n < 0)
            break;
        draw_text(top + row, 0, a->cols, buf, (size_t)n, role, NULL);
    }
}

const view_ops view_help_ops = {.name = "help", .draw = draw};
