/* bench_collection — how much opening a large collection costs: the first open (one pass that
 * builds the offset index), a second open (reusing it), `cat FILE > /dev/null` as the floor of
 * reading the file, the peak resident set of each, and the latency of random lookups.
 * Usage: bench_collection [--passages N] [--cold] [FILE]. Without FILE a collection of N
 * (default 1,000,000) passages of about 300 Chinese characters is generated at
 * /tmp/retriage-bench-collection.tsv (once; reused while its size matches). --cold drops the
 * file's pages from the page cache (posix_fadvise) before each measurement. Each measurement runs
 * in a child process so that its ru_maxrss is its own. */
#include "config.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rt_collection.h"
#include "rt_hash.h"

#define DEFAULT_PATH "/tmp/retriage-bench-collection.tsv"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* DuReader-style pid of passage i: 32 hex digits. */
static void pid_of(uint64_t i, char out[33])
{
    uint64_t a = rt_hash_mix(i * 2 + 1), b = rt_hash_mix(i * 2 + 2);
    snprintf(out, 33, "%016" PRIx64 "%016" PRIx64, a, b);
}

static void put_cjk(char **p, uint32_t cp)
{
    char *s = *p;
    s[0] = (char)(0xE0 | (cp >> 12));
    s[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    s[2] = (char)(0x80 | (cp & 0x3F));
    *p = s + 3;
}

static int generate(const char *path, uint64_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    static char line[4096];
    uint64_t rng = 0x243F6A8885A308D3ULL;
    for (uint64_t i = 0; i < n; i++) {
        char pid[33];
        pid_of(i, pid);
        char *p = line;
        memcpy(p, pid, 32);
        p += 32;
        *p++ = '\t';
        rng = rt_hash_mix(rng + i);
        int chars = 250 + (int)(rng % 101);
        for (int k = 0; k < chars; k++) {
            rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
            uint32_t r = (uint32_t)(rng >> 33);
            if (r % 40 == 0)
                put_cjk(&p, 0xFF0C);                     /* ， */
            else if (r % 97 == 0)
                *p++ = (char)('0' + r % 10);
            else
                put_cjk(&p, 0x4E00 + (r >> 8) % 0x51A6); /* CJK unified ideographs */
        }
        *p++ = '\n';
        if (fwrite(line, 1, (size_t)(p - line), f) != (size_t)(p - line)) {
            fclose(f);
            return -1;
        }
    }
    return fclose(f);
}

static void drop_cache(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd >= 0) {
        fdatasync(fd);
        posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
        close(fd);
    }
}

typedef struct result {
    double secs;
    int reused;
    uint64_t count;
    double lookup_ns[2], lookup_p99_ns[2];   /* first and second round of the same lookups */
    double rss_mib;
} result;

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* 200,000 lookups of random known pids, each touching its text: mean and p99 latency in ns. */
static void time_lookups(const rt_collection *c, uint64_t npass, double *mean, double *p99)
{
    enum { L = 200000 };
    double *lat = malloc(L * sizeof *lat), total = 0;
    uint64_t rng = 12345, sum = 0, found = 0;
    for (int i = 0; i < L; i++) {
        char pid[33];
        rng = rt_hash_mix(rng + (uint64_t)i);
        pid_of(rng % npass, pid);
        const char *text;
        size_t tlen;
        double a = now();
        if (rt_collection_find(c, pid, 32, &text, &tlen)) {
            found++;
            sum += (unsigned char)text[tlen / 2];
        }
        lat[i] = now() - a;
        total += lat[i];
    }
    qsort(lat, L, sizeof *lat, cmp_dbl);
    *mean = total / L * 1e9;
    *p99 = lat[L * 99 / 100] * 1e9;
    if (found != L)
        fprintf(stderr, "bench_collection: only %" PRIu64 " of %d lookups found (%" PRIu64 ")\n",
                found, L, sum);
    free(lat);
}

/* In the child: open (and optionally look up), then write the result to fd. */
static void child_open(const char *path, int lookups, uint64_t npass, int fd)
{
    result r = {0};
    rt_collection *c = NULL;
    rt_err err = {0};
    double t0 = now();
    if (rt_collection_open(&c, path, NULL, NULL, &err) != RT_OK) {
        fprintf(stderr, "bench_collection: %s\n", err.msg);
        _exit(2);
    }
    r.secs = now() - t0;
    r.reused = rt_collection_index_reused(c);
    r.count = rt_collection_count(c);
    for (int round = 0; round < 2 && lookups; round++)
        time_lookups(c, npass, &r.lookup_ns[round], &r.lookup_p99_ns[round]);
    rt_collection_close(&c);
    if (write(fd, &r, sizeof r) != (ssize_t)sizeof r)
        _exit(3);
    _exit(0);
}

