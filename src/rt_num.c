/* rt_num — exact number parsing (the same double as strtod, fast for the plain decimals of a
 * run) and formatting (%.17g and unsigned integers without printf). */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_mem.h"
#include "rt_num.h"

const double rt_num_pow10[23] = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

static rt_num_status slow_double(const char *s, size_t len, double *out)
{
    char small[64];
    char *tmp = len < sizeof small ? small : rt_malloc(len + 1);
    memcpy(tmp, s, len);
    tmp[len] = '\0';
    char *end;
    double v = strtod(tmp, &end);
    rt_num_status st = RT_NUM_OK;
    if (end != tmp + len || len == 0)
        st = RT_NUM_BAD;
    else if (!isfinite(v))
        st = RT_NUM_NONFINITE;
    if (tmp != small)
        free(tmp);
    if (st == RT_NUM_OK)
        *out = v;
    return st;
}

rt_num_status rt_num_parse_double(const char *s, size_t len, double *out)
{
    size_t i = 0;
    int neg = 0;
    if (i < len && (s[i] == '-' || s[i] == '+'))
        neg = s[i++] == '-';
    /* Digits before and after the point, at most 19 in all so that m cannot wrap; an exponent
     * of at most 3 digits; anything else (hex, "inf", "nan", long mantissas) goes to strtod. */
    uint64_t m = 0;
    size_t d0 = i;
    while (i < len && (unsigned)(s[i] - '0') < 10)
        m = m * 10 + (unsigned)(s[i++] - '0');
    size_t nint = i - d0, nfrac = 0;
    if (i < len && s[i] == '.') {
        size_t f0 = ++i;
        while (i < len && (unsigned)(s[i] - '0') < 10)
            m = m * 10 + (unsigned)(s[i++] - '0');
        nfrac = i - f0;
    }
    int e = 0;
    if (i < len && (s[i] == 'e' || s[i] == 'E') && nint + nfrac > 0) {
        size_t k = i + 1;
        int eneg = 0;
        if (k < len && (s[k] == '-' || s[k] == '+'))
            eneg = s[k++] == '-';
        size_t e0 = k;
        while (k < len && k - e0 < 4 && (unsigned)(s[k] - '0') < 10)
            e = e * 10 + (s[k++] - '0');
        if (k == e0 || k - e0 > 3)
            return slow_double(s, len, out);
        e = eneg ? -e : e;
        i = k;
    }
    if (!RT_FAST_DOUBLE || i != len || nint + nfrac == 0 || nint + nfrac > 19 ||
        m > (UINT64_C(1) << 53))
        return slow_double(s, len, out);
    e -= (int)nfrac;
    if (e < -22 || e > 22)
        return slow_double(s, len, out);
    double v = (double)m;
    v = e < 0 ? v / rt_num_pow10[-e] : v * rt_num_pow10[e];
    *out = neg ? -v : v;
    return RT_NUM_OK;
}

rt_num_status rt_num_parse_int32(const char *s, size_t len, int32_t *out)
{
    size_t i = 0;
    int neg = 0;
    if (i < len && (s[i] == '-' || s[i] == '+'))
        neg = s[i++] == '-';
    if (i == len)
        return RT_NUM_BAD;
    int64_t v = 0;
    for (; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return RT_NUM_BAD;
        v = v * 10 + (s[i] - '0');
        if (v > (int64_t)INT32_MAX + 1)
            return RT_NUM_BAD;
    }
    if (neg)
        v = -v;
    if (v > INT32_MAX || v < INT32_MIN)
        return RT_NUM_BAD;
    *out = (int32_t)v;
    return RT_NUM_OK;
}

int rt_num_parse_int_in(const char *s, int64_t min, int64_t max, int64_t *out)
{
    size_t i = 0, len = strlen(s);
    int neg = 0;
    if (i < len && (s[i] == '-' || s[i] == '+'))
        neg = s[i++] == '-';
    if (i == len)
        return 0;
    uint64_t v = 0;
    for (; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return 0;
        uint64_t d = (uint64_t)(s[i] - '0');
        if (v > ((uint64_t)INT64_MAX - d) / 10)
            return 0;   /* checked before the step, so the accumulator never wraps */
        v = v * 10 + d;
    }
    int64_t x = neg ? -(int64_t)v : (int64_t)v;
    if (x < min || x > max)
        return 0;
    *out = x;
    return 1;
}

