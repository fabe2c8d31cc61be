/* rt_runlines — the line scanner of TREC and TSV runs: a line's end and fields found 64 bytes at a
 * time (rt_field_classify64), the plain TREC line taken on a fast path and every other line
 * checked field by field, each hit collected into the block of its query. */
#include "config.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "rt_field.h"
#include "rt_id.h"
#include "rt_mem.h"
#include "rt_num.h"
#include "rt_reader.h"
#include "rt_runscan_impl.h"

/* Whether the len bytes at a and b are equal, for ids: two loads and a shift when len ≤ 8 and
 * both are readable 8 bytes from their start (a linebuf field; s->qid, kept at least 8 long). */
static inline int same_short(const char *a, const char *b, size_t len)
{
    if (len == 0 || len > 8)
        return memcmp(a, b, len) == 0;
    uint64_t x, y;
    memcpy(&x, a, 8);
    memcpy(&y, b, 8);
    x ^= y;
#if RT_NUM_LITTLE_ENDIAN
    return (x << (64 - 8 * len)) == 0;
#else
    return (x >> (64 - 8 * len)) == 0;
#endif
}

/* rt_runscan_add_hit for ids known to be good. padded: qid and pid are in a linebuf (PAD readable bytes
 * follow), so short ones are compared and copied a word at a time. */
static inline rt_status add_checked(scan *s, const char *qid, size_t ql, const char *pid, size_t pl,
                                    double score, size_t line, int padded, rt_err *err)
{
    rt_status st;
    uint32_t qslot = 0;
    if (s->gather) {
        qslot = rt_strtab_intern(s->seen, qid, ql);
    } else if (ql != s->qid_len || !(padded ? same_short(qid, s->qid, ql) : memcmp(qid, s->qid, ql) == 0)) {
        if ((st = rt_runscan_flush(s, err)) != RT_OK)
            return st;
        if (rt_strtab_find(s->seen, qid, ql) != RT_NO_ID)
            return RESTART;
        RT_GROW(s->qid, s->qid_cap, ql + 8);
        memcpy(s->qid, qid, ql);
        s->qid_len = ql;
        s->open = 1;
        s->dec = s->opts.values != NULL;
    }
    if (s->dec) {   /* the block's pids as values while every one is a decimal */
        uint32_t v;
        if (padded ? rt_strtab_decimal_padded(pid, pl, &v) : rt_strtab_decimal(pid, pl, &v)) {
            RT_GROW(s->p, s->pcap, s->np + 1);
            s->p[s->np++] = (pending){v, (uint32_t)pl, 0, score, 0, line};
            s->info->lines++;
            return RT_OK;
        }
        rt_runscan_spell_entries(s, s->held_np, s->np);
        s->dec = 0;
    }
    RT_GROW(s->arena, s->acap, s->alen + pl + RT_HIT_PAD);
    if (padded && pl <= 32)
        memcpy(s->arena + s->alen, pid, 32);   /* the bytes past pl are overwritten by the next */
    else
        memcpy(s->arena + s->alen, pid, pl);
    RT_GROW(s->p, s->pcap, s->np + 1);
    uint64_t hash = padded ? rt_run_pid_hash_padded(pid, pl) : rt_run_pid_hash(pid, pl);
    s->p[s->np++] = (pending){s->alen, (uint32_t)pl, qslot, score, hash, line};
    s->alen += pl;
    s->info->lines++;
    return RT_OK;
}

rt_status rt_runscan_add_hit(scan *s, const char *qid, size_t ql, const char *pid, size_t pl,
                             double score, size_t line, rt_err *err)
{
    rt_status st = rt_id_check_pair(s->path, line, qid, ql, pid, pl, err);
    return st != RT_OK ? st : add_checked(s, qid, ql, pid, pl, score, line, 0, err);
}

static rt_run_format detect(const char *line, size_t len)
{
    if (rt_field_line_first(line, len) == '{')
        return RT_RUN_DUREADER;
    rt_field f[8];
    size_t nt = rt_field_split_tab(line, len, f, 8);
    size_t nw = rt_field_split_ws(line, len, f, 8);
    if ((nt == 3 || nt == 4) && nw == nt)
        return RT_RUN_TSV;
    if (nw >= 6)
        return RT_RUN_TREC;
    return RT_RUN_AUTO;
}

static rt_status bad_line(scan *s, size_t no, const char *what, size_t found, rt_err *err)
{
    const char *tail = s->unterminated ? " (last line, no newline: truncated file?)" : "";
    return rt_err_at(err, RT_EINPUT, s->path, no, "expected %s, found %zu%s", what, found, tail);
}

