/* rt_outfile — atomic replacement of an output file: temporary file, fsync, rename, folder sync. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt_mem.h"
#include "rt_outfile.h"

struct rt_outfile {
    char *path, *tmp;
    FILE *fp;
};

rt_status rt_outfile_open(rt_outfile **out, const char *path, rt_err *err)
{
    static unsigned counter;
    *out = NULL;
    size_t len = strlen(path) + 64;
    char *tmp = rt_malloc(len);
    int fd = -1;
    for (int tries = 0; fd < 0 && tries < 100; tries++) {
        snprintf(tmp, len, "%s.tmp-%ld-%u", path, (long)getpid(), counter++);
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0) {
        rt_status st = rt_err_set(err, RT_EIO, "%s: cannot create a file there: %s", path, strerror(errno));
        free(tmp);
        return st;
    }
    struct stat sb;
    if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode))
        (void)fchmod(fd, sb.st_mode & 07777);
    rt_outfile *f = rt_calloc(1, sizeof *f);
    f->path = rt_strdup(path);
    f->tmp = tmp;
    f->fp = fdopen(fd, "w");
    if (!f->fp) {
        close(fd);
        unlink(tmp);
        rt_status st = rt_err_set(err, RT_EIO, "%s: %s", path, strerror(errno));
        free(f->path);
        free(f->tmp);
        free(f);
        return st;
    }
    *out = f;
    return RT_OK;
}

FILE *rt_outfile_stream(const rt_outfile *f) { return f->fp; }

static void free_outfile(rt_outfile **fp)
{
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
    unlink((*fp)->tmp);
    free_outfile(fp);
}

/* Makes the rename itself durable. Best effort: some file systems refuse to sync a folder. */
static void sync_folder_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? rt_strndup(path, slash == path ? 1 : (size_t)(slash - path)) : rt_strdup(".");
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
    free(dir);
}

rt_status rt_outfile_commit(rt_outfile **fp, rt_err *err)
{
    rt_outfile *f = *fp;
    int e = 0;
    if (fflush(f->fp) != 0)
        e = errno;
    else if (ferror(f->fp))
        e = EIO;  /* an earlier write failed; its errno is long gone */
    else if (fsync(fileno(f->fp)) != 0)
        e = errno;
    if (fclose(f->fp) != 0 && !e)
        e = errno;
    if (!e && rename(f->tmp, f->path) != 0)
        e = errno;
    rt_status st = RT_OK;
    if (e) {
        unlink(f->tmp);
        st = rt_err_set(err, RT_EIO, "%s: writing failed: %s", f->path, strerror(e));
    } else {
        sync_folder_of(f->path);
    }
    free_outfile(fp);
    return st;
}
