/* rt_embed_load — the embedding file loaders behind rt_embed_load, one per format. Internal to
 * rt_embed*.c: callers use rt_embed_load, which picks one. */
#ifndef RT_EMBED_LOAD_H
#define RT_EMBED_LOAD_H

#include "rt_embed.h"

/* The largest dimension accepted: larger is a corrupt header, not a model. */
#define RT_EMBED_MAX_DIM (1u << 16)

/* rt_embed_new without zeroing the matrix, which the loader fills whole; large matrices get
 * transparent huge pages. Owned: the caller frees it with rt_embed_free, as usual. */
rt_embed *rt_embed_new_unset(size_t n, size_t d);

rt_status rt_embed_load_npy(rt_embed **out, const char *path, rt_err *err);
rt_status rt_embed_load_fvecs(rt_embed **out, const char *path, rt_err *err);
rt_status rt_embed_load_tsv(rt_embed **out, const char *path, rt_embed_idcol ids, rt_err *err);

/* Reads up to cap bytes from the start of path into buf (*got of them); returns the file's size,
 * or -1 when it cannot be opened or is not a regular file. */
long long rt_embed_file_head(const char *path, unsigned char *buf, size_t cap, size_t *got);

#endif
