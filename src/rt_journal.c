/* rt_journal — the append-only operation log: line format, durable appends, torn-tail repair
 * and the one-writer lock. */
#include "config.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "rt_journal.h"
#include "rt_mem.h"
#include "rt_reader.h"

struct rt_journal {
    char *path;
    int fd;            /* -1 when read-only */
    int lock_fd;
    char *readonly;    /* why, or NULL */
    uint64_t next_seq;
    off_t size;
};

static const char *const kind_names[RT_OP_KIND_COUNT] = {"label", "tag", "untag", "note", "leak", "set"};

const char *rt_op_kind_name(rt_op_kind k) { return k < RT_OP_KIND_COUNT ? kind_names[k] : "?"; }

void rt_op_clear(rt_op *op)
{
    free(op->author);
    free(op->qid);
    free(op->pid);
    free(op->cat);
    free(op->text);
    free(op->train);
    free(op->name);
    for (size_t i = 0; i < op->nqids; i++)
        free(op->qids[i]);
    free(op->qids);
    memset(op, 0, sizeof *op);
}

static char *dup_or_null(const char *s) { return s ? rt_strdup(s) : NULL; }

void rt_op_copy(rt_op *d, const rt_op *s)
{
    *d = *s;
    d->author = dup_or_null(s->author);
    d->qid = dup_or_null(s->qid);
    d->pid = dup_or_null(s->pid);
    d->cat = dup_or_null(s->cat);
    d->text = dup_or_null(s->text);
    d->train = dup_or_null(s->train);
    d->name = dup_or_null(s->name);
    d->qids = s->nqids ? rt_calloc(s->nqids, sizeof *d->qids) : NULL;
    for (size_t i = 0; i < s->nqids; i++)
        d->qids[i] = rt_strdup(s->qids[i]);
}

int64_t rt_journal_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void rt_journal_format_time(int64_t t, char *buf, size_t len)
{
    time_t s = (time_t)(t / 1000);
    struct tm tm;
    gmtime_r(&s, &tm);
    snprintf(buf, len, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1,
             tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (int)(t % 1000));
}

static int parse_time(const char *s, int64_t *t)
{
    struct tm tm = {0};
    int ms = 0, n = 0;
    if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d.%3dZ%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
               &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &ms, &n) != 7 || s[n])
        return 0;
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    *t = (int64_t)timegm(&tm) * 1000 + ms;
    return 1;
}

char *rt_op_to_json(const rt_op *op)
{
    char when[32];
    rt_journal_format_time(op->time_ms, when, sizeof when);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "seq", (double)op->seq);
    cJSON_AddStringToObject(o, "time", when);
    cJSON_AddStringToObject(o, "author", op->author ? op->author : "");
    cJSON_AddStringToObject(o, "op", rt_op_kind_name(op->kind));
    if (op->name)
        cJSON_AddStringToObject(o, "name", op->name);
    if (op->qid)
        cJSON_AddStringToObject(o, "qid", op->qid);
    if (op->kind != RT_OP_SET && op->kind != RT_OP_LEAK) {
        if (op->pid)
            cJSON_AddStringToObject(o, "pid", op->pid);
        else
            cJSON_AddNullToObject(o, "pid");
    }
    if (op->train)
        cJSON_AddStringToObject(o, "train", op->train);
    if (op->kind == RT_OP_LABEL) {
        if (op->has_grade)
            cJSON_AddNumberToObject(o, "grade", op->grade);
        else
            cJSON_AddNullToObject(o, "grade");
    }
    if (op->cat)
        cJSON_AddStringToObject(o, "cat", op->cat);
    if (op->text)
        cJSON_AddStringToObject(o, "text", op->text);
    if (op->kind == RT_OP_SET) {
        if (op->has_list) {
            cJSON *a = cJSON_AddArrayToObject(o, "qids");
            for (size_t i = 0; i < op->nqids; i++)
                cJSON_AddItemToArray(a, cJSON_CreateString(op->qids[i]));
        } else {
            cJSON_AddNullToObject(o, "qids");
        }
    }
    if (op->undo)
        cJSON_AddNumberToObject(o, "undo", (double)op->undo);
    if (op->redo)
        cJSON_AddNumberToObject(o, "redo", (double)op->redo);
    char *s = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    size_t n = strlen(s);
    char *line = rt_malloc(n + 2);
    memcpy(line, s, n);
    line[n] = '\n';
    line[n + 1] = 0;
    cJSON_free(s);
    return line;
}

