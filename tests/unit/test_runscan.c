/* test_runscan — the run scanner's ranking (score descending, ties by pid descending, duplicates
 * keep the best-ranked copy) against a brute-force reference on shuffled queries with many ties,
 * and the two-half read (rt_run_scan_halves) against the whole-file read at every line of a
 * file as the split: the same queries, rankings, line numbers and duplicates. */
#include "config.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "rt_runscan.h"
#include "rt_strtab.h"
#include "tap.h"

static uint64_t state = 0x2545F4914F6CDD1DULL;

static uint64_t rnd(void)
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

/* What a scan handed over, query by query, rendered by render() as one text per query,
 * "qid: pid score line, …" in rank order. */
typedef struct got_query {
    char qid[32];
    size_t n;
    char (*pid)[80];
    double *score;
    size_t *line;
} got_query;

typedef struct seen {
    got_query q[512];
    size_t n;
    char *text[512];   /* for the reference: texts made directly */
    size_t nt;
} seen;

/* The next query of s, for n hits; NULL when s is full or the qid too long. */
static got_query *new_query(seen *s, const char *qid, size_t ql, size_t n)
{
    if (s->n == sizeof s->q / sizeof s->q[0] || ql >= sizeof s->q[0].qid)
        return NULL;
    got_query *g = &s->q[s->n++];
    snprintf(g->qid, sizeof g->qid, "%.*s", (int)ql, qid);
    g->n = n;
    g->pid = calloc(n + 1, sizeof *g->pid);
    g->score = calloc(n + 1, sizeof *g->score);
    g->line = calloc(n + 1, sizeof *g->line);
    return g;
}

static rt_status collect(void *ctx, const char *qid, size_t ql, const rt_hit *h, size_t n, rt_err *err)
{
    (void)err;
    got_query *g = new_query(ctx, qid, ql, n);
    if (!g)
        return RT_EINPUT;
    for (size_t i = 0; i < n; i++) {
        /* RT_HIT_PAD: the bytes after each pid are there to read (ASan stops here otherwise) */
        volatile char spare = h[i].pid[h[i].pid_len + RT_HIT_PAD - 1];
        (void)spare;
        if (h[i].hash != rt_run_pid_hash(h[i].pid, h[i].pid_len))
            return RT_EINPUT;   /* the padded hash is the plain one */
        snprintf(g->pid[i], sizeof g->pid[i], "%.*s", (int)h[i].pid_len, h[i].pid);
        g->score[i] = h[i].score;
        g->line[i] = h[i].line;
    }
    return RT_OK;
}

/* rt_run_opts.values: a query of decimal pids, as values; counted in value_queries (atomic: the
 * two halves of rt_run_scan_halves call it from two threads at once). */
static atomic_size_t value_queries;

static rt_status collect_values(void *ctx, const char *qid, size_t ql, const uint32_t *v, size_t n,
                                rt_err *err)
{
    (void)err;
    got_query *g = new_query(ctx, qid, ql, n);
    if (!g)
        return RT_EINPUT;
    for (size_t i = 0; i < n; i++)
        snprintf(g->pid[i], sizeof g->pid[i], "%u", (unsigned)v[i]);
    atomic_fetch_add(&value_queries, 1);
    return RT_OK;
}

/* render() writes the pids alone (a query given as values has no scores or lines). */
static int pids_only;

/* Turns what s collected into texts (hit lines + line_offset) and frees it. */
static void render(seen *s, size_t line_offset)
{
    for (size_t k = 0; k < s->n; k++) {
        got_query *g = &s->q[k];
        size_t cap = 40 + g->n * 128, o = 0;
        char *t = malloc(cap);
        o += (size_t)snprintf(t + o, cap - o, "%s:", g->qid);
        for (size_t i = 0; i < g->n; i++)
            o += pids_only ? (size_t)snprintf(t + o, cap - o, " %s,", g->pid[i])
                           : (size_t)snprintf(t + o, cap - o, " %s %.17g %zu,", g->pid[i], g->score[i],
                                              g->line[i] + line_offset);
        s->text[s->nt++] = t;
        free(g->pid);
        free(g->score);
        free(g->line);
    }
    s->n = 0;
}

