/* rt_outguard — refusing output targets that are inputs, journals, locks or caches; the files are
 * told apart by device and inode, never by how their path is spelled. */
#include "config.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "rt_answers.h"
#include "rt_collection.h"
#include "rt_mem.h"
#include "rt_op.h"
#include "rt_facets.h"
#include "rt_outguard.h"
#include "rt_qrels.h"
#include "rt_reader.h"
#include "rt_run.h"
#include "rt_session.h"
#include "rt_wscache.h"
#include "rt_workspace.h"

typedef struct guarded {
    dev_t dev;
    ino_t ino;
    const char *what;   /* static */
    int journal_dir;    /* a folder of journals rather than a file */
} guarded;

struct rt_outguard {
    guarded *g;
    size_t n, cap;
};

rt_outguard *rt_outguard_new(void) { return rt_calloc(1, sizeof(rt_outguard)); }

void rt_outguard_free(rt_outguard **gp)
{
    if (!gp || !*gp)
        return;
    free((*gp)->g);
    free(*gp);
    *gp = NULL;
}

static void add_stat(rt_outguard *g, const char *path, const char *what, int dir)
{
    struct stat sb;
    if (!g || !path || !*path || stat(path, &sb) != 0)
        return;   /* nothing there yet: nothing to lose */
    RT_GROW(g->g, g->cap, g->n + 1);
    g->g[g->n++] = (guarded){sb.st_dev, sb.st_ino, what, dir};
}

void rt_outguard_add(rt_outguard *g, const char *path, const char *what) { add_stat(g, path, what, 0); }

void rt_outguard_add_journal_dir(rt_outguard *g, const char *dir) { add_stat(g, dir, "a journal folder", 1); }

/* path resolved against the folder of the file base (a new string). */
static char *beside(const char *base, const char *path)
{
    const char *slash = strrchr(base, '/');
    if (path[0] == '/' || !slash)
        return rt_strdup(path);
    size_t n = (size_t)(slash - base) + 1 + strlen(path) + 1;
    char *s = rt_malloc(n);
    snprintf(s, n, "%.*s/%s", (int)(slash - base), base, path);
    return s;
}

static void add_named(rt_outguard *g, const char *ws_path, const cJSON *o, const char *key, const char *what,
                      int dir)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (cJSON_IsString(v) && v->valuestring[0]) {
        char *p = beside(ws_path, v->valuestring);
        add_stat(g, p, what, dir);
        free(p);
    }
}

/* Every file a workspace JSON file names: what a later open reads, whether or not this one
 * loaded it yet (a deferred collection). A file that cannot be read adds nothing. */
