/* rt_runlines — the line scanner of TREC and TSV runs: a line's end and fields found 64 bytes at a
 * time (rt_field_classify64), the plain TREC line taken on a fast path and every other line
 * checked field by field, each hit collected into the block of its query. */
#include "config.h"

#include <assert.h>
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

/* Adds a decimal pid's value to the block of values at hand (scan.dec). */
static inline void push_value(scan *s, uint32_t v, size_t pl, double score, size_t line)
{
    RT_GROW(s->p, s->pcap, s->np + 1);
    s->p[s->np++] = (pending){v, (uint32_t)pl, 0, score, 0, line};
    s->info->lines++;
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
            push_value(s, v, pl, score, line);
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

/* Where the lines of a linebuf end, found 64 bytes at a time apart from reading the lines, so
 * that the next line's start never waits for the fields of the one before: the '\n's not yet
 * taken among the 64 bytes at base (bytes past the data are the padding's zeros). */
typedef struct nl_scan {
    size_t base;
    uint64_t mask;
} nl_scan;

static inline uint64_t newline_mask64(const char *p)
{
#ifdef __SSE2__
    const __m128i lf = _mm_set1_epi8('\n');
    uint64_t m = 0;
    for (int k = 0; k < 4; k++) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * k));
        m |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x, lf)) << (16 * k);
    }
    return m;
#else
    uint64_t m = 0;
    for (int k = 0; k < 64; k++)
        m |= (uint64_t)(p[k] == '\n') << k;
    return m;
#endif
}

/* Starts the scan at the buffer's read position (after each refill: the bytes moved). */
static void nl_restart(nl_scan *ns, const linebuf *b)
{
    ns->base = b->pos;
    ns->mask = newline_mask64(b->buf + b->pos);
}

/* The offset of the next '\n' not yet taken, or NO_END when none is among the bytes read. */
static inline size_t nl_next(nl_scan *ns, const linebuf *b)
{
    while (!ns->mask) {
        if (ns->base + 64 >= b->have)
            return NO_END;
        ns->base += 64;
        ns->mask = newline_mask64(b->buf + ns->base);
    }
    return ns->base + (size_t)__builtin_ctzll(ns->mask);
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

/* ---- the repeated TREC line -----------------------------------------------------------------
 * In a TREC run, a query's lines differ only in their pid, rank and score: the qid, "Q0", the
 * tag and the separators repeat. A template keeps the bytes of the last plain line before its
 * pid (the head) and after its score (the tail, to the line end). A line that starts with the
 * head, has a decimal pid and a decimal rank each followed by one blank, a score, then the tail,
 * splits into the same six fields as the template's line did, and is plain ASCII: only its pid,
 * rank and score are read, with no byte classified. Any other line takes line_at. */
enum { TEMPLATE_MAX = 32 };

typedef struct trec_template {
    char head[TEMPLATE_MAX], tail[TEMPLATE_MAX];
    size_t head_len, tail_len;   /* 0: no template */
    size_t qid_len;
} trec_template;

/* Whether the len bytes at p (≤ TEMPLATE_MAX; 32 readable) are those of t. */
static inline int same_bytes32(const char *p, const char *t, size_t len)
{
#ifdef __SSE2__
    __m128i a0 = _mm_loadu_si128((const __m128i *)(const void *)p),
            b0 = _mm_loadu_si128((const __m128i *)(const void *)t);
    uint32_t eq = (uint32_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(a0, b0));
    if (len <= 16)   /* the usual head and tail: one compare */
        return (eq | ~((UINT32_C(1) << len) - 1)) == UINT32_MAX;
    __m128i a1 = _mm_loadu_si128((const __m128i *)(const void *)(p + 16)),
            b1 = _mm_loadu_si128((const __m128i *)(const void *)(t + 16));
    eq |= (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(a1, b1)) << 16;
    uint32_t want = len >= 32 ? UINT32_MAX : (UINT32_C(1) << len) - 1;
    return (eq & want) == want;
#else
    return memcmp(p, t, len) == 0;
#endif
}

/* The length of the field at p, its bytes up to the first at or below ' ' (32 readable), when
 * it is shorter than 32 bytes and plain ASCII (no byte from 0x7f); 0 otherwise. */
static inline size_t plain_field(const char *p)
{
#ifdef __SSE2__
    const __m128i sp = _mm_set1_epi8(' '), del = _mm_set1_epi8(0x7e);
    __m128i a = _mm_loadu_si128((const __m128i *)(const void *)p),
            b = _mm_loadu_si128((const __m128i *)(const void *)(p + 16));
    uint32_t end = (uint32_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(a, sp), sp)) |
                   (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(b, sp), sp)) << 16;
    /* a byte above 0x7e: max(x, 0x7e) != 0x7e */
    uint32_t high = ~((uint32_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(a, del), del)) |
                      (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(b, del), del)) << 16);
    if (!end)
        return 0;
    size_t n = (size_t)__builtin_ctz(end);
    return high & ((UINT32_C(1) << n) - 1) ? 0 : n;
