/* test_numparse — rt_num_parse_double against strtod, bit for bit and status for status, on edge cases
 * and on hundreds of thousands of random strings (well-formed decimals of every length, exponent
 * forms, and junk), the padded variant too; rt_field_classify64 against a byte loop; and rt_num_format_g17
 * against snprintf's "%.17g", byte for byte. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_field.h"
#include "rt_num.h"
#include "tap.h"

/* What rt_num_parse_double must answer for s: strtod's double when it reads all of a non-empty s. */
static rt_num_status expected(const char *s, double *v)
{
    char *end;
    *v = strtod(s, &end);
    if (*s == '\0' || *end != '\0')
        return RT_NUM_BAD;
    return isfinite(*v) ? RT_NUM_OK : RT_NUM_NONFINITE;
}

static uint64_t state = 88172645463325252ULL;

static uint64_t rnd(void)   /* xorshift64: reproducible */
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

/* 1 when rt_num_parse_double, and rt_num_parse_double_padded with s followed by digits, points and
 * signs that are not part of it, agree with strtod on s; prints the first few disagreements. */
static int agrees(const char *s)
{
    static int shown;
    static const char junk[] = "0123456789.-e";
    char padded[256];
    size_t len = strlen(s);
    if (len + 40 > sizeof padded)
        return 0;
    memcpy(padded, s, len);
    for (size_t i = len; i < len + 40; i++)
        padded[i] = junk[rnd() % (sizeof junk - 1)];
    double want = 0, got = 0, got_p = 0;
    rt_num_status ws = expected(s, &want), gs = rt_num_parse_double(s, len, &got);
    rt_num_status ps = rt_num_parse_double_padded(padded, len, &got_p);
    if (ws == gs && ws == ps && (gs != RT_NUM_OK || (memcmp(&got, &want, sizeof got) == 0 &&
                                                   memcmp(&got_p, &want, sizeof got) == 0)))
        return 1;
    if (shown++ < 10)
        printf("# \"%s\": got status %d value %a, padded %d %a, strtod status %d value %a\n", s,
               (int)gs, got, (int)ps, got_p, (int)ws, want);
    return 0;
}

/* A random decimal: sign, up to 25 digits with a point somewhere (or none), often leading or
 * trailing zeros, sometimes an exponent. */
static void random_decimal(char *b)
{
    char *p = b;
    unsigned r = (unsigned)rnd();
    if (r % 5 == 0)
        *p++ = r % 2 ? '-' : '+';
    size_t nd = 1 + rnd() % 25, dot = rnd() % (nd + 2);
    int zeros = rnd() % 4 == 0;
    for (size_t i = 0; i < nd; i++) {
        if (i == dot)
            *p++ = '.';
        *p++ = (char)('0' + (zeros && i < nd / 2 ? 0 : rnd() % 10));
    }
    if (dot == nd)
        *p++ = '.';
    if (rnd() % 4 == 0)
        p += sprintf(p, "%c%d", rnd() % 2 ? 'e' : 'E', (int)(rnd() % 70) - 35);
    *p = '\0';
}

/* A random string over the characters numbers are made of, well-formed or not. */
static void random_junk(char *b)
{
    static const char alphabet[] = "0123456789.-+eE 0x";
    size_t n = rnd() % 12;
    for (size_t i = 0; i < n; i++)
        b[i] = alphabet[rnd() % (sizeof alphabet - 1)];
    b[n] = '\0';
}