/* ---- parsing ----------------------------------------------------------------------------- */

static int get_uint(const cJSON *o, const char *key, uint64_t *v)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!x) {
        *v = 0;
        return 1;
    }
    double d = x->valuedouble;
    if (!cJSON_IsNumber(x) || d < 1 || d > 9007199254740992.0 || floor(d) != d)
        return 0;
    *v = (uint64_t)d;
    return 1;
}

/* A string member: 1 and a copy when present, 0 when absent or null (allowed when opt), -1 when
 * of another type. */
static int get_str(const cJSON *o, const char *key, char **out)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, key);
    *out = NULL;
    if (!x || cJSON_IsNull(x))
        return 0;
    if (!cJSON_IsString(x))
        return -1;
    *out = rt_strdup(x->valuestring);
    return 1;
}

static rt_status need(rt_op *op, rt_err *err, int ok, const char *what)
{
    if (ok)
        return RT_OK;
    rt_op_clear(op);
    return rt_err_set(err, RT_EINPUT, "%s", what);
}

static rt_status parse_fields(rt_op *op, const cJSON *o, rt_err *err)
{
    int q = get_str(o, "qid", &op->qid), p = get_str(o, "pid", &op->pid);
    int c = get_str(o, "cat", &op->cat), t = get_str(o, "text", &op->text);
    int tr = get_str(o, "train", &op->train), nm = get_str(o, "name", &op->name);
    if (q < 0 || p < 0 || c < 0 || t < 0 || tr < 0 || nm < 0)
        return need(op, err, 0, "a member that should be a string is not");
    switch (op->kind) {
    case RT_OP_LABEL: {
        const cJSON *g = cJSON_GetObjectItemCaseSensitive(o, "grade");
        if (cJSON_IsNumber(g)) {
            if (floor(g->valuedouble) != g->valuedouble || fabs(g->valuedouble) > 1e6)
                return need(op, err, 0, "\"grade\" must be an integer");
            op->grade = (int32_t)g->valuedouble;
            op->has_grade = 1;
        } else if (!cJSON_IsNull(g)) {
            return need(op, err, 0, "a label needs \"grade\" (an integer, or null for the base)");
        }
        return need(op, err, q > 0 && p > 0, "a label needs \"qid\" and \"pid\"");
    }
    case RT_OP_TAG:
    case RT_OP_UNTAG:
        return need(op, err, q > 0 && c > 0, "a tag needs \"qid\" and \"cat\"");
    case RT_OP_NOTE:
        return need(op, err, q > 0 && t > 0, "a note needs \"qid\" and \"text\"");
    case RT_OP_LEAK:
        return need(op, err, q > 0 && tr > 0 && t > 0, "a leak label needs \"qid\", \"train\" and \"text\"");
    case RT_OP_SET: {
        const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, "qids");
        if (nm <= 0 || (!cJSON_IsArray(a) && !cJSON_IsNull(a)))
            return need(op, err, 0, "a query set needs \"name\" and \"qids\" (an array or null)");
        op->has_list = cJSON_IsArray(a);
        const cJSON *x;
        cJSON_ArrayForEach(x, a) {
            if (!cJSON_IsString(x))
                return need(op, err, 0, "\"qids\" must hold strings");
            op->qids = rt_reallocarray(op->qids, op->nqids + 1, sizeof *op->qids);
            op->qids[op->nqids++] = rt_strdup(x->valuestring);
        }
        return RT_OK;
    }
    default:
        return need(op, err, 0, "unknown operation");
    }
}

