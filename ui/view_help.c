/* view_help — the keys and commands, generated from the action table. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "actions.h"
#include "draw.h"

void view_help_draw(app *a, int top, int height)
{
    int y = top, line = 0;
    char buf[512];
    const char *intro = "Keys work in the views named; every action is also a :command.";
    if (line++ >= (int)a->scroll && y < top + height)
        draw_text(y++, 0, a->cols, intro, strlen(intro), ROLE_NORMAL, NULL);
    if (line++ >= (int)a->scroll && y < top + height)
        draw_text(y++, 0, a->cols, "", 0, ROLE_NORMAL, NULL);
    if (line++ >= (int)a->scroll && y < top + height) {
        int n = snprintf(buf, sizeof buf, "%-20s %-36s %s", "keys", "command", "what it does");
        draw_text(y++, 0, a->cols, buf, (size_t)n, ROLE_HEADER, NULL);
    }
    for (size_t i = 0; i < ui_nactions && y < top + height; i++) {
        if (line++ < (int)a->scroll)
            continue;
        const action *x = &ui_actions[i];
        char cmd[128];
        snprintf(cmd, sizeof cmd, ":%s%s%s", x->name, *x->args ? " " : "", x->args);
        int n = snprintf(buf, sizeof buf, "%-20s %-36s %s", x->keys, cmd, x->help);
        draw_text(y++, 0, a->cols, buf, (size_t)n, ROLE_NORMAL, NULL);
    }
}
