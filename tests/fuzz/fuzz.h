/* fuzz.h — what the libFuzzer targets share: a private temporary folder per process, and writing
 * the input to a file there (most loaders take paths). Each target defines
 * LLVMFuzzerTestOneInput and includes this header once. (The helpers are inline: a target that
 * uses some only is compiled without warnings in make check, tests/fuzz/replay.c.) */
#ifndef RT_FUZZ_H
#define RT_FUZZ_H

#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The entry point (a prototype: -Wmissing-prototypes, when replay.c's main calls it in make check). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n);

static char fuzz_dir[64];

static inline void fuzz_cleanup(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", fuzz_dir);
    if (system(cmd) != 0)
        fprintf(stderr, "fuzz: could not remove %s\n", fuzz_dir);
}

/* The process's folder (made on first use, removed at exit); XDG_CACHE_HOME points into it so
 * that collection indexes never land in the user's cache. */
static inline const char *fuzz_tmp(void)
{
    if (!fuzz_dir[0]) {
        snprintf(fuzz_dir, sizeof fuzz_dir, "/tmp/rt-fuzz-XXXXXX");
        if (!mkdtemp(fuzz_dir))
            abort();
        char cache[128];
        snprintf(cache, sizeof cache, "%s/cache", fuzz_dir);
        setenv("XDG_CACHE_HOME", cache, 1);
        atexit(fuzz_cleanup);
    }
    return fuzz_dir;
}

/* Writes n bytes to NAME in the folder and returns its path (static storage, one per name slot). */
static inline const char *fuzz_file(const char *name, const uint8_t *data, size_t n)
{
    static char path[4][256];
    static int k;
    k = (k + 1) % 4;
    snprintf(path[k], sizeof path[k], "%s/%s", fuzz_tmp(), name);
    FILE *f = fopen(path[k], "wb");
    if (!f || (n && fwrite(data, 1, n, f) != n) || fclose(f) != 0)
        abort();
    return path[k];
}

/* Removes the files in dir (no subfolders are made there). */
static inline void fuzz_empty_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d));)
        if (e->d_name[0] != '.' || (e->d_name[1] && (e->d_name[1] != '.' || e->d_name[2])))
            unlinkat(dirfd(d), e->d_name, 0);
    closedir(d);
}

/* The first input byte as a small selector (0 when empty), and the rest. */
static inline unsigned fuzz_pick(const uint8_t **data, size_t *n, unsigned choices)
{
    if (!*n)
        return 0;
    unsigned v = (*data)[0] % choices;
    (*data)++;
    (*n)--;
    return v;
}

#endif
