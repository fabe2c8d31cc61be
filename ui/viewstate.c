/* viewstate — the last view state and named views, as files of "KEY VALUE" lines in the journal
 * folder: NAME.view for an annotator's last state, views/NAME.view for a named one. A line is
 * taken back by the view that wrote it (view_ops.restore), so a file edited by hand can only do
 * what those actions do; nothing read from it reaches the screen but through them. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt_file.h"
#include "rt_mem.h"
#include "rt_path.h"
#include "rt_run.h"
#include "list.h"
#include "rt_utf8.h"
#include "view.h"
#include "viewstate.h"

#define HEADER "# retriage view state 1\n"
#define STATE_MAX (64 * 1024)

/* The views a state can put on screen (the others need more than a query to show). */
static const struct { const char *name; view_id v; } shown[] = {
    {"list", VIEW_LIST}, {"compare", VIEW_COMPARE}, {"metrics", VIEW_METRICS}, {"breakdown", VIEW_BREAKDOWN},
};

/* The folder and file name of the last state (name NULL) or of named view name; 0, or -1 when the
 * session has no journal folder. */
static int where(const app *a, const char *name, char *dir, size_t dn, char *file, size_t fn)
{
    const char *j = a->s->journal_dir;
    if (!j || !*j)
        return -1;
    snprintf(dir, dn, name ? "%s/views" : "%s", j);
    snprintf(file, fn, "%s.view", name ? name : a->s->annotator);
    return 0;
}

/* The state as lines: each view's part (the list's first: the others' take its query), then the
 * app's. Owned: the caller frees it. */
static char *render(app *a, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (!f)
        return NULL;
    fputs(HEADER, f);
    for (int v = 0; v < VIEW_COUNT; v++)
        if (a->state[v] && view_get((view_id)v)->save)
            view_get((view_id)v)->save(a, f);
    if (a->s->ws->nruns)
        fprintf(f, "run %s\n", rt_run_name(a->s->ws->runs[view_focused_run(a)].run));
    view_id on = a->view;
    for (int d = a->depth; d > 0 && on != VIEW_COMPARE && on != VIEW_METRICS && on != VIEW_BREAKDOWN; d--)
        on = a->stack[d - 1];   /* a view a state cannot show: the one below it */
    for (size_t i = 0; i < sizeof shown / sizeof shown[0]; i++)
        if (shown[i].v == on)
            fprintf(f, "view %s\n", shown[i].name);
    return fclose(f) == 0 ? buf : (free(buf), NULL);
}

int viewstate_is_fresh(app *a)
{
    size_t len;
    char *now = a->fresh_state ? render(a, &len) : NULL;
    int same = now && !strcmp(now, a->fresh_state);
    free(now);
    return same;
}

void viewstate_mark_fresh(app *a)
{
    size_t len;
    free(a->fresh_state);
    a->fresh_state = render(a, &len);
}

/* Whether name in dirfd may be replaced: absent, or a regular file starting with HEADER (one
 * retriage wrote). Otherwise why not in err. */
static int ours(int dirfd, const char *name, char *err, size_t n)
{
    struct stat sb;
    if (fstatat(dirfd, name, &sb, AT_SYMLINK_NOFOLLOW) != 0)
        return errno == ENOENT;
    char head[sizeof HEADER] = "";
    int fd = S_ISREG(sb.st_mode) ? openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK) : -1;
    ssize_t got = fd >= 0 ? read(fd, head, sizeof head - 1) : -1;
    if (fd >= 0)
        close(fd);
    if (got == (ssize_t)strlen(HEADER) && !memcmp(head, HEADER, strlen(HEADER)))
        return 1;
    snprintf(err, n, "%s is not a view state retriage wrote: left as it is", name);
    return 0;
}

static int write_state(app *a, const char *name, char *err, size_t n)
{
    char dir[4096], file[300];
    rt_err e;
    if (where(a, name, dir, sizeof dir, file, sizeof file) != 0)
        return snprintf(err, n, "this session has no journal folder"), -1;
    if (rt_file_mkdirs(dir, 0777, &e) != RT_OK)
        return snprintf(err, n, "%s", e.msg), -1;
    int dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dirfd < 0)
        return snprintf(err, n, "%s: %s", dir, strerror(errno)), -1;
    size_t len = 0;
    char *buf = render(a, &len);
    int rc = -1;
    if (!name && buf && a->fresh_state && !strcmp(buf, a->fresh_state)) {
        if (ours(dirfd, file, err, n))   /* as a first open shows it: nothing to restore next time */
            rc = unlinkat(dirfd, file, 0) == 0 || errno == ENOENT ? 0 : -1;
    } else if (buf && ours(dirfd, file, err, n)) {
        rc = rt_file_replace_at(dirfd, file, buf, len, 0644, O_RDONLY, NULL);
        if (rc != 0)
            snprintf(err, n, "%s/%s: %s", dir, file, strerror(errno));
    } else if (!buf) {
        snprintf(err, n, "out of memory");
    }
    free(buf);
    close(dirfd);
    return rc;
}