#else
    size_t n = 0;
    while (n < 32 && (unsigned char)p[n] > ' ' && (unsigned char)p[n] < 0x7f)
        n++;
    return n < 32 && (unsigned char)p[n] <= ' ' ? n : 0;
#endif
}

/* The score at p: its bytes up to the first at or below ' ' (*len, when within 16; else 16) read
 * as rt_num_parse_double would read them. 1 with *out; 0 when they are not a number. The usual
 * score, [sign] digits [. digits] with at most 8 digits, is read from one 16-byte load: the
 * digits either side of the point joined into one word. */
static inline int score_at(const char *p, size_t *len, double *out)
{
#ifdef __SSE2__
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p), sp = _mm_set1_epi8(' ');
    unsigned end = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(x, sp), sp));   /* x <= ' ' */
    size_t n = end ? (size_t)__builtin_ctz(end) : 16;
    *len = n;
    if (n == 0 || n == 16)
        return 0;
    __m128i t = _mm_sub_epi8(x, _mm_set1_epi8('0'));
    unsigned digit = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(t, _mm_set1_epi8(9)), t));
    unsigned dot = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8('.')));
    size_t sign = p[0] == '-' || p[0] == '+';
    unsigned body = ((1u << n) - 1) & ~(unsigned)sign;
    dot &= body;
    size_t nd = n - sign - (dot != 0);   /* when every other byte of the body is a digit */
    if (((digit | dot) & body) != body || (dot & (dot - 1)) || nd == 0 || nd > 8)
        return rt_num_parse_double_padded(p, n, out) == RT_NUM_OK;
    const char *q = p + sign;
    uint64_t w = rt_num_load8(q);
    size_t nf = 0;
    if (dot) {   /* the bytes from the point on, taken one further along */
        size_t d = (size_t)__builtin_ctz(dot) - sign;
        uint64_t before = d < 8 ? (UINT64_C(1) << (8 * d)) - 1 : ~UINT64_C(0);
        w = (w & before) | (rt_num_load8(q + 1) & ~before);
        nf = nd - d;
    }
    double v = (double)rt_num_digits_value(w, nd) / rt_num_pow10[nf];   /* both exact: one rounding */
    *out = p[0] == '-' ? -v : v;
    return 1;
#else
    size_t n = 0;
    while (n < 16 && (unsigned char)p[n] > ' ')
        n++;
    *len = n;
    return n > 0 && n < 16 && rt_num_parse_double_padded(p, n, out) == RT_NUM_OK;
#endif
}

/* Keeps the plain line at p (fields f, its line end at p + next) as the template, when its head
 * and tail fit. */
