/* test_warm — the thread that maps a reopened workspace's files in: it maps every region, then
 * runs the step; it stops when asked, even in the middle of the step; regions larger than a
 * quarter of the memory are left alone; a file cut short under it does not crash it. And the
 * guard's fatal mode (the commands) names such a file without a raw control character. */
#include "config.h"

#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rt_mapguard.h"
#include "rt_warm.h"
#include "pages.h"
#include "tap.h"

typedef struct step_seen {
    atomic_int calls;
    atomic_int spin;      /* 1: the step waits for the stop flag */
    atomic_int stopped;   /* the step saw the stop flag */
    const unsigned char *p;
    size_t len;
    unsigned long sum;
} step_seen;

static void step(void *ctx, const atomic_int *stop)
{
    step_seen *s = ctx;
    atomic_fetch_add(&s->calls, 1);
    for (size_t i = 0; i < s->len; i += 4096)
        s->sum += s->p[i];
    while (atomic_load(&s->spin) && !atomic_load(stop))
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    if (atomic_load(stop))
        atomic_store(&s->stopped, 1);
}

static int wait_done(const rt_warm *w)
{
    for (int i = 0; i < 10000 && !rt_warm_done(w); i++)   /* 10 s at most */
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    return rt_warm_done(w);
}

/* Fatal mode: a read past the end of a file cut short under its mapping writes the message and
 * exits with status 2 (in a child, which the handler ends). The path comes from a workspace file,
 * so its ESC, BEL, C1 CSI (U+009B) and stray byte must reach standard error as escapes. */
static void fatal_message(void)
{
    char dir[] = "/tmp/rt-test-warm-XXXXXX", path[128], out[1024];
    int pfd[2];
    if (!mkdtemp(dir) || pipe(pfd) != 0) {
        printf("Bail out! cannot make a folder or a pipe\n");
        exit(1);
    }
    snprintf(path, sizeof path, "%s/c\xc2\x9b" "31m\x1b]0;T\x07\xff.tsv", dir);
    int fd = open(path, O_RDWR | O_CREAT, 0600);
    static const char page[8192];
    if (fd < 0 || write(fd, page, sizeof page) != (ssize_t)sizeof page) {
        printf("Bail out! cannot write %s\n", dir);
        exit(1);
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(pfd[1], 2);
        const volatile unsigned char *m = mmap(NULL, sizeof page, PROT_READ, MAP_SHARED, fd, 0);
        rt_mapguard_set_fatal(1);
        rt_mapguard_add((const void *)m, sizeof page, path);
        if (ftruncate(fd, 0) != 0)
            _exit(3);
        _exit(m[4096] == 0 ? 4 : 5);   /* the handler exits first */
    }
    close(pfd[1]);
    size_t n = 0;
    ssize_t r;
    while (n < sizeof out - 1 && (r = read(pfd[0], out + n, sizeof out - 1 - n)) > 0)
        n += (size_t)r;
    out[n] = '\0';
    close(pfd[0]);
    int st = 0;
    waitpid(pid, &st, 0);
    ok(WIFEXITED(st) && WEXITSTATUS(st) == 2 && strstr(out, "the file changed on disk"),
       "fatal mode: a file cut short under its mapping: the message, exit status 2");
    int raw = 0;
    for (size_t i = 0; i < n; i++)
        raw |= out[i] == '\x1b' || out[i] == '\x07' || out[i] == '\x9b' || out[i] == '\xff';
    ok(!raw && strstr(out, "c<9B>31m^[]0;T^G\xEF\xBF\xBD.tsv"), "fatal mode: the path's controls are shown as escapes");
    close(fd);
    unlink(path);
    rmdir(dir);
}

int main(void)
{
    char path[] = "/tmp/rt-test-warm-XXXXXX";
    int fd = mkstemp(path);
    size_t len = (9u << 20) + 123;   /* three chunks and a bit */
    unsigned char *buf = malloc(len);
    for (size_t i = 0; i < len; i++)
        buf[i] = (unsigned char)(i * 7 + 1);
    if (fd < 0 || write(fd, buf, len) != (ssize_t)len) {
        printf("Bail out! cannot write %s\n", path);
        return 1;
    }
    unsigned long want = 0;
    for (size_t i = 0; i < len; i += 4096)
        want += buf[i];
    unsigned char *m = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
    rt_mapguard_set_fatal(0);
    rt_mapguard_add(m, len, path);

    long npages = (long)((len + 4095) / 4096), before = present_pages(m, len);
    step_seen s = {.p = m, .len = 0};   /* the step reads nothing: the pages are the thread's doing */
    rt_warm_region r[2] = {{m, len / 2}, {m + len / 2, len - len / 2}};
    rt_warm *w = rt_warm_start(r, 2, step, &s);
    ok(w != NULL, "a thread is started for two regions");
    ok(wait_done(w), "it finishes");
    ok(atomic_load(&s.calls) == 1, "the step ran once, after the regions");
    long after = present_pages(m, len);
    if (before < 0 || after < 0)
        printf("ok %d - # SKIP /proc/self/pagemap cannot be read\n", ++tap_n);
    else if (!ok(before < npages && after == npages, "every page of both regions mapped in (none were)"))
        printf("#   %ld of %ld pages before, %ld after\n", before, npages, after);
    s.len = len;
    step(&s, &(atomic_int){0});
    ok(s.sum == want, "the mapped pages hold the file");
    rt_warm_stop(&w);
    ok(w == NULL, "stopped and freed");

    step_seen t = {.p = m, .len = len, .spin = 1};
    w = rt_warm_start(r, 2, step, &t);
    for (int i = 0; i < 10000 && !atomic_load(&t.calls); i++)
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    rt_warm_stop(&w);   /* would hang if the step never saw the flag */
    ok(atomic_load(&t.stopped) == 1, "a step that waits sees the stop flag");

    step_seen u = {.p = m, .len = len};
    w = rt_warm_start(r, 2, step, &u);
    rt_warm_stop(&w);   /* at once: the step runs at most once, and the stop returns */
    ok(atomic_load(&u.calls) <= 1, "stopped at once: the step at most once");

    long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
    rt_warm_region huge = {m, (size_t)pages * (size_t)psize / 4 + 4096};
    ok(rt_warm_start(&huge, 1, step, &s) == NULL, "over a quarter of the memory: not warmed");
    ok(rt_warm_start(r, 0, step, &s) == NULL, "no regions: no thread");

    /* the file cut short under the mapping: the pages past its end are not mapped in, and
     * nothing crashes (the step is not run: warming stopped at the first refused chunk) */
    munmap(m, len);
    rt_mapguard_remove(m);
    m = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
    rt_mapguard_add(m, len, path);
    if (ftruncate(fd, 4096) != 0)
        printf("# ftruncate failed\n");
    step_seen v = {.p = m, .len = 0};
    rt_warm_region whole = {m, len};
    w = rt_warm_start(&whole, 1, step, &v);
    ok(wait_done(w) && atomic_load(&v.calls) == 0, "a file cut short: warming stops, no step, no crash");
    rt_warm_stop(&w);
    rt_mapguard_remove(m);
    munmap(m, len);
    close(fd);
    unlink(path);
    free(buf);
    fatal_message();
    return tap_done();
}