int viewstate_close(app *a, char *err, size_t n) { return write_state(a, NULL, err, n); }

/* The bytes of dir/file (at most STATE_MAX), NUL-terminated; NULL with why in err, or with
 * *absent set when there is no such file. Never through a link, never blocking on a pipe. */
static char *read_state(const char *dir, const char *file, int *absent, char *err, size_t n)
{
    char path[4400];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    *absent = 0;
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    struct stat sb;
    if (fd < 0 && errno == ENOENT)
        return *absent = 1, NULL;
    if (fd < 0 || fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_size > STATE_MAX) {
        snprintf(err, n, "%.400s: %s", path, fd < 0 ? strerror(errno) : !S_ISREG(sb.st_mode) ? "not a regular file"
                                                                                        : "larger than a view state");
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    char *buf = rt_malloc((size_t)sb.st_size + 1);
    ssize_t got = read(fd, buf, (size_t)sb.st_size);
    close(fd);
    buf[got > 0 ? got : 0] = '\0';
    if (got != sb.st_size || strncmp(buf, HEADER, strlen(HEADER)) != 0) {
        snprintf(err, n, "%.400s:1: not a view state retriage wrote (it starts \"%s\")", path, "# retriage view state 1");
        free(buf);
        return NULL;
    }
    return buf;
}

/* One line back: by the view whose key it is, else the app's run and view. 1 taken, -1 refused
 * (a->msg says why). */
static int restore_line(app *a, const char *key, const char *value)
{
    for (int v = 0; v < VIEW_COUNT; v++) {
        const view_ops *o = view_get((view_id)v);
        int r = o->restore && view_state(a, (view_id)v) ? o->restore(a, key, value) : 0;
        if (r)
            return r;
    }
    if (!strcmp(key, "run")) {
        size_t r = app_find_run(a, value);
        if (r == (size_t)-1)
            return app_message(a, 1, "no run \"%.80s\"", value), -1;
        a->col = r;
        return 1;
    }
    for (size_t i = 0; !strcmp(key, "view") && i < sizeof shown / sizeof shown[0]; i++)
        if (!strcmp(value, shown[i].name)) {
            if (shown[i].v != VIEW_LIST)
                app_push(a, shown[i].v);
            return 1;
        }
    app_message(a, 1, !strcmp(key, "view") ? "no view \"%.40s\" to restore" : "unknown setting \"%.40s\"",
                !strcmp(key, "view") ? value : key);
    return -1;
}

/* Whether line (len bytes) is text a view may take: UTF-8 without control characters. */
static int clean(const char *line, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)line[i] < 0x20 || line[i] == 0x7f)
            return 0;
    return rt_utf8_valid(line, len);
}

/* Applies the lines of buf (read from label), saying in said what was restored and in problem
 * the first line refused (FILE:LINE: why). */
static void apply(app *a, char *buf, const char *label, char *said, size_t sn, char *problem, size_t pn)
{
    size_t no = 1, o = 0;
    said[0] = problem[0] = '\0';
    for (char *line = buf + strlen(HEADER), *end; *line; line = end) {
        no++;
        end = strchr(line, '\n');
        end = end ? (*end = '\0', end + 1) : line + strlen(line);
        char *sp = strchr(line, ' ');
        if (!*line || line[0] == '#')
            continue;
        int r = -1;
        if (!clean(line, strlen(line)) || !sp)
            app_message(a, 1, "%s", sp ? "not UTF-8 text" : "expected KEY VALUE");
        else {
            *sp = '\0';
            r = restore_line(a, line, sp + 1);
        }
        if (r < 0 && !problem[0])
            snprintf(problem, pn, "%.300s:%zu: %.150s", label, no, a->msg);
        else if (r > 0 && strcmp(line, "contrast") && strcmp(line, "run") && strcmp(line, "delta") && o < sn &&
                 strcmp(sp + 1, "list") && strcmp(sp + 1, "order asc"))   /* what a first open shows */
            o += (size_t)snprintf(said + o, sn - o, "%s%s %s", o ? ", " : "", !strcmp(line, "focus") ? "query" : line,
                                  sp + 1);
    }
}