static void template_take(trec_template *t, const char *p, const rt_field *f, size_t next)
{
    size_t head = (size_t)(f[2].s - p);
    const char *tail = f[4].s + f[4].len;
    size_t tail_len = (size_t)(p + next - tail);
    t->head_len = t->tail_len = 0;
    if (head > TEMPLATE_MAX || tail_len > TEMPLATE_MAX)
        return;
    memcpy(t->head, p, head);
    memcpy(t->tail, tail, tail_len);
    t->head_len = head;
    t->tail_len = tail_len;
    t->qid_len = f[0].len;
}

/* The line at p (next bytes with its '\n', PAD readable beyond) read through the template: 1
 * when it matched (the hit added, status in *st), 0 for line_at. */
static inline int trec_repeat(scan *s, const trec_template *t, const char *p, size_t next, size_t no,
                              rt_status *st, rt_err *err)
{
    if (!t->head_len || !same_bytes32(p, t->head, t->head_len))
        return 0;
    const char *pid = p + t->head_len;
    uint64_t w = rt_num_load8(pid);
    size_t pl = rt_num_leading_digits(w);   /* a decimal pid (the usual), else any plain one */
    int digits = pl > 0 && pl < 8 && (pid[pl] == ' ' || pid[pl] == '\t');
    if (!digits) {
        pl = plain_field(pid);
        if (pl == 0 || (pid[pl] != ' ' && pid[pl] != '\t'))
            return 0;
    }
    const char *rank = pid + pl + 1;
    size_t rl = rt_num_leading_digits(rt_num_load8(rank));
    if (rl == 0 || rl == 8 || (rank[rl] != ' ' && rank[rl] != '\t'))
        return 0;
    const char *score = rank + rl + 1;
    size_t sl;
    double v;
    if (!score_at(score, &sl, &v))
        return 0;
    const char *tail = score + sl;
    if ((size_t)(tail - p) + t->tail_len != next || !same_bytes32(tail, t->tail, t->tail_len))
        return 0;
    /* The qid is the template's, the block's at hand (its line was the last added): in a block of
     * values, a decimal pid (as rt_strtab_decimal_padded reads one) is added as add_checked would */
    uint64_t value;
    if (digits && s->dec && !s->gather && (pid[0] != '0' || pl == 1) &&
        (value = rt_num_digits_value(w, pl)) < RT_STRTAB_VALUE_MAX) {
        push_value(s, (uint32_t)value, pl, v, no);
        *st = RT_OK;
        return 1;
    }
    *st = add_checked(s, p, t->qid_len, pid, pl, v, no, 1, err);
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
    trec_template tpl = {.head_len = 0};
    nl_scan ns;
    nl_restart(&ns, &b);
    while (st == RT_OK) {
        size_t e = nl_next(&ns, &b);
        if (e == NO_END) {
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
            nl_restart(&ns, &b);
            continue;
        }
        char *line = b.buf + b.pos;
        size_t next = e + 1 - b.pos;
        ns.mask &= ns.mask - 1;
        b.pos += next;
        no++;
        if ((s->opts.progress || s->opts.progress_done) && (no & 8191) == 0)
            report_progress(s, r, &counted);
        if (s->fmt == RT_RUN_TREC && trec_repeat(s, &tpl, line, next, no, &st, err))
            continue;
        rt_field f[LINE_FIELDS];
        size_t len, n_next;
        size_t n = line_at(line, b.have - (size_t)(line - b.buf), f, &len, &n_next);
        assert(n != NO_END && n_next == next);   /* both end the line at its first '\n' */
        if (n != NOT_PLAIN && (n == 0 || f[0].s[0] == '#'))
            continue;   /* blank or comment */
        if (s->fmt == RT_RUN_TREC && n != NOT_PLAIN && n >= 6 && trec_plain(s, f, no, &st, err)) {
            template_take(&tpl, line, f, next);
            continue;
        }
        st = general_line(s, line, len, no, err);
    }
    s->info->physical_lines = no;
    free(b.buf);
    rt_reader_close(&r);
    if (st == RT_OK && !s->gather && !s->hold_last)
        st = rt_runscan_flush(s, err);
    return st;
}