static void add_workspace_json(rt_outguard *g, const char *path)
{
    enum { MAX_JSON = 16 << 20 };   /* a workspace file is a page of JSON; beyond this, skipped */
    /* Non-blocking: a workspace given as a named pipe was read once by the open, and opening it
     * again would wait for a writer that never comes. Only a regular file is read again. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    struct stat sb;
    if (fd < 0 || fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_size > MAX_JSON) {
        if (fd >= 0)
            close(fd);
        return;
    }
    char *buf = rt_malloc((size_t)sb.st_size + 1);
    ssize_t got = pread(fd, buf, (size_t)sb.st_size, 0);
    close(fd);
    size_t n = got > 0 ? (size_t)got : 0;
    buf[n] = 0;
    cJSON *o = cJSON_Parse(buf);
    free(buf);
    if (!cJSON_IsObject(o)) {
        cJSON_Delete(o);
        return;
    }
    add_named(g, path, o, "queries", "the queries", 0);
    add_named(g, path, o, "collection", "the collection", 0);
    add_named(g, path, o, "qrels", "the base qrels", 0);
    add_named(g, path, o, "facets", "the facets", 0);
    add_named(g, path, o, "answers", "the answers", 0);
    add_named(g, path, o, "dbqa", "the DBQA file", 0);
    add_named(g, path, o, "taxonomy", "the taxonomy", 0);
    add_named(g, path, o, "journal_dir", NULL, 1);
    const cJSON *leak = cJSON_GetObjectItemCaseSensitive(o, "leakage");
    add_named(g, path, leak, "train_queries", "the training queries", 0);
    add_named(g, path, leak, "train_embeddings", "the training embeddings", 0);
    add_named(g, path, leak, "test_embeddings", "the test embeddings", 0);
    const cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(o, "runs")) {
        if (cJSON_IsString(r)) {
            char *p = beside(path, r->valuestring);
            add_stat(g, p, "a run", 0);
            free(p);
        } else {
            add_named(g, path, r, "path", "a run", 0);
        }
    }
    cJSON_Delete(o);
}

void rt_outguard_add_workspace(rt_outguard *g, const rt_workspace *ws)
{
    if (!ws)
        return;
    if (ws->path) {
        add_stat(g, ws->path, "the workspace file", 0);
        add_workspace_json(g, ws->path);
    }
    if (ws->qrels)
        add_stat(g, rt_qrels_path(ws->qrels), "the base qrels", 0);
    for (size_t r = 0; r < ws->nruns; r++)
        if (ws->runs[r].run)
            add_stat(g, rt_run_path(ws->runs[r].run), "a run", 0);
    if (ws->collection) {
        add_stat(g, rt_collection_path(ws->collection), "the collection", 0);
        add_stat(g, rt_collection_index_path(ws->collection), "the collection's index", 0);
    }
    if (ws->answers)
        add_stat(g, rt_answers_path(ws->answers), "the answers", 0);
    if (ws->cache)
        add_stat(g, rt_wscache_path(ws->cache), "the workspace cache", 0);
    if (ws->facets)
        add_stat(g, ws->facets->path, "the facets", 0);
    add_stat(g, ws->leak.queries_path, "the queries", 0);
    add_stat(g, ws->leak.train_queries, "the training queries", 0);
    add_stat(g, ws->leak.train_emb, "the training embeddings", 0);
    add_stat(g, ws->leak.test_emb, "the test embeddings", 0);
    if (ws->journal_dir)
        add_stat(g, ws->journal_dir, NULL, 1);
}

void rt_outguard_add_session(rt_outguard *g, const rt_session *s)
{
    if (!s)
        return;
    rt_outguard_add_workspace(g, s->ws);
    rt_outguard_add_journal_dir(g, s->journal_dir);
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

static int blank_line(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
            return 0;
    return 1;
}

/* Whether the regular file name in dirfd (AT_FDCWD: name is a path) is a journal by the rule
 * rt_journal_open reads one by: its first line that is not blank is an operation, read whole
 * however long (a note of 20 KB), wherever the file lies, whatever RETRIAGE_JSON_MAX says; a
 * line longer than the default input limit (or a higher one set) is not read whole. */
static int is_journal_at(int dirfd, const char *name)
{
    int fd = openat(dirfd, name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return 0;
    struct stat sb;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        close(fd);
        return 0;
    }
    /* Not below the default limit: RETRIAGE_JSON_MAX set low stops this process reading a long
     * line, never makes a journal fair game. */
    size_t limit = rt_input_max() > RT_INPUT_MAX_DEFAULT ? rt_input_max() : RT_INPUT_MAX_DEFAULT;
    size_t cap = 16384, len = 0, start = 0;
    char *buf = rt_malloc(cap);
    int found = 0, done = 0, cut = 0;   /* cut: the line's leading white space was let go */
    while (!done) {
        if (len == cap) {
            if (cap - start > limit) {
                done = 1;   /* a first line past the limit: not an operation */
                break;
            }
            if (start) {
                memmove(buf, buf + start, len - start);
                len -= start, start = 0;
            } else {
                cap = cap > SIZE_MAX / 2 ? SIZE_MAX : cap * 2;
                buf = rt_realloc(buf, cap);
            }
            continue;
        }
        ssize_t n = read(fd, buf + len, cap - len);
        int eof = n <= 0;
        len += n > 0 ? (size_t)n : 0;
        /* the complete lines read so far (and at the end of the file, the last one) */
        for (;;) {
            const char *nl = memchr(buf + start, '\n', len - start);
            if (!nl && !eof) {
                /* An operation is a JSON object without NUL bytes: a line begun otherwise (a
                 * one-line JSON array export, a TSV, a zero-filled file) is decided without
                 * reading the rest of it, and white space before anything is not kept. */
                size_t k = start;
                if (!cut && len - start < 3 && memcmp(buf + start, "\xEF\xBB\xBF", len - start) == 0)
                    break;   /* maybe a byte order mark: read on */
                if (!cut && len - start >= 3 && memcmp(buf + start, "\xEF\xBB\xBF", 3) == 0)
                    k += 3;   /* cJSON skips a byte order mark */
                while (k < len && buf[k] != 0 && (unsigned char)buf[k] <= ' ')
                    k++;
                if (k < len && (buf[k] != '{' || memchr(buf + k, 0, len - k)))
                    done = 1;   /* not blank, not an object: the first line is no operation */
                else if (k == len && k - start > 4096 && blank_line(buf + start, k - start))
                    start = len, cut = 1;
                break;
            }
            size_t end = nl ? (size_t)(nl - buf) : len;
            if (!blank_line(buf + start, end - start)) {
                rt_op op;
                rt_err e;
                memset(&op, 0, sizeof op);
                found = rt_op_from_json_full(&op, buf + start, end - start, &e) == RT_OK;
                rt_op_clear(&op);
                done = 1;
                break;
            }
            if (!nl) {
                done = 1;   /* only blank lines */
                break;
            }
            start = end + 1, cut = 0;
        }
        if (eof)
            done = 1;
    }
    free(buf);
    close(fd);
    return found;
}

/* Whether the folder dirfd holds a journal: a journal's lock file or a NAME.jsonl that begins
 * with an operation (the team reads every NAME.jsonl there). */
static int holds_journals(int dirfd)
{
    int fd = dup(dirfd);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0)
            close(fd);
        return 0;
    }
    int found = 0;
    for (struct dirent *e; !found && (e = readdir(d));)
        found = e->d_name[0] != '.' && (ends_with(e->d_name, ".jsonl.lock") ||
                                        (ends_with(e->d_name, ".jsonl") && is_journal_at(dirfd, e->d_name)));
    closedir(d);
    return found;
}

