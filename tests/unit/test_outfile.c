/* test_outfile — atomic output files: the target appears only on commit, whole; discard and
 * failures leave it as it was and no temporary file behind; an existing file keeps its mode. */
#include "config.h"

#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt_outfile.h"
#include "tap.h"

static char dir[] = "/tmp/rt_test_outfile_XXXXXX";

static char *slurp(const char *path)
{
    static char buf[256];
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static int entries(void)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

int main(void)
{
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 2;
    }
    char path[256], missing[256];
    snprintf(path, sizeof path, "%s/out.txt", dir);
    snprintf(missing, sizeof missing, "%s/no/such/folder/out.txt", dir);
    rt_err err;
    rt_outfile *f = NULL;

    ok(rt_outfile_open(&f, path, &err) == RT_OK && f, "open beside a new target");
    fputs("first\n", rt_outfile_stream(f));
    fflush(rt_outfile_stream(f));
    ok(access(path, F_OK) != 0, "before commit the target does not exist");
    is_int(entries(), 1, "one temporary file in the folder meanwhile");
    ok(rt_outfile_commit(&f, &err) == RT_OK && f == NULL, "commit");
    is_str(slurp(path), "first\n", "after commit the target holds the whole output");
    is_int(entries(), 1, "and no temporary file is left");

    chmod(path, 0640);
    ok(rt_outfile_open(&f, path, &err) == RT_OK, "open beside an existing target");
    fputs("second\n", rt_outfile_stream(f));
    rt_outfile_discard(&f);
    ok(f == NULL, "discard sets the pointer to NULL");
    is_str(slurp(path), "first\n", "discard leaves the target as it was");
    is_int(entries(), 1, "discard removes the temporary file");

    ok(rt_outfile_open(&f, path, &err) == RT_OK, "open again");
    fputs("third\n", rt_outfile_stream(f));
    ok(rt_outfile_commit(&f, &err) == RT_OK, "commit over an existing target");
    is_str(slurp(path), "third\n", "the target is replaced");
    struct stat sb;
    ok(stat(path, &sb) == 0 && (sb.st_mode & 0777) == 0640, "the target keeps its mode (0640)");

    rt_status st = rt_outfile_open(&f, missing, &err);
    ok(st == RT_EIO && f == NULL && strstr(err.msg, missing), "a missing folder: RT_EIO naming the path");
    rt_outfile_discard(&f);

    unlink(path);
    rmdir(dir);
    return tap_done();
}
