/* rt_colindex — the collection's offset index file: its layout (rt_collection_impl.h), where it
 * lives, how a reopen revalidates it before trusting it, and how it is written (through rt_file). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt_collection_impl.h"
#include "rt_file.h"
#include "rt_hash.h"
#include "rt_mapguard.h"
#include "rt_mem.h"

#include <xxhash.h>

static uint64_t header_hash(const idx_header *h)
{
    idx_header copy = *h;
    copy.header_hash = 0;
    return XXH3_64bits(&copy, sizeof copy);
}

/* The file's size for n entries: the sorted layout (span 0) or the dense one. */
static size_t idx_file_size(size_t n, size_t span)
{
    if (span)
        return sizeof(idx_header) + n * sizeof(coll_entry) + span * sizeof(uint32_t);
    return sizeof(idx_header) + n * (sizeof(coll_entry) + sizeof(uint64_t) + sizeof(uint32_t) + sizeof(uint64_t));
}

/* ---- validating and mapping an index file ---------------------------------------------------- */

/* Maps the index at ipath into c when it is valid for the collection described by stamp. Returns 1
 * on success; 0 (missing, stale or of another version) or -1 (its header right, its body not:
 * damaged) leave c untouched: neither is an error, the index is rebuilt. The header is checked,
 * then the whole body against its checksum: a lookup checks that the entry it reads lies inside the
 * collection, but a flipped table slot or hash still answers "not in the collection" for a pid that
 * is there (a wrong count of positives, of judged passages missing). Reading the body costs one
 * pass over 20-36 bytes a passage: from the page cache XXH3 takes it at memory speed (README,
 * "Input formats", and tests/bench/PERF.md); the workbench opens the collection on its own thread,
 * so the wait falls there, before any number that depends on the index is shown. */
int colindex_load(rt_collection *c, const char *ipath, const coll_stamp *stamp)
{
    /* never an index through a link; a FIFO in its place is not waited on (refused below) */
    int fd = open(ipath, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0)
        return 0;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_size < sizeof(idx_header)) {
        close(fd);
        return 0;
    }
    size_t len = (size_t)st.st_size;
    void *map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (map == MAP_FAILED)
        return 0;
    const idx_header *h = map;
    int good = memcmp(h->magic, IDX_MAGIC, 8) == 0 && h->version == IDX_VERSION &&
               h->header_size == sizeof(idx_header) && h->order_mark == IDX_ORDER_MARK &&
               h->header_hash == header_hash(h) && h->coll_size == stamp->size &&
               h->mtime_sec == stamp->mtime_sec && h->mtime_nsec == stamp->mtime_nsec &&
               h->sample_hash == stamp->sample_hash && h->ino == stamp->ino &&
               h->ctime_sec == stamp->ctime_sec && h->ctime_nsec == stamp->ctime_nsec && h->count > 0 && h->count <= UINT32_MAX &&
               h->count <= (len - sizeof(idx_header)) / 16 &&
               h->span <= DENSE_SLACK * h->count + DENSE_BASE &&
               idx_file_size(h->count, h->span) == len;
    int damaged = 0;
    if (good) {   /* read in order, ahead of the hash */
        madvise(map, len, MADV_SEQUENTIAL);
        damaged = XXH3_64bits((const char *)map + sizeof(idx_header), len - sizeof(idx_header)) != h->body_sum;
        good = !damaged;
        madvise(map, len, MADV_RANDOM);   /* lookups: one page at a time */
    }
    size_t n = good ? (size_t)h->count : 0, span = good ? (size_t)h->span : 0;
    const coll_entry *ent = (const coll_entry *)((const char *)map + sizeof(idx_header));
    const uint64_t *keys = span ? NULL : (const uint64_t *)(ent + n);
    const uint64_t *hashes = span ? NULL : keys + n;   /* before perm: every u64 8-aligned */
    const uint32_t *perm = span ? NULL : (const uint32_t *)(hashes + n);
    if (!good) {
        munmap(map, len);
        return damaged ? -1 : 0;
    }
    c->idx_map = map;
    c->idx_len = len;
    rt_mapguard_add(map, len, ipath);
    c->ent = ent;
    c->keys = keys;
    c->perm = perm;
    c->hashes = hashes;
    c->table = span ? (const uint32_t *)(ent + n) : NULL;
    c->span = span;
    c->n = n;
    c->duplicates = h->duplicates;
    c->first_dup_line = h->first_dup_line;
    c->lines = h->lines;
    return 1;
}

/* ---- where the index lives ------------------------------------------------------------------- */

char *colindex_side_path(const char *path)
{
    size_t n = strlen(path);
    char *s = rt_malloc(n + sizeof IDX_EXT);
    memcpy(s, path, n);
    memcpy(s + n, IDX_EXT, sizeof IDX_EXT);
    return s;
}

static char *cache_dir(void) { return rt_file_cache_dir("index"); }

/* The cache file for the collection: named by a hash of its absolute, resolved path. */
char *colindex_cache_path(const char *path)
{
    char *dir = cache_dir();
    if (!dir)
        return NULL;
    char *abs = realpath(path, NULL);
    const char *key = abs ? abs : path;
    size_t len = strlen(dir) + 1 + 16 + sizeof IDX_EXT;
    char *s = rt_malloc(len);
    snprintf(s, len, "%s/%016llx%s", dir, (unsigned long long)rt_hash_bytes(key, strlen(key)),
             IDX_EXT);
    free(abs);
    free(dir);
    return s;
}