rt_status rt_op_from_json(rt_op *op, const char *line, size_t len, rt_err *err)
{
    memset(op, 0, sizeof *op);
    if (memchr(line, 0, len))
        return rt_err_set(err, RT_EINPUT, "NUL bytes (a torn or zero-filled write)");
    cJSON *o = cJSON_ParseWithLength(line, len);
    if (!cJSON_IsObject(o)) {
        cJSON_Delete(o);
        return rt_err_set(err, RT_EINPUT, "not a JSON object");
    }
    rt_status st = RT_OK;
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(o, "op");
    const cJSON *when = cJSON_GetObjectItemCaseSensitive(o, "time");
    op->kind = RT_OP_KIND_COUNT;
    for (int k = 0; cJSON_IsString(kind) && k < RT_OP_KIND_COUNT; k++)
        if (strcmp(kind->valuestring, kind_names[k]) == 0)
            op->kind = (rt_op_kind)k;
    if (op->kind == RT_OP_KIND_COUNT)
        st = rt_err_set(err, RT_EINPUT, "no known \"op\"");
    else if (!get_uint(o, "seq", &op->seq) || op->seq == 0)
        st = rt_err_set(err, RT_EINPUT, "\"seq\" must be a positive integer");
    else if (!cJSON_IsString(when) || !parse_time(when->valuestring, &op->time_ms))
        st = rt_err_set(err, RT_EINPUT, "\"time\" must look like 2026-11-21T10:11:12.345Z");
    else if (get_str(o, "author", &op->author) < 0)
        st = rt_err_set(err, RT_EINPUT, "\"author\" must be a string");
    else if (!get_uint(o, "undo", &op->undo) || !get_uint(o, "redo", &op->redo))
        st = rt_err_set(err, RT_EINPUT, "\"undo\" and \"redo\" must be sequence numbers");
    else
        st = parse_fields(op, o, err);
    cJSON_Delete(o);
    if (st != RT_OK)
        rt_op_clear(op);
    return st;
}

/* ---- the file ---------------------------------------------------------------------------- */

static rt_status mkdirs(const char *dir, rt_err *err)
{
    char *p = rt_strdup(dir);
    rt_status st = RT_OK;
    for (char *s = p + 1; st == RT_OK; s++) {
        if (*s != '/' && *s)
            continue;
        char c = *s;
        *s = 0;
        if (mkdir(p, 0777) != 0 && errno != EEXIST)
            st = rt_err_set(err, RT_EIO, "%s: cannot create the journal folder: %s", p, strerror(errno));
        *s = c;
        if (!c)
            break;
    }
    free(p);
    return st;
}

static int valid_name(const char *a)
{
    return a && a[0] && a[0] != '.' && !strchr(a, '/') && strlen(a) < 200;
}

static void fsync_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
}

