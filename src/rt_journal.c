/* rt_journal — the append-only operation log: durable appends, torn-tail repair, bad-line
 * checks and the one-writer lock (the line format is rt_op's). */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "rt_file.h"
#include "rt_journal.h"
#include "rt_jtxn.h"
#include "rt_names.h"
#include "rt_mem.h"
#include "rt_id.h"
#include "rt_reader.h"

struct rt_journal {
    char *path;
    char *dir;
    int fd;            /* -1 when read-only */
    int made_lock;     /* this process created the lock file (removed again if it refuses) */
    int created;       /* this process created the journal file */
    int lazy;          /* writable, but its file does not exist yet: made by the first append, so
                          that opening a workspace and changing nothing leaves no empty journal */
    int lock_fd;
    int holds_lock;    /* the lock is taken: closing removes the lock file */
    char *readonly;    /* why, or NULL */
    uint64_t next_seq;
    off_t size;
    /* read-only journals: what was read, to pick up what another process appends */
    dev_t dev;
    ino_t ino;
    off_t read_off;    /* the end of the last complete line read */
    size_t lines;      /* lines up to read_off */
    int has_names;     /* names is set: operations by id can be written */
    rt_op_names names;
};

/* ---- the file ---------------------------------------------------------------------------- */

/* Why a cannot be the file name of a journal in its folder, or NULL. */
static const char *path_problem(const char *a)
{
    if (!a || !a[0])
        return "it is empty";
    if (a[0] == '.' || strchr(a, '/'))
        return "it holds a '/' or starts with '.'";
    if (strlen(a) >= RT_JOURNAL_NAME_MAX)
        return "it is 200 bytes or longer";
    return NULL;
}

const char *rt_journal_name_problem(const char *a)
{
    const char *why = path_problem(a);   /* names a file and shows in every view: the rule of names */
    return why ? why : rt_name_problem(a);
}

/* Why the entry name in dirfd cannot be a journal (or its lock): NULL when it is absent or a
 * regular file. Nothing is ever opened through a link, a device or a pipe. */
static const char *not_regular(int dirfd, const char *name)
{
    struct stat sb;
    if (fstatat(dirfd, name, &sb, AT_SYMLINK_NOFOLLOW) != 0 || S_ISREG(sb.st_mode))
        return NULL;
    return S_ISLNK(sb.st_mode) ? "a symbolic link" : S_ISDIR(sb.st_mode) ? "a folder"
           : S_ISFIFO(sb.st_mode) ? "a named pipe" : "a device or socket";
}

/* openat without following a link and without blocking on a pipe; the result must be a regular
 * file (checked on the open descriptor, so a swap after the check above changes nothing). */
static int open_regular(int dirfd, const char *name, int flags, mode_t mode)
{
    int fd = openat(dirfd, name, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, mode);
    struct stat sb;
    if (fd >= 0 && (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode))) {
        close(fd);
        errno = EINVAL;
        return -1;
    }
    if (fd >= 0)
        (void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    return fd;
}

static void set_readonly(rt_journal *j, const char *why)
{
    if (j->readonly)
        return;   /* the first reason stands */
    j->readonly = rt_strdup(why);
}

