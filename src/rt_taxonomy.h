/* rt_taxonomy — the error categories an analyst tags with (DESIGN.md §7): groups of categories,
 * each with a stable id written to the journal, a display name and the key that tags it. The
 * default is the DuReader-retrieval error analysis; a workspace may replace it. */
#ifndef RT_TAXONOMY_H
#define RT_TAXONOMY_H

#include <stddef.h>

#include "rt_err.h"

/* Tags are kept as bit sets, so a taxonomy has at most this many categories. */
#define RT_TAX_MAX 64

typedef struct rt_category {
    char *id;          /* written to the journal: "entity", "false-negative", … */
    char *name;        /* shown: "entity mismatch" */
    char key;          /* the key that tags it ('1'…'9'), or 0 */
    int relabel;       /* tagging it offers to relabel the passage as relevant */
    size_t group;      /* index into groups */
} rt_category;

typedef struct rt_taxonomy {
    char **groups;
    size_t ngroups;
    rt_category cats[RT_TAX_MAX];
    size_t ncats;
} rt_taxonomy;

/* The default taxonomy of DESIGN.md §7. Owned: the caller frees it with rt_taxonomy_free. */
rt_taxonomy *rt_taxonomy_default(void);

/* Builds a taxonomy from a workspace's "taxonomy" value (a cJSON array, passed as void * so
 * this header does not need cJSON): [{"group": "…", "categories": [{"name": "…", "id": "…",
 * "key": "1", "relabel": true}, …]}, …]. id defaults to the name; key is optional. Errors name
 * path (the workspace file). */
rt_status rt_taxonomy_from_json(rt_taxonomy **out, const void *json, const char *path, rt_err *err);

void rt_taxonomy_free(rt_taxonomy **t);

/* The index of the category with this id (or, failing that, this name or 1-based number), or
 * (size_t)-1. */
size_t rt_taxonomy_find(const rt_taxonomy *t, const char *id);

/* The category tagged by key, or (size_t)-1. */
size_t rt_taxonomy_by_key(const rt_taxonomy *t, int key);

/* The bit set of the categories of group g. */
unsigned long long rt_taxonomy_group_mask(const rt_taxonomy *t, size_t g);

#endif