static void check_doubles(void)
{
    static const char *edge[] = {
        "0", "-0", "+0", "0.0", "-0.0", "0.", ".0", ".5", "-.5", "5.", "1", "-1", "+1",
        "0.1", "0.2", "0.3", "0.30000000000000004", "2.129133", "13.282280351828641",
        "0.2185714886774211", "29.222667", "-1.25", "1e22", "1e23", "1e-22", "1e-23",
        "9007199254740991", "9007199254740992", "9007199254740993", "9007199254740993.0",
        "900719925474099.3", "0.9007199254740993", "9007199254740992e-22", "9007199254740993e-22",
        "1844674407370955161", "18446744073709551615", "18446744073709551616", "99999999999999999999",
        "1234567890123456789012345", "0.0000000000000000000000001", "0.00000000000000000000001",
        "000000000000000000000000000001", "1.000000000000000000000000001", "123.456e3",
        "123.456E-3", "1e0", "1e+0", "1e-0", "1e", "1e+", "1e-", "e5", "1.e5", ".e5", "-e5",
        "1e999", "-1e999", "1e-999", "4.9e-324", "2.4703282292062327e-324", "2.2250738585072011e-308",
        "1.7976931348623157e308", "1.7976931348623159e308", "0x10", "0x1p3", "inf", "-inf",
        "infinity", "nan", "NaN", "", ".", "-", "+", "--1", "+-1", "1..2", "1.2.3", "1e5.5",
        "1,5", " 1", "1 ", "1e0001", "1e22222", "3.14159265358979323846", "-2.5e-3", "7e-10",
    };
    int all = 1;
    for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++)
        all &= agrees(edge[i]);
    ok(all, "%zu edge cases: same status and same bits as strtod", sizeof edge / sizeof edge[0]);

    char b[128];
    all = 1;
    for (int i = 0; i < 300000; i++) {
        random_decimal(b);
        all &= agrees(b);
    }
    ok(all, "300,000 random decimals (up to 25 digits, exponents): same as strtod");

    all = 1;
    for (int i = 0; i < 200000; i++) {
        double d;
        uint64_t bits = rnd();
        memcpy(&d, &bits, sizeof d);
        if (!isfinite(d))
            continue;
        switch (rnd() % 7) {   /* %f of a huge double is hundreds of digits: taken mod 1e6 */
        case 0: snprintf(b, sizeof b, "%.17g", d); break;
        case 1: snprintf(b, sizeof b, "%.15g", d); break;
        case 2: snprintf(b, sizeof b, "%.6f", fmod(d, 1e6)); break;
        case 3: snprintf(b, sizeof b, "%.9f", fmod(d, 1e6)); break;
        case 4: snprintf(b, sizeof b, "%g", d); break;
        case 5: snprintf(b, sizeof b, "%.3e", d); break;
        default: snprintf(b, sizeof b, "%a", d);
        }
        all &= agrees(b);
    }
    ok(all, "200,000 random doubles printed as %%.17g, %%.15g, %%f, %%e, %%a: same as strtod");

    all = 1;
    for (int i = 0; i < 200000; i++) {   /* scores as runs write them: a few integer digits */
        snprintf(b, sizeof b, "%s%llu.%0*llu", rnd() % 8 ? "" : "-", (unsigned long long)(rnd() % 1000),
                 (int)(1 + rnd() % 18), (unsigned long long)(rnd() % 1000000000000000000ULL));
        all &= agrees(b);
    }
    ok(all, "200,000 run-style scores (1–18 decimals): same as strtod");

    all = 1;
    for (int i = 0; i < 200000; i++) {
        random_junk(b);
        all &= agrees(b);
    }
    ok(all, "200,000 random strings of digits, signs, points, e and blanks: same verdict as strtod");
}

/* rt_field_classify64 against a byte-by-byte classification on random bytes, plain and not. */
static void check_classify(void)
{
    int all = 1;
    for (int i = 0; i < 100000 && all; i++) {
        char b[64];
        static const char plain[] = "ab#0.  \t\n";
        for (int k = 0; k < 64; k++)
            b[k] = rnd() % 16 ? plain[rnd() % (sizeof plain - 1)] : (char)rnd();
        uint64_t blank, nl, bad = rt_field_classify64(b, &blank, &nl), wb = 0, wn = 0, wbad = 0;
        for (int k = 0; k < 64; k++) {
            unsigned char c = (unsigned char)b[k];
            wb |= (uint64_t)(c == ' ' || c == '\t') << k;
            wn |= (uint64_t)(c == '\n') << k;
            wbad |= (uint64_t)((c < 0x20 && c != '\t' && c != '\n') || c >= 0x7f) << k;
        }
        all = blank == wb && nl == wn && bad == wbad;
    }
    ok(all, "classify64: blanks, line ends and odd bytes of 100,000 random blocks, as byte by byte");
}