/* The scan starts over (lines not grouped): what it gave so far does not count. */
static void forget(void *ctx)
{
    seen *s = ctx;
    render(s, 0);
    for (size_t i = 0; i < s->nt; i++)
        free(s->text[i]);
    s->nt = 0;
}

static int str_cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* All texts of s, sorted, in one string (caller frees); empties s. */
static char *joined(seen *s)
{
    render(s, 0);
    qsort(s->text, s->nt, sizeof s->text[0], str_cmp);
    size_t len = 1;
    for (size_t i = 0; i < s->nt; i++)
        len += strlen(s->text[i]) + 1;
    char *out = malloc(len), *p = out;
    for (size_t i = 0; i < s->nt; i++) {
        p += sprintf(p, "%s\n", s->text[i]);
        free(s->text[i]);
    }
    *p = '\0';
    s->nt = 0;
    return out;
}

/* A reference line: what the scanner must rank. */
typedef struct ref {
    char pid[16];
    double score;
    size_t line;
} ref;

static int ref_cmp(const void *x, const void *y)
{
    const ref *a = x, *b = y;
    if (a->score != b->score)
        return a->score > b->score ? -1 : 1;
    int c = strcmp(b->pid, a->pid);   /* strcmp is byte order, shorter first on a common prefix */
    if (c)
        return c;
    return a->line < b->line ? -1 : a->line > b->line;
}

/* Writes nq queries of up to 300 lines each, lines shuffled within a query, scores from a few
 * values (long runs of ties) or many, pids short and long with duplicates; fills want with the
 * reference rankings (duplicates dropped after ranking) as collect() writes them. */
static const char *make_run(size_t nq, char **want, size_t *lines)
{
    size_t cap = 1 << 22, o = 0, wo = 0, line = 0;
    char *text = malloc(cap), *w = malloc(cap);
    ref *r = malloc(300 * sizeof *r);
    size_t *order = malloc(300 * sizeof *order);
    char **wq = malloc(nq * sizeof *wq);
    for (size_t q = 0; q < nq; q++) {
        /* scores: three values (long runs of ties), a thousand spread evenly, or bunched below 1
         * with one far above (one bucket holds nearly all) */
        size_t n = 1 + rnd() % 300, mode = rnd() % 3;
        for (size_t i = 0; i < n; i++) {
            snprintf(r[i].pid, sizeof r[i].pid, "%s%u", rnd() % 2 ? "p" : "pp", (unsigned)(rnd() % (n + 5)));
            r[i].score = mode == 0 ? (double)(rnd() % 3) / 4 - 1
                       : mode == 1 ? (double)(rnd() % 1000) / 4 - 1
                       : i == 0 ? 1e6 : (double)(rnd() % 100) / 128;
            order[i] = i;
        }
        for (size_t i = n - 1; i > 0; i--) {   /* the file order: a shuffle */
            size_t k = rnd() % (i + 1), x = order[i];
            order[i] = order[k];
            order[k] = x;
        }
        for (size_t i = 0; i < n; i++) {
            ref *x = &r[order[i]];
            x->line = ++line;
            o += (size_t)snprintf(text + o, cap - o, "q%zu Q0 %s %zu %.17g tag\n", q, x->pid, i + 1, x->score);
        }
        qsort(r, n, sizeof *r, ref_cmp);
        size_t qo = wo;
        wo += (size_t)snprintf(w + wo, cap - wo, "q%zu:", q);
        for (size_t i = 0; i < n; i++) {
            int dup = 0;
            for (size_t k = 0; k < i && !dup; k++)
                dup = strcmp(r[k].pid, r[i].pid) == 0;
            if (!dup)
                wo += (size_t)snprintf(w + wo, cap - wo, " %s %.17g %zu,", r[i].pid, r[i].score, r[i].line);
        }
        wq[q] = strndup(w + qo, wo - qo);
        wo = qo;
    }
    static seen s;
    for (size_t q = 0; q < nq; q++)
        s.text[s.nt++] = wq[q];
    *want = joined(&s);
    *lines = line;
    const char *path = tmp_bytes(text, o);
    free(text);
    free(w);
    free(r);
    free(order);
    free(wq);
    return path;
}