int rt_num_int_value_in(double d, int64_t min, int64_t max, int64_t *out)
{
    /* Bounded as a double first (2^53: every integer below is exact): converting an
     * out-of-range double to an integer is undefined. */
    if (!(d >= -9007199254740992.0 && d <= 9007199254740992.0) || floor(d) != d)
        return 0;
    int64_t v = (int64_t)d;
    if (v < min || v > max)
        return 0;
    *out = v;
    return 1;
}

size_t rt_num_format_g17(char *out, double v)
{
#if defined(__SIZEOF_INT128__)
    __extension__ typedef unsigned __int128 u128;
    double a = fabs(v);
    if (a >= 1e-4 && a < 9007199254740992.0) {   /* normal, and a = m * 2^e with e <= 0 */
        uint64_t bits;
        memcpy(&bits, &a, sizeof bits);
        uint64_t m = (bits & ((UINT64_C(1) << 52) - 1)) | (UINT64_C(1) << 52);
        int shift = 1075 - (int)(bits >> 52);   /* a = m / 2^shift, 0 <= shift <= 66 */
        const uint64_t lo = UINT64_C(10000000000000000), hi = UINT64_C(100000000000000000);
        int x = (int)floor(log10(a)), tries = 0;   /* the decimal exponent, give or take one */
        uint64_t q = 0;
        while (tries++ < 4) {
            int n = 16 - x;   /* q = a * 10^n rounded, to hold 17 digits */
            if (n < 0 || n > 21)
                break;
            u128 p10 = 1;
            for (int k = 0; k < n; k++)
                p10 *= 10;
            u128 p = (u128)m * p10, r = 0, half = 0;   /* < 2^53 * 10^21 < 2^123 */
            u128 w = p;
            if (shift) {
                w = p >> shift;
                r = p & (((u128)1 << shift) - 1);
                half = (u128)1 << (shift - 1);
            }
            if (shift && (r > half || (r == half && (w & 1))))   /* ties to even, as glibc */
                w++;
            if (w >= hi) {
                x++;
                continue;
            }
            if (w < lo) {
                x--;
                continue;
            }
            q = (uint64_t)w;
            break;
        }
        if (q) {   /* 17 digits d[0..17), value 0.d * 10^(x+1); %g is fixed-point for -4 <= x < 17 */
            char d[17];
            for (int k = 16; k >= 0; k--, q /= 10)
                d[k] = (char)('0' + q % 10);
            int nd = 17;
            while (nd > 1 && d[nd - 1] == '0')
                nd--;
            char *o = out;
            if (v < 0)
                *o++ = '-';
            if (x >= 0) {
                int k = 0;
                for (; k <= x; k++)
                    *o++ = k < nd ? d[k] : '0';
                if (nd > x + 1) {
                    *o++ = '.';
                    for (; k < nd; k++)
                        *o++ = d[k];
                }
            } else {
                *o++ = '0';
                *o++ = '.';
                for (int k = -1; k > x; k--)
                    *o++ = '0';
                for (int k = 0; k < nd; k++)
                    *o++ = d[k];
            }
            *o = '\0';
            return (size_t)(o - out);
        }
    }
#endif
    int n = snprintf(out, RT_NUM_G17_MAX, "%.17g", v);
    return n > 0 ? (size_t)n : 0;
}

size_t rt_num_format_u32(char buf[16], uint32_t v)
{
    /* from the end, two digits a step from a table: a run's new pids are each spelled once
     * (tests/bench/PERF.md, "Loading") */
    static const char pairs[201] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                   "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                                   "8081828384858687888990919293949596979899";
    size_t n = v < 10 ? 1 : v < 100 ? 2 : v < 1000 ? 3 : v < 10000 ? 4 : v < 100000 ? 5 : v < 1000000 ? 6
             : v < 10000000 ? 7 : v < 100000000 ? 8 : v < 1000000000 ? 9 : 10;
    size_t i = n;
    while (v >= 100) {
        uint32_t d = (v % 100) * 2;
        v /= 100;
        buf[--i] = pairs[d + 1];
        buf[--i] = pairs[d];
    }
    if (v >= 10) {
        buf[--i] = pairs[v * 2 + 1];
        buf[--i] = pairs[v * 2];
    } else {
        buf[--i] = (char)('0' + v);
    }
    return n;
}
