/* rt_file — durable writes: whole writes, fsync'd appends, folder syncs, mkdir -p, and output
 * files replaced atomically (or written in place when they are devices or pipes). */
#include "config.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "rt_file.h"
#include "rt_mem.h"
#include "rt_safeout.h"

int rt_file_write_all(int fd, const void *buf, size_t len)
{
    const char *p = buf;
    while (len) {
        /* at most 1 GiB a call: some kernels cap a single write below SSIZE_MAX */
        ssize_t w = write(fd, p, len > ((size_t)1 << 30) ? (size_t)1 << 30 : len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (w == 0)
                errno = EIO;
            return -1;
        }
        p += w;
        len -= (size_t)w;
    }
    return 0;
}

rt_status rt_file_append(int fd, off_t *size, const void *buf, size_t len, const char *path,
                         rt_err *err)
{
    if (rt_file_write_all(fd, buf, len) == 0 && fsync(fd) == 0) {
        *size += (off_t)len;
        return RT_OK;
    }
    int e = errno;
    /* Take back whatever reached the file, so that nothing unacknowledged is read back later. */
    if (ftruncate(fd, *size) == 0)
        (void)fsync(fd);
    return rt_err_set(err, RT_EIO, "%s: the change was not saved: %s", path, strerror(e));
}

int rt_file_create_at(int dirfd, const char *name, const void *buf, size_t len)
{
    int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0)
        return -1;
    int ok = rt_file_write_all(fd, buf, len) == 0 && fsync(fd) == 0;
    int e = errno;
    close(fd);
    if (!ok) {
        (void)unlinkat(dirfd, name, 0);   /* never leave a partial copy behind */
        errno = e;
        return -1;
    }
    return 0;
}

int rt_file_truncate(int fd, off_t size)
{
    return ftruncate(fd, size) == 0 && fsync(fd) == 0 ? 0 : -1;
}

void rt_file_sync_dirfd(int dirfd)
{
    if (dirfd >= 0)
        (void)fsync(dirfd);
}

static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? rt_strndup(path, slash == path ? 1 : (size_t)(slash - path)) : rt_strdup(".");
}

void rt_file_sync_dir_of(const char *path)
{
    char *dir = dir_of(path);
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        rt_file_sync_dirfd(fd);
        close(fd);
    }
    free(dir);
}

rt_status rt_file_mkdirs(const char *dir, mode_t mode, rt_err *err)
{
    char *p = rt_strdup(dir);
    rt_status st = RT_OK;
    for (char *s = p + 1; st == RT_OK; s++) {
        if (*s != '/' && *s)
            continue;
        char c = *s;
        *s = 0;
        if (mkdir(p, mode) != 0 && errno != EEXIST)
            st = rt_err_set(err, RT_EIO, "%s: cannot create the folder: %s", p, strerror(errno));
        *s = c;
        if (!c)
            break;
    }
    free(p);
    return st;
}

/* ---- output files ----------------------------------------------------------------------- */

struct rt_outfile {
    char *path, *tmp;   /* tmp NULL: written in place (a device, FIFO or socket) */
    FILE *fp;
    int tty_fd;         /* a terminal written through rt_safeout: closed after fp, or -1 */
};

/* Removes NAME.tmp-PID-N in dir for every PID that is no longer a process: what a killed
 * export or pool left behind. Only regular files of exactly that shape are touched. */
/* Removes name.tmp-PID-N temporaries in the folder dirfd whose process is dead (regular files
 * only): what a killed writer left behind. */