/* Takes the lock beside the journal; on failure the journal is read-only, saying why. */
static void take_lock(rt_journal *j, int dirfd, const char *name)
{
    char lname[300], why[400];
    snprintf(lname, sizeof lname, "%.250s.lock", name);
    const char *bad = not_regular(dirfd, lname);
    if (bad) {
        snprintf(why, sizeof why, "%s.lock is %s, not a lock file retriage made", j->path, bad);
        set_readonly(j, why);
        return;
    }
    struct stat sb, held;
    for (int tries = 0;; tries++) {
        j->made_lock = fstatat(dirfd, lname, &sb, AT_SYMLINK_NOFOLLOW) != 0;
        j->lock_fd = open_regular(dirfd, lname, O_RDWR | O_CREAT, 0644);
        if (j->lock_fd < 0 || flock(j->lock_fd, LOCK_EX | LOCK_NB) != 0 || tries == 5)
            break;
        /* a holder that quits removes the file: a lock on the file it removed is no lock, so
         * check that the name still leads to the file locked, and start again if not */
        if (fstat(j->lock_fd, &held) == 0 && fstatat(dirfd, lname, &sb, AT_SYMLINK_NOFOLLOW) == 0 &&
            sb.st_dev == held.st_dev && sb.st_ino == held.st_ino)
            break;
        close(j->lock_fd);
    }
    if (j->lock_fd < 0) {
        snprintf(why, sizeof why, "cannot create %s.lock (%s)", j->path, strerror(errno));
        set_readonly(j, why);
    } else if (flock(j->lock_fd, LOCK_EX | LOCK_NB) != 0) {   /* taken above, or held by another */
        char pid[32] = "";
        ssize_t n = pread(j->lock_fd, pid, sizeof pid - 1, 0);
        pid[n > 0 ? n : 0] = 0;
        pid[strcspn(pid, "\n")] = 0;
        if (pid[0])
            snprintf(why, sizeof why, "another retriage (process %s) is annotating with this journal", pid);
        else
            snprintf(why, sizeof why, "another retriage is annotating with this journal");
        set_readonly(j, why);
    } else {
        char pid[32];
        int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
        if (ftruncate(j->lock_fd, 0) == 0)
            (void)pwrite(j->lock_fd, pid, (size_t)n, 0);   /* only for the other process's message */
        j->holds_lock = 1;
    }
}

static int open_dir(rt_journal *j, const char *dir, rt_err *err);

/* Removes the lock file this process holds the lock of (before closing it releases the lock,
 * so no other process can hold a lock on the removed file and believe it alone). */
static void drop_lock(rt_journal *j)
{
    if (!j->holds_lock || j->lock_fd < 0)
        return;
    rt_err e;
    int dirfd = open_dir(j, j->dir, &e);
    if (dirfd < 0)
        return;
    char lname[300];
    snprintf(lname, sizeof lname, "%.250s.lock", strrchr(j->path, '/') + 1);
    struct stat sb, held;
    if (fstat(j->lock_fd, &held) == 0 && fstatat(dirfd, lname, &sb, AT_SYMLINK_NOFOLLOW) == 0 &&
        sb.st_dev == held.st_dev && sb.st_ino == held.st_ino)
        (void)unlinkat(dirfd, lname, 0);
    close(dirfd);
}

/* The whole file, or NULL when the memory will not hold it (its size is the file's to ask: an
 * error, never an abort). */
static char *read_fd(int fd, size_t *len)
{
    struct stat sb;
    *len = 0;
    if (fstat(fd, &sb) != 0)
        return rt_calloc(1, 1);
    char *buf = malloc((size_t)sb.st_size + 1);
    if (!buf) {
        *len = (size_t)sb.st_size;
        return NULL;
    }
    while (*len < (size_t)sb.st_size) {
        ssize_t r = pread(fd, buf + *len, (size_t)sb.st_size - *len, (off_t)*len);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        *len += (size_t)r;
    }
    buf[*len] = 0;
    return buf;
}

static int blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
            return 0;
    return 1;
}

static int only_space(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
            return 0;
    return 1;
}

/* What an append cut short leaves after the last operation: zeros where the file system had
 * not written the data yet (whatever newlines they span), or the start of a line retriage writes
 * ({"seq": …) without its newline, maybe followed by such zeros. Anything else is not a crash. */
static int torn_shape(const char *s, size_t n)
{
    static const char start[] = "{\"seq\":";
    size_t k = 0;
    if (s[0] != 0) {
        while (k < n && k < sizeof start - 1 && s[k] == start[k])
            k++;
        if (k < n && k < sizeof start - 1)
            return 0;   /* neither zeros nor the start of our line */
        while (k < n && s[k] != 0 && s[k] != '\n')
            k++;   /* the rest of the cut line */
        if (k < n && s[k] == '\n')
            return 0;   /* a complete line: a bad line, not a torn one */
    }
    for (; k < n; k++)
        if (s[k] != 0 && s[k] != '\n')
            return 0;
    return 1;
}

