/* view_passage — one passage in full: the query above it, its judgment (current, and the base
 * with who relabelled it), its rank in every run, its tags and note, and the text wrapped to the
 * width with query overlap highlighted. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "draw.h"
#include "rt_mem.h"

/* The most of one passage the passage view reads (a DuReader passage is a few KiB). */
#define RT_PASSAGE_VIEW_MAX ((size_t)128 << 10)
#include "hint.h"
#include "rt_answers.h"
#include "view.h"

/* The categories and note of (qid, pid), and of the query itself, into buf (length returned). */
static size_t tags_text(app *a, uint32_t q, uint32_t pid, char *buf, size_t size)
{
    const rt_taxonomy *tax = a->s->ws->taxonomy;
    size_t n = 0;
    buf[0] = '\0';
    for (int level = 0; level < 2; level++) {
        const rt_tag *t = rt_annot_tag(a->s->annot, q, level ? RT_NO_ID : pid);
        if (!t)
            continue;
        n += (size_t)snprintf(buf + n, size - n, "%s", n ? "  " : "");
        n += (size_t)snprintf(buf + n, size - n, "%s", level ? "query: " : "tags: ");
        int first = 1;
        for (size_t c = 0; c < tax->ncats && n < size - 80; c++)
            if (t->cats >> c & 1) {
                n += (size_t)snprintf(buf + n, size - n, "%s%s", first ? "" : ", ", tax->cats[c].name);
                first = 0;
            }
        if (t->note && n < size - 40)
            n += (size_t)snprintf(buf + n, size - n, "%snote \"%.200s\"", first ? "" : "; ", t->note);
        if (n >= size)
            n = size - 1;
    }
    return n;
}

/* Case-insensitive (ASCII letters) search: does needle (n bytes) start at s? */
static int match_at(const char *s, size_t len, const char *needle, size_t n)
{
    if (n > len)
        return 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char x = (unsigned char)s[i], y = (unsigned char)needle[i];
        if (x != y && !(x < 128 && y < 128 && (x | 0x20) == (y | 0x20) && (x | 0x20) >= 'a' && (x | 0x20) <= 'z'))
            return 0;
    }
    return 1;
}

/* The view's own state: the passage shown (of the current query), how far it is scrolled, and
 * the passage search. */
struct passage_state {
    uint32_t pid;
    size_t scroll;
    char find[256];             /* the passage search (/ or :find in the passage view), or "" */
    size_t find_at;             /* the current match, 0-based */
    size_t find_n;              /* matches in the passage on screen (set when it is drawn) */
    int find_jump;              /* scroll to the current match at the next draw */
};

static struct passage_state *passage_state(app *a) { return view_state(a, VIEW_PASSAGE); }

void passage_show(app *a, uint32_t pid, const char *find)
{
    struct passage_state *p = passage_state(a);
    p->pid = pid;
    p->scroll = 0;
    if (find) {
        snprintf(p->find, sizeof p->find, "%s", find);
        p->find_at = 0;
        p->find_jump = 1;
    }
    app_push(a, VIEW_PASSAGE);
}

/* Marks every match of the passage search in text and counts them (find_n); returns the byte
 * offset of the current one (find_at, kept in range). */
static size_t mark_matches(struct passage_state *p, const char *text, size_t len, uint8_t *mark)
{
    size_t n = strlen(p->find), count = 0, at = 0;
    for (size_t i = 0; n && i + n <= len; i++) {
        if (((unsigned char)text[i] & 0xC0) == 0x80 || !match_at(text + i, len - i, p->find, n))
            continue;   /* (a match starts on a character) */
        if (count == p->find_at)
            at = i;
        memset(mark + i, DRAW_MARK_MATCH, n);
        count++;
        i += n - 1;
    }
    p->find_n = count;
    if (count && p->find_at >= count) {
        p->find_at = count - 1;
        return mark_matches(p, text, len, mark);
    }
    return at;
}

