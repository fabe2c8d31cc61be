/* tapdrive — the test driver of `make check`: runs one test, reads the TAP it prints and writes
 * what Automake's parallel harness expects (the PASS/FAIL lines, the .log and the .trs file), as
 * Automake's tap-driver.sh does, in one process. tap-driver.sh runs the test through a subshell,
 * awk, sh and cat: about ten processes a test, and a process costs milliseconds on some of the
 * machines this project is tested on. The protocol is Automake's "custom
 * test driver" one; the TAP rules are those of tap-driver.sh:
 *  - a result line is "ok" or "not ok", then an optional number, a description and an optional
 *    "# SKIP" or "# TODO" directive (an escaped "\#" is none);
 *  - one plan, "1..N", before all results or after them; "1..0 # SKIP why" skips the test;
 *  - a result whose number is not the next one, past the plan, or after a late plan is an ERROR;
 *    so are a missing plan, too many or too few results, "Bail out!" (no TAP is read after it)
 *    and a non-zero exit (unless --ignore-exit);
 *  - with --comments, lines starting with the diagnostic string are shown as "#" lines.
 * The test's stdout (and its stderr, which goes to the log as it comes, or into the TAP with
 * --merge) and every result line are in the log. Exit status 0 unless the driver itself fails.
 * With TAPDRIVE_TIMES=FILE in the environment, a line "START END NAME" (seconds of the monotonic
 * clock) is appended to FILE for each test, for tests/bench/bench_check.sh. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum plan { NO_PLAN, EARLY_PLAN, LATE_PLAN };
enum { R_PASS, R_FAIL, R_XPASS, R_XFAIL, R_SKIP, R_ERROR, R_N };
static const char *const result_name[R_N] = {"PASS", "FAIL", "XPASS", "XFAIL", "SKIP", "ERROR"};
static const char *const result_color[R_N] = {"\033[0;32m", "\033[0;31m", "\033[0;31m",
                                              "\033[1;32m", "\033[1;34m", "\033[0;35m"};

typedef struct driver {
    const char *name;           /* the test's name, for the result lines */
    FILE *log;
    int color, expect_failure, merge, ignore_exit, comments;
    const char *diag;           /* the diagnostic string (--diagnostic-string; "#") */
    enum plan plan;
    long planned, testno;
    int bailed_out;
    int seen[R_N];              /* which results were reported */
    int *results;               /* every result in order, for the .trs file */
    size_t nresults, cap;
} driver;

static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("tapdrive: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(99);
}

/* One result (or, with r < 0, a "#" comment) on stdout, coloured when asked, and in the log. */
static void report(driver *d, int r, const char *details)
{
    if (r >= 0) {
        if (d->nresults == d->cap) {
            d->cap = d->cap ? 2 * d->cap : 64;
            d->results = realloc(d->results, d->cap * sizeof *d->results);
            if (!d->results)
                die("out of memory");
        }
        d->results[d->nresults++] = r;
        d->seen[r] = 1;
    }
    const char *word = r >= 0 ? result_name[r] : "#";
    const char *sep = r >= 0 ? ": " : " ";
    const char *tail = r >= 0 ? "" : ":";
    const char *gap = *details ? " " : "";
    if (d->color && r >= 0)
        printf("%s%s\033[m%s%s%s%s%s\n", result_color[r], word, sep, d->name, tail, gap, details);
    else
        printf("%s%s%s%s%s%s\n", word, sep, d->name, tail, gap, details);
    fprintf(d->log, "%s%s%s%s%s%s\n", word, sep, d->name, tail, gap, details);
}

static void error(driver *d, const char *msg)
{
    char buf[2048];
    snprintf(buf, sizeof buf, "- %s", msg);
    report(d, R_ERROR, buf);
}

static int is_word_char(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }
static int is_blank(int c) { return c == ' ' || c == '\t'; }

static char *trim(char *s)
{
    while (is_blank(*s))
        s++;
    size_t n = strlen(s);
    while (n && is_blank(s[n - 1]))
        s[--n] = '\0';
    return s;
}