/* The eight-bytes-at-a-time forms give the plain forms' answers: pid hashes of every length up to
 * 20 and decimal values of digit strings, with and without other bytes, leading zeros and
 * values past the table's bound. */
static void test_padded_forms(void)
{
    uint64_t x = 0x243f6a8885a308d3ULL;
    size_t hash_bad = 0, dec_bad = 0, decimals = 0;
    for (int round = 0; round < 200000; round++) {
        char buf[40];
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        size_t len = (size_t)(x % 21);
        for (size_t i = 0; i < sizeof buf; i++) {
            uint64_t r = x >> (i % 8 * 8) ^ (uint64_t)i * 0x9e3779b97f4a7c15ULL;
            /* mostly digits, sometimes anything (0x2f and 0x3a sit beside the digits) */
            buf[i] = (char)(r % 16 < 12 ? '0' + r % 10 : r % 16 == 12 ? 0x2f : r % 16 == 13 ? 0x3a : (int)(r >> 8 & 0xff));
        }
        hash_bad += rt_run_pid_hash_padded(buf, len) != rt_run_pid_hash(buf, len);
        uint32_t a = 7, b = 7;
        int ra = rt_strtab_decimal(buf, len, &a), rb = rt_strtab_decimal_padded(buf, len, &b);
        dec_bad += ra != rb || (ra && a != b);
        decimals += ra;
    }
    ok(hash_bad == 0, "rt_run_pid_hash_padded equals rt_run_pid_hash (%zu of 200000 differ)", hash_bad);
    ok(dec_bad == 0 && decimals > 10000, "rt_strtab_decimal_padded equals rt_strtab_decimal "
       "(%zu of 200000 differ; %zu decimals)", dec_bad, decimals);
    const char *edge[] = {"0", "00", "01", "9", "67108863", "67108864", "99999999", "12345678",
                          "1234567", "", "-1", "+1", "1 ", "1a"};
    size_t bad = 0;
    for (size_t i = 0; i < sizeof edge / sizeof *edge; i++) {
        char buf[16] = {0};
        memcpy(buf, edge[i], strlen(edge[i]));
        uint32_t a = 7, b = 7;
        int ra = rt_strtab_decimal(buf, strlen(edge[i]), &a), rb = rt_strtab_decimal_padded(buf, strlen(edge[i]), &b);
        bad += ra != rb || (ra && a != b);
    }
    ok(bad == 0, "the edge cases agree too (\"0\", leading zeros, 2^26 - 1 and 2^26, signs)");
}

/* A decimal pid as a run may write it: mostly values the scan may keep as such (short and long,
 * with the ties "9" > "10" in byte order), some it must not (a leading zero, past 2^26, nine
 * digits) and, in some queries, a pid that is not a number at all. */
static void decimal_pid(char *buf, size_t cap, size_t n, int mode)
{
    unsigned r = (unsigned)(rnd() % 100);
    if (mode == 1 && r < 3)
        snprintf(buf, cap, "d%u", (unsigned)(rnd() % 50));
    else if (mode == 2 && r < 3)
        snprintf(buf, cap, "0%u", (unsigned)(rnd() % 50));
    else if (mode == 2 && r < 6)
        snprintf(buf, cap, "%u", 67108864u + (unsigned)(rnd() % 3));
    else if (mode == 2 && r < 8)
        snprintf(buf, cap, "%u", 100000000u + (unsigned)(rnd() % 3));
    else if (r < 50)
        snprintf(buf, cap, "%u", (unsigned)(rnd() % (n + 5)));
    else if (r < 75)
        snprintf(buf, cap, "%u", (unsigned)(rnd() % (10 * n + 50)) * 10);
    else
        snprintf(buf, cap, "%u", (unsigned)(rnd() % 67108864u));
}

/* Writes nq queries of decimal pids (modes: values only; a pid now and then that is not a
 * number; leading zeros and values past the bound), lines shuffled within a query, scores from
 * a few values or many; duplicates in some queries. */