/* Whether some process holds a lock (flock or POSIX) on the file of sb: /proc/locks names each
 * lock's file as MAJOR:MINOR:INODE. Reading it takes no lock of ours, so a workbench opening its
 * journal at this moment never finds it taken by this check. */
static int lock_held(const struct stat *sb)
{
    FILE *f = fopen("/proc/locks", "re");
    if (!f)
        return 0;
    char line[256], want[96];
    snprintf(want, sizeof want, " %02x:%02x:%" PRIuMAX " ", major(sb->st_dev), minor(sb->st_dev),
             (uintmax_t)sb->st_ino);
    int held = 0;
    while (!held && fgets(line, sizeof line, f))
        held = strstr(line, want) != NULL;
    fclose(f);
    return held;
}

/* Whether the folder dir is retriage's cache folder or inside it (its indexes, workspace caches,
 * decompressed inputs): each of dir's real ancestors is compared with it by identity. */
static int under_cache(const char *dir)
{
    char *cache = rt_file_cache_dir("");
    struct stat cs, ds;
    int under = 0;
    char *real = cache && stat(cache, &cs) == 0 ? realpath(dir, NULL) : NULL;
    while (real && !under) {
        under = stat(real, &ds) == 0 && ds.st_dev == cs.st_dev && ds.st_ino == cs.st_ino;
        char *slash = strrchr(real, '/');
        if (!slash || slash == real)
            break;   /* "/" itself is never the cache */
        *slash = 0;
    }
    free(real);
    free(cache);
    return under;
}