/* Row y: the passage's id and judgment, and who relabelled it when. */
static void draw_judgment(app *a, int y, uint32_t q, uint32_t pid)
{
    rt_workspace *ws = a->s->ws;
    char buf[256];
    int32_t g, bg;
    const rt_label *rl;
    int judged = rt_session_grade(a->s, q, pid, &g, &rl);
    int bjudged = rt_workspace_grade(ws, q, pid, &bg);
    int n = judged ? snprintf(buf, sizeof buf, "passage %s  judged %s (grade %d)", rt_strtab_str(ws->pids, pid),
                              g >= ws->level ? "relevant" : "non-relevant", (int)g)
                   : snprintf(buf, sizeof buf, "passage %s  unjudged", rt_strtab_str(ws->pids, pid));
    if (n < 0 || (size_t)n >= sizeof buf)   /* a long pid: cut, and the rest of the line goes */
        n = n < 0 ? 0 : (int)sizeof buf - 1;
    if (rl && (size_t)n + 1 < sizeof buf) {
        char when[32];
        rt_op_format_time(rl->prov.time_ms, when, sizeof when);
        when[16] = 0;   /* to the minute */
        when[10] = ' ';
        if (bjudged)
            n += snprintf(buf + n, sizeof buf - (size_t)n, "  relabelled from %d by %s %s", (int)bg, rl->prov.author, when);
        else
            n += snprintf(buf + n, sizeof buf - (size_t)n, "  relabelled (unjudged in the base) by %s %s", rl->prov.author, when);
    }
    if ((size_t)n >= sizeof buf)
        n = (int)sizeof buf - 1;
    draw_text(y, 0, a->cols, buf, (size_t)n, judged && g >= ws->level ? ROLE_REL : judged ? ROLE_NONREL : ROLE_UNJUDGED, NULL);
}

/* Row y: the passage's rank in every run; returns the columns used. */
static int draw_ranks(app *a, int y, uint32_t q, uint32_t pid)
{
    rt_workspace *ws = a->s->ws;
    size_t o = 0;
    char ranks[512];
    for (size_t r = 0; r < ws->nruns && o + 40 < sizeof ranks; r++) {
        size_t rk = rt_workspace_rank_of(ws, r, q, pid);
        o += (size_t)(rk ? snprintf(ranks + o, sizeof ranks - o, "%s: %zu   ", rt_run_name(ws->runs[r].run), rk)
                         : snprintf(ranks + o, sizeof ranks - o, "%s: -   ", rt_run_name(ws->runs[r].run)));
        if (o >= sizeof ranks)   /* a long run name: cut where the buffer ends */
            o = sizeof ranks - 1;
    }
    return draw_text(y, 0, a->cols, ranks, o, ROLE_DIM, NULL);
}

/* The tags beside the ranks (row y, after used columns) when they fit, else wrapped on rows of
 * their own below it; returns those rows (0 beside the ranks or without tags). */
static int draw_tags(app *a, int y, int used, int height, uint32_t q, uint32_t pid)
{
    char tags[600];
    size_t tn = tags_text(a, q, pid, tags, sizeof tags);
    if (tn && (int)rt_text_width(tags, tn) <= a->cols - used) {
        draw_text(y, used, a->cols - used, tags, tn, ROLE_HEADER, NULL);
        return 0;
    }
    return tn ? draw_wrapped(y + 1, 0, a->cols, height > 12 ? 3 : 1, tags, tn, ROLE_HEADER) : 0;
}

/* The distant-supervision hint from row y: how close the passage comes to an answer, and where;
 * returns the rows drawn. */
