/* rt_faiss — finds and opens retriage-faiss.so once (see rt_faiss.h). */
#include "config.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_faiss.h"

#define MODULE "retriage-faiss.so"

#ifndef RT_PKGLIBDIR
#define RT_PKGLIBDIR "/usr/local/lib/retriage"
#endif

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const rt_faiss_api *api;
static char why[PATH_MAX + 400];

static char module_set[PATH_MAX];   /* rt_faiss_set_module's, or empty */

void rt_faiss_set_module(const char *path)
{
    snprintf(module_set, sizeof module_set, "%s", path ? path : "");
}

/* Where the module is: rt_faiss_set_module's path, else beside the program when it is there, else
 * the package's library folder. */
static void module_path(char *path, size_t n)
{
    if (module_set[0]) {
        snprintf(path, n, "%s", module_set);
        return;
    }
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len > 0) {
        exe[len] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            if ((size_t)snprintf(path, n, "%s/%s", exe, MODULE) < n && access(path, F_OK) == 0)
                return;
        }
    }
    snprintf(path, n, "%s/%s", RT_PKGLIBDIR, MODULE);
}

static void load(void)
{
    char path[PATH_MAX];
    module_path(path, sizeof path);
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        snprintf(why, sizeof why, "the leakage search's Faiss module could not be loaded: %s",
                 e ? e : path);
        return;
    }
    const rt_faiss_api *a = dlsym(h, RT_FAISS_API_SYMBOL);
    if (!a || a->version != RT_FAISS_API_VERSION) {
        snprintf(why, sizeof why, "%s: not a Faiss module of this retriage (rebuild or reinstall it)",
                 path);
        dlclose(h);
        return;
    }
    api = a;   /* the module stays loaded to the end */
}

const rt_faiss_api *rt_faiss_load(rt_err *err)
{
    pthread_once(&once, load);
    if (!api)
        rt_err_set(err, RT_EINPUT, "%s", why);
    return api;
}