/* A "# SKIP" / "# TODO" directive in the description s, tap-driver.sh's way: blanks, '#',
 * blanks, the word in any case, then the end or a character that is not a word character; a
 * '#' preceded by an odd number of backslashes is escaped. Returns the directive's start (where
 * the description ends) or NULL; *todo says which. */
static char *directive_in(char *s, int *todo)
{
    for (char *h = strchr(s, '#'); h; h = strchr(h + 1, '#')) {
        size_t bs = 0;
        for (char *b = h; b > s && b[-1] == '\\'; b--)
            bs++;
        if (bs % 2)
            continue;
        char *w = h + 1;
        while (is_blank(*w))
            w++;
        if (strncasecmp(w, "todo", 4) && strncasecmp(w, "skip", 4))
            continue;
        char *after = w + 4;
        while (is_blank(*after))
            after++;
        if (*after && is_word_char((unsigned char)*after) && !is_blank(w[4]))
            continue;
        char *start = h;
        while (start > s && is_blank(start[-1]))
            start--;
        *todo = strncasecmp(w, "todo", 4) == 0;
        return start;
    }
    return NULL;
}

static void result_line(driver *d, char *line)
{
    int is_ok = strncmp(line, "ok", 2) == 0;
    char *p = line + (is_ok ? 2 : 6);
    while (is_blank(*p))
        p++;
    d->testno++;
    long number = d->testno;
    if (*p >= '0' && *p <= '9') {
        char *end = p;
        while (*end >= '0' && *end <= '9')
            end++;
        if (!*end || !is_word_char((unsigned char)*end)) {
            number = strtol(p, NULL, 10);
            p = end;
        }
    }
    int unplanned = d->plan == LATE_PLAN || (d->plan != NO_PLAN && d->testno > d->planned);
    char *desc = trim(p);
    int todo = 0;
    char *dir = directive_in(desc, &todo);
    char *expl = NULL;
    if (dir) {
        char *w = strchr(dir, '#') + 1;
        while (is_blank(*w))
            w++;
        expl = trim(w + 4);
        *dir = '\0';
    }
    char details[4096];
    int n = snprintf(details, sizeof details, "%ld", number);
    if (*desc)
        n += snprintf(details + n, sizeof details - (size_t)n, " %s", desc);
    if (n >= (int)sizeof details)
        n = (int)sizeof details - 1;
    int r;
    if (d->plan == LATE_PLAN) {
        snprintf(details + n, sizeof details - (size_t)n, " # AFTER LATE PLAN");
        r = R_ERROR;
    } else if (unplanned) {
        snprintf(details + n, sizeof details - (size_t)n, " # UNPLANNED");
        r = R_ERROR;
    } else if (number != d->testno) {
        snprintf(details + n, sizeof details - (size_t)n, " # OUT-OF-ORDER (expecting %ld)", d->testno);
        r = R_ERROR;
    } else if (dir) {
        snprintf(details + n, sizeof details - (size_t)n, " # %s%s%s", todo ? "TODO" : "SKIP",
                 *expl ? " " : "", expl);
        r = todo ? (is_ok ? R_XPASS : R_XFAIL) : (is_ok ? R_SKIP : (d->expect_failure ? R_XFAIL : R_FAIL));
    } else {
        r = is_ok ? (d->expect_failure ? R_XPASS : R_PASS) : (d->expect_failure ? R_XFAIL : R_FAIL);
    }
    report(d, r, details);
}

static void plan_line(driver *d, long planned, const char *skip_reason)
{
    if (d->plan != NO_PLAN) {
        error(d, "multiple test plans");
        return;
    }
    d->planned = planned;
    d->plan = d->testno >= 1 ? LATE_PLAN : EARLY_PLAN;
    if (planned == 0 && d->testno == 0) {
        char buf[1024];
        snprintf(buf, sizeof buf, "%s%s", *skip_reason ? "- " : "", skip_reason);
        report(d, R_SKIP, buf);
    }
}

static int all_digits(const char *s, const char *end)
{
    if (s == end)
        return 0;
    for (; s < end; s++)
        if (*s < '0' || *s > '9')
            return 0;
    return 1;
}

