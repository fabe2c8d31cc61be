/* tap.h — a minimal TAP producer for the unit test programs (one program per core module).
 * Use: ok(cond, "name", ...); is_int(a, b, "name"); is_dbl(a, b, tol, "name"); return tap_done();
 * tmp_file(text) / tmp_bytes(p, n) write a temporary input file that tap_done removes. */
#ifndef RT_TAP_H
#define RT_TAP_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

static char *tap_paths[256];
static size_t tap_npaths;

/* A new temporary file holding n bytes at p; its path stays valid until tap_done. */
static inline const char *tmp_bytes(const void *p, size_t n)
{
    char path[] = "/tmp/rt_test_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0 || write(fd, p, n) != (ssize_t)n || tap_npaths == sizeof tap_paths / sizeof tap_paths[0]) {
        perror("tmp_bytes");
        exit(2);
    }
    close(fd);
    tap_paths[tap_npaths++] = strdup(path);
    return tap_paths[tap_npaths - 1];
}

static inline const char *tmp_file(const char *text) { return tmp_bytes(text, strlen(text)); }

static inline int tap_done(void)
{
    for (size_t i = 0; i < tap_npaths; i++)
        if (tap_paths[i]) {   /* never NULL; the test keeps gcc's nonnull analysis quiet */
            unlink(tap_paths[i]);
            free(tap_paths[i]);
        }
    tap_npaths = 0;
    printf("1..%d\n", tap_n);
    return tap_failed ? 1 : 0;
}

#endif