/* Copies the torn tail to NAME.torn-<ms> beside the journal and cuts it off. */
static void set_aside(rt_journal *j, int dirfd, const char *name, const char *buf, size_t from,
                      size_t len, size_t line, rt_report *report)
{
    char aside[300], why[400];
    snprintf(aside, sizeof aside, "%s.torn-%" PRId64, name, rt_op_now_ms());
    int saved = rt_file_create_at(dirfd, aside, buf + from, len - from) == 0;
    int e = errno;
    if (saved && rt_file_truncate(j->fd, (off_t)from) == 0) {
        rt_file_sync_dirfd(dirfd);
        rt_report_add(report, RT_REPORT_WARNING,
                      "%s:%zu: an incomplete last line (a crash during a write) was set aside in %s/%s",
                      j->path, line, j->dir, aside);
        j->size = (off_t)from;
        return;
    }
    /* Appending after bytes that are not a whole line would glue the next operation to them, and
     * the next open would set both aside: refuse changes instead. */
    snprintf(why, sizeof why, "an incomplete last line could not be set aside (%s)", strerror(saved ? errno : e));
    rt_report_add(report, RT_REPORT_WARNING, "%s:%zu: %s; the journal is read-only", j->path, line, why);
    set_readonly(j, why);
}

/* Parses every line. A complete line that is not an operation makes the journal read-only (it
 * was written by hand or by another program: nothing is cut or rewritten until the user fixes or
 * moves it); bytes after the last newline that look like a cut-short append are a torn write and
 * are set aside when writable. Returns RT_EINPUT when the file is not a journal at all. */
/* Before any operation was handed over, a line at from that is not one: the file is not a journal
 * unless no operation follows and the whole file has the shape of a torn write (then it is set
 * aside like one). */
/* Whether a line of buf from byte from on is an operation. */
static int op_line_from(const char *buf, size_t len, size_t from)
{
    for (size_t pos = from; pos < len;) {
        const char *nl = memchr(buf + pos, '\n', len - pos);
        size_t end = nl ? (size_t)(nl - buf) : len;
        rt_op op;
        rt_err e;
        if (!blank(buf + pos, end - pos) && rt_op_from_json(&op, buf + pos, end - pos, &e) == RT_OK) {
            rt_op_clear(&op);
            return 1;
        }
        pos = nl ? end + 1 : len;
    }
    return 0;
}

static int not_a_journal(const char *buf, size_t len, size_t from)
{
    return op_line_from(buf, len, from) || only_space(buf, len) || !torn_shape(buf, len);
}

static rt_status read_ops(rt_journal *j, int dirfd, const char *name, const char *buf, size_t len,
                          rt_journal_op_fn fn, void *ctx, size_t *nops, rt_report *report, rt_err *err)
{
    /* One pass: each operation goes to fn as it is read, and where each other non-blank line is
     * is noted. The operations end at the end of the last line that parses; what follows is the
     * tail. */
    size_t line = 0, good_end = 0, good_line = 0, nbadl = 0, badcap = 0;
    uint64_t max_seq = 0;
    typedef struct bad_line {
        size_t line, pos;
        char why[160];
    } bad_line;
    bad_line *bad = NULL;
    for (size_t pos = 0; pos < len;) {
        const char *nl = memchr(buf + pos, '\n', len - pos);
        size_t end = nl ? (size_t)(nl - buf) : len;
        line++;
        rt_op op;
        rt_err e;
        if (blank(buf + pos, end - pos)) {
            /* nothing */
        } else if (rt_op_from_json(&op, buf + pos, end - pos, &e) == RT_OK) {
            if (op.seq <= max_seq)
                rt_report_add(report, RT_REPORT_WARNING, "%s:%zu: sequence number %" PRIu64
                              " does not increase", j->path, line, op.seq);
            max_seq = op.seq > max_seq ? op.seq : max_seq;
            op.line = line;
            fn(ctx, j, &op);
            (*nops)++;
            good_end = nl ? end + 1 : end;
            good_line = line;
        } else {
            if (!*nops && !nbadl && not_a_journal(buf, len, nl ? end + 1 : len)) {
                free(bad);   /* its first line is not an operation: nothing was handed over */
                rt_err_at(err, RT_EINPUT, j->path, line, "not a retriage journal (%.150s); nothing was "
                          "changed: move the file away or choose another annotator", e.msg);
                if (err && !op_line_from(buf, len, nl ? end + 1 : len))
                    err->what = RT_ERR_NOT_JOURNAL;   /* no line of it is an operation: no journal at all */
                return RT_EINPUT;
            }
            RT_GROW(bad, badcap, nbadl + 1);
            bad[nbadl].line = line;
            bad[nbadl].pos = pos;
            snprintf(bad[nbadl++].why, sizeof bad->why, "%.150s", e.msg);
        }
        pos = nl ? end + 1 : len;
    }
    j->next_seq = max_seq + 1;
    j->size = (off_t)len;
    int torn = good_end < len && !only_space(buf + good_end, len - good_end) &&
               torn_shape(buf + good_end, len - good_end);
    /* Every other line that is not blank, an operation or part of a torn tail is a bad line. */
    size_t nbad = 0, first_bad = 0;
    char why[300] = "";
    for (size_t b = 0; b < nbadl; b++) {
        if (torn && bad[b].pos >= good_end)
            break;
        if (!nbad++) {
            first_bad = bad[b].line;
            snprintf(why, sizeof why, "%s", bad[b].why);
        }
        rt_report_add(report, RT_REPORT_WARNING, "%s:%zu: not an operation (%s)", j->path,
                      bad[b].line, bad[b].why);
    }
    free(bad);
    if (nbad) {
        char ro[800];
        snprintf(ro, sizeof ro, "%s:%zu is not an operation (%s)%s; fix or delete that line, or "
                 "move %s aside to start a new journal", j->path, first_bad, why,
                 nbad > 1 ? ", nor are other lines" : "", j->path);
        set_readonly(j, ro);
        return RT_OK;   /* read-only: nothing is cut or rewritten, a torn tail included */
    }
    if (torn) {
        if (j->fd >= 0 && !j->readonly)
            set_aside(j, dirfd, name, buf, good_end, len, good_line + 1, report);
        else
            rt_report_add(report, RT_REPORT_WARNING, "%s:%zu: an incomplete last line is ignored "
                          "(read-only)", j->path, good_line + 1);
    } else if (len && buf[len - 1] != '\n' && good_end == len && j->fd >= 0 && !j->readonly) {
        /* The last operation lacks its newline: complete it so the next append starts a line. */
        off_t size = j->size;
        if (rt_file_append(j->fd, &size, "\n", 1, j->path, NULL) == RT_OK)
            j->size = size;
    }
    return RT_OK;
}