/* One line of the test's output (without its line end), in the log and read as TAP. */
static void tap_line(driver *d, char *line)
{
    fprintf(d->log, "%s\n", line);
    if (d->bailed_out)
        return;
    if ((strncmp(line, "ok", 2) == 0 && !is_word_char((unsigned char)line[2])) ||
        (strncmp(line, "not ok", 6) == 0 && !is_word_char((unsigned char)line[6]))) {
        result_line(d, line);
        return;
    }
    if (strncmp(line, "1..", 3) == 0) {
        char *num = line + 3, *end = num;
        while (*end >= '0' && *end <= '9')
            end++;
        const char *rest = end;
        while (is_blank(*rest))
            rest++;
        if (all_digits(num, end) && !*rest) {
            plan_line(d, strtol(num, NULL, 10), "");
            return;
        }
        if (all_digits(num, end) && strtol(num, NULL, 10) == 0 && *rest == '#') {
            char *why = (char *)rest + 1;
            while (is_blank(*why))
                why++;
            if (strncmp(why, "SKIP", 4) == 0 && (is_blank(why[4]) || why[4] == ':')) {
                why += 5;
                while (is_blank(*why))
                    why++;
            }
            plan_line(d, 0, trim(why));
            return;
        }
    }
    char *b = line;
    while (is_blank(*b))
        b++;
    if (strncmp(b, "Bail out!", 9) == 0) {
        d->bailed_out = 1;
        char *why = trim(b + 9);
        char msg[1024];
        snprintf(msg, sizeof msg, "Bail out!%s%s", *why ? " " : "", why);
        error(d, msg);
        return;
    }
    if (d->comments && strncmp(line, d->diag, strlen(d->diag)) == 0) {
        char *c = trim(line + strlen(d->diag));
        if (*c)
            report(d, -1, c);
    }
}

static int global_result(const driver *d)
{
    if (d->seen[R_ERROR])
        return R_ERROR;
    if (d->seen[R_FAIL] || d->seen[R_XPASS])
        return R_FAIL;
    for (int r = 0; r < R_N; r++)
        if (r != R_SKIP && d->seen[r])
            return R_PASS;
    return R_SKIP;
}

static void write_trs(const driver *d, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        die("%s: %s", path, strerror(errno));
    int recheck = d->seen[R_FAIL] || d->seen[R_XPASS] || d->seen[R_ERROR];
    int copy = recheck || d->seen[R_XFAIL] || d->seen[R_SKIP];
    fprintf(f, ":global-test-result: %s\n", result_name[global_result(d)]);
    fprintf(f, ":recheck: %s\n", recheck ? "yes" : "no");
    fprintf(f, ":copy-in-global-log: %s\n", copy ? "yes" : "no");
    for (size_t i = 0; i < d->nresults; i++)
        fprintf(f, ":test-result: %s\n", result_name[d->results[i]]);
    if (fclose(f) != 0)
        die("%s: %s", path, strerror(errno));
}

static const char *value_of(int argc, char **argv, int *i)
{
    if (*i + 1 >= argc)
        die("%s needs a value", argv[*i]);
    return argv[++*i];
}