static int draw_hint(app *a, int y, int height, uint32_t q, const pair_hint *h)
{
    if (h->state == HINT_NONE || height <= 8)
        return 0;
    const rt_answers *ans_of = a->s->ws->answers;
    char line[1024];
    if (h->state == HINT_NO_ANSWERS)
        snprintf(line, sizeof line, "hint: this query has no answers in %s", rt_answers_path(ans_of));
    else if (h->state == HINT_NO_PASSAGE)
        line[0] = '\0';
    else if (h->f1 == 0)
        snprintf(line, sizeof line, "hint: F1 0 (no character of any answer)");
    else {
        const char *ans = rt_answers_text(ans_of, q, h->answer);
        size_t na = rt_answers_of(ans_of, q, NULL);
        snprintf(line, sizeof line, "hint: F1 %.2f%s with answer %zu of %zu \u201c%.600s\u201d (span underlined)%s%s", h->f1,
                 h->f1 >= 0.5 ? " (Algorithm 1: positive)" : "", h->answer + 1, na, ans ? ans : "",
                 h->cut ? "; over the first 64 KiB of the passage" : "",
                 h->answer_cut ? "; long answers by their first 2,048 characters" : "");
    }
    if (!line[0])
        return 0;
    return draw_wrapped(y, 0, a->cols, height > 12 ? 3 : 2, line, strlen(line), h->f1 >= 0.5 ? ROLE_HL_ANSWER : ROLE_DIM);
}

/* Why there is no text to show: still indexed, changed on disk, not in it, or no collection. */
static void draw_missing(app *a, int y, int height)
{
    rt_workspace *ws = a->s->ws;
    char m[4400];   /* a path of up to PATH_MAX bytes and the sentence */
    uint64_t done, total;
    if (rt_workspace_collection_loading(ws, &done, &total))
        snprintf(m, sizeof m, "The collection is being indexed (%d%%): the passage shows when it is in.",
                 total ? (int)(100 * done / total) : 0);
    else if (ws->collection && rt_collection_changed(ws->collection))   /* not "not in it": unknown */
        snprintf(m, sizeof m, "The collection %s changed on disk since it was opened; quit and reopen to read "
                 "it again.", rt_collection_path(ws->collection));
    else
        snprintf(m, sizeof m, "%s", ws->collection ? "This passage id is not in the collection."
                 : ws->collection_failed ? "The collection could not be opened (L says why)."
                 : "No collection was loaded.");
    draw_wrapped(y, 0, a->cols, height > 8 ? 4 : 1, m, strlen(m), ROLE_DIM);
}

/* The text wrapped to the width on rows [y, y + rows), its overlap with the query, the answer
 * span and the search's matches marked, scrolled to the current match after a search step. */
static void draw_text_rows(app *a, struct passage_state *p, int y, int rows, const char *text, size_t tl,
                           const pair_hint *h)
{
    rt_glyphs gl = {0};
    rt_text_sanitize(text, tl, 1, &gl);
    uint8_t *mark = rt_calloc(tl + 1, 1);
    if (a->ov)
        rt_overlap_mark(a->ov, text, tl, mark);
    if (h->state == HINT_OK && h->to > h->from && h->to <= tl)
        memset(mark + h->from, DRAW_MARK_ANSWER, h->to - h->from);
    size_t at = mark_matches(p, text, tl, mark);   /* byte offset of the current match */
    size_t nlines = rt_glyphs_wrap(&gl, (size_t)a->cols, NULL, 0);
    size_t *starts = rt_calloc(nlines + 1, sizeof *starts);
    rt_glyphs_wrap(&gl, (size_t)a->cols, starts, nlines);
    if (p->find_jump && p->find_n) {   /* the current match's line, a third down the screen */
        size_t l = 0;
        while (l + 1 < nlines && gl.g[starts[l + 1]].src_off <= at)
            l++;
        p->scroll = l > (size_t)rows / 3 ? l - (size_t)rows / 3 : 0;
    }
    p->find_jump = 0;
    size_t maxscroll = nlines > (size_t)rows ? nlines - (size_t)rows : 0;
    if (p->scroll > maxscroll)
        p->scroll = maxscroll;
    for (int row = 0; row < rows; row++) {
        size_t l = p->scroll + (size_t)row;
        if (l >= nlines)
            break;
        size_t end = l + 1 < nlines ? starts[l + 1] : gl.n;
        draw_glyphs(y + row, 0, a->cols, &gl, starts[l], end, mark, ROLE_NORMAL);
    }
    free(starts);
    free(mark);
    rt_glyphs_free(&gl);
}