/* Refuses a journal folder that is a link (everything in it is then opened relative to it). */
static int open_dir(rt_journal *j, const char *dir, rt_err *err)
{
    struct stat lsb;
    if (lstat(dir, &lsb) == 0 && S_ISLNK(lsb.st_mode)) {
        rt_err_set(err, RT_EINPUT, "%s: the journal folder is a symbolic link; give the real folder "
                   "(retriage does not follow links to journals)", dir);
        return -2;
    }
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0 || errno == ENOENT || errno == ENOTDIR)
        return fd >= 0 ? fd : -1;   /* no folder: no journal yet (read-only, said by the caller) */
    rt_err_set(err, RT_EINPUT, "%s: cannot open the journal folder: %s", dir, strerror(errno));
    (void)j;
    return -2;
}

/* The journal opened for appending (j->fd) with its lock taken, or j read-only saying why. */
static void open_writable(rt_journal *j, int dirfd, const char *name, int existed)
{
    if (dirfd >= 0 && !j->readonly)
        take_lock(j, dirfd, name);
    if (dirfd < 0 || j->readonly)
        return;
    if (!existed) {
        j->lazy = 1;   /* the lock is held: no other writer can make it meanwhile */
        return;
    }
    j->fd = open_regular(dirfd, name, O_RDWR | O_APPEND, 0644);
    if (j->fd < 0) {
        char why[400];   /* e.g. a journal someone made read-only: browse, do not write */
        snprintf(why, sizeof why, "%s is not writable (%s)", j->path, strerror(errno));
        set_readonly(j, why);
    }
}

/* The journal's bytes (*buf, owned, NUL-terminated; empty when it does not exist), with j's
 * identity (device, inode) and complete lines counted; RT_EINPUT with err set when it cannot be
 * read. */