/* ---- writing the index atomically ------------------------------------------------------------ */

/* XXH3_64bits of the body index_write writes, in the same order. */
static uint64_t body_sum(const rt_collection *c)
{
    XXH3_state_t *st = XXH3_createState();
    if (!st)
        return 0;   /* no memory for 600 bytes: the file written fails its check, and is rebuilt */
    XXH3_64bits_reset(st);
    XXH3_64bits_update(st, c->ent, c->n * sizeof *c->ent);
    if (c->table) {
        XXH3_64bits_update(st, c->table, c->span * sizeof *c->table);
    } else {
        XXH3_64bits_update(st, c->keys, c->n * sizeof *c->keys);
        XXH3_64bits_update(st, c->hashes, c->n * sizeof *c->hashes);
        XXH3_64bits_update(st, c->perm, c->n * sizeof *c->perm);
    }
    uint64_t x = XXH3_64bits_digest(st);
    XXH3_freeState(st);
    return x;
}

/* Writes the index to dest through rt_file's atomic writer (a reader sees the old file or the
 * whole new one). Only a regular file (or a new name) is written: a link, a device or a pipe
 * where the index would go is left alone, and the caller falls back to the cache folder. */
static rt_status index_write(const char *dest, const idx_header *h, const rt_collection *c, rt_err *err)
{
    struct stat sb;
    if (lstat(dest, &sb) == 0 && !S_ISREG(sb.st_mode))
        return rt_err_set(err, RT_EIO, "%s: not a regular file; left alone", dest);
    rt_outfile *f;
    rt_status st = rt_outfile_open(&f, dest, err);
    if (st != RT_OK)
        return st;
    FILE *fp = rt_outfile_stream(f);
    (void)fchmod(fileno(fp), 0644);
    fwrite(h, sizeof *h, 1, fp);
    fwrite(c->ent, sizeof *c->ent, c->n, fp);
    if (c->table) {
        fwrite(c->table, sizeof *c->table, c->span, fp);
    } else {
        fwrite(c->keys, sizeof *c->keys, c->n, fp);
        fwrite(c->hashes, sizeof *c->hashes, c->n, fp);
        fwrite(c->perm, sizeof *c->perm, c->n, fp);
    }
    return rt_outfile_commit(&f, err);   /* a short write shows as an error here */
}

int colindex_save(rt_collection *c, const coll_stamp *stamp, char **cpath, char *why,
                      size_t whylen)
{
    idx_header h = {.version = IDX_VERSION, .header_size = sizeof h, .order_mark = IDX_ORDER_MARK,
                    .coll_size = stamp->size, .mtime_sec = stamp->mtime_sec,
                    .mtime_nsec = stamp->mtime_nsec, .sample_hash = stamp->sample_hash,
                    .ino = stamp->ino, .ctime_sec = stamp->ctime_sec, .ctime_nsec = stamp->ctime_nsec,
                    .count = c->n, .duplicates = c->duplicates,
                    .first_dup_line = c->first_dup_line, .lines = c->lines,
                    .span = c->table ? c->span : 0};
    memcpy(h.magic, IDX_MAGIC, 8);
    h.body_sum = body_sum(c);
    h.header_hash = header_hash(&h);
    char *dest = colindex_side_path(c->path);
    rt_err e;
    if (index_write(dest, &h, c, &e) != RT_OK) {
        size_t n = strlen(e.msg) < whylen ? strlen(e.msg) : whylen - 1;
        memcpy(why, e.msg, n);
        why[n] = '\0';
        free(dest);
        dest = *cpath;
        *cpath = NULL;
        if (!dest) {
            snprintf(why + n, whylen - n,
                     "; no cache folder (neither XDG_CACHE_HOME nor HOME is an absolute path)");
            return -1;
        }
        char *dir = rt_strndup(dest, (size_t)(strrchr(dest, '/') - dest));
        /* the cache folder is private (0700), as the XDG spec asks */
        rt_status rc = rt_file_mkdirs(dir, 0700, &e);
        if (rc == RT_OK)
            rc = index_write(dest, &h, c, &e);
        if (rc != RT_OK && n + 3 < whylen) {
            memcpy(why + n, "; ", 2);
            size_t m = strlen(e.msg) < whylen - n - 3 ? strlen(e.msg) : whylen - n - 3;
            memcpy(why + n + 2, e.msg, m);
            why[n + 2 + m] = '\0';
        }
        free(dir);
        if (rc != RT_OK) {
            free(dest);
            return -1;
        }
    }
    c->idx_path = dest;
    /* Serve lookups from the file (paged in by the kernel as needed) rather than from the heap
     * copy; reading the whole body back to check it would only bring it into memory. */
    rt_collection tmp = *c;
    if (colindex_load(&tmp, dest, stamp) == 1) {
        free(c->heap_ent);
        free(c->heap_keys);
        free(c->heap_perm);
        free(c->heap_hashes);
        free(c->heap_table);
        *c = tmp;
        c->heap_ent = NULL;
        c->heap_keys = NULL;
        c->heap_perm = NULL;
        c->heap_hashes = NULL;
        c->heap_table = NULL;
    }
    return 0;
}