static void draw(app *a, int top, int height)
{
    struct passage_state *p = passage_state(a);
    uint32_t q = app_qid(a);
    app_draw_query_line(a, top);
    if (height > 8)
        height -= app_draw_tax_legend(a, top + height - 1);
    draw_judgment(a, top + 1, q, p->pid);
    int used = draw_ranks(a, top + 2, q, p->pid);
    int rows = draw_tags(a, top + 2, used, height, q, p->pid);
    top += rows;
    height -= rows;
    pair_hint h = hint_of(a, q, p->pid);
    rows = draw_hint(a, top + 3, height, q, &h);
    top += rows;
    height -= rows;
    draw_fill(top + 3, 0, a->cols, ROLE_NORMAL);

    const char *text;
    size_t tl;
    if (!rt_workspace_passage(a->s->ws, p->pid, &text, &tl)) {
        draw_missing(a, top + 4, height);
        return;
    }
    /* A passage is read up to RT_PASSAGE_VIEW_MAX bytes (cut at a character boundary): a
     * 300 MB line costs what a long passage costs, and the screen says what is left out. */
    size_t full = tl;
    if (tl > RT_PASSAGE_VIEW_MAX) {
        tl = RT_PASSAGE_VIEW_MAX;
        while (tl > 0 && ((unsigned char)text[tl] & 0xC0) == 0x80)
            tl--;
        char note[160];
        int m = snprintf(note, sizeof note, "passage cut: showing the first %.0f KiB of %.1f MiB", (double)tl / 1024,
                         (double)full / (1 << 20));
        draw_text(top + 3, 0, a->cols, note, (size_t)m, ROLE_ERROR, NULL);
    }
    draw_text_rows(a, p, top + 4, height - 4, text, tl, &h);
}

static int focus(app *a, uint32_t *qid, uint32_t *pid)
{
    *pid = RT_NO_ID;
    if (!a->s->ws->nq)
        return 0;
    *qid = app_qid(a);
    *pid = passage_state(a)->pid;
    return 1;
}

static size_t *cursor(app *a, size_t *n)
{
    *n = (size_t)-1 / 2;   /* bounded by the text when it is drawn */
    return &passage_state(a)->scroll;
}

const view_ops view_passage_ops = {
    .name = "passage", .flags = VIEW_IN_QUERY | VIEW_RUN_FOCUS | VIEW_OF_PASSAGE, .draw = draw,
    .focus = focus, .cursor = cursor, .state_size = sizeof(struct passage_state),
};

/* / (in the passage view) and :find TEXT: the matches are highlighted, ] and [ step through them. */
int act_find(app *a, const char *arg)
{
    if (!arg) {
        a->prompt = '/';
        a->line_len = 0;
        a->line[0] = '\0';
        return 0;
    }
    if (!app_wait(a, APP_WAIT_COLLECTION))   /* the search reads the passage */
        return -1;
    struct passage_state *p = passage_state(a);
    snprintf(p->find, sizeof p->find, "%s", arg);
    p->find_at = 0;
    p->find_jump = 1;
    app_draw(a);   /* counts the matches */
    if (!p->find[0])
        app_message(a, 0, "passage search cleared");
    else if (!p->find_n)
        app_message(a, 1, "\"%s\" is not in this passage", p->find);
    else
        app_message(a, 0, "match 1 of %zu for \"%s\" (] next, [ previous)", p->find_n, p->find);
    return 0;
}

static int step(app *a, int d)
{
    struct passage_state *p = passage_state(a);
    if (!p->find[0] || !p->find_n) {
        app_message(a, 1, p->find[0] ? "\"%s\" is not in this passage" : "no search: / TEXT searches the passage",
                    p->find);
        return -1;
    }
    p->find_at = d > 0 ? (p->find_at + 1) % p->find_n : (p->find_at + p->find_n - 1) % p->find_n;
    p->find_jump = 1;
    app_message(a, 0, "match %zu of %zu for \"%s\"", p->find_at + 1, p->find_n, p->find);
    return 0;
}

int act_next_match(app *a, const char *arg) { (void)arg; return step(a, 1); }
int act_prev_match(app *a, const char *arg) { (void)arg; return step(a, -1); }