static rt_status parse_score(scan *s, const rt_field *f, size_t no, double *score, rt_err *err)
{
    rt_num_status ns = rt_num_parse_double(f->s, f->len, score);
    if (ns == RT_NUM_NONFINITE)
        return rt_err_at(err, RT_EINPUT, s->path, no, "score \"%.*s\" is not a finite number",
                         (int)(f->len > 40 ? 40 : f->len), f->s);
    if (ns != RT_NUM_OK)
        return rt_err_at(err, RT_EINPUT, s->path, no, "expected a numeric score, found \"%.*s\"",
                         (int)(f->len > 40 ? 40 : f->len), f->s);
    return RT_OK;
}

static rt_status parse_line(scan *s, const char *line, size_t len, size_t no, rt_err *err)
{
    rt_field f[7];
    double score = 0;
    rt_status st;
    if (s->fmt == RT_RUN_TREC) {
        size_t n = rt_field_split_ws(line, len, f, 7);
        if (n < 6)
            return bad_line(s, no, "6 columns (qid Q0 pid rank score tag)", n, err);
        if ((st = parse_score(s, &f[4], no, &score, err)) != RT_OK)
            return st;
        if (!s->info->name)
            s->info->name = rt_strndup(f[5].s, f[5].len);
        return rt_runscan_add_hit(s, f[0].s, f[0].len, f[2].s, f[2].len, score, no, err);
    }
    size_t n = rt_field_split_tab(line, len, f, 5);
    if (!s->tsv_cols && (n == 3 || n == 4)) {
        s->tsv_cols = (int)n;
        s->info->has_scores = n == 4;
    }
    if (n != (size_t)s->tsv_cols)
        return bad_line(s, no, s->tsv_cols == 4 ? "4 tab-separated columns (qid, pid, rank, score)"
                                                     : "3 tab-separated columns (qid, pid, rank)", n, err);
    int32_t rank;
    if (rt_num_parse_int32(f[2].s, f[2].len, &rank) != RT_NUM_OK)
        return rt_err_at(err, RT_EINPUT, s->path, no, "expected an integer rank, found \"%.*s\"",
                         (int)(f[2].len > 40 ? 40 : f[2].len), f[2].s);
    if (n == 4 && (st = parse_score(s, &f[3], no, &score, err)) != RT_OK)
        return st;
    if (n == 3)
        score = -(double)s->info->lines;
    return rt_runscan_add_hit(s, f[0].s, f[0].len, f[1].s, f[1].len, score, no, err);
}

/* Lines are read from a buffer of their own (not rt_reader_next) so that one pass over a line's
 * bytes finds its end, its fields, and whether it is plain ASCII: the common TREC line then
 * goes straight to add_checked. Any other line takes the general path, with the reader's
 * semantics: a BOM stripped from the file's first line, "\r\n" ends, a NUL byte an error, a
 * last line without a line end. */
enum { CHUNK = 256 << 10, PAD = 128 };
#define NO_END ((size_t)-2)
#define NOT_PLAIN ((size_t)-1)

typedef struct linebuf {
    char *buf;               /* cap bytes, then PAD readable bytes for rt_field_classify64 */
    size_t cap, pos, have;
    int eof;
} linebuf;

/* The line at p (avail bytes, readable 64 beyond): sets *len (without "\n" or "\r\n") and *next
 * (the bytes to the next line) and returns its field count but at most LINE_FIELDS, filling f,
 * when it is plain ASCII; NOT_PLAIN (f untouched) for any other line; NO_END when no
 * '\n' is among the avail bytes. line_at_long reads lines of any length; line_at takes the usual
 * one, within 64 bytes, in one step. */
enum { LINE_FIELDS = 6 };

static size_t line_at_long(const char *p, size_t avail, rt_field f[LINE_FIELDS], size_t *len,
                           size_t *next)
{
    const size_t max = LINE_FIELDS;
    size_t starts = 0, ends = 0;
    uint64_t prev_nb = 0;
    for (size_t base = 0; base < avail; base += 64) {
        uint64_t blank, nl, bad = rt_field_classify64(p + base, &blank, &nl);
        size_t lim = avail - base;
        if (lim < 64)
            nl &= (UINT64_C(1) << lim) - 1;
        size_t e = nl ? (size_t)__builtin_ctzll(nl) : 64, cr = 0;
        uint64_t in = nl ? (UINT64_C(1) << e) - 1 : ~UINT64_C(0);   /* the line's bytes here */
        if (e > 0 && e < 64 && ((bad >> (e - 1)) & 1) && p[base + e - 1] == '\r') {
            cr = 1;
            in >>= 1;
        }
        if (bad & in) {
            const char *q = memchr(p + base, '\n', lim);
            if (!q)
                return NO_END;
            size_t l = (size_t)(q - p);
            *next = l + 1;
            *len = l && p[l - 1] == '\r' ? l - 1 : l;
            return NOT_PLAIN;
        }
        if (!nl && lim <= 64)
            return NO_END;
        blank |= ~in;
        uint64_t nb = ~blank;
        uint64_t st = nb & ~((nb << 1) | prev_nb), en = blank & ((nb << 1) | prev_nb);
        for (; st; st &= st - 1, starts++)
            if (starts < max)
                f[starts].s = p + base + (size_t)__builtin_ctzll(st);
        for (; en; en &= en - 1, ends++)
            if (ends < max)
                f[ends].len = (size_t)(p + base + (size_t)__builtin_ctzll(en) - f[ends].s);
        if (nl) {
            *len = base + e - cr;
            *next = base + e + 1;
            return starts < max ? starts : max;
        }
        prev_nb = nb >> 63;
    }
    return NO_END;
}