static rt_status write_all(int fd, const char *s, size_t n)
{
    while (n) {
        ssize_t w = write(fd, s, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return RT_EIO;
        s += w;
        n -= (size_t)w;
    }
    return RT_OK;
}

/* Takes the lock beside the journal; on failure sets j->readonly. */
static void take_lock(rt_journal *j)
{
    char *lp = rt_malloc(strlen(j->path) + 8);
    sprintf(lp, "%s.lock", j->path);
    j->lock_fd = open(lp, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    char why[300];
    if (j->lock_fd < 0) {
        snprintf(why, sizeof why, "cannot create %s (%s)", lp, strerror(errno));
        j->readonly = rt_strdup(why);
    } else if (flock(j->lock_fd, LOCK_EX | LOCK_NB) != 0) {
        char pid[32] = "";
        ssize_t n = pread(j->lock_fd, pid, sizeof pid - 1, 0);
        pid[n > 0 ? n : 0] = 0;
        pid[strcspn(pid, "\n")] = 0;
        if (pid[0])
            snprintf(why, sizeof why, "another retriage (process %s) is annotating with this journal", pid);
        else
            snprintf(why, sizeof why, "another retriage is annotating with this journal");
        j->readonly = rt_strdup(why);
    } else {
        char pid[32];
        int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
        if (ftruncate(j->lock_fd, 0) == 0 && pwrite(j->lock_fd, pid, (size_t)n, 0) < 0)
            pid[0] = 0;   /* the pid is only for the other process's message */
    }
    free(lp);
}

static char *read_fd(int fd, size_t *len)
{
    struct stat sb;
    *len = 0;
    if (fstat(fd, &sb) != 0)
        return rt_calloc(1, 1);
    char *buf = rt_malloc((size_t)sb.st_size + 1);
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

/* Copies the torn tail to a file of its own and cuts it off the journal. */
static void set_aside(rt_journal *j, const char *buf, size_t from, size_t len, size_t line,
                      rt_report *report)
{
    char *aside = rt_malloc(strlen(j->path) + 40);
    sprintf(aside, "%s.torn-%" PRId64, j->path, rt_journal_now_ms());
    int fd = open(aside, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    int saved = fd >= 0 && write_all(fd, buf + from, len - from) == RT_OK && fsync(fd) == 0;
    if (fd >= 0)
        close(fd);
    if (saved && ftruncate(j->fd, (off_t)from) == 0 && fsync(j->fd) == 0) {
        rt_report_add(report, RT_REPORT_WARNING,
                      "%s:%zu: an incomplete last line (a crash during a write) was set aside in %s",
                      j->path, line, aside);
        j->size = (off_t)from;
    } else {
        /* Appending after bytes that are not a whole line would glue the next operation to
         * them, and the next open would set both aside: refuse changes instead. */
        char why[300];
        snprintf(why, sizeof why, "an incomplete last line could not be set aside (%s)", strerror(errno));
        rt_report_add(report, RT_REPORT_WARNING, "%s:%zu: %s; the journal is read-only", j->path, line, why);
        free(j->readonly);
        j->readonly = rt_strdup(why);
    }
    free(aside);
}

typedef struct bad_line {
    size_t line;
    char why[200];
} bad_line;

/* Parses every line; reports bad ones; repairs a torn tail when writable. Bad lines followed by
 * an operation were written by hand (or by another program) and are skipped; bad bytes after
 * the last operation are what a crash in the middle of an append leaves. */
static void read_ops(rt_journal *j, const char *buf, size_t len, rt_op **ops, size_t *nops,
                     rt_report *report)
{
    size_t cap = 0, good_end = 0, good_line = 0, line = 0, nbad = 0, badcap = 0;
    bad_line *bad = NULL;
    int good_has_nl = 1;
    uint64_t max_seq = 0;
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
            RT_GROW(*ops, cap, *nops + 1);
            (*ops)[(*nops)++] = op;
            good_end = nl ? end + 1 : end;
            good_line = line;
            good_has_nl = nl != NULL;
        } else {
            RT_GROW(bad, badcap, nbad + 1);
            bad[nbad].line = line;
            size_t n = strnlen(e.msg, sizeof bad->why - 1);
            memcpy(bad[nbad].why, e.msg, n);   /* a long reason is cut, which is fine here */
            bad[nbad++].why[n] = 0;
        }
        pos = nl ? end + 1 : len;
    }
    j->next_seq = max_seq + 1;
    j->size = (off_t)len;
    size_t torn = 0;
    for (size_t b = 0; b < nbad; b++) {
        if (bad[b].line > good_line) {
            torn = bad[b].line;
            break;
        }
        rt_report_add(report, RT_REPORT_WARNING, "%s:%zu: not an operation (%s); skipped",
                      j->path, bad[b].line, bad[b].why);
    }
    free(bad);
    if (torn) {
        if (j->fd >= 0)
            set_aside(j, buf, good_end, len, torn, report);
        else
            rt_report_add(report, RT_REPORT_WARNING, "%s:%zu: an incomplete last line is ignored "
                          "(read-only)", j->path, torn);
    }
    if (!good_has_nl && j->fd >= 0 && (size_t)j->size == good_end) {
        /* The last operation lacks its newline: complete it so the next append starts a line. */
        if (write_all(j->fd, "\n", 1) == RT_OK && fsync(j->fd) == 0)
            j->size++;
    }
}

static rt_status open_common(rt_journal **out, const char *dir, const char *annotator, int lock,
                             rt_op **ops, size_t *nops, rt_report *report, rt_err *err)
{
    *out = NULL;
    *ops = NULL;
    *nops = 0;
    if (!valid_name(annotator))
        return rt_err_set(err, RT_EUSAGE, "annotator name \"%s\" cannot name a file (no '/', no leading '.')",
                          annotator ? annotator : "");
    rt_journal *j = rt_calloc(1, sizeof *j);
    j->fd = j->lock_fd = -1;
    j->path = rt_malloc(strlen(dir) + strlen(annotator) + 8);
    sprintf(j->path, "%s/%s.jsonl", dir, annotator);
    rt_err e;
    if (lock && mkdirs(dir, &e) != RT_OK) {
        j->readonly = rt_strdup(e.msg);   /* browsing still works; changes cannot be kept */
    } else if (lock) {
        take_lock(j);
    } else {
        j->readonly = rt_strdup("opened read-only");
    }
    struct stat sb;
    int existed = stat(j->path, &sb) == 0;
    if (!j->readonly) {
        j->fd = open(j->path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        if (j->fd < 0) {
            rt_err_set(err, RT_EIO, "%s: %s", j->path, strerror(errno));
            rt_journal_close(&j);
            return RT_EIO;
        }
        if (!existed)
            fsync_dir(dir);
    }
    int rfd = j->fd >= 0 ? j->fd : open(j->path, O_RDONLY | O_CLOEXEC);
    if (rfd < 0 && existed) {
        rt_err_set(err, RT_EINPUT, "%s: %s", j->path, strerror(errno));
        rt_journal_close(&j);
        return RT_EINPUT;
    }
    size_t len = 0;
    char *buf = rfd >= 0 ? read_fd(rfd, &len) : rt_calloc(1, 1);
    if (rfd >= 0 && rfd != j->fd)
        close(rfd);
    read_ops(j, buf, len, ops, nops, report);
    free(buf);
    if (*nops)
        rt_report_add(report, RT_REPORT_INFO, "%s: %zu operations", j->path, *nops);
    *out = j;
    return RT_OK;
}

rt_status rt_journal_open(rt_journal **out, const char *dir, const char *annotator, rt_op **ops,
                          size_t *nops, rt_report *report, rt_err *err)
{
    return open_common(out, dir, annotator, 1, ops, nops, report, err);
}

rt_status rt_journal_open_readonly(rt_journal **out, const char *dir, const char *annotator,
                                   rt_op **ops, size_t *nops, rt_report *report, rt_err *err)
{
    return open_common(out, dir, annotator, 0, ops, nops, report, err);
}

void rt_journal_close(rt_journal **jp)
{
    if (!jp || !*jp)
        return;
    rt_journal *j = *jp;
    if (j->fd >= 0)
        close(j->fd);
    if (j->lock_fd >= 0)
        close(j->lock_fd);   /* releases the lock */
    free(j->path);
    free(j->readonly);
    free(j);
    *jp = NULL;
}

const char *rt_journal_readonly(const rt_journal *j) { return j->readonly; }
const char *rt_journal_path(const rt_journal *j) { return j->path; }
uint64_t rt_journal_next_seq(const rt_journal *j) { return j->next_seq; }

rt_status rt_journal_append(rt_journal *j, rt_op *op, rt_err *err)
{
    if (j->readonly)
        return rt_err_set(err, RT_ELOCKED, "read-only: %s", j->readonly);
    op->seq = j->next_seq;
    op->time_ms = rt_journal_now_ms();
    char *line = rt_op_to_json(op);
    rt_status st = write_all(j->fd, line, strlen(line));
    if (st == RT_OK && fsync(j->fd) != 0)
        st = RT_EIO;
    if (st != RT_OK) {
        int e = errno;
        /* Take back whatever reached the file, so that nothing unacknowledged is replayed. */
        if (ftruncate(j->fd, j->size) == 0)
            fsync(j->fd);
        rt_err_set(err, RT_EIO, "%s: the change was not saved: %s", j->path, strerror(e));
    } else {
        j->size += (off_t)strlen(line);
        j->next_seq++;
    }
    free(line);
    return st;
}
