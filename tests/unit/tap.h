/* tap.h — a minimal TAP producer for the unit test programs (one program per core module).
 * Use: ok(cond, "name", ...); is_int(a, b, "name"); is_dbl(a, b, tol, "name"); return tap_done(); */
#ifndef RT_TAP_H
#define RT_TAP_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

static inline int tap_ok(int cond, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static inline int tap_ok(int cond, const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    printf("%s %d - ", cond ? "ok" : "not ok", ++tap_n);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    if (!cond) {
        tap_failed++;
        printf("#   failed at %s:%d\n", file, line);
    }
    fflush(stdout);
    return cond;
}

#define ok(cond, ...) tap_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
#define is_int(got, want, ...) \
    (tap_ok((long long)(got) == (long long)(want), __FILE__, __LINE__, __VA_ARGS__) || \
     (printf("#   got %lld, want %lld\n", (long long)(got), (long long)(want)), 0))
#define is_dbl(got, want, tol, ...) \
    (tap_ok(fabs((double)(got) - (double)(want)) <= (tol), __FILE__, __LINE__, __VA_ARGS__) || \
     (printf("#   got %.17g, want %.17g\n", (double)(got), (double)(want)), 0))
#define is_str(got, want, ...) \
    (tap_ok((got) && strcmp((got), (want)) == 0, __FILE__, __LINE__, __VA_ARGS__) || \
     (printf("#   got \"%s\", want \"%s\"\n", (got) ? (got) : "(null)", (want)), 0))

static inline int tap_done(void)
{
    printf("1..%d\n", tap_n);
    return tap_failed ? 1 : 0;
}

#endif