/* Restores the state in dir/file; 0, 1 when there is none, -1 when it cannot be read (message set). */
static int restore_from(app *a, const char *dir, const char *file, const char *what)
{
    char err[600], said[400], problem[500], label[4400];
    int absent;
    char *buf = read_state(dir, file, &absent, err, sizeof err);
    if (!buf) {
        if (!absent)
            app_message(a, 1, "%s not restored: %s", what, err);
        return absent ? 1 : -1;
    }
    snprintf(label, sizeof label, "%s/%s", dir, file);
    apply(a, buf, label, said, sizeof said, problem, sizeof problem);
    free(buf);
    a->msg_keep = 0;
    if (problem[0])
        app_message(a, 1, "%s: %s; not restored: %s", what, said[0] ? said : "nothing", problem);
    else
        app_message(a, 0, "%s: %s", what, said[0] ? said : "nothing");
    return 0;
}

void viewstate_open(app *a, int fresh)
{
    char dir[4096], file[300];
    viewstate_mark_fresh(a);
    if (fresh || where(a, NULL, dir, sizeof dir, file, sizeof file) != 0)
        return;
    char before[sizeof a->msg];
    int was_error = a->msg_error && a->msg[0];   /* read-only: said after what was restored */
    snprintf(before, sizeof before, "%s", a->msg);
    int r = restore_from(a, dir, file, "restored");
    if (r == 0 && !a->msg_error)   /* the way back, not only the view */
        snprintf(a->msg + strlen(a->msg), sizeof a->msg - strlen(a->msg), " (:fresh or --fresh starts fresh)");
    if (r == 0 && was_error) {
        snprintf(a->msg + strlen(a->msg), sizeof a->msg - strlen(a->msg), "; %s", before);
        a->msg_error = 1;
    }
}

/* Why name cannot name a view (NULL when it can): letters, digits, '-', '_' and '.', not first. */
static const char *bad_name(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > 64 || name[0] == '.')
        return "a view's name is 1 to 64 letters, digits, '-', '_' or '.', not starting with '.'";
    for (size_t i = 0; i < n; i++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.", name[i]))
            return "a view's name is 1 to 64 letters, digits, '-', '_' or '.', not starting with '.'";
    return NULL;
}

int act_view(app *a, const char *arg)
{
    char dir[4096], file[300], err[600];
    const char *name = arg && !strncmp(arg, "save ", 5) ? arg + 5 : arg;
    while (name && *name == ' ')
        name++;
    if (!name || !*name)
        return app_message(a, 1, "usage: :view save NAME | :view NAME (:views lists them)"), -1;
    if (bad_name(name))
        return app_message(a, 1, "%s", bad_name(name)), -1;
    if (name != arg) {
        if (write_state(a, name, err, sizeof err) != 0)
            return app_message(a, 1, "view %s not saved: %s", name, err), -1;
        return app_message(a, 0, "view %s saved (:view %s restores it)", name, name), 0;
    }
    if (where(a, name, dir, sizeof dir, file, sizeof file) != 0)
        return app_message(a, 1, "this session has no journal folder"), -1;
    char what[100];
    snprintf(what, sizeof what, "view %s", name);
    int r = restore_from(a, dir, file, what);
    if (r == 1)
        app_message(a, 1, "no view %s (:views lists them; :view save %s keeps this one)", name, name);
    return r == 0 && !a->msg_error ? 0 : -1;
}

int act_views(app *a, const char *arg)
{
    char dir[4096], file[300], list[400] = "";
    (void)arg;
    DIR *d = where(a, "x", dir, sizeof dir, file, sizeof file) == 0 ? opendir(dir) : NULL;
    size_t o = 0, count = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n <= 5 || strcmp(e->d_name + n - 5, ".view") || e->d_name[0] == '.')
            continue;
        e->d_name[n - 5] = '\0';
        if (bad_name(e->d_name))
            continue;   /* not one :view save wrote, and so not one :view takes */
        count++;
        if (o < sizeof list)
            o += (size_t)snprintf(list + o, sizeof list - o, "%s%s", o ? ", " : "", e->d_name);
    }
    if (d)
        closedir(d);
    if (!count)
        return app_message(a, 0, "no named views (:view save NAME keeps the one on screen)"), 0;
    return app_message(a, 0, "%zu view%s: %s", count, count == 1 ? "" : "s", list), 0;
}

int act_fresh(app *a, const char *arg)
{
    (void)arg;
    list_fresh(a);
    a->col = 0;
    app_message(a, 0, "fresh: the list as a first open shows it (:view NAME restores a named view)");
    return 0;
}
