/* draw — putting glyphs on the curses screen, one cell at a time through the wide-character API. */
#include "config.h"

#include <limits.h>
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <wchar.h>

#include "draw.h"
#include "rt_mem.h"

static void put(int y, int x, uint32_t cp, int attr)
{
    wchar_t w[2] = {(wchar_t)cp, 0};
    cchar_t cc;
    setcchar(&cc, w, (attr_t)(attr & ~A_COLOR), (short)PAIR_NUMBER(attr), NULL);
    mvadd_wch(y, x, &cc);
}

void draw_fill(int y, int x, int w, term_role role)
{
    int a = term_attr(role);
    for (int i = 0; i < w; i++)
        put(y, x + i, ' ', a);
}

int draw_glyphs(int y, int x, int w, const rt_glyphs *g, size_t from, size_t to,
                const uint8_t *mark, term_role role)
{
    if (w <= 0)
        return 0;
    int base = term_attr(role), used = 0;
    for (size_t i = from; i < to && i < g->n; i++) {
        const rt_glyph *gl = &g->g[i];
        if (gl->cp == '\n')
            continue;
        if (used + gl->width > w)
            break;
        int a = base;
        if (gl->escaped)
            a = term_attr(ROLE_ESCAPED) | (role == ROLE_SELECTED ? A_REVERSE : 0);
        else if (mark && mark[gl->src_off] == DRAW_MARK_MATCH)
            a = (base & ~A_COLOR) | term_attr(ROLE_HL_MATCH);
        else if (mark && mark[gl->src_off] == DRAW_MARK_ANSWER)
            a = (base & ~A_COLOR) | term_attr(ROLE_HL_ANSWER);
        else if (mark && mark[gl->src_off] == RT_OVERLAP_TERM)
            a = (base & ~A_COLOR) | term_attr(ROLE_HL_TERM);
        else if (mark && mark[gl->src_off] == RT_OVERLAP_CHAR)
            a = (base & ~A_COLOR) | term_attr(ROLE_HL_CHAR);
        if (gl->width == 0) {
            continue;   /* rt_text only keeps zero-width glyphs that curses attaches; skip them */
        }
        put(y, x + used, gl->cp, a);
        used += gl->width;
    }
    draw_fill(y, x + used, w - used, role);
    return used;
}

int draw_text(int y, int x, int w, const char *s, size_t len, term_role role, const rt_overlap *ov)
{
    /* One row shows at most w columns: read no further than what could fill them (a character
     * with four combining marks is at most 20 bytes a column), whatever the length of s. A cut
     * inside a character shows as U+FFFD past the last column, never drawn. */
    size_t cap = (size_t)(w > 0 ? w : 0) * 20 + 64;
    if (len > cap)
        len = cap;
    rt_glyphs g = {0};
    rt_text_sanitize(s, len, 0, &g);
    uint8_t *mark = NULL;
    if (ov && len) {
        mark = rt_calloc(len + 1, 1);
        rt_overlap_mark(ov, s, len, mark);
    }
    int used = draw_glyphs(y, x, w, &g, 0, g.n, mark, role);
    free(mark);
    rt_glyphs_free(&g);
    return used;
}

int draw_fmt(int y, int x, int w, term_role role, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < 0)
        n = 0;
    if ((size_t)n >= sizeof buf)
        n = sizeof buf - 1;
    return draw_text(y, x, w, buf, (size_t)n, role, NULL);
}

/* Lines of len bytes of s wrapped to w columns: the glyphs and their line starts (caller frees). */
static size_t wrap_lines(int w, const char *s, size_t len, rt_glyphs *g, size_t **starts)
{
    rt_text_sanitize(s, len, 1, g);
    size_t n = rt_glyphs_wrap(g, (size_t)(w > 0 ? w : 0), NULL, 0);
    *starts = rt_calloc(n + 1, sizeof **starts);
    rt_glyphs_wrap(g, (size_t)(w > 0 ? w : 0), *starts, n);
    return n;
}

int draw_wrapped_rows(int w, const char *s, size_t len)
{
    rt_glyphs g = {0};
    size_t *starts;
    size_t n = wrap_lines(w, s, len, &g, &starts);
    free(starts);
    rt_glyphs_free(&g);
    return n > INT_MAX ? INT_MAX : (int)n;
}

int draw_wrapped(int y, int x, int w, int rows, const char *s, size_t len, term_role role)
{
    rt_glyphs g = {0};
    size_t *starts;
    size_t n = wrap_lines(w, s, len, &g, &starts);
    int drawn = 0;
    for (size_t i = 0; i < n && drawn < rows; i++, drawn++)
        draw_glyphs(y + drawn, x, w, &g, starts[i], i + 1 < n ? starts[i + 1] : g.n, NULL, role);
    free(starts);
    rt_glyphs_free(&g);
    return drawn;
}