static rt_status read_whole(rt_journal *j, int dirfd, const char *name, int existed, char **buf,
                            size_t *len, rt_report *report, rt_err *err)
{
    /* A reader that could not finish an import committed into this folder reads the import's
     * copy of the journal: its figures count every journal's new lines, as the import stands. */
    char *pending = j->fd < 0 && !j->lazy && dirfd >= 0 ? rt_jtxn_pending(dirfd, name) : NULL;
    int rfd = j->fd;
    if (rfd < 0 && pending && (rfd = open_regular(dirfd, pending, O_RDONLY, 0)) >= 0)
        rt_report_add(report, RT_REPORT_WARNING, "%s: read from %s/%s, the copy an interrupted import "
                      "committed (this open cannot finish the import)", j->path, j->dir, pending);
    free(pending);
    if (rfd < 0 && dirfd >= 0 && existed)
        rfd = open_regular(dirfd, name, O_RDONLY, 0);
    if (rfd < 0 && existed)
        return rt_err_set(err, RT_EINPUT, "%s: %s", j->path, strerror(errno));
    *len = 0;
    *buf = rfd >= 0 ? read_fd(rfd, len) : rt_calloc(1, 1);
    struct stat rsb;
    if (*buf && rfd >= 0 && fstat(rfd, &rsb) == 0) {
        j->dev = rsb.st_dev;
        j->ino = rsb.st_ino;
    }
    if (rfd >= 0 && rfd != j->fd)
        close(rfd);
    if (!*buf)
        return rt_err_set(err, RT_EINPUT, "%s: the journal (%zu bytes) does not fit in memory", j->path, *len);
    for (size_t i = 0; i < *len; i++)   /* complete lines only: a line being written is read later */
        if ((*buf)[i] == '\n') {
            j->read_off = (off_t)i + 1;
            j->lines++;
        }
    return RT_OK;
}

static rt_status open_common(rt_journal **out, const char *dir, const char *annotator, int lock,
                             rt_journal_op_fn fn, void *ctx, rt_report *report, rt_err *err)
{
    *out = NULL;
    size_t nops = 0;
    /* a journal opened to write may be created: its name must be text; one only read is a file
     * of the folder, perhaps from elsewhere (every view escapes its name) */
    const char *unfit = lock ? rt_journal_name_problem(annotator) : path_problem(annotator);
    if (unfit) {
        char shown[80];
        return rt_err_set(err, RT_EUSAGE, "annotator name \"%s\" cannot name a journal: %s",
                          annotator ? rt_id_show(annotator, strlen(annotator), shown, sizeof shown) : "", unfit);
    }
    rt_journal *j = rt_calloc(1, sizeof *j);
    j->fd = j->lock_fd = -1;
    j->dir = rt_strdup(dir);
    /* "link/" would make lstat and O_NOFOLLOW follow the link: the checks see the name itself */
    for (size_t n = strlen(j->dir); n > 1 && j->dir[n - 1] == '/'; n--)
        j->dir[n - 1] = '\0';
    dir = j->dir;
    j->path = rt_malloc(strlen(dir) + strlen(annotator) + 8);
    sprintf(j->path, "%s/%s.jsonl", dir, annotator);
    char name[256];
    snprintf(name, sizeof name, "%s.jsonl", annotator);
    rt_err e;
    if (!lock)
        set_readonly(j, "opened read-only");
    else if (rt_file_mkdirs(dir, 0777, &e) != RT_OK) {
        char why[1100];   /* browsing still works; changes cannot be kept */
        snprintf(why, sizeof why, "cannot create the journal folder (%.1000s)", e.msg);
        set_readonly(j, why);
    }
    int dirfd = open_dir(j, dir, err);
    if (dirfd == -2) {
        rt_journal_close(&j);
        return RT_EINPUT;
    }
    if (dirfd == -1 && !j->readonly) {   /* it exists (mkdir said so) but is a file: nothing can be kept */
        char why[1100];
        snprintf(why, sizeof why, "the journal folder %.1000s is not a folder", dir);
        set_readonly(j, why);
    }
    rt_jtxn_recover(dirfd, dir, report);   /* an import killed after its commit point is finished first */
    const char *bad = dirfd >= 0 ? not_regular(dirfd, name) : NULL;
    if (bad) {
        rt_err_set(err, RT_EINPUT, "%s: is %s, not a journal; nothing was opened or changed (move "
                   "it away or choose another annotator)", j->path, bad);
        close(dirfd);
        rt_journal_close(&j);
        return RT_EINPUT;
    }
    struct stat sb;
    int existed = dirfd >= 0 && fstatat(dirfd, name, &sb, AT_SYMLINK_NOFOLLOW) == 0;
    open_writable(j, dirfd, name, existed);
    size_t len = 0;
    char *buf = NULL;
    if (read_whole(j, dirfd, name, existed, &buf, &len, report, err) != RT_OK) {
        close(dirfd);
        rt_journal_close(&j);
        return RT_EINPUT;
    }
    rt_status st = read_ops(j, dirfd, name, buf, len, fn, ctx, &nops, report, err);
    free(buf);
    if (st != RT_OK && j->made_lock && j->lock_fd >= 0) {   /* leave nothing beside a non-journal */
        char lname[300];
        snprintf(lname, sizeof lname, "%.250s.lock", name);
        (void)unlinkat(dirfd, lname, 0);
    }
    if (st != RT_OK && !existed && j->fd >= 0)
        (void)unlinkat(dirfd, name, 0);   /* cannot happen (an empty file parses), but never leave one */
    if (dirfd >= 0)
        close(dirfd);
    if (st != RT_OK) {
        rt_journal_close(&j);
        return st;
    }
    if (nops)
        rt_report_add(report, RT_REPORT_INFO, "%s: %zu operations", j->path, nops);
    *out = j;
    return RT_OK;
}