int main(int argc, char **argv)
{
    driver d = {.diag = "#"};
    const char *log_path = NULL, *trs_path = NULL;
    int i = 1;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        } else if (strcmp(a, "--test-name") == 0) {
            d.name = value_of(argc, argv, &i);
        } else if (strcmp(a, "--log-file") == 0) {
            log_path = value_of(argc, argv, &i);
        } else if (strcmp(a, "--trs-file") == 0) {
            trs_path = value_of(argc, argv, &i);
        } else if (strcmp(a, "--color-tests") == 0) {
            d.color = strcmp(value_of(argc, argv, &i), "yes") == 0;
        } else if (strcmp(a, "--expect-failure") == 0) {
            d.expect_failure = strcmp(value_of(argc, argv, &i), "yes") == 0;
        } else if (strcmp(a, "--enable-hard-errors") == 0 || strcmp(a, "--collect-skipped-logs") == 0) {
            value_of(argc, argv, &i);   /* as in tap-driver.sh: no effect on TAP */
        } else if (strcmp(a, "--diagnostic-string") == 0) {
            d.diag = value_of(argc, argv, &i);
        } else if (strcmp(a, "--merge") == 0 || strcmp(a, "--no-merge") == 0) {
            d.merge = a[2] == 'm';
        } else if (strcmp(a, "--comments") == 0 || strcmp(a, "--no-comments") == 0) {
            d.comments = a[2] == 'c';
        } else if (strcmp(a, "--ignore-exit") == 0) {
            d.ignore_exit = 1;
        } else {
            die("invalid option: '%s'", a);
        }
    }
    if (!d.name || !log_path || !trs_path || i >= argc)
        die("usage: tapdrive --test-name NAME --log-file LOG --trs-file TRS [OPTIONS] -- COMMAND...");
    d.log = fopen(log_path, "w");
    if (!d.log)
        die("%s: %s", log_path, strerror(errno));
    setvbuf(d.log, NULL, _IOLBF, 0);   /* the test's stderr goes to the same file as it comes */

    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int fds[2];
    if (pipe(fds) != 0)
        die("pipe: %s", strerror(errno));
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        die("fork: %s", strerror(errno));
    if (pid == 0) {
        dup2(fds[1], STDOUT_FILENO);
        dup2(d.merge ? fds[1] : fileno(d.log), STDERR_FILENO);
        close(fds[0]);
        close(fds[1]);
        execvp(argv[i], argv + i);
        fprintf(stderr, "%s: %s\n", argv[i], strerror(errno));
        _exit(errno == ENOENT ? 127 : 126);
    }
    close(fds[1]);
    signal(SIGPIPE, SIG_IGN);
    FILE *in = fdopen(fds[0], "r");
    if (!in)
        die("fdopen: %s", strerror(errno));
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, in)) >= 0) {
        if (n && line[n - 1] == '\n')
            line[--n] = '\0';
        if (memchr(line, '\0', (size_t)n))   /* a NUL: the line is read up to it, as awk does not */
            n = (ssize_t)strlen(line);
        tap_line(&d, line);
    }
    free(line);
    fclose(in);
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            die("waitpid: %s", strerror(errno));
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);

    if (!d.bailed_out) {
        char msg[256];
        if (d.plan == NO_PLAN) {
            error(&d, "missing test plan");
        } else if (d.planned != d.testno) {
            snprintf(msg, sizeof msg, "too %s tests run (expected %ld, got %ld)",
                     d.testno > d.planned ? "many" : "few", d.planned, d.testno);
            error(&d, msg);
        }
        if (!d.ignore_exit && code != 0) {
            const char *why = code == 127 ? " (command not found?)" : "";
            char sig[64] = "";
            if (code >= 128)
                snprintf(sig, sizeof sig, " (terminated by signal %d?)", code - 128);
            snprintf(msg, sizeof msg, "exited with status %d%s%s", code, why, sig);
            error(&d, msg);
        }
    }
    write_trs(&d, trs_path);
    const char *times = getenv("TAPDRIVE_TIMES");
    if (times && *times) {   /* one write of a short line: lines of tests run at once do not mix */
        struct timespec t1;
        clock_gettime(CLOCK_MONOTONIC, &t1);
        char buf[4096];
        int len = snprintf(buf, sizeof buf, "%.3f %.3f %s\n", t0.tv_sec + t0.tv_nsec / 1e9,
                           t1.tv_sec + t1.tv_nsec / 1e9, d.name);
        int fd = open(times, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
        if (fd >= 0 && len > 0 && len < (int)sizeof buf && write(fd, buf, (size_t)len) != len)
            fprintf(stderr, "tapdrive: %s: %s\n", times, strerror(errno));
        if (fd >= 0)
            close(fd);
    }
    free(d.results);
    if (fclose(d.log) != 0 || fflush(stdout) != 0)
        die("cannot write the log or the results");
    return 0;
}
