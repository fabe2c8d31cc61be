/* rt_wskey — the journal folder of a workspace given by flags, keyed by its inputs. */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xxhash.h>

#include "rt_file.h"
#include "rt_mem.h"
#include "rt_wskey.h"

/* path made canonical: realpath, else absolute as given (a pipe's /dev/fd name, a file gone). */
static char *canonical(const char *path)
{
    char *r = realpath(path, NULL);
    if (r || path[0] == '/')
        return r ? r : rt_strdup(path);
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
        return rt_strdup(path);
    char *j = rt_malloc(strlen(cwd) + strlen(path) + 2);
    sprintf(j, "%s/%s", cwd, path);
    return j;
}

/* Adds one input, by its role, to the hash (the role keeps a qrels file from keying like the same
 * file given as queries). */
static void add(XXH3_state_t *h, const char *role, const char *path)
{
    if (!path)
        return;
    char *c = canonical(path);
    XXH3_64bits_update(h, role, strlen(role) + 1);
    XXH3_64bits_update(h, c, strlen(c) + 1);
    free(c);
}

static int by_string(const void *x, const void *y) { return strcmp(*(char *const *)x, *(char *const *)y); }

void rt_wskey_of(const rt_ws_spec *spec, char key[17])
{
    XXH3_state_t *h = XXH3_createState();
    XXH3_64bits_reset(h);
    add(h, "queries", spec->queries);
    add(h, "collection", spec->collection);
    add(h, "qrels", spec->qrels);
    add(h, "dbqa", spec->dbqa);
    char **runs = rt_calloc(spec->nruns + 1, sizeof *runs);
    for (size_t r = 0; r < spec->nruns; r++)
        runs[r] = canonical(spec->run_paths[r]);
    qsort(runs, spec->nruns, sizeof *runs, by_string);
    for (size_t r = 0; r < spec->nruns; r++) {
        add(h, "run", runs[r]);
        free(runs[r]);
    }
    free(runs);
    snprintf(key, 17, "%016llx", (unsigned long long)XXH3_64bits_digest(h));
    XXH3_freeState(h);
}

char *rt_wskey_journal_dir(const rt_ws_spec *spec)
{
    char key[17], what[32];
    rt_wskey_of(spec, key);
    snprintf(what, sizeof what, "journals/%s", key);
    return rt_file_xdg_dir("XDG_STATE_HOME", ".local/state", what);
}