static const char *make_decimal_run(size_t nq, size_t *lines)
{
    size_t cap = 1 << 22, o = 0, line = 0;
    char *text = malloc(cap);
    for (size_t q = 0; q < nq; q++) {
        size_t n = 1 + rnd() % 300, mode = rnd() % 4, few = rnd() % 2, dups = rnd() % 3 == 0;
        for (size_t i = 0; i < n; i++) {
            char pid[32];
            decimal_pid(pid, sizeof pid, n, mode == 3 ? 0 : (int)mode);
            if (!dups && pid[0] != 'd')   /* no duplicates: the line number makes it unique */
                snprintf(pid, sizeof pid, "%zu", (size_t)(rnd() % 2 ? i : i * 1000 + 7));
            double score = few ? (double)(rnd() % 3) : (double)(rnd() % 1000) / 8;
            o += (size_t)snprintf(text + o, cap - o, "%zu Q0 %s %zu %.17g tag\n", 1000 + q, pid, i + 1, score);
            line++;
        }
    }
    const char *path = tmp_bytes(text, o);
    free(text);
    *lines = line;
    return path;
}

/* rt_run_opts.values: the queries given as values and those given as hits, whole and in two
 * halves split at every line, rank and drop duplicates exactly as the hits alone do. */
static void test_values(void)
{
    static seen s, sa, sb;
    size_t lines;
    const char *path = make_decimal_run(80, &lines);
    rt_run_info ref_info, info;
    rt_err err;
    pids_only = 1;
    rt_status st = rt_run_scan(path, NULL, collect, NULL, &s, &ref_info, &err);
    char *want = joined(&s);
    rt_run_opts o = {.values = collect_values};
    atomic_store(&value_queries, 0);
    rt_status st2 = rt_run_scan(path, &o, collect, NULL, &s, &info, &err);
    char *got = joined(&s);
    ok(st == RT_OK && st2 == RT_OK && strcmp(want, got) == 0 && info.queries == ref_info.queries &&
       info.hits == ref_info.hits && info.lines == ref_info.lines &&
       info.duplicates == ref_info.duplicates && info.first_dup_line == ref_info.first_dup_line,
       "queries given as values: the rankings, counts and duplicates of the hits alone");
    size_t nvalues = atomic_load(&value_queries);
    ok(nvalues > 10 && nvalues < info.queries, "both ways taken: %zu of %zu queries as values", nvalues,
       info.queries);
    ok(ref_info.duplicates > 0, "the file holds duplicates (%zu)", ref_info.duplicates);
    rt_run_info_clear(&info);
    free(got);
    free(want);
    rt_run_info_clear(&ref_info);

    /* halves: a smaller file, every line start as the split */
    const char *path2 = make_decimal_run(10, &lines);
    FILE *f = fopen(path2, "rb");
    char *text = malloc(1 << 20);
    size_t len = fread(text, 1, 1 << 20, f);
    fclose(f);
    st = rt_run_scan(path2, NULL, collect, NULL, &s, &ref_info, &err);
    want = joined(&s);
    int all = st == RT_OK, splits = 0;
    for (size_t at = 1; at < len && all; at++) {
        if (text[at - 1] != '\n')
            continue;
        void *ctx[2] = {&sa, &sb};
        rt_run_info two[2];
        st = rt_run_scan_halves(path2, &o, at, 0, collect, ctx, two, &err);
        render(&sb, 0);
        for (size_t i = 0; i < sb.nt; i++)
            sa.text[sa.nt++] = sb.text[i];
        sb.nt = 0;
        got = joined(&sa);
        size_t d = two[0].duplicates + two[1].duplicates;
        size_t fd = two[0].duplicates ? two[0].first_dup_line : two[1].first_dup_line + two[0].physical_lines;
        if (st != RT_OK || strcmp(got, want) != 0 || d != ref_info.duplicates ||
            (d && fd != ref_info.first_dup_line) || two[0].lines + two[1].lines != ref_info.lines ||
            two[0].hits + two[1].hits != ref_info.hits) {
            printf("# values, split at byte %zu: status %d, differs from the whole read\n", at, (int)st);
            all = 0;
        }
        free(got);
        rt_run_info_clear(&two[0]);
        rt_run_info_clear(&two[1]);
        splits++;
    }
    ok(all && splits == (int)lines - 1, "values, two halves split at each of %d lines: the whole "
       "read's rankings, counts and duplicates", splits);
    rt_run_info_clear(&ref_info);
    free(want);
    free(text);
    pids_only = 0;
}