/* The array-collecting receiver of the rt_op ** forms. */
typedef struct collect {
    rt_op *ops;
    size_t n, cap;
} collect;

static void collect_op(void *ctx, rt_journal *j, rt_op *op)
{
    collect *c = ctx;
    (void)j;
    RT_GROW(c->ops, c->cap, c->n + 1);
    c->ops[c->n++] = *op;
}

static rt_status open_collect(rt_journal **out, const char *dir, const char *annotator, int lock, rt_op **ops,
                              size_t *nops, rt_report *report, rt_err *err)
{
    collect c = {0};
    rt_status st = open_common(out, dir, annotator, lock, collect_op, &c, report, err);
    if (st != RT_OK) {
        for (size_t i = 0; i < c.n; i++)
            rt_op_clear(&c.ops[i]);
        free(c.ops);
        c = (collect){0};
    }
    *ops = c.ops;
    *nops = c.n;
    return st;
}

rt_status rt_journal_open(rt_journal **out, const char *dir, const char *annotator, rt_op **ops,
                          size_t *nops, rt_report *report, rt_err *err)
{
    return open_collect(out, dir, annotator, 1, ops, nops, report, err);
}

rt_status rt_journal_open_readonly(rt_journal **out, const char *dir, const char *annotator,
                                   rt_op **ops, size_t *nops, rt_report *report, rt_err *err)
{
    return open_collect(out, dir, annotator, 0, ops, nops, report, err);
}

rt_status rt_journal_open_each(rt_journal **out, const char *dir, const char *annotator, int readonly,
                               rt_journal_op_fn fn, void *ctx, rt_report *report, rt_err *err)
{
    return open_common(out, dir, annotator, !readonly, fn, ctx, report, err);
}

void rt_journal_close(rt_journal **jp)
{
    if (!jp || !*jp)
        return;
    rt_journal *j = *jp;
    if (j->fd >= 0)
        close(j->fd);
    drop_lock(j);
    if (j->lock_fd >= 0)
        close(j->lock_fd);   /* releases the lock */
    free(j->path);
    free(j->dir);
    free(j->readonly);
    free(j);
    *jp = NULL;
}

const char *rt_journal_readonly(const rt_journal *j) { return j->readonly; }
const char *rt_journal_path(const rt_journal *j) { return j->path; }
uint64_t rt_journal_next_seq(const rt_journal *j) { return j->next_seq; }

void rt_journal_refuse(rt_journal *j, const char *why) { set_readonly(j, why); }

/* Refuses n more operations when the last would pass RT_OP_SEQ_MAX: its line would not read
 * back, and the journal would lose it and turn read-only on the next open. */
static rt_status seq_room(const rt_journal *j, size_t n, rt_err *err)
{
    if (j->next_seq <= RT_OP_SEQ_MAX && n - 1 <= RT_OP_SEQ_MAX - j->next_seq)
        return RT_OK;
    return rt_err_set(err, RT_EINPUT, "%s: its sequence numbers have reached %" PRIu64 " (2^53), the largest a "
                      "journal line can hold; nothing was written (continue in a journal of another name)",
                      j->path, (uint64_t)RT_OP_SEQ_MAX);
}

void rt_journal_set_names(rt_journal *j, const rt_op_names *names)
{
    j->has_names = names != NULL;
    if (names)
        j->names = *names;
}