/* 1 when rt_num_format_g17(v) is snprintf("%.17g", v), length included; prints the first few that
 * are not. */
static int formats_like_printf(double v)
{
    static int shown;
    char got[RT_NUM_G17_MAX], want[64];
    size_t n = rt_num_format_g17(got, v);
    snprintf(want, sizeof want, "%.17g", v);
    if (strcmp(got, want) == 0 && n == strlen(want))
        return 1;
    if (shown++ < 10)
        printf("# %a: got \"%s\" (%zu bytes), want \"%s\"\n", v, got, n, want);
    return 0;
}

static void check_format(void)
{
    /* edges of the fast path (1e-4, 2^53), exact ties at the 18th digit (x.25, x.75 with 16
     * integer digits: to even), and what measures give (0, 1, 1/k, k/n) */
    static const double edge[] = {0.0, 1.0, 0.5, 0.1, 1.0 / 3, 2.0 / 3, 1e-4, 9.9999999999999995e-05,
                                  0.99999999999999994, 9007199254740991.0, 9007199254740992.0,
                                  1234567890123456.25, 1234567890123456.75, 2251799813685247.75,
                                  1e15, 1e16, 123456.5, 0.25, 0.75, 1e-300, 1e300, 5e-324,
                                  INFINITY, NAN};
    int all = 1;
    for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++)
        all &= formats_like_printf(edge[i]) & formats_like_printf(-edge[i]) &
               formats_like_printf(nextafter(edge[i], 0)) & formats_like_printf(nextafter(edge[i], INFINITY));
    ok(all, "format_g17: edges, ties, zeros and non-finite values as %%.17g");
    all = 1;
    for (int i = 0; i < 200000; i++) {
        uint64_t b = rnd();
        double d;
        memcpy(&d, &b, sizeof d);
        double u = (double)(rnd() >> 11) / 9007199254740992.0;
        all &= formats_like_printf(d) & formats_like_printf(u) & formats_like_printf(1.0 / (1 + i % 1000)) &
               formats_like_printf((double)(i % 977) / (1 + i % 1013)) &
               formats_like_printf(u * pow(10, i % 22 - 5)) &
               formats_like_printf((double)(rnd() >> (11 + i % 40)) / (double)(1 << (i % 4)));
    }
    ok(all, "format_g17: 1,200,000 random doubles (bit patterns, [0,1), 1/k, k/n, scaled, quarters) as %%.17g");
}

/* rt_num_format_u32 spells every value as printf's %u: each digit count's ends, every value below
 * 200,000, and a million spread over the whole range. */
static void check_format_u32(void)
{
    char want[16], got[16];
    int all = 1;
    uint32_t ends[] = {0, 9, 10, 99, 100, 999, 1000, 9999, 10000, 99999, 100000, 999999, 1000000, 9999999,
                       10000000, 99999999, 100000000, 999999999, 1000000000, 4294967295u};
    for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++) {
        size_t n = rt_num_format_u32(got, ends[i]);
        all &= (size_t)snprintf(want, sizeof want, "%u", (unsigned)ends[i]) == n && memcmp(want, got, n) == 0;
    }
    ok(all, "format_u32: the ends of every digit count, 0 to 4294967295, as %%u");
    all = 1;
    uint32_t x = 2463534242u;
    for (uint32_t i = 0; i < 1200000; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        uint32_t v = i < 200000 ? i : x >> (i % 29);
        size_t n = rt_num_format_u32(got, v);
        all &= (size_t)snprintf(want, sizeof want, "%u", (unsigned)v) == n && memcmp(want, got, n) == 0;
    }
    ok(all, "format_u32: every value below 200,000 and a million spread over the range, as %%u");
}

int main(void)
{
    check_format_u32();
    check_doubles();
    check_classify();
    check_format();
    return tap_done();
}