static void sweep_stale_at(int dirfd, const char *name)
{
    int dup_fd = dup(dirfd);
    DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
    if (!d) {
        if (dup_fd >= 0)
            close(dup_fd);
        return;
    }
    rewinddir(d);
    size_t nl = strlen(name);
    for (struct dirent *e; (e = readdir(d));) {
        const char *s = e->d_name;
        if (strncmp(s, name, nl) != 0 || strncmp(s + nl, ".tmp-", 5) != 0)
            continue;
        char *end;
        long pid = strtol(s + nl + 5, &end, 10);
        if (end == s + nl + 5 || *end != '-' || pid <= 0 || pid == (long)getpid())
            continue;
        const char *n = end + 1;
        if (!*n || n[strspn(n, "0123456789")])
            continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;   /* alive, or not ours to judge */
        struct stat sb;
        if (fstatat(dirfd, s, &sb, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(sb.st_mode))
            (void)unlinkat(dirfd, s, 0);
    }
    closedir(d);
}

static void sweep_stale(const char *dir, const char *name)
{
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        sweep_stale_at(dfd, name);
        close(dfd);
    }
}

static _Atomic unsigned counter;   /* the workspace writes its cache while a collection thread writes its index */

int rt_file_replace_at(int dirfd, const char *name, const void *buf, size_t len, mode_t mode, int flags,
                       int *newfd)
{
    char tmp[512];
    if (strlen(name) > 400) {
        errno = ENAMETOOLONG;
        return -1;
    }
    sweep_stale_at(dirfd, name);
    int fd = -1;
    for (int tries = 0; fd < 0 && tries < 100; tries++) {
        snprintf(tmp, sizeof tmp, "%s.tmp-%ld-%u", name, (long)getpid(), counter++);
        fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
        if (fd < 0 && errno != EEXIST)
            return -1;
    }
    if (fd < 0)
        return -1;
    int ok = fchmod(fd, mode) == 0 && rt_file_write_all(fd, buf, len) == 0 && fsync(fd) == 0;
    int e = errno;
    close(fd);
    int nfd = -1;
    if (ok && newfd && (nfd = openat(dirfd, tmp, flags | O_NOFOLLOW | O_CLOEXEC)) < 0)
        ok = 0, e = errno;
    if (ok && renameat(dirfd, tmp, dirfd, name) != 0)
        ok = 0, e = errno;
    if (!ok) {
        if (nfd >= 0)
            close(nfd);
        (void)unlinkat(dirfd, tmp, 0);
        errno = e;
        return -1;
    }
    rt_file_sync_dirfd(dirfd);
    if (newfd)
        *newfd = nfd;
    return 0;
}

static rt_outfile *new_outfile(const char *path, char *tmp, int fd, rt_err *err, rt_status *st)
{
    /* -o /dev/stdout or /dev/tty on a terminal: a terminal gets no raw control bytes (the
     * filter does not own the descriptor: it is closed after the stream) */
    int tty = !tmp && isatty(fd);
    FILE *fp = tty ? rt_safeout_open(fd) : fdopen(fd, "w");
    if (!fp) {
        *st = rt_err_set(err, RT_EIO, "%s: cannot write: %s", path, strerror(errno));
        close(fd);
        if (tmp)
            unlink(tmp);
        free(tmp);
        return NULL;
    }
    rt_outfile *f = rt_calloc(1, sizeof *f);
    f->path = rt_strdup(path);
    f->tmp = tmp;
    f->fp = fp;
    f->tty_fd = tty ? fd : -1;
    *st = RT_OK;
    return f;
}