/* An operation by ids the journal cannot name (no tables, or an id outside them): a caller's
 * mistake, refused before anything is written. */
static rt_status unnamed(const rt_journal *j, const rt_op *op, rt_err *err)
{
    return rt_err_set(err, RT_EINPUT, "%s: operation %" PRIu64 " names an id %s", j->path, op->seq,
                      j->has_names ? "this workspace does not have" : "without the workspace's tables to write it");
}

rt_status rt_journal_materialize(rt_journal *j, rt_err *err)
{
    if (j->readonly)
        return rt_err_set(err, RT_ELOCKED, "read-only: %s", j->readonly);
    if (!j->lazy)
        return RT_OK;
    rt_err e;
    int dirfd = open_dir(j, j->dir, &e);
    const char *name = strrchr(j->path, '/') + 1;
    j->fd = dirfd >= 0 ? open_regular(dirfd, name, O_RDWR | O_CREAT | O_APPEND, 0644) : -1;
    int saved = errno;
    if (j->fd >= 0) {
        j->lazy = 0;
        j->created = 1;
        rt_file_sync_dirfd(dirfd);
    }
    if (dirfd >= 0)
        close(dirfd);
    if (j->fd < 0)
        return rt_err_set(err, RT_EIO, "%s: cannot create the journal: %s; nothing was written", j->path,
                          dirfd < 0 ? "cannot open its folder" : strerror(saved));
    return RT_OK;
}

rt_status rt_journal_append(rt_journal *j, rt_op *op, rt_err *err)
{
    if (j->readonly)
        return rt_err_set(err, RT_ELOCKED, "read-only: %s", j->readonly);
    if (rt_journal_materialize(j, err) != RT_OK)
        return RT_EIO;
    if (seq_room(j, 1, err) != RT_OK)
        return RT_EINPUT;
    op->seq = j->next_seq;
    op->time_ms = rt_op_now_ms();
    char *line = rt_op_to_json_names(op, j->has_names ? &j->names : NULL);
    if (!line)
        return unnamed(j, op, err);
    rt_status st = rt_file_append(j->fd, &j->size, line, strlen(line), j->path, err);
    if (st == RT_OK)
        j->next_seq++;
    free(line);
    return st;
}

rt_status rt_journal_render_append(const rt_journal *j, rt_op *ops, size_t n, char **out, size_t *outlen,
                                   rt_err *err)
{
    *out = NULL;
    *outlen = 0;
    if (j->readonly)
        return rt_err_set(err, RT_ELOCKED, "read-only: %s", j->readonly);
    if (seq_room(j, n, err) != RT_OK)
        return RT_EINPUT;
    size_t old = (size_t)j->size, len = old, cap = old + 1;
    char *all = rt_malloc(cap);
    ssize_t got = old ? pread(j->fd, all, old, 0) : 0;
    if (got < 0 || (size_t)got != old) {
        free(all);
        return rt_err_set(err, RT_EIO, "%s: cannot read it back: %s", j->path, got < 0 ? strerror(errno) : "short read");
    }
    int64_t now = rt_op_now_ms();
    for (size_t i = 0; i < n; i++) {
        ops[i].seq = j->next_seq + i;
        ops[i].time_ms = now;
        char *line = rt_op_to_json_names(&ops[i], j->has_names ? &j->names : NULL);
        if (!line) {
            free(all);
            return unnamed(j, &ops[i], err);
        }
        size_t ll = strlen(line);
        RT_GROW(all, cap, len + ll);
        memcpy(all + len, line, ll);
        len += ll;
        free(line);
    }
    *out = all;
    *outlen = len;
    return RT_OK;
}

void rt_journal_adopt(rt_journal *j, int newfd, size_t len, size_t n)
{
    close(j->fd);
    j->fd = newfd;
    j->size = (off_t)len;
    j->next_seq += n;
}

const char *rt_journal_dir(const rt_journal *j) { return j->dir; }
int rt_journal_fd(const rt_journal *j) { return j->fd; }

