/* rt_num — parsing and formatting numbers, exactly and fast. Scores are parsed to the same double
 * as strtod (ties in a run depend on exact equality), with a fast path for the plain decimals runs
 * are made of; every count or level typed by a user goes through rt_num_parse_int_in. */
#ifndef RT_NUM_H
#define RT_NUM_H

#include <float.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef enum rt_num_status {
    RT_NUM_OK = 0,
    RT_NUM_BAD,        /* not a number */
    RT_NUM_NONFINITE,  /* nan, inf, or overflows to inf */
} rt_num_status;

/* Parses all len bytes at s as a decimal or exponent-form double, rounding like strtod. */
rt_num_status rt_num_parse_double(const char *s, size_t len, double *out);


/* Parses all len bytes at s as a signed decimal integer that fits in int32_t. */
rt_num_status rt_num_parse_int32(const char *s, size_t len, int32_t *out);

/* Parses the whole NUL-terminated string s as a decimal integer (optional sign, digits only) in
 * [min, max]: 1 and *out set, or 0 for anything else (empty, junk, overflow, out of range). Every
 * count, depth, level or grade typed by a user or read from a workspace goes through it. */
int rt_num_parse_int_in(const char *s, int64_t min, int64_t max, int64_t *out);

/* True (and *out set) when the double d is an integer in [min, max] — for numbers from JSON,
 * where 2.7 or 1e10 must be refused rather than cast. */
int rt_num_int_value_in(double d, int64_t min, int64_t max, int64_t *out);

/* Writes v into out (RT_NUM_G17_MAX bytes) exactly as snprintf's "%.17g" does and returns the
 * length (without the NUL it also writes): the value with 17 significant digits, correctly
 * rounded (ties to even), trailing zeros dropped. Measure values are formatted by the tens of
 * thousands; the usual ones (|v| in [1e-4, 2^53)) without printf. */
#define RT_NUM_G17_MAX 32
size_t rt_num_format_g17(char *out, double v);

/* The decimal digits of v into buf (no sign, no leading zero, no NUL); their count. */
size_t rt_num_format_u32(char buf[16], uint32_t v);

/* ---- eight bytes at a time (SWAR), for buffers with bytes to spare after a field ---- */

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define RT_NUM_LITTLE_ENDIAN 1
#else
#define RT_NUM_LITTLE_ENDIAN 0
#endif

#define RT_NUM_ONES8 UINT64_C(0x0101010101010101)

/* The eight bytes at p as a little-endian word (byte 0 lowest). */
static inline uint64_t rt_num_load8(const char *p)
{
    uint64_t w;
    memcpy(&w, p, 8);
#if !RT_NUM_LITTLE_ENDIAN
    w = __builtin_bswap64(w);
#endif
    return w;
}

/* How many of the bytes of w, from the first, are decimal digits (0–8). A byte below '0' borrows
 * from the bytes after it, and one above '9' carries into them, but never into the ones before:
 * the first non-digit is always found. */
static inline size_t rt_num_leading_digits(uint64_t w)
{
    uint64_t t = w - 0x30 * RT_NUM_ONES8;
    uint64_t nd = (t | (t + 0x76 * RT_NUM_ONES8)) & (0x80 * RT_NUM_ONES8);
    return nd ? (size_t)__builtin_ctzll(nd) / 8 : 8;
}

/* The value of the first n (0–8) bytes of w, all digits: each step joins neighbouring groups
 * (digit pairs, then fours, then eights), none overflowing its lane. */
static inline uint64_t rt_num_digits_value(uint64_t w, size_t n)
{
    if (n == 0)
        return 0;
    uint64_t v = (w - 0x30 * RT_NUM_ONES8) << (8 * (8 - n));   /* the digits at the top, zeros below */
    v = (v * 10 + (v >> 8)) & UINT64_C(0x00FF00FF00FF00FF);
    v = (v * 100 + (v >> 16)) & UINT64_C(0x0000FFFF0000FFFF);
    return (v * 10000 + (v >> 32)) & UINT64_C(0xFFFFFFFF);
}

/* Clinger's fast path: a decimal integer mantissa m ≤ 2^53 and a power of ten 10^k with
 * |k| ≤ 22 are both exact doubles, so one IEEE multiplication or division rounds m·10^k
 * correctly — to the double strtod returns. Only with double arithmetic in double precision
 * (not x87's extended registers, which round twice). */
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
#define RT_FAST_DOUBLE 1
#else
#define RT_FAST_DOUBLE 0
#endif

extern const double rt_num_pow10[23];   /* 10^0 .. 10^22, each exact */

/* rt_num_parse_double (the same answer, always) for s in a padded buffer: s[0 .. len + 32) must be
 * readable. Reads the usual score, [sign] up to 8 digits [. up to 8 digits], eight bytes at a
 * time, inline: it is read once for every line of a run. */
static inline rt_num_status rt_num_parse_double_padded(const char *s, size_t len, double *out)
{
    static const uint32_t pow10_int[9] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000,
                                          100000000};
    size_t i = len && (s[0] == '-' || s[0] == '+');
    const char *p = s + i;
    size_t rest = len - i;
    uint64_t w1 = rt_num_load8(p);
    size_t ni = rt_num_leading_digits(w1);
    ni = ni < rest ? ni : rest;
    uint64_t m;
    size_t nf = 0;
    if (ni == rest) {
        m = rt_num_digits_value(w1, ni);
    } else {
        if (p[ni] != '.' || rest - ni - 1 > 8)
            return rt_num_parse_double(s, len, out);
        nf = rest - ni - 1;
        uint64_t w2 = rt_num_load8(p + ni + 1);
        if (rt_num_leading_digits(w2) < nf)
            return rt_num_parse_double(s, len, out);
        if (ni + nf <= 8 && ni < 8)   /* the usual: both parts' digits in one word, read at once */
            m = rt_num_digits_value((w1 & ((UINT64_C(1) << (8 * ni)) - 1)) | (w2 << (8 * ni)), ni + nf);
        else
            m = rt_num_digits_value(w1, ni) * pow10_int[nf] + rt_num_digits_value(w2, nf);
    }
    if (!RT_FAST_DOUBLE || ni + nf == 0 || m > (UINT64_C(1) << 53))
        return rt_num_parse_double(s, len, out);
    double v = (double)(int64_t)m / rt_num_pow10[nf];   /* m < 2^63: the signed conversion */
    *out = s[0] == '-' ? -v : v;
    return RT_NUM_OK;
}

#endif