/* A score written as runs write them: plain decimals of every width, signs, exponents, no digit
 * before or after the point, leading zeros, more digits than the fast forms take. */
static void score_text(char *buf, size_t cap, double v)
{
    switch (rnd() % 11) {
    case 0: snprintf(buf, cap, "%.17g", v); break;
    case 1: snprintf(buf, cap, "%.4f", v); break;
    case 2: snprintf(buf, cap, "%.0f", v); break;
    case 3: snprintf(buf, cap, "%+.3f", v); break;
    case 4: snprintf(buf, cap, "%.6e", v); break;
    case 5: snprintf(buf, cap, "%.8f", v); break;
    case 6: snprintf(buf, cap, "%.9f", v); break;
    case 7: snprintf(buf, cap, "%.0f.", v); break;
    case 8: snprintf(buf, cap, "%s%03.2f", v < 0 ? "-" : "", v < 0 ? -v : v); break;
    case 9:   /* ".25": no digit before the point */
        snprintf(buf, cap, "%.2f", v);
        if (buf[0] == '0')
            memmove(buf, buf + 1, strlen(buf));
        break;
    default: snprintf(buf, cap, "%.2f", v); break;
    }
}

/* Lines that repeat the line before but for their pid, rank and score (what a TREC run is),
 * read through the scanner's template (rt_runlines.c, trec_repeat), rank exactly as strtod's
 * values do: with every score form above, decimal and other pids, spaces or tabs, "\r\n" ends,
 * a seventh field, and lines between that break the pattern (two blanks, another tag). As
 * hits and as values. A bad score in such a line is reported at its line. */