/* The field whose start and end are the lowest bits of starts and ends. */
static inline rt_field field_of(const char *p, uint64_t starts, uint64_t ends)
{
    size_t a = (size_t)__builtin_ctzll(starts);
    return (rt_field){p + a, (size_t)__builtin_ctzll(ends) - a};
}

static inline size_t line_at(const char *p, size_t avail, rt_field f[LINE_FIELDS], size_t *len,
                             size_t *next)
{
    uint64_t blank, nl, bad = rt_field_classify64(p, &blank, &nl);
    if (avail < 64)
        nl &= (UINT64_C(1) << avail) - 1;
    if (!nl)
        return line_at_long(p, avail, f, len, next);
    size_t e = (size_t)__builtin_ctzll(nl), cr = 0;
    uint64_t in = (UINT64_C(1) << e) - 1;
    if (e > 0 && ((bad >> (e - 1)) & 1) && p[e - 1] == '\r') {
        cr = 1;
        in >>= 1;
    }
    if (bad & in)
        return line_at_long(p, avail, f, len, next);
    uint64_t nb = ~blank & in;
    uint64_t st = nb & ~(nb << 1), en = ~nb & (nb << 1);   /* field starts; ends (exclusive) */
    *len = e - cr;
    *next = e + 1;
    /* Six fields or more, the usual TREC line: each start and end by its rank among the bits. */
    uint64_t s1 = st & (st - 1), s2 = s1 & (s1 - 1), s3 = s2 & (s2 - 1), s4 = s3 & (s3 - 1);
    uint64_t s5 = s4 & (s4 - 1);
    if (s5) {
        uint64_t e1 = en & (en - 1), e2 = e1 & (e1 - 1), e3 = e2 & (e2 - 1), e4 = e3 & (e3 - 1);
        uint64_t e5 = e4 & (e4 - 1);
        f[0] = field_of(p, st, en);
        f[1] = field_of(p, s1, e1);
        f[2] = field_of(p, s2, e2);
        f[3] = field_of(p, s3, e3);
        f[4] = field_of(p, s4, e4);
        f[5] = field_of(p, s5, e5);
        return LINE_FIELDS;
    }
    size_t k = 0;
    for (; st; k++, st &= st - 1, en &= en - 1) {
        size_t a = (size_t)__builtin_ctzll(st);
        f[k] = (rt_field){p + a, (size_t)__builtin_ctzll(en) - a};
    }
    return k;
}

/* Keeps the unread bytes, makes room (a line longer than the buffer doubles it), reads more:
 * 1, 0 at the end, -1 on an error. */
static int refill(linebuf *b, rt_reader *r, const char *path, size_t lineno, rt_err *err)
{
    if (b->pos) {
        memmove(b->buf, b->buf + b->pos, b->have - b->pos);
        b->have -= b->pos;
        b->pos = 0;
    }
    if (b->have == b->cap) {   /* as rt_reader: a line over the limit, or memory refused, is an error */
        if (b->cap >= rt_input_max()) {
            rt_input_max_error(err, path, lineno + 1, "a line");
            return -1;
        }
        size_t cap = b->cap * 2 > rt_input_max() ? rt_input_max() : b->cap * 2;
        char *buf = realloc(b->buf, cap + PAD);
        if (!buf) {
            rt_err_at(err, RT_EINPUT, path, lineno + 1, "a line of more than %zu bytes does not fit in memory",
                      b->cap);
            return -1;
        }
        b->buf = buf;
        b->cap = cap;
    }
    rt_reader_set_lineno(r, lineno);   /* no line end is left unread: a truncation is in line lineno + 1 */
    ssize_t n = rt_reader_read(r, b->buf + b->have, b->cap - b->have, err);
    if (n > 0)
        b->have += (size_t)n;
    /* rt_field_classify64 reads up to 63 bytes past the last byte read: they are defined (and no
     * page of the buffer is touched before a read reaches it: a small run touches few) */
    memset(b->buf + b->have, 0, PAD);
    return n < 0 ? -1 : n > 0;
}

