/* replay.c — the fuzz targets' inputs replayed by `make check`, without clang or libFuzzer: a main
 * for a target's LLVMFuzzerTestOneInput (tests/fuzz/fuzz_NAME.c), both built by the normal compiler
 * into the check program tests/fuzz/fuzz_NAME (tests/fuzz/Makefile.inc says how). Each input is
 * given as libFuzzer gives it: once, in a buffer of its own size (a read past its end is caught in
 * a sanitizer build). Without arguments it replays every file of $SRCDIR/tests/fuzz/seeds/NAME/
 * (NAME from the program's own name), with arguments those files and the files of those folders
 * (a crash input `make fuzz` kept, say); one TAP line an input. A crash ends it, the input named
 * on the line before. */
#include "config.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n);

static int ntests;

/* Replays the file at path: 0, or -1 when it cannot be read (said as a failed test). */
static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    struct stat st;
    uint8_t *buf = NULL;
    size_t n = 0;
    int ok = f && fstat(fileno(f), &st) == 0 && st.st_size >= 0;
    if (ok) {
        n = (size_t)st.st_size;
        buf = malloc(n ? n : 1);
        ok = buf && fread(buf, 1, n, f) == n;
    }
    if (f)
        fclose(f);
    ntests++;
    if (!ok) {
        printf("not ok %d - %s: cannot be read\n", ntests, path);
        free(buf);
        return -1;
    }
    printf("# replaying %s (%zu bytes)\n", path, n);
    fflush(stdout);   /* (the name stays in the log when the call crashes) */
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    printf("ok %d - %s\n", ntests, path);
    return 0;
}

static int is_input(const struct dirent *e) { return e->d_name[0] != '.'; }

/* Replays path: a file, or every file of a folder (in name order). */
static int replay(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        return replay_file(path);
    struct dirent **names;
    int k = scandir(path, &names, is_input, alphasort), bad = 0;
    if (k < 0) {
        printf("not ok %d - %s: cannot be listed\n", ++ntests, path);
        return -1;
    }
    for (int i = 0; i < k; i++) {
        char file[4096];
        snprintf(file, sizeof file, "%s/%s", path, names[i]->d_name);
        bad |= replay_file(file);
        free(names[i]);
    }
    free(names);
    return bad;
}

int main(int argc, char **argv)
{
    int bad = 0;
    if (argc > 1) {
        for (int i = 1; i < argc; i++)
            bad |= replay(argv[i]);
    } else {
        const char *slash = strrchr(argv[0], '/'), *name = slash ? slash + 1 : argv[0];
        if (strncmp(name, "fuzz_", 5) == 0)
            name += 5;
        char dir[4096];
        const char *src = getenv("SRCDIR");
        snprintf(dir, sizeof dir, "%s/tests/fuzz/seeds/%.*s", src ? src : ".", (int)strcspn(name, "."), name);
        struct stat st;
        if (stat(dir, &st) != 0) {
            printf("1..0 # SKIP no inputs to replay: %s is absent\n", dir);
            return 0;
        }
        bad = replay(dir);
    }
    printf("1..%d\n", ntests);
    return bad ? 1 : 0;
}