rt_status rt_journal_append_all(rt_journal *j, rt_op *ops, size_t n, rt_err *err)
{
    if (j->readonly)
        return rt_err_set(err, RT_ELOCKED, "read-only: %s", j->readonly);
    if (n == 0)
        return RT_OK;
    if (rt_journal_materialize(j, err) != RT_OK)
        return RT_EIO;
    char *all;
    size_t len;
    rt_status st = rt_journal_render_append(j, ops, n, &all, &len, err);
    if (st != RT_OK)
        return st;
    rt_err e;
    struct stat sb;
    int dirfd = open_dir(j, j->dir, &e), nfd = -1;
    const char *name = strrchr(j->path, '/') + 1;
    int failed = dirfd < 0 || fstat(j->fd, &sb) != 0 ||
                 rt_file_replace_at(dirfd, name, all, len, sb.st_mode & 07777, O_RDWR | O_APPEND, &nfd) != 0;
    int saved = errno;
    if (dirfd >= 0)
        close(dirfd);
    free(all);
    if (failed)
        return rt_err_set(err, RT_EIO, "%s: cannot write the new operations: %s; the journal is as it was",
                          j->path, dirfd < 0 ? "cannot open its folder" : strerror(saved));
    rt_journal_adopt(j, nfd, len, n);
    return RT_OK;
}

void rt_journal_discard(rt_journal **jp)
{
    rt_journal *j = jp ? *jp : NULL;
    if (j && j->created && j->size == 0 && j->fd >= 0) {
        rt_err e;
        int dirfd = open_dir(j, j->dir, &e);
        const char *name = strrchr(j->path, '/') + 1;
        if (dirfd >= 0) {
            char lname[300];
            snprintf(lname, sizeof lname, "%.250s.lock", name);
            (void)unlinkat(dirfd, name, 0);
            if (j->made_lock)
                (void)unlinkat(dirfd, lname, 0);
            close(dirfd);
        }
    }
    rt_journal_close(jp);
}

rt_status rt_journal_refresh(rt_journal *j, rt_op **ops, size_t *nops, int *replaced, rt_report *report,
                             rt_err *err)
{
    *ops = NULL;
    *nops = 0;
    *replaced = 0;
    if (j->fd >= 0)
        return RT_OK;   /* our own journal: nobody else writes it */
    struct stat sb;
    if (lstat(j->path, &sb) != 0) {
        *replaced = j->ino != 0;   /* it went away (moved aside): read again */
        return RT_OK;
    }
    if (!S_ISREG(sb.st_mode) || sb.st_ino != j->ino || sb.st_dev != j->dev || sb.st_size < j->read_off) {
        *replaced = 1;   /* replaced (an import), cut, or now a link: read it again from the start */
        return RT_OK;
    }
    if (sb.st_size == j->read_off)
        return RT_OK;
    rt_err e;
    int dirfd = open_dir(j, j->dir, &e);
    const char *name = strrchr(j->path, '/') + 1;
    int fd = dirfd >= 0 ? open_regular(dirfd, name, O_RDONLY, 0) : -1;
    if (dirfd >= 0)
        close(dirfd);
    struct stat fsb;
    if (fd < 0 || fstat(fd, &fsb) != 0 || fsb.st_ino != j->ino || fsb.st_dev != j->dev) {
        if (fd >= 0)
            close(fd);
        *replaced = 1;
        return RT_OK;
    }
    size_t want = (size_t)(fsb.st_size - j->read_off);
    char *buf = rt_malloc(want + 1);
    ssize_t got = pread(fd, buf, want, j->read_off);
    close(fd);
    if (got < 0) {
        free(buf);
        return rt_err_set(err, RT_EIO, "%s: %s", j->path, strerror(errno));
    }
    size_t len = (size_t)got, end = len;
    while (end && buf[end - 1] != '\n')
        end--;   /* a line still being written is read next time */
    size_t cap = 0;
    for (size_t pos = 0; pos < end;) {
        const char *nl = memchr(buf + pos, '\n', end - pos);
        size_t stop = (size_t)(nl - buf);
        j->lines++;
        rt_op op;
        if (!blank(buf + pos, stop - pos)) {
            if (rt_op_from_json(&op, buf + pos, stop - pos, &e) == RT_OK) {
                op.line = j->lines;
                RT_GROW(*ops, cap, *nops + 1);
                (*ops)[(*nops)++] = op;
            } else {
                rt_report_add(report, RT_REPORT_WARNING, "%s:%zu: not an operation (%.150s); skipped", j->path,
                              j->lines, e.msg);
            }
        }
        pos = stop + 1;
    }
    j->read_off += (off_t)end;
    free(buf);
    return RT_OK;
}
