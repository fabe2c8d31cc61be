/* rt_jtxn — several journals committed at once: staged copies, one marker as the commit point,
 * renames finished by whoever opens the folder next. The marker is a text file, a line a journal:
 * "STAGED<TAB>JOURNAL<TAB>OLD_INO<TAB>OLD_SIZE<TAB>NEW_INO<TAB>NEW_SIZE<TAB>NEW_XXH3", between a
 * header and an end line. The files are told by their content (sizes and XXH3 of the bytes), not
 * by their inodes, which a copy of the folder (a backup restored, cp -a) changes; a marker of
 * version 1 (no content fields) is still read by inodes. */
#include "config.h"

#include <dirent.h>
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
#include <xxhash.h>

#include "rt_file.h"
#include "rt_jtxn.h"
#include "rt_mem.h"

static const char marker_name[] = ".import.txn";
static const char lock_name[] = ".import.lock";
static const char staged_infix[] = ".jsonl.import-";
static const char header[] = "retriage-jtxn 2\n";
static const char header_v1[] = "retriage-jtxn 1\n";

typedef struct staged {
    rt_journal *j;
    char *journal;        /* NAME.jsonl */
    char *name;           /* .NAME.jsonl.import-PID */
    int fd;               /* the copy, O_RDWR | O_APPEND, adopted by the journal on commit */
    size_t len, nops;
    ino_t old_ino, new_ino;
    off_t old_size;
    uint64_t new_sum;     /* XXH3 of the copy's len bytes */
} staged;

struct rt_jtxn {
    char *dir;
    int dirfd, lock_fd;
    staged *s;
    size_t n, cap;
    unsigned step;
    int committed;
    rt_jtxn_step_fn hook;
    void *hook_ctx;
};

/* Runs the test hook for the next step: non-zero means "fail here", with errno EIO. */
static int step_fails(rt_jtxn *t)
{
    t->step++;
    if (t->hook && t->hook(t->hook_ctx, t->step)) {
        errno = EIO;
        return 1;
    }
    return 0;
}

/* The import lock of the folder, taken without waiting: its fd, -1 when another process holds it,
 * -2 when it cannot be opened at all (errno says why). */