static int run_open(const char *path, int lookups, uint64_t npass, result *r)
{
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        child_open(path, lookups, npass, fds[1]);
    }
    close(fds[1]);
    ssize_t got = read(fds[0], r, sizeof *r);
    close(fds[0]);
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) < 0 || got != (ssize_t)sizeof *r || status != 0)
        return -1;
    r->rss_mib = (double)ru.ru_maxrss / 1024.0;
    return 0;
}

static int run_cat(const char *path, result *r)
{
    double t0 = now();
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open("/dev/null", O_WRONLY);
        dup2(fd, 1);
        execlp("cat", "cat", path, (char *)NULL);
        _exit(127);
    }
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) < 0 || status != 0)
        return -1;
    r->secs = now() - t0;
    r->rss_mib = (double)ru.ru_maxrss / 1024.0;
    return 0;
}

int main(int argc, char **argv)
{
    uint64_t npass = 1000000;
    int cold = 0;
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--passages") == 0 && i + 1 < argc)
            npass = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--cold") == 0)
            cold = 1;
        else if (argv[i][0] != '-' && !path)
            path = argv[i];
        else {
            fprintf(stderr, "usage: bench_collection [--passages N] [--cold] [FILE]\n");
            return 1;
        }
    }
    int generated = !path;
    if (!path) {
        path = DEFAULT_PATH;
        struct stat st;
        char marker[64];
        snprintf(marker, sizeof marker, "%s.n", path);
        FILE *m = fopen(marker, "r");
        uint64_t had = 0;
        if (m) {
            if (fscanf(m, "%" SCNu64, &had) != 1)
                had = 0;
            fclose(m);
        }
        if (stat(path, &st) != 0 || had != npass) {
            printf("generating %" PRIu64 " passages in %s ...\n", npass, path);
            fflush(stdout);
            double t0 = now();
            if (generate(path, npass) != 0) {
                perror(path);
                return 2;
            }
            m = fopen(marker, "w");
            if (m) {
                fprintf(m, "%" PRIu64 "\n", npass);
                fclose(m);
            }
            printf("  generated in %.1f s\n", now() - t0);
        }
    }
    struct stat st;
    if (stat(path, &st) != 0) {
        perror(path);
        return 2;
    }
    char idx[4096];
    snprintf(idx, sizeof idx, "%s.rtidx", path);
    unlink(idx);   /* the first open must build it (a cache-folder copy would be reused) */
    printf("collection %s: %.1f MiB%s\n", path, (double)st.st_size / 1048576.0,
           cold ? " (cold page cache before each step)" : " (warm page cache)");

    result cat = {0}, first = {0}, second = {0}, look = {0};
    if (cold)
        drop_cache(path);
    if (run_cat(path, &cat) != 0)
        return 2;
    if (cold)
        drop_cache(path);
    if (run_open(path, 0, npass, &first) != 0)
        return 2;
    if (cold) {
        drop_cache(path);
        drop_cache(idx);
    }
    if (run_open(path, 0, npass, &second) != 0)
        return 2;
    if (run_open(path, generated, npass, &look) != 0)
        return 2;
    double mib = (double)st.st_size / 1048576.0;
    printf("%-34s %10s %10s %12s\n", "step", "seconds", "MiB/s", "peak RSS MiB");
    printf("%-34s %10.3f %10.0f %12.1f\n", "cat FILE > /dev/null", cat.secs, mib / cat.secs,
           cat.rss_mib);
    printf("%-34s %10.3f %10.0f %12.1f\n", first.reused ? "first open (index REUSED?)" :
           "first open (builds the index)", first.secs, mib / first.secs, first.rss_mib);
    printf("%-34s %10.4f %10s %12.1f\n", second.reused ? "second open (reuses the index)" :
           "second open (index NOT reused)", second.secs, "-", second.rss_mib);
    printf("passages: %" PRIu64 "\n", first.count);
    struct stat ist;
    if (stat(idx, &ist) == 0)
        printf("index %s: %.1f MiB\n", idx, (double)ist.st_size / 1048576.0);
    if (generated)
        printf("random lookups (200,000, touching the text): mean %.0f ns, p99 %.0f ns; "
               "same lookups again: mean %.0f ns, p99 %.0f ns; peak RSS %.1f MiB\n",
               look.lookup_ns[0], look.lookup_p99_ns[0], look.lookup_ns[1], look.lookup_p99_ns[1],
               look.rss_mib);
    else
        printf("random lookups: only with a generated collection (its pids are known)\n");
    return 0;
}