/* The common TREC line, plain with six or more fields and a score rt_num_parse_double reads, in
 * one pass and with no id checks (a plain id has nothing to check): 1 when done (status in
 * *st), 0 for the general path, which reports what is wrong. */
static int trec_plain(scan *s, const rt_field *f, size_t no, rt_status *st, rt_err *err)
{
    double score;   /* the line is in a linebuf: PAD readable bytes follow it */
    if (rt_num_parse_double_padded(f[4].s, f[4].len, &score) != RT_NUM_OK)
        return 0;
    if (!s->info->name)
        s->info->name = rt_strndup(f[5].s, f[5].len);
    s->info->has_scores = 1;
    *st = add_checked(s, f[0].s, f[0].len, f[2].s, f[2].len, score, no, 1, err);
    return 1;
}

/* Any line, as rt_reader_next would return it and then by format. */
static rt_status general_line(scan *s, char *line, size_t len, size_t no, rt_err *err)
{
    line[len] = '\0';   /* was '\r' or '\n' (or the end's padding) */
    if (no == 1 && s->start == 0 && len >= 3 && memcmp(line, "\xEF\xBB\xBF", 3) == 0) {
        line += 3;
        len -= 3;
    }
    const char *z = memchr(line, 0, len);
    if (z)
        return rt_err_at(err, RT_EINPUT, s->path, no, "a NUL byte at column %zu: not a text file",
                         (size_t)(z - line) + 1);
    if (rt_field_line_skippable(line, len))
        return RT_OK;
    if (s->fmt == RT_RUN_AUTO) {
        s->fmt = detect(line, len);
        if (s->fmt == RT_RUN_AUTO)
            return rt_err_at(err, RT_EINPUT, s->path, no,
                             "cannot tell the run format: expected \"qid Q0 pid rank score tag\", "
                             "\"qid<TAB>pid<TAB>rank[<TAB>score]\" or a DuReader JSON object");
        if (s->fmt == RT_RUN_DUREADER)
            return RESTART;   /* one JSON document: read as a whole */
    }
    if (s->fmt == RT_RUN_TREC)
        s->info->has_scores = 1;
    return parse_line(s, line, len, no, err);
}

static void report_progress(scan *s, rt_reader *r, uint64_t *counted)
{
    uint64_t at = rt_reader_offset(r) - s->start, done = at;
    if (s->opts.progress_done) {   /* the parts add up what they read */
        done = atomic_fetch_add(s->opts.progress_done, at - *counted) + (at - *counted);
        *counted = at;
    }
    if (s->opts.progress) {
        uint64_t d = s->opts.progress_before + done, total = s->opts.progress_total;
        rt_progress_report(s->opts.progress, s->opts.progress_phase, total && d > total ? total : d, total);
    }
}

rt_status rt_runscan_lines(scan *s, rt_err *err)
{
    rt_reader *r;
    rt_status st = rt_reader_open_range(&r, s->path, s->start, s->end, err);
    if (st != RT_OK)
        return st;
    linebuf b = {rt_malloc(CHUNK + PAD), CHUNK, 0, 0, 0};
    memset(b.buf, 0, PAD);
    size_t no = 0;
    uint64_t counted = 0;
    while (st == RT_OK) {
        rt_field f[LINE_FIELDS];
        size_t len, next;
        size_t n = b.pos < b.have ? line_at(b.buf + b.pos, b.have - b.pos, f, &len, &next) : NO_END;
        if (n == NO_END) {
            if (b.eof)
                break;
            int rc = refill(&b, r, s->path, no, err);
            if (rc < 0) {
                st = RT_EINPUT;
            } else if (rc == 0) {
                b.eof = 1;
                if (b.pos < b.have) {   /* a last line without a line end: given one */
                    b.buf[b.have++] = '\n';
                    s->unterminated = 1;
                }
            }
            continue;
        }
        char *line = b.buf + b.pos;
        b.pos += next;
        no++;
        if ((s->opts.progress || s->opts.progress_done) && (no & 8191) == 0)
            report_progress(s, r, &counted);
        if (n != NOT_PLAIN && (n == 0 || f[0].s[0] == '#'))
            continue;   /* blank or comment */
        if (s->fmt == RT_RUN_TREC && n != NOT_PLAIN && n >= 6 && trec_plain(s, f, no, &st, err))
            continue;
        st = general_line(s, line, len, no, err);
    }
    s->info->physical_lines = no;
    free(b.buf);
    rt_reader_close(&r);
    if (st == RT_OK && !s->gather && !s->hold_last)
        st = rt_runscan_flush(s, err);
    return st;
}
