/* test_parse — field splitting, exact number parsing (against strtod), UTF-8 and id checks. */
#include "config.h"

#include <stdlib.h>

#include "rt_field.h"
#include "rt_num.h"
#include "rt_utf8.h"
#include "rt_id.h"
#include "rt_json.h"
#include "tap.h"

static void same_as_strtod(const char *s)
{
    double got = 0;
    rt_num_status st = rt_num_parse_double(s, strlen(s), &got);
    double want = strtod(s, NULL);
    ok(st == RT_NUM_OK && memcmp(&got, &want, sizeof got) == 0, "parse_double(\"%s\") == strtod", s);
}

/* rt_json_nul_at on the NUL-terminated JSON text s. */
static size_t nul_at(const char *s) { return rt_json_nul_at(s, strlen(s)); }

static void test_json_nul(void)
{
    is_int(nul_at("{\"q1\\u0000x\": [\"p1\"]}"), 4, "\\u0000 in a key");
    is_int(nul_at("[\"a\", \"b\\u0000\"]"), 8, "\\u0000 in a value");
    is_int(nul_at("[\"a\\\\u0000\"]"), 12, "an escaped backslash before u0000 is text");
    is_int(nul_at("[\"a\\\\\\u0000\"]"), 5, "an escaped backslash then \\u0000");
    is_int(nul_at("[\"\\\"\\u0000\"]"), 4, "after an escaped quote, still in the string");
    is_int(nul_at("[\"\\u00001\", \"\\u0001\"]"), 2, "the first of two");
    is_int(nul_at("[\"\\u0001\", \"u0000\"]"), 19, "no NUL: \\u0001, u0000 without a backslash");
    is_int(rt_json_nul_at("[\"a\0b\"]", 7), 3, "a NUL byte");
    rt_err e;
    const char *doc = "{\"a\": 1,\n \"b\\u0000\": 2}";
    ok(rt_json_check_nul("f.json", 1, doc, strlen(doc), &e) == RT_EINPUT &&
       strstr(e.msg, "f.json:2: a JSON string holds \\u0000 at column 4"), "check_nul names line and column (%s)",
       e.msg);
    ok(rt_json_check_nul("f.json", 1, "{}", 2, &e) == RT_OK, "check_nul passes a clean document");
}

