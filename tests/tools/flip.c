/* flip — a copy of a file with some of its bytes overwritten, for the tests that damage a cache or
 * an index at random places (tests/cli/cache.sh runs it once a trial, where cp, dd and cmp took
 * four processes). Usage: flip SRC DST OFFSET HEX — DST (created or truncated: a test's own file)
 * becomes SRC with the bytes HEX (two hex digits a byte) written at OFFSET, which must lie inside
 * SRC. Exit 0 when DST differs from SRC, 1 when the bytes were those already there, 2 with a
 * message on an error. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char *what, const char *name)
{
    fprintf(stderr, "flip: %s: %s\n", name, what);
    return 2;
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: flip SRC DST OFFSET HEX\n");
        return 2;
    }
    FILE *in = fopen(argv[1], "rb");
    if (!in)
        return fail(strerror(errno), argv[1]);
    size_t cap = 1 << 16, len = 0;
    unsigned char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + len, 1, cap - len, in)) > 0) {
        len += got;
        if (len == cap) {
            unsigned char *more = realloc(buf, cap * 2);
            if (!more) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = more;
            cap *= 2;
        }
    }
    int bad = !buf || ferror(in);
    fclose(in);
    if (bad) {
        free(buf);
        return fail("cannot read it", argv[1]);
    }
    char *end;
    errno = 0;
    unsigned long long at = strtoull(argv[3], &end, 10);
    const char *hex = argv[4];
    size_t n = strlen(hex) / 2;
    if (errno || *end || argv[3][0] == '-' || strlen(hex) % 2 || n == 0 || at > len || n > len - at) {
        free(buf);
        return fail("the offset or the bytes do not fit the file", argv[3]);
    }
    int same = 1;
    for (size_t i = 0; i < n; i++) {
        int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);
        if (hi < 0 || lo < 0) {
            free(buf);
            return fail("not hexadecimal", hex);
        }
        unsigned char b = (unsigned char)(hi * 16 + lo);
        same &= buf[at + i] == b;
        buf[at + i] = b;
    }
    FILE *out = fopen(argv[2], "wb");
    if (!out) {
        free(buf);
        return fail(strerror(errno), argv[2]);
    }
    bad = fwrite(buf, 1, len, out) != len;
    bad |= fclose(out) != 0;
    free(buf);
    if (bad)
        return fail("cannot write it", argv[2]);
    return same ? 1 : 0;
}