static void test_repeated_lines(void)
{
    size_t cap = 1 << 22, o = 0, wo = 0, line = 0;
    char *text = malloc(cap), *w = malloc(cap), *pw = malloc(cap);
    size_t po = 0;
    ref *r = malloc(400 * sizeof *r);
    char **wq = malloc(60 * sizeof *wq), **pq = malloc(60 * sizeof *pq);
    size_t forms = 0;
    for (size_t q = 0; q < 60; q++) {
        size_t n = 1 + rnd() % 400, pidmode = rnd() % 3, sepmode = rnd() % 4;
        const char *sep = sepmode == 1 ? "\t" : " ", *end = sepmode == 2 ? "\r\n" : "\n";
        for (size_t i = 0; i < n; i++) {
            if (pidmode == 0)
                snprintf(r[i].pid, sizeof r[i].pid, "%u", (unsigned)(rnd() % (3 * n + 10)));
            else if (pidmode == 1)
                snprintf(r[i].pid, sizeof r[i].pid, "%u-%u-%u", 181000 + (unsigned)q, (unsigned)(rnd() % 5),
                         (unsigned)(rnd() % 9));
            else
                snprintf(r[i].pid, sizeof r[i].pid, "%s%u", rnd() % 4 ? "" : "0", (unsigned)(rnd() % 90000000));
            double v = rnd() % 2 ? (double)(int64_t)(rnd() % 2000 - 1000) / 8 : (double)(rnd() % 5);
            char sc[64];
            score_text(sc, sizeof sc, v);
            r[i].score = strtod(sc, NULL);
            r[i].line = ++line;
            size_t k = rnd() % 40;
            const char *s1 = k == 0 ? "  " : sep;            /* two blanks: not the template */
            const char *tag = k == 1 ? "other" : "tag";       /* another tag: not the template */
            const char *extra = sepmode == 3 ? " x" : "";     /* a seventh field throughout */
            o += (size_t)snprintf(text + o, cap - o, "%zu%sQ0%s%s%s%zu%s%s%s%s%s%s", 5000 + q, sep, sep, r[i].pid, s1,
                                  i + 1, sep, sc, sep, tag, extra, end);
            forms++;
        }
        qsort(r, n, sizeof *r, ref_cmp);
        size_t qo = wo, qpo = po;
        wo += (size_t)snprintf(w + wo, cap - wo, "%zu:", 5000 + q);
        po += (size_t)snprintf(pw + po, cap - po, "%zu:", 5000 + q);
        for (size_t i = 0; i < n; i++) {
            int dup = 0;
            for (size_t k = 0; k < i && !dup; k++)
                dup = strcmp(r[k].pid, r[i].pid) == 0;
            if (dup)
                continue;
            wo += (size_t)snprintf(w + wo, cap - wo, " %s %.17g %zu,", r[i].pid, r[i].score, r[i].line);
            po += (size_t)snprintf(pw + po, cap - po, " %s,", r[i].pid);
        }
        wq[q] = strndup(w + qo, wo - qo);
        pq[q] = strndup(pw + qpo, po - qpo);
        wo = qo;
        po = qpo;
    }
    static seen s;
    for (size_t q = 0; q < 60; q++)
        s.text[s.nt++] = wq[q];
    char *want = joined(&s);
    for (size_t q = 0; q < 60; q++)
        s.text[s.nt++] = pq[q];
    char *want_pids = joined(&s);
    const char *path = tmp_bytes(text, o);
    rt_run_info info;
    rt_err err;
    rt_status st = rt_run_scan(path, NULL, collect, NULL, &s, &info, &err);
    char *got = joined(&s);
    ok(st == RT_OK && strcmp(got, want) == 0 && info.lines == forms,
       "repeated lines (%zu; every score form, pid kind, separator, line end): the rankings, scores and "
       "lines strtod's values give", forms);
    rt_run_info_clear(&info);
    free(got);
    pids_only = 1;
    rt_run_opts opts = {.values = collect_values};
    st = rt_run_scan(path, &opts, collect, NULL, &s, &info, &err);
    got = joined(&s);
    ok(st == RT_OK && strcmp(got, want_pids) == 0, "the same lines with decimal pids taken as values: the "
       "same rankings");
    pids_only = 0;
    rt_run_info_clear(&info);
    free(got);

    static const char bad[] = "7 Q0 1 1 2.5 t\n7 Q0 2 2 2.25 t\n7 Q0 3 3 2.x t\n";
    st = rt_run_scan(tmp_bytes(bad, sizeof bad - 1), NULL, collect, NULL, &s, &info, &err);
    ok(st == RT_EINPUT && strstr(err.msg, ":3:") && strstr(err.msg, "expected a numeric score, found \"2.x\""),
       "a bad score in a repeated line: reported at its line (%s)", err.msg);
    forget(&s);
    free(want);
    free(want_pids);
    free(text);
    free(w);
    free(pw);
    free(r);
    free(wq);
    free(pq);
}

/* rt_run_split_offset: the start of the line after the middle, found past a line of 40,000 bytes
 * (several windows); 0 when the line through the middle is the last. */
static void test_split_offset(void)
{
    size_t len = 2 + 40000 + 1 + 2;
    char *text = malloc(len);
    memcpy(text, "a\n", 2);
    memset(text + 2, 'x', 40000);
    memcpy(text + 40002, "\nb\n", 3);
    const char *path = tmp_bytes(text, len);
    uint64_t at = rt_run_split_offset(path, len);
    const char *path2 = tmp_bytes(text, len - 2);   /* the long line is the last */
    uint64_t at2 = rt_run_split_offset(path2, len - 2);
    ok(at == 40003 && at2 == 0, "split offset past a 40,000-byte line: %llu (40003), none when it is the "
       "last: %llu", (unsigned long long)at, (unsigned long long)at2);
    free(text);
}