rt_status rt_outfile_open(rt_outfile **out, const char *path, rt_err *err)
{
    *out = NULL;
    if (!*path)   /* -o "" (an unset variable, say): no file to name in the error */
        return rt_err_set(err, RT_EUSAGE, "the output file name is empty");
    struct stat lsb, sb;
    int exists = lstat(path, &lsb) == 0, have_mode = 0;
    rt_status st;
    if (exists && S_ISLNK(lsb.st_mode)) {
        if (stat(path, &sb) != 0 || S_ISREG(sb.st_mode) || S_ISDIR(sb.st_mode))
            return rt_err_set(err, RT_EUSAGE, "%s: is a symbolic link; retriage does not write through "
                              "links (give the real path)", path);
        lsb = sb;   /* a link to a device or a pipe (/dev/stdout): written in place below */
    }
    if (exists && S_ISDIR(lsb.st_mode))
        return rt_err_set(err, RT_EUSAGE, "%s: is a folder", path);
    if (exists && !S_ISREG(lsb.st_mode)) {
        int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
        if (fd < 0)
            return rt_err_set(err, RT_EIO, "%s: cannot write: %s", path, strerror(errno));
        *out = new_outfile(path, NULL, fd, err, &st);
        return st;
    }
    if (exists)
        have_mode = 1;
    char *dir = dir_of(path);
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    sweep_stale(dir, base);
    free(dir);
    size_t len = strlen(path) + 64;
    char *tmp = rt_malloc(len);
    int fd = -1;
    for (int tries = 0; fd < 0 && tries < 100; tries++) {
        snprintf(tmp, len, "%s.tmp-%ld-%u", path, (long)getpid(), counter++);
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0) {
        st = rt_err_set(err, RT_EIO, "%s: cannot create a file beside it: %s", path, strerror(errno));
        free(tmp);
        return st;
    }
    if (have_mode)
        (void)fchmod(fd, lsb.st_mode & 07777);
    *out = new_outfile(path, tmp, fd, err, &st);
    return st;
}

FILE *rt_outfile_stream(const rt_outfile *f) { return f->fp; }

static void free_outfile(rt_outfile **fp)
{
    if ((*fp)->tty_fd >= 0)
        close((*fp)->tty_fd);
    free((*fp)->path);
    free((*fp)->tmp);
    free(*fp);
    *fp = NULL;
}

void rt_outfile_discard(rt_outfile **fp)
{
    if (!*fp)
        return;
    fclose((*fp)->fp);
    if ((*fp)->tmp)
        unlink((*fp)->tmp);
    free_outfile(fp);
}

rt_status rt_outfile_commit(rt_outfile **fp, rt_err *err)
{
    rt_outfile *f = *fp;
    int e = 0;
    if (fflush(f->fp) != 0)
        e = errno;
    else if (ferror(f->fp))
        e = EIO;   /* an earlier write failed; its errno is long gone */
    else if (f->tmp && fsync(fileno(f->fp)) != 0)
        e = errno;
    if (fclose(f->fp) != 0 && !e)
        e = errno;
    if (!e && f->tmp && rename(f->tmp, f->path) != 0)
        e = errno;
    rt_status st = RT_OK;
    if (e) {
        if (f->tmp)
            unlink(f->tmp);
        st = rt_err_set(err, RT_EIO, "%s: cannot write: %s", f->path, strerror(e));
    } else if (f->tmp) {
        rt_file_sync_dir_of(f->path);
    }
    free_outfile(fp);
    return st;
}

char *rt_file_xdg_dir(const char *var, const char *fallback, const char *what)
{
    const char *x = getenv(var), *home = getenv("HOME");
    char buf[PATH_MAX];
    int n;
    if (x && x[0] == '/')
        n = snprintf(buf, sizeof buf, "%s/retriage/%s", x, what);
    else if (home && home[0] == '/')
        n = snprintf(buf, sizeof buf, "%s/%s/retriage/%s", home, fallback, what);
    else
        return NULL;
    return n > 0 && (size_t)n < sizeof buf ? rt_strdup(buf) : NULL;
}

char *rt_file_cache_dir(const char *what) { return rt_file_xdg_dir("XDG_CACHE_HOME", ".cache", what); }

void rt_file_sweep_stale_at(int dirfd, const char *name)
{
    sweep_stale_at(dirfd, name);
}

void rt_file_test_hold(const char *path)
{
    const struct timespec tick = {0, 10 * 1000 * 1000};
    for (int i = 0; path && *path && i < 12000 && access(path, F_OK) != 0; i++)
        nanosleep(&tick, NULL);
}
