/* rt_path — file-name pieces (rt_path.h); strings only, nothing is asked of the file system. */
#include "config.h"

#include <string.h>

#include "rt_mem.h"
#include "rt_path.h"

char *rt_path_stem(const char *path)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    const char *dot = strrchr(b, '.');
    size_t n = dot && dot != b ? (size_t)(dot - b) : strlen(b);
    return rt_strndup(b, n);
}

char *rt_path_dir(const char *path)
{
    const char *s = strrchr(path, '/');
    if (!s)
        return rt_strdup(".");
    if (s == path)
        return rt_strdup("/");
    return rt_strndup(path, (size_t)(s - path));
}

char *rt_path_join(const char *base, const char *rel)
{
    if (!base || !*base || rel[0] == '/')
        return rt_strdup(rel);
    size_t a = strlen(base), b = strlen(rel);
    char *p = rt_malloc(a + b + 2);
    memcpy(p, base, a);
    p[a] = '/';
    memcpy(p + a + 1, rel, b + 1);
    return p;
}