int main(void)
{
    test_padded_forms();
    test_values();
    test_repeated_lines();
    test_split_offset();
    char *want;
    size_t lines;
    const char *path = make_run(60, &want, &lines);
    static seen s, sa, sb;
    seen *a = &sa, *b = &sb;
    rt_run_info info;
    rt_err err;
    rt_status st = rt_run_scan(path, NULL, collect, NULL, &s, &info, &err);
    ok(st == RT_OK, "whole read of 60 shuffled queries");
    char *whole = joined(&s);
    ok(strcmp(whole, want) == 0, "rankings (bucket and radix sort, tie order, long runs of one score, "
       "duplicates) equal the brute-force reference");
    size_t dups = info.duplicates;
    ok(dups > 100, "the set holds duplicates (%zu)", dups);
    rt_run_info_clear(&info);

    /* What rt_reader_next accepted, read by the scanner's own lines: a BOM, CRLF ends, tabs,
     * blank and comment lines, a line of 100 bytes (fields across the 64-byte blocks), an id
     * that is not ASCII, and a last line without a line end. */
    static const char odd[] =
        "\xEF\xBB\xBFq1 Q0 a 1 1.5 t\r\n"
        "\r\n"
        "  # a comment\n"
        "q1\tQ0\tb\t2\t2.5\tt\n"
        "q1 Q0 ccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc 3 0.5 t extra\n"
        "q1 Q0 \xC3\xA9 4 1e-1 t\r\n"
        "q2 Q0 x 1 3 t";
    st = rt_run_scan(tmp_bytes(odd, sizeof odd - 1), NULL, collect, NULL, &s, &info, &err);
    char *odd_got = joined(&s);
    static const char odd_want[] =
        "q1: b 2.5 4, a 1.5 1, ccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc 0.5 5, \xC3\xA9 0.10000000000000001 6,\n"
        "q2: x 3 7,\n";
    ok(st == RT_OK && strcmp(odd_got, odd_want) == 0 && info.physical_lines == 7,
       "BOM, CRLF, tabs, blank and comment lines, a 100-byte line, a UTF-8 id, no last line end");
    if (strcmp(odd_got, odd_want) != 0)
        printf("# got:\n%s", odd_got);
    free(odd_got);
    rt_run_info_clear(&info);

    /* Every line start of a smaller file as the split. */
    char *want2;
    size_t lines2;
    const char *path2 = make_run(8, &want2, &lines2);
    FILE *f = fopen(path2, "rb");
    char *text = malloc(1 << 20);
    size_t len = fread(text, 1, 1 << 20, f);
    fclose(f);
    rt_run_info one;
    st = rt_run_scan(path2, NULL, collect, NULL, &s, &one, &err);
    char *ref2 = joined(&s);
    int all = st == RT_OK && strcmp(ref2, want2) == 0, splits = 0;
    for (size_t at = 1; at < len && all; at++) {
        if (text[at - 1] != '\n')
            continue;
        void *ctx[2] = {a, b};
        rt_run_info two[2];
        st = rt_run_scan_halves(path2, NULL, at, 0, collect, ctx, two, &err);
        if (st != RT_OK) {
            printf("# split at %zu: status %d: %s\n", at, (int)st, err.msg);
            all = 0;
            rt_run_info_clear(&two[0]);
            rt_run_info_clear(&two[1]);
            break;
        }
        /* the second half's own queries count lines from the split */
        render(b, two[0].physical_lines);
        for (size_t i = 0; i < b->nt; i++)
            a->text[a->nt++] = b->text[i];
        b->nt = 0;
        char *got = joined(a);
        size_t d = two[0].duplicates + two[1].duplicates;
        size_t fd = two[0].duplicates ? two[0].first_dup_line : two[1].first_dup_line + two[0].physical_lines;
        if (strcmp(got, ref2) != 0 || d != one.duplicates || (d && fd != one.first_dup_line) ||
            two[0].lines + two[1].lines != one.lines) {
            printf("# split at byte %zu: differs from the whole read (duplicates %zu vs %zu, first at %zu vs %zu)\n",
                   at, d, one.duplicates, fd, one.first_dup_line);
            all = 0;
        }
        free(got);
        rt_run_info_clear(&two[0]);
        rt_run_info_clear(&two[1]);
        splits++;
    }
    ok(all && splits == (int)lines2 - 1, "two halves split at each of %d lines: the same rankings, "
       "line numbers, duplicates and first duplicate's line as the whole read", splits);
    rt_run_info_clear(&one);

    /* A query whose lines are apart: each half holds a part of it; the caller must see it twice
     * (it then reads the file whole). */
    const char *scattered = tmp_bytes("a Q0 x 1 1 t\nb Q0 y 1 1 t\nc Q0 z 1 1 t\na Q0 w 2 0 t\n", 52);
    void *ctx[2] = {a, b};
    rt_run_info two[2];
    st = rt_run_scan_halves(scattered, NULL, 26, 0, collect, ctx, two, &err);
    char *ja = joined(a), *jb = joined(b);
    ok(st == RT_RUN_NOT_GROUPED || (strncmp(ja, "a:", 2) == 0 && strstr(jb, "a:") != NULL),
       "a query in both halves: reported, or seen by both contexts");
    free(ja);
    free(jb);
    rt_run_info_clear(&two[0]);
    rt_run_info_clear(&two[1]);
    /* Lines of all queries shuffled together: gathered halves at every split equal the whole
     * read (which gathers too). */
    size_t nl = 0;
    char **lines_of = malloc((lines2 + 1) * sizeof *lines_of);
    for (char *q = text; q < text + len; q = strchr(q, '\n') + 1)
        lines_of[nl++] = q;
    for (size_t i = nl - 1; i > 0; i--) {
        size_t k = rnd() % (i + 1);
        char *x = lines_of[i];
        lines_of[i] = lines_of[k];
        lines_of[k] = x;
    }
    char *mixed = malloc(len + 1);
    size_t mo = 0;
    for (size_t i = 0; i < nl; i++) {
        size_t l = (size_t)(strchr(lines_of[i], '\n') - lines_of[i]) + 1;
        memcpy(mixed + mo, lines_of[i], l);
        mo += l;
    }
    const char *path3 = tmp_bytes(mixed, mo);
    st = rt_run_scan(path3, NULL, collect, forget, &s, &one, &err);
    char *ref3 = joined(&s);
    all = st == RT_OK && one.regrouped;
    splits = 0;
    for (size_t at = 1; at < mo && all; at++) {
        if (mixed[at - 1] != '\n')
            continue;
        void *ctx3[2] = {a, b};
        st = rt_run_scan_halves(path3, NULL, at, 1, collect, ctx3, two, &err);
        char *got = joined(a);
        size_t d = two[0].duplicates + two[1].duplicates;
        if (st != RT_OK || b->n != 0 || strcmp(got, ref3) != 0 || d != one.duplicates ||
            (d && two[0].first_dup_line != one.first_dup_line)) {
            printf("# gathered halves split at byte %zu: status %d, differs from the whole read\n", at, (int)st);
            all = 0;
        }
        render(b, 0);
        free(got);
        rt_run_info_clear(&two[0]);
        rt_run_info_clear(&two[1]);
        splits++;
    }
    ok(all && splits == (int)nl - 1, "lines of all queries mixed: gathered halves split at each of %d "
       "lines give the whole read's rankings, line numbers and duplicates", splits);
    /* A second half of a blank line only: it has read no passage id (no bytes to join; found by
     * fuzz_run, a null pointer given to memcpy under UBSan) */
    char *blank_tail = malloc(mo + 1);
    memcpy(blank_tail, mixed, mo);
    blank_tail[mo] = '\n';
    const char *path4 = tmp_bytes(blank_tail, mo + 1);
    free(blank_tail);
    void *ctx4[2] = {a, b};
    st = rt_run_scan_halves(path4, NULL, mo, 1, collect, ctx4, two, &err);
    char *got4 = joined(a);
    ok(st == RT_OK && b->n == 0 && strcmp(got4, ref3) == 0,
       "gathered halves, the second a blank line only: the whole read's rankings");
    render(b, 0);
    free(got4);
    rt_run_info_clear(&two[0]);
    rt_run_info_clear(&two[1]);
    rt_run_info_clear(&one);
    free(ref3);
    free(mixed);
    free(lines_of);
    free(text);
    free(want);
    free(want2);
    free(whole);
    free(ref2);
    return tap_done();
}