int main(void)
{
    test_json_nul();
    rt_field f[8];
    is_int(rt_field_split_ws("  a\t b   c  ", 12, f, 8), 3, "split_ws skips runs of blanks");
    ok(f[2].len == 1 && f[2].s[0] == 'c', "split_ws third field");
    is_int(rt_field_split_tab("a\t\tb", 4, f, 8), 3, "split_tab keeps empty fields");
    is_int(f[1].len, 0, "split_tab empty middle field");
    is_int(rt_field_split_ws("a b c d e f g h i", 17, f, 2), 9, "split_ws counts beyond max");
    rt_field *wf = NULL;
    size_t cap = 0;
    char wide[600];
    size_t wl = 0;
    for (int i = 0; i < 200; i++)
        wl += (size_t)snprintf(wide + wl, sizeof wide - wl, i ? "\t%c" : "%c", 'a' + i % 26);
    is_int(rt_field_split_tab_all(wide, wl, &wf, &cap), 200, "split_tab_wf: 200 fields");
    ok(cap >= 200 && wf[199].len == 1 && wf[199].s[0] == 'a' + 199 % 26, "split_tab_wf keeps the 200th field");
    is_int(rt_field_split_tab_all("x\ty", 3, &wf, &cap), 2, "split_tab_wf again, in the same array");
    free(wf);

    const char *nums[] = {"0.5", "0.50", "5e-1", "2.129133", "-1.25", "1000", "0.30000002",
                          "0.30000001", "13.282280351828641", "0.2185714886774211", "1e22",
                          "123456789012345678901234567890", "0.000000000000000000000001",
                          "4.9e-324", "+3.5", "-0"};
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++)
        same_as_strtod(nums[i]);
    srand(7);
    int all = 1;
    for (int i = 0; i < 20000; i++) {
        char b[64];
        snprintf(b, sizeof b, "%.*f", rand() % 17, (double)rand() / rand() * (rand() % 1000));
        double got = 0, want = strtod(b, NULL);
        if (rt_num_parse_double(b, strlen(b), &got) != RT_NUM_OK || got != want) {
            all = 0;
            printf("# mismatch on %s\n", b);
            break;
        }
    }
    ok(all, "20,000 random decimals parse exactly like strtod");

    double d;
    is_int(rt_num_parse_double("nan", 3, &d), RT_NUM_NONFINITE, "nan is not finite");
    is_int(rt_num_parse_double("inf", 3, &d), RT_NUM_NONFINITE, "inf is not finite");
    is_int(rt_num_parse_double("-Infinity", 9, &d), RT_NUM_NONFINITE, "-Infinity is not finite");
    is_int(rt_num_parse_double("1e999", 5, &d), RT_NUM_NONFINITE, "overflow is not finite");
    is_int(rt_num_parse_double("abc", 3, &d), RT_NUM_BAD, "letters are not a number");
    is_int(rt_num_parse_double("1.5x", 4, &d), RT_NUM_BAD, "trailing garbage rejected");
    is_int(rt_num_parse_double("", 0, &d), RT_NUM_BAD, "empty is not a number");
    is_int(rt_num_parse_double(".", 1, &d), RT_NUM_BAD, "a lone dot is not a number");

    int32_t g;
    ok(rt_num_parse_int32("-3", 2, &g) == RT_NUM_OK && g == -3, "int32 negative");
    is_int(rt_num_parse_int32("2147483648", 10, &g), RT_NUM_BAD, "int32 overflow rejected");
    is_int(rt_num_parse_int32("1.0", 3, &g), RT_NUM_BAD, "int32 rejects decimals");

    /* Ranged integers from flags, typed commands and workspace JSON (issue 9, item 7). */
    int64_t v = 42;
    ok(rt_num_parse_int_in("7", 1, 10, &v) && v == 7, "int_in: in range");
    ok(rt_num_parse_int_in("-5", -10, 10, &v) && v == -5, "int_in: negative");
    ok(rt_num_parse_int_in("9223372036854775807", 0, INT64_MAX, &v) && v == INT64_MAX, "int_in: INT64_MAX");
    v = 42;
    ok(!rt_num_parse_int_in("9223372036854775808", 0, INT64_MAX, &v) && v == 42,
       "int_in: INT64_MAX + 1 refused, *out untouched");
    ok(!rt_num_parse_int_in("18446744073709551617", 0, INT64_MAX, &v), "int_in: 2^64 + 1 refused (no wrap to 1)");
    ok(!rt_num_parse_int_in("99999999999", INT32_MIN, INT32_MAX, &v), "int_in: beyond int32 refused");
    ok(!rt_num_parse_int_in("11", 1, 10, &v) && !rt_num_parse_int_in("0", 1, 10, &v), "int_in: out of range refused");
    ok(!rt_num_parse_int_in("", 0, 10, &v) && !rt_num_parse_int_in("-", 0, 10, &v) &&
           !rt_num_parse_int_in("+", 0, 10, &v),
       "int_in: empty and sign-only refused");
    ok(!rt_num_parse_int_in(" 5", 0, 10, &v) && !rt_num_parse_int_in("5 ", 0, 10, &v) &&
           !rt_num_parse_int_in("5x", 0, 10, &v) && !rt_num_parse_int_in("2.7", 0, 10, &v) &&
           !rt_num_parse_int_in("1e3", 0, 10000, &v),
       "int_in: blanks, junk, fractions refused");
    ok(rt_num_int_value_in(2.0, 0, 10, &v) && v == 2, "int_value_in: 2.0 is 2");
    ok(!rt_num_int_value_in(2.7, 0, 10, &v), "int_value_in: 2.7 refused");
    ok(!rt_num_int_value_in(1e10, INT32_MIN, INT32_MAX, &v), "int_value_in: 1e10 beyond int32 refused");
    ok(!rt_num_int_value_in(1e300, INT64_MIN, INT64_MAX, &v) && !rt_num_int_value_in(-1e300, INT64_MIN, INT64_MAX, &v),
       "int_value_in: huge doubles refused without an undefined cast");
    ok(!rt_num_int_value_in(NAN, 0, 10, &v) && !rt_num_int_value_in(INFINITY, 0, INT64_MAX, &v),
       "int_value_in: NaN and inf refused");

    ok(rt_utf8_valid("中文abc", strlen("中文abc")), "valid UTF-8");
    ok(!rt_utf8_valid("\xC3\x28", 2), "invalid continuation");
    ok(!rt_utf8_valid("\xE4\xB8", 2), "truncated sequence");
    ok(!rt_utf8_valid("\xC0\xAF", 2), "overlong rejected");
    ok(!rt_utf8_valid("\xED\xA0\x80", 3), "surrogate rejected");
    ok(rt_id_problem("", 0) != NULL, "empty id rejected");
    ok(rt_id_problem("a\x1b", 2) != NULL, "control character in id rejected");
    ok(rt_id_problem("186572-3-1", 10) == NULL, "normal id accepted");

    char shown[128];
    ok(strcmp(rt_id_show("q\x1b[1m\\", 6, shown, sizeof shown), "q\\x1b[1m\\x5c") == 0,
       "id_show: control bytes and the backslash as \\xNN (%s)", shown);
    ok(strcmp(rt_id_show("李\xff\xe4\xb8", 6, shown, sizeof shown), "李\\xff\\xe4\\xb8") == 0,
       "id_show: a valid character kept, the bytes of invalid UTF-8 as \\xNN (%s)", shown);
    char chinese[92] = "a";   /* byte 60 is inside the 20th character */
    for (int i = 0; i < 30; i++)
        strcat(chinese, "李");
    rt_id_show(chinese, strlen(chinese), shown, sizeof shown);
    ok(rt_utf8_valid(shown, strlen(shown)) && strncmp(shown, chinese, 61) == 0 &&
       strcmp(shown + 61, "\xE2\x80\xA6") == 0,
       "id_show: 91 bytes of Chinese cut after about 60 bytes, at a character's end (%s)", shown);
    return tap_done();
}