static const guarded *find(const rt_outguard *g, const struct stat *sb, int dir)
{
    for (size_t i = 0; g && i < g->n; i++)
        if (g->g[i].dev == sb->st_dev && g->g[i].ino == sb->st_ino && g->g[i].journal_dir == dir)
            return &g->g[i];
    return NULL;
}

static rt_status refuse(rt_err *err, const char *path, const char *why)
{
    return rt_err_set(err, RT_EINPUT, "%s: will not write over %s; give another output file", path, why);
}

/* Whether name, in a journal folder, is one retriage reads or keeps there: a NAME.jsonl (the team
 * reads each as a journal), a lock, an import's marker, and what is kept beside a journal under
 * NAME.jsonl.SOMETHING (a torn tail or an unfinished import set aside, an import's staged copy
 * .NAME.jsonl.import-PID, a temporary). */
static int journal_folder_name(const char *name)
{
    return ends_with(name, ".jsonl") || ends_with(name, ".lock") || strcmp(name, ".import.txn") == 0 ||
           strstr(name, ".jsonl.") != NULL;
}

/* The checks on the folder the target would land in (which exists: the target may not). */
static rt_status check_folder(const rt_outguard *g, const char *path, const char *name, rt_err *err)
{
    size_t dl = (size_t)(name - path);
    char *dir = dl ? rt_strndup(path, dl) : rt_strdup(".");
    int dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    struct stat ds;
    rt_status st = RT_OK;
    if (dirfd >= 0 && fstat(dirfd, &ds) == 0) {
        int jdir = find(g, &ds, 1) != NULL;
        if (journal_folder_name(name) && (jdir || holds_journals(dirfd)))
            st = rt_err_set(err, RT_EINPUT, "%s: will not write a .jsonl or .lock file, or a file retriage keeps "
                            "beside a journal, into a journal folder (the team reads every NAME.jsonl there as a "
                            "journal); give another output file", path);
        else if (under_cache(dir))
            st = refuse(err, path, "retriage's cache folder");
    }
    if (dirfd >= 0)
        close(dirfd);
    free(dir);
    return st;
}

rt_status rt_outguard_check(const rt_outguard *g, const char *path, rt_err *err)
{
    if (!path || strcmp(path, "-") == 0)
        return RT_OK;
    struct stat sb;
    int exists = stat(path, &sb) == 0;
    if (exists && !S_ISREG(sb.st_mode))
        return RT_OK;   /* a device or pipe is written in place; a folder is refused when opened */
    const char *slash = strrchr(path, '/'), *name = slash ? slash + 1 : path;
    if (ends_with(name, ".jsonl.lock"))
        return refuse(err, path, "a journal's lock file");
    if (ends_with(name, ".rtws") || ends_with(name, ".rtidx"))
        return rt_err_set(err, RT_EINPUT, "%s: will not write a file named as retriage's caches are (.rtws, .rtidx), "
                          "which it would read as one; give another output file", path);
    if (exists) {
        const guarded *p = find(g, &sb, 0);
        if (p) {
            char why[160];
            snprintf(why, sizeof why, "%s, which this command reads", p->what);
            return refuse(err, path, why);
        }
        if (lock_held(&sb))
            return refuse(err, path, "a file a process holds a lock on");
        size_t n = strlen(path) + sizeof ".lock";
        char *lock = rt_malloc(n);
        snprintf(lock, n, "%s.lock", path);
        struct stat ls;
        int has_lock = stat(lock, &ls) == 0;
        int held = has_lock && lock_held(&ls);
        free(lock);
        if (held)
            return refuse(err, path, "a journal open in a retriage (its .lock is held)");
        if (has_lock || is_journal_at(AT_FDCWD, path))
            return refuse(err, path, "a journal (retriage's record of annotations)");
    }
    return check_folder(g, path, name, err);
}

rt_status rt_outguard_open(rt_outfile **out, const char *path, const rt_outguard *g, rt_err *err)
{
    *out = NULL;
    rt_status st = rt_outguard_check(g, path, err);
    return st != RT_OK ? st : rt_outfile_open(out, path, err);
}