static int take_lock(int dirfd, int create)
{
    int fd = openat(dirfd, lock_name, (create ? O_RDWR | O_CREAT : O_RDONLY) | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0 && create)
        fd = openat(dirfd, lock_name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return -2;
    struct stat sb;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        close(fd);
        errno = EINVAL;
        return -2;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

static int is_regular(int dirfd, const char *name, struct stat *sb)
{
    return fstatat(dirfd, name, sb, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(sb->st_mode);
}

/* A staged copy left unfinished is renamed where the user sees it: NAME.jsonl.unimported-TIME. */
static void keep_aside(int dirfd, const char *dir, const char *stagedname, const char *journal,
                       rt_report *report, const char *why)
{
    char kept[600];
    snprintf(kept, sizeof kept, "%.400s.unimported-%lld", journal, (long long)time(NULL));
    if (renameat(dirfd, stagedname, dirfd, kept) == 0)
        rt_report_add(report, RT_REPORT_WARNING, "%s/%s: an interrupted import was not finished for it (%s); "
                      "its lines are in %s/%s", dir, journal, why, dir, kept);
    else
        rt_report_add(report, RT_REPORT_WARNING, "%s/%s: an interrupted import was not finished for it (%s); "
                      "its lines are in %s/%s", dir, journal, why, dir, stagedname);
}

/* XXH3 of the first n bytes of the regular file name in dirfd; -1 when it cannot be read or is
 * shorter. Read in pieces: a journal may be large, and this runs only to finish an import. */
static int sum_at(int dirfd, const char *name, off_t n, uint64_t *sum)
{
    int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return -1;
    XXH3_state_t *x = XXH3_createState();
    char buf[65536];
    off_t done = 0;
    int ok = x && XXH3_64bits_reset(x) == XXH_OK;
    while (ok && done < n) {
        size_t want = n - done < (off_t)sizeof buf ? (size_t)(n - done) : sizeof buf;
        ssize_t got = pread(fd, buf, want, done);
        ok = got > 0 && XXH3_64bits_update(x, buf, (size_t)got) == XXH_OK;
        done += got > 0 ? got : 0;
    }
    if (ok)
        *sum = XXH3_64bits_digest(x);
    XXH3_freeState(x);
    close(fd);
    return ok ? 0 : -1;
}

/* Whether the file name in dirfd (its stat sb) holds exactly size bytes whose XXH3 is sum. */
static int holds(int dirfd, const char *name, const struct stat *sb, off_t size, uint64_t sum)
{
    uint64_t h;
    return sb->st_size == size && sum_at(dirfd, name, size, &h) == 0 && h == sum;
}

/* One marker line, split in place (its strings point into the line). */
typedef struct mline {
    const char *staged, *journal;
    ino_t old_ino, new_ino;
    off_t old_size, new_size;
    uint64_t new_sum;
    int by_content;       /* version 2; version 1 knew the files by their inodes only */
} mline;

static int parse_line(char *line, mline *m)
{
    char *f[7];
    size_t nf = 0;
    for (char *p = line; nf < 7; nf++) {
        f[nf] = p;
        char *tab = strchr(p, '\t');
        if (!tab) {
            nf++;
            break;
        }
        *tab = '\0';
        p = tab + 1;
    }
    if ((nf != 5 && nf != 7) || f[0][0] != '.' || strchr(f[0], '/') || strchr(f[1], '/') || f[1][0] == '.')
        return -1;
    m->by_content = nf == 7;
    m->staged = f[0];
    m->journal = f[1];
    m->old_ino = (ino_t)strtoull(f[2], NULL, 10);
    m->old_size = (off_t)strtoll(f[3], NULL, 10);
    m->new_ino = (ino_t)strtoull(f[4], NULL, 10);
    m->new_size = m->by_content ? (off_t)strtoll(f[5], NULL, 10) : 0;
    m->new_sum = m->by_content ? strtoull(f[6], NULL, 16) : 0;
    return 0;
}

/* Where a marker line's journal stands. */
enum { M_DONE, M_GONE, M_NOT_OURS, M_CHANGED, M_READY };

static int judge(int dirfd, const mline *m)
{
    struct stat ss, js;
    int have_staged = is_regular(dirfd, m->staged, &ss), have_journal = is_regular(dirfd, m->journal, &js);
    uint64_t sum;
    if (!have_staged)   /* renamed before the kill (and maybe appended to since), or lost */
        return have_journal && (m->by_content ? js.st_size >= m->new_size &&
                                                    sum_at(dirfd, m->journal, m->new_size, &sum) == 0 &&
                                                    sum == m->new_sum
                                              : js.st_ino == m->new_ino)
                   ? M_DONE
                   : M_GONE;
    if (m->by_content ? !holds(dirfd, m->staged, &ss, m->new_size, m->new_sum) : ss.st_ino != m->new_ino)
        return M_NOT_OURS;
    /* an empty journal the import created may have been removed again by its process; the copy
     * begins with the journal's bytes as they were staged */
    uint64_t old_sum = 0;
    int as_staged = !have_journal ? m->old_size == 0
                    : m->by_content ? sum_at(dirfd, m->staged, m->old_size, &old_sum) == 0 &&
                                      holds(dirfd, m->journal, &js, m->old_size, old_sum)
                                    : js.st_ino == m->old_ino && js.st_size == m->old_size;
    return as_staged ? M_READY : M_CHANGED;
}

/* One marker line: finishes that journal's rename. 0 when done (now or before the kill), 1 when
 * it cannot be (the journal is left as it is, and report says where the import's lines are),
 * -1 when it should be tried again. */
static int recover_line(int dirfd, const char *dir, char *line, rt_report *report)
{
    mline m;
    if (parse_line(line, &m) != 0)
        return -1;
    switch (judge(dirfd, &m)) {
    case M_DONE:
        return 0;
    case M_GONE:
        rt_report_add(report, RT_REPORT_WARNING, "%s/%s: an interrupted import's copy of it is gone; "
                      "the journal is as it was", dir, m.journal);
        return 1;
    case M_NOT_OURS:
        keep_aside(dirfd, dir, m.staged, m.journal, report, "its staged copy is not the one the import wrote");
        return 1;
    case M_CHANGED:
        keep_aside(dirfd, dir, m.staged, m.journal, report, "the journal changed after the import staged it");
        return 1;
    default:
        break;
    }
    if (renameat(dirfd, m.staged, dirfd, m.journal) != 0) {
        rt_report_add(report, RT_REPORT_WARNING, "%s/%s: cannot finish an interrupted import: %s", dir,
                      m.journal, strerror(errno));
        return -1;
    }
    return 0;
}

/* The folder's marker when it is one an import wrote (a new string, its lines after the header,
 * ending "end\n"), else NULL; *bad set when a file is there that is not a marker. */
static char *read_marker(int dirfd, size_t *header_len, int *bad)
{
    struct stat sb;
    *bad = 0;
    if (!is_regular(dirfd, marker_name, &sb)) {
        *bad = fstatat(dirfd, marker_name, &sb, AT_SYMLINK_NOFOLLOW) == 0;   /* a link, a folder, … */
        return NULL;
    }
    int fd = openat(dirfd, marker_name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    char *buf = NULL;
    size_t len = 0;
    if (fd >= 0 && sb.st_size > 0 && sb.st_size < (1 << 26)) {
        buf = rt_malloc((size_t)sb.st_size + 1);
        ssize_t got = pread(fd, buf, (size_t)sb.st_size, 0);
        len = got > 0 ? (size_t)got : 0;
        buf[len] = '\0';
    }
    if (fd >= 0)
        close(fd);
    size_t hl = sizeof header - 1;
    /* A NUL byte is never in a marker this code writes, and would end a line's string early. */
    if (!buf || len < hl || (memcmp(buf, header, hl) != 0 && memcmp(buf, header_v1, hl) != 0) ||
        len < 5 || strcmp(buf + len - 5, "\nend\n") != 0 || memchr(buf, '\0', len)) {
        *bad = 1;
        free(buf);
        return NULL;
    }
    *header_len = hl;
    return buf;
}

/* With the lock held: reads the marker, finishes each rename, removes the marker. */
static void recover_locked(int dirfd, const char *dir, rt_report *report)
{
    size_t hl = 0;
    int bad;
    char *buf = read_marker(dirfd, &hl, &bad);
    if (bad)
        rt_report_add(report, RT_REPORT_WARNING, "%s/%s: not an import's marker; left as it is (move it away)",
                      dir, marker_name);
    if (!buf)
        return;
    size_t done = 0, failed = 0, left = 0;
    for (char *line = buf + hl; *line && strcmp(line, "end\n") != 0;) {
        char *nl = strchr(line, '\n');
        *nl = '\0';
        int r = recover_line(dirfd, dir, line, report);
        if (r == 0)
            done++;
        else if (r > 0)
            left++;
        else
            failed++;
        line = nl + 1;
    }
    free(buf);
    rt_file_sync_dirfd(dirfd);
    if (failed) {
        rt_report_add(report, RT_REPORT_WARNING, "%s: an interrupted import could not be finished for %zu "
                      "journal%s; the next open tries again", dir, failed, failed == 1 ? "" : "s");
        return;
    }
    (void)unlinkat(dirfd, marker_name, 0);
    rt_file_sync_dirfd(dirfd);
    /* a warning, not a count: the user should know their import was cut short and finished now */
    if (left)
        rt_report_add(report, RT_REPORT_WARNING, "%s: an interrupted import was finished for %zu of its %zu "
                      "journals; the others are as they were (see above)", dir, done, done + left);
    else
        rt_report_add(report, RT_REPORT_WARNING, "%s: finished an import that was interrupted (%zu journal%s)",
                      dir, done, done == 1 ? "" : "s");
}

char *rt_jtxn_pending(int dirfd, const char *journal)
{
    struct stat sb;
    if (dirfd < 0 || fstatat(dirfd, marker_name, &sb, AT_SYMLINK_NOFOLLOW) != 0)
        return NULL;
    size_t hl = 0;
    int bad;
    char *buf = read_marker(dirfd, &hl, &bad), *copy = NULL;
    for (char *line = buf ? buf + hl : NULL; line && !copy && *line && strcmp(line, "end\n") != 0;) {
        char *nl = strchr(line, '\n');
        *nl = '\0';
        mline m;
        if (parse_line(line, &m) == 0 && strcmp(m.journal, journal) == 0 && judge(dirfd, &m) == M_READY)
            copy = rt_strdup(m.staged);
        line = nl + 1;
    }
    free(buf);
    return copy;
}

/* Appends to report each line of from it does not hold yet: every journal of a folder opened
 * tries to finish the same import, and one that cannot would say so once per journal. */
static void add_new_lines(rt_report *report, const rt_report *from)
{
    for (size_t i = 0; i < rt_report_count(from); i++) {
        rt_report_kind kind;
        const char *line = rt_report_line(from, i, &kind);
        int seen = 0;
        for (size_t k = 0; k < rt_report_count(report) && !seen; k++)
            seen = strcmp(rt_report_line(report, k, NULL), line) == 0;
        if (!seen)
            rt_report_add(report, kind, "%s", line);
    }
}

void rt_jtxn_recover(int dirfd, const char *dir, rt_report *report)
{
    struct stat sb;
    if (dirfd < 0 || fstatat(dirfd, marker_name, &sb, AT_SYMLINK_NOFOLLOW) != 0)
        return;
    int lfd = take_lock(dirfd, 1);
    if (lfd == -1)
        return;   /* an import is running: it finishes the marker itself */
    rt_report *said = rt_report_new();
    if (lfd == -2) {
        rt_report_add(said, RT_REPORT_WARNING, "%s: an interrupted import is waiting to be finished, and "
                      "its lock cannot be opened (%s); open the folder with write access", dir, strerror(errno));
    } else {
        recover_locked(dirfd, dir, said);
        close(lfd);
    }
    add_new_lines(report, said);
    rt_report_free(&said);
}

/* Copies staged by an import killed before its commit point: removed (the lock is held). */
static void sweep_staged(int dirfd)
{
    int dup_fd = dup(dirfd);
    DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
    if (!d) {
        if (dup_fd >= 0)
            close(dup_fd);
        return;
    }
    struct stat sb;
    for (struct dirent *e; (e = readdir(d));)
        if (e->d_name[0] == '.' && strstr(e->d_name, staged_infix) && is_regular(dirfd, e->d_name, &sb))
            (void)unlinkat(dirfd, e->d_name, 0);
    closedir(d);
}

rt_status rt_jtxn_begin(rt_jtxn **out, const char *dir, rt_report *report, rt_err *err)
{
    *out = NULL;
    int dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dirfd < 0)
        return rt_err_set(err, RT_EIO, "%s: cannot open the journal folder: %s", dir, strerror(errno));
    int lfd = take_lock(dirfd, 1);
    if (lfd < 0) {
        int e = errno;
        close(dirfd);
        if (lfd == -1)
            return rt_err_set(err, RT_ELOCKED, "%s: another import into this folder is running", dir);
        return rt_err_set(err, RT_EIO, "%s/%s: cannot take the import lock: %s", dir, lock_name, strerror(e));
    }
    rt_report *said = rt_report_new();
    recover_locked(dirfd, dir, said);
    add_new_lines(report, said);
    rt_report_free(&said);
    struct stat sb;
    if (fstatat(dirfd, marker_name, &sb, AT_SYMLINK_NOFOLLOW) == 0) {
        /* An import committed and not finished: its copies hold lines no journal has yet, and a
         * new marker would replace the only record of them. Nothing is swept or written. */
        close(lfd);
        close(dirfd);
        return rt_err_set(err, RT_EINPUT, "%s/%s: an interrupted import could not be finished (see the "
                          "warnings) and its copies are kept: fix the folder or move the marker away", dir,
                          marker_name);
    }
    sweep_staged(dirfd);
    rt_jtxn *t = rt_calloc(1, sizeof *t);
    t->dir = rt_strdup(dir);
    t->dirfd = dirfd;
    t->lock_fd = lfd;
    *out = t;
    return RT_OK;
}

void rt_jtxn_set_hook(rt_jtxn *t, rt_jtxn_step_fn fn, void *ctx)
{
    t->hook = fn;
    t->hook_ctx = ctx;
}

rt_status rt_jtxn_stage(rt_jtxn *t, rt_journal *j, rt_op *ops, size_t n, rt_err *err)
{
    if (t->committed)
        return rt_err_set(err, RT_EUSAGE, "the import is already committed");
    const char *path = rt_journal_path(j), *slash = strrchr(path, '/');
    const char *journal = slash ? slash + 1 : path;
    struct stat js;
    if (rt_journal_materialize(j, err) != RT_OK)
        return RT_EIO;
    if (fstat(rt_journal_fd(j), &js) != 0)
        return rt_err_set(err, RT_EIO, "%s: %s", path, strerror(errno));
    rt_file_sweep_stale_at(t->dirfd, journal);   /* an older writer's temporaries, its process dead */
    char *all;
    size_t len;
    rt_status st = rt_journal_render_append(j, ops, n, &all, &len, err);
    if (st != RT_OK)
        return st;
    size_t nl = strlen(journal) + sizeof staged_infix + 32;
    char *name = rt_malloc(nl);
    snprintf(name, nl, ".%.*s%s%ld", (int)(strlen(journal) - 6), journal, staged_infix, (long)getpid());
    uint64_t sum = XXH3_64bits(all, len);
    int fd = openat(t->dirfd, name, O_RDWR | O_APPEND | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                    js.st_mode & 07777);
    struct stat ss;
    int ok = fd >= 0 && fchmod(fd, js.st_mode & 07777) == 0 && rt_file_write_all(fd, all, len) == 0 &&
             fsync(fd) == 0 && fstat(fd, &ss) == 0 && !step_fails(t);
    int e = errno;
    free(all);
    if (!ok) {
        if (fd >= 0) {
            close(fd);
            (void)unlinkat(t->dirfd, name, 0);
        }
        free(name);
        return rt_err_set(err, RT_EIO, "%s: cannot write its new copy: %s; no journal was changed", path,
                          strerror(e));
    }
    RT_GROW(t->s, t->cap, t->n + 1);
    t->s[t->n++] = (staged){.j = j, .journal = rt_strdup(journal), .name = name, .fd = fd, .len = len,
                            .nops = n, .old_ino = js.st_ino, .new_ino = ss.st_ino, .old_size = js.st_size,
                            .new_sum = sum};
    return RT_OK;
}

static char *marker_text(const rt_jtxn *t, size_t *len)
{
    size_t cap = 64, n = 0;
    char *buf = rt_malloc(cap);
    n = (size_t)snprintf(buf, cap, "%s", header);
    for (size_t i = 0; i < t->n; i++) {
        const staged *s = &t->s[i];
        size_t need = strlen(s->name) + strlen(s->journal) + 128;
        RT_GROW(buf, cap, n + need);
        n += (size_t)snprintf(buf + n, cap - n, "%s\t%s\t%ju\t%jd\t%ju\t%zu\t%016" PRIx64 "\n", s->name,
                              s->journal, (uintmax_t)s->old_ino, (intmax_t)s->old_size, (uintmax_t)s->new_ino,
                              s->len, s->new_sum);
    }
    RT_GROW(buf, cap, n + 8);
    n += (size_t)snprintf(buf + n, cap - n, "end\n");
    *len = n;
    return buf;
}

rt_status rt_jtxn_commit(rt_jtxn *t, rt_err *err)
{
    if (t->committed || !t->n)
        return RT_OK;
    rt_file_sync_dirfd(t->dirfd);   /* the staged copies' names are durable before the marker */
    size_t len;
    char *text = marker_text(t, &len);
    int failed = rt_file_replace_at(t->dirfd, marker_name, text, len, 0644, 0, NULL) != 0;
    int e = errno;
    free(text);
    if (!failed && step_fails(t)) {   /* a failure "after" the marker is a failure to place it */
        (void)unlinkat(t->dirfd, marker_name, 0);
        rt_file_sync_dirfd(t->dirfd);
        failed = 1, e = errno;
    }
    if (failed)
        return rt_err_set(err, RT_EIO, "%s/%s: cannot write the import's marker: %s; no journal was changed",
                          t->dir, marker_name, strerror(e));
    t->committed = 1;   /* from here on the import stands: the next open finishes what is left */
    for (size_t i = 0; i < t->n; i++) {
        staged *s = &t->s[i];
        if (step_fails(t) || renameat(t->dirfd, s->name, t->dirfd, s->journal) != 0)
            return rt_err_set(err, RT_EIO, "%s/%s: the import is committed but its journal could not be "
                              "replaced yet (%s); the next open of the folder finishes it", t->dir, s->journal,
                              strerror(errno));
        rt_journal_adopt(s->j, s->fd, s->len, s->nops);
        s->fd = -1;
    }
    rt_file_sync_dirfd(t->dirfd);
    if (step_fails(t))
        return rt_err_set(err, RT_EIO, "%s: the import is committed; its marker is removed by the next open",
                          t->dir);
    (void)unlinkat(t->dirfd, marker_name, 0);
    rt_file_sync_dirfd(t->dirfd);
    step_fails(t);   /* the last step: nothing is left to fail, but a kill here must change nothing */
    return RT_OK;
}

void rt_jtxn_free(rt_jtxn **tp)
{
    rt_jtxn *t = tp ? *tp : NULL;
    if (!t)
        return;
    for (size_t i = 0; i < t->n; i++) {
        staged *s = &t->s[i];
        if (s->fd >= 0) {
            close(s->fd);
            if (!t->committed)
                (void)unlinkat(t->dirfd, s->name, 0);
        }
        free(s->journal);
        free(s->name);
    }
    free(t->s);
    if (t->lock_fd >= 0)
        close(t->lock_fd);
    close(t->dirfd);
    free(t->dir);
    free(t);
    *tp = NULL;
}
