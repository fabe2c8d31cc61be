/* rt_collection — the passage collection read through a read-only mmap, with an offset index that
 * one sequential pass builds and that later opens map after revalidating it. The index format and
 * the pid sort used to build it are described next to their code below. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt_collection.h"
#include "rt_file.h"
#include "rt_hash.h"
#include "rt_mapguard.h"
#include "rt_mem.h"
#include "rt_parse.h"

/* ---- the index file ------------------------------------------------------------------------
 * Native byte order (a marker in the header rejects a file from a machine of the other order):
 *   header    128 bytes, below
 *   entries   count x {u64 off; u32 pid_len; u32 text_len}, file order; off is where the pid
 *             starts in the collection, the text follows the pid and one tab
 *   keys      count x u64: the first 8 pid bytes, big-endian and zero-padded, in pid order
 *   perm      count x u32: entry numbers in pid (byte) order
 * The file is exactly 128 + 28 * count bytes. It is trusted only when the header matches the
 * collection (size, mtime and ctime in ns, inode, a hash of sampled content), the body hash matches, and every
 * entry lies inside the collection; otherwise it is rebuilt. */
#define IDX_MAGIC "RTCOLIDX"
#define IDX_VERSION 2u   /* 2: the header holds the inode and ctime too */
#define IDX_ORDER_MARK 0x0102030405060708ULL
#define IDX_EXT ".rtidx"
#define PROGRESS_STEP ((size_t)64 << 20)   /* bytes scanned between progress calls */
#define DROP_STEP ((size_t)8 << 20)         /* bytes scanned between dropping pages behind */

typedef struct coll_entry {
    uint64_t off;
    uint32_t plen, tlen;
} coll_entry;

typedef struct idx_header {
    char magic[8];
    uint32_t version, header_size;
    uint64_t order_mark;
    uint64_t coll_size;
    int64_t mtime_sec, mtime_nsec;
    uint64_t sample_hash;
    uint64_t count;
    uint64_t duplicates, first_dup_line;
    uint64_t lines;
    uint64_t body_hash;
    uint64_t header_hash;   /* of the bytes before this field */
    uint64_t ino;
    int64_t ctime_sec, ctime_nsec;
} idx_header;

_Static_assert(sizeof(idx_header) == 128, "the index header is 128 bytes");
_Static_assert(sizeof(coll_entry) == 16, "an index entry is 16 bytes");

struct rt_collection {
    char *path;
    char *idx_path;              /* NULL when no index file could be written */
    const unsigned char *base;   /* the collection mapping */
    size_t size;
    void *idx_map;               /* the mapped index file, or NULL when the index is on the heap */
    size_t idx_len;
    const coll_entry *ent;
    const uint64_t *keys;
    const uint32_t *perm;
    size_t n;
    coll_entry *heap_ent;
    uint64_t *heap_keys;
    uint32_t *heap_perm;
    uint64_t duplicates, first_dup_line, lines;
    int reused;
};

/* What the collection file looked like when it was opened: an index must match all of it. */
typedef struct coll_stamp {
    uint64_t size;
    int64_t mtime_sec, mtime_nsec;
    uint64_t sample_hash;
    uint64_t ino;                /* a rename over the file changes it */
    int64_t ctime_sec, ctime_nsec;   /* any write or touch changes it, and no user sets it back */
} coll_stamp;

static uint64_t fold(uint64_t h, uint64_t x) { return rt_hash_mix(h ^ (x + 0x9e3779b97f4a7c15ULL)); }

/* A hash of the first and last 64 KiB and 64 blocks of 4 KiB spread in between (files up to
 * 384 KiB whole): 384 KiB of reads at each open, a few milliseconds cold. With the inode and
 * ctime it catches what the size and mtime cannot (a same-size rewrite with its mtime put back). */
static uint64_t sample_hash(const unsigned char *base, size_t size)
{
    enum { EDGE = 64 * 1024, BLOCK = 4096, INNER = 64 };
    uint64_t h = rt_hash_mix(size);
    if (size <= 2 * EDGE + INNER * BLOCK)
        return fold(h, rt_hash_bytes(base, size));
    h = fold(h, rt_hash_bytes(base, EDGE));
    h = fold(h, rt_hash_bytes(base + size - EDGE, EDGE));
    for (size_t k = 1; k <= INNER; k++)
        h = fold(h, rt_hash_bytes(base + size / (INNER + 1) * k, BLOCK));
    return h;
}

static uint64_t body_hash(const coll_entry *ent, const uint64_t *keys, const uint32_t *perm,
                          size_t n)
{
    uint64_t h = fold(rt_hash_mix(n), rt_hash_bytes(ent, n * sizeof *ent));
    h = fold(h, rt_hash_bytes(keys, n * sizeof *keys));
    return fold(h, rt_hash_bytes(perm, n * sizeof *perm));
}

static uint64_t header_hash(const idx_header *h)
{
    return rt_hash_bytes(h, offsetof(idx_header, header_hash));
}

static size_t idx_file_size(size_t n)
{
    return sizeof(idx_header) + n * (sizeof(coll_entry) + sizeof(uint64_t) + sizeof(uint32_t));
}

/* The first 8 bytes of a pid as a big-endian number, so that comparing keys compares bytes. */
static uint64_t pid_key(const unsigned char *s, size_t len)
{
    uint64_t k = 0;
    for (size_t i = 0; i < 8; i++)
        k = k << 8 | (i < len ? s[i] : 0);
    return k;
}

/* ---- validating and mapping an index file ---------------------------------------------------- */

/* True when every entry lies inside the collection, perm holds only entry numbers and the keys
 * are sorted: what lookups rely on never to read outside the mappings. */
static int body_sane(const coll_entry *ent, const uint64_t *keys, const uint32_t *perm, size_t n,
                     uint64_t size)
{
    for (size_t i = 0; i < n; i++) {
        const coll_entry *e = &ent[i];
        if (e->plen == 0 || e->off > size || (uint64_t)e->plen + 1 + e->tlen > size - e->off)
            return 0;
        if (perm[i] >= n || (i && keys[i] < keys[i - 1]))
            return 0;
    }
    return 1;
}

/* Maps the index at ipath into c when it is valid for the collection described by stamp.
 * Returns 1 on success; 0 leaves c untouched (a missing, stale or broken index is not an error:
 * it is rebuilt). check_body 0 skips reading the body, for a file this process has just written
 * (the header still has to match). */
static int index_load(rt_collection *c, const char *ipath, const coll_stamp *stamp,
                      int check_body)
{
    int fd = open(ipath, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);   /* never an index through a link */
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
               h->count <= (len - sizeof(idx_header)) / 28 && idx_file_size(h->count) == len;
    size_t n = good ? (size_t)h->count : 0;
    const coll_entry *ent = (const coll_entry *)((const char *)map + sizeof(idx_header));
    const uint64_t *keys = (const uint64_t *)(ent + n);
    const uint32_t *perm = (const uint32_t *)(keys + n);
    good = good && (!check_body || (body_hash(ent, keys, perm, n) == h->body_hash &&
                                     body_sane(ent, keys, perm, n, stamp->size)));
    if (!good) {
        munmap(map, len);
        return 0;
    }
    c->idx_map = map;
    c->idx_len = len;
    rt_mapguard_add(map, len, ipath);
    c->ent = ent;
    c->keys = keys;
    c->perm = perm;
    c->n = n;
    c->duplicates = h->duplicates;
    c->first_dup_line = h->first_dup_line;
    c->lines = h->lines;
    return 1;
}

/* ---- where the index lives ------------------------------------------------------------------- */

static char *side_index_path(const char *path)
{
    size_t n = strlen(path);
    char *s = rt_malloc(n + sizeof IDX_EXT);
    memcpy(s, path, n);
    memcpy(s + n, IDX_EXT, sizeof IDX_EXT);
    return s;
}

/* ${XDG_CACHE_HOME:-$HOME/.cache}/retriage/index, or NULL when neither names an absolute folder. */
static char *cache_dir(void)
{
    const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    char buf[PATH_MAX];
    int n;
    if (x && x[0] == '/')
        n = snprintf(buf, sizeof buf, "%s/retriage/index", x);
    else if (home && home[0] == '/')
        n = snprintf(buf, sizeof buf, "%s/.cache/retriage/index", home);
    else
        return NULL;
    return n > 0 && (size_t)n < sizeof buf ? rt_strdup(buf) : NULL;
}

/* The cache file for the collection: named by a hash of its absolute, resolved path. */
static char *cache_index_path(const char *path)
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
    fwrite(c->keys, sizeof *c->keys, c->n, fp);
    fwrite(c->perm, sizeof *c->perm, c->n, fp);
    return rt_outfile_commit(&f, err);   /* a short write shows as an error here */
}

/* ---- the building pass ------------------------------------------------------------------------
 * While scanning, each passage gets an entry and a sort record (its first 8 pid bytes as a key);
 * pid bytes beyond the 8th are copied to an arena, so that sorting never reads the mapping again
 * (on a collection larger than memory, random reads there would be disk seeks). */

typedef struct sort_rec {
    uint64_t key;   /* 8 pid bytes from the depth being sorted, big-endian */
    uint32_t idx;   /* entry number */
    uint32_t dup;   /* set on every copy of a pid but the first */
} sort_rec;

/* Every 16th entry: where its pid suffix starts in the arena and its line number. */
typedef struct checkpoint {
    uint64_t aoff;
    uint64_t line;
} checkpoint;

#define CHK_EVERY 16

typedef struct builder {
    const char *path;
    const unsigned char *base;
    size_t size;
    coll_entry *ent;
    sort_rec *rec;
    size_t n, cap;
    unsigned char *arena;   /* pid bytes from the 9th on, entry after entry */
    size_t alen, acap;
    checkpoint *chk;
    size_t nchk, chkcap;
    size_t lines;
} builder;

static size_t suffix_len(uint32_t plen) { return plen > 8 ? plen - 8 : 0; }

/* The arena bytes of entry i: pid bytes [8, plen). */
static const unsigned char *pid_suffix(const builder *b, uint32_t i)
{
    size_t k = i / CHK_EVERY * CHK_EVERY;
    uint64_t a = b->chk[i / CHK_EVERY].aoff;
    for (; k < i; k++)
        a += suffix_len(b->ent[k].plen);
    return b->arena + a;
}

static int skippable(const unsigned char *s, size_t len)
{
    size_t i = 0;
    while (i < len && (s[i] == ' ' || s[i] == '\t'))
        i++;
    return i == len || s[i] == '#';
}

static rt_status add_line(builder *b, size_t off, size_t len, size_t line, rt_err *err)
{
    const unsigned char *s = b->base + off;
    const unsigned char *tab = memchr(s, '\t', len);
    if (!tab)
        return rt_err_at(err, RT_EINPUT, b->path, line, "expected pid<TAB>text, found no tab");
    size_t plen = (size_t)(tab - s), tlen = len - plen - 1;
    const unsigned char *z = memchr(tab + 1, 0, tlen);
    if (z)
        return rt_err_at(err, RT_EINPUT, b->path, line, "a NUL byte at column %zu: not a text file",
                         (size_t)(z - s) + 1);
    const char *why = rt_id_problem((const char *)s, plen);
    if (why) {
        char shown[128];
        return rt_err_at(err, RT_EINPUT, b->path, line, "bad pid \"%s\": %s",
                         rt_id_show((const char *)s, plen, shown, sizeof shown), why);
    }
    if (plen > UINT32_MAX || tlen > UINT32_MAX)
        return rt_err_at(err, RT_EINPUT, b->path, line, "passage longer than 4 GiB");
    if (b->n >= UINT32_MAX)
        return rt_err_at(err, RT_EINPUT, b->path, line, "more than %u passages", UINT32_MAX - 1);
    if (b->n % CHK_EVERY == 0) {
        RT_GROW(b->chk, b->chkcap, b->nchk + 1);
        b->chk[b->nchk++] = (checkpoint){b->alen, line};
    }
    if (b->n == b->cap) {
        size_t cap = b->cap;
        RT_GROW(b->ent, b->cap, b->n + 1);
        RT_GROW(b->rec, cap, b->n + 1);
    }
    b->ent[b->n] = (coll_entry){off, (uint32_t)plen, (uint32_t)tlen};
    b->rec[b->n] = (sort_rec){pid_key(s, plen), (uint32_t)b->n, 0};
    b->n++;
    if (plen > 8) {
        RT_GROW(b->arena, b->acap, b->alen + plen - 8);
        memcpy(b->arena + b->alen, s + 8, plen - 8);
        b->alen += plen - 8;
    }
    return RT_OK;
}

/* Drops the pages before off from the mapping (they are read again from the page cache if ever
 * needed), so that the pass over a file larger than memory keeps a small resident set. */
static void drop_pages(const unsigned char *base, size_t *dropped, size_t off)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t upto = off / page * page;
    if (upto > *dropped) {
        madvise((void *)(base + *dropped), upto - *dropped, MADV_DONTNEED);
        *dropped = upto;
    }
}

static rt_status scan(builder *b, rt_progress_fn progress, void *ctx, rt_err *err)
{
    const unsigned char *base = b->base;
    size_t size = b->size, pos = 0, dropped = 0, drop_mark = DROP_STEP, mark = PROGRESS_STEP;
    madvise((void *)base, size, MADV_SEQUENTIAL);
    if (size >= 3 && memcmp(base, "\xEF\xBB\xBF", 3) == 0)
        pos = 3;
    while (pos < size) {
        const unsigned char *nl = memchr(base + pos, '\n', size - pos);
        size_t len = nl ? (size_t)(nl - base) - pos : size - pos;
        size_t next = nl ? pos + len + 1 : size;
        b->lines++;
        if (len && base[pos + len - 1] == '\r')
            len--;
        if (!skippable(base + pos, len)) {
            rt_status st = add_line(b, pos, len, b->lines, err);
            if (st != RT_OK)
                return st;
        }
        pos = next;
        if (pos >= drop_mark) {
            drop_pages(base, &dropped, pos);
            drop_mark = pos + DROP_STEP;
        }
        if (pos >= mark) {
            if (progress)
                progress(ctx, pos, size);
            mark = pos + PROGRESS_STEP;
        }
    }
    drop_pages(base, &dropped, size);
    madvise((void *)base, size, MADV_RANDOM);
    if (progress)
        progress(ctx, size, size);
    if (b->n == 0)
        return rt_err_set(err, RT_EINPUT, "%s: no passages (expected lines of pid<TAB>text)", b->path);
    return RT_OK;
}

/* ---- sorting pids ---------------------------------------------------------------------------
 * An in-place MSD radix sort (American flag) on the 8-byte keys. A bucket whose 8 bytes are all
 * equal is re-keyed with the next 8 pid bytes from the arena and sorted again; a bucket of pids
 * that all ended is a set of duplicates. Small buckets are insertion-sorted, and very long shared
 * prefixes fall back to a heapsort, which bounds the recursion. Records of equal pids end up
 * together; all but the one with the smallest entry number are marked dup. */

#define SMALL_BUCKET 32
#define MAX_RADIX_DEPTH 64   /* pid bytes; deeper shared prefixes are heapsorted */

/* Compares two records keyed at depth (both pids share the bytes before it): by pid bytes, then
 * by entry number. *same is set when the pids are equal. */
static int rec_cmp(const builder *b, const sort_rec *x, const sort_rec *y, size_t depth, int *same)
{
    *same = 0;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    if ((x->key & 0xff) != 0) {
        /* both pids go on past depth + 8: compare the rest */
        size_t lx = b->ent[x->idx].plen - depth - 8, ly = b->ent[y->idx].plen - depth - 8;
        if (lx && ly) {   /* (with no byte left the arena may hold nothing: no pointer to make) */
            int c = memcmp(pid_suffix(b, x->idx) + depth, pid_suffix(b, y->idx) + depth, lx < ly ? lx : ly);
            if (c)
                return c;
        }
        if (lx != ly)
            return lx < ly ? -1 : 1;
    }
    *same = 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* After a comparison sort of r[0, n): marks every record equal in pid to its predecessor. */
static void mark_adjacent_dups(const builder *b, sort_rec *r, size_t n, size_t depth)
{
    for (size_t i = 1; i < n; i++) {
        int same;
        rec_cmp(b, &r[i - 1], &r[i], depth, &same);
        if (same)
            r[i].dup = 1;
    }
}

static void insertion_sort(const builder *b, sort_rec *r, size_t n, size_t depth)
{
    for (size_t i = 1; i < n; i++) {
        sort_rec x = r[i];
        size_t j = i;
        int same;
        while (j > 0 && rec_cmp(b, &r[j - 1], &x, depth, &same) > 0) {
            r[j] = r[j - 1];
            j--;
        }
        r[j] = x;
    }
    mark_adjacent_dups(b, r, n, depth);
}

static void sift_down(const builder *b, sort_rec *r, size_t i, size_t n, size_t depth)
{
    int same;
    for (;;) {
        size_t m = i, l = 2 * i + 1, rr = l + 1;
        if (l < n && rec_cmp(b, &r[l], &r[m], depth, &same) > 0)
            m = l;
        if (rr < n && rec_cmp(b, &r[rr], &r[m], depth, &same) > 0)
            m = rr;
        if (m == i)
            return;
        sort_rec t = r[i];
        r[i] = r[m];
        r[m] = t;
        i = m;
    }
}

static void heap_sort(const builder *b, sort_rec *r, size_t n, size_t depth)
{
    for (size_t i = n / 2; i-- > 0;)
        sift_down(b, r, i, n, depth);
    for (size_t end = n; end-- > 1;) {
        sort_rec t = r[0];
        r[0] = r[end];
        r[end] = t;
        sift_down(b, r, 0, end, depth);
    }
    mark_adjacent_dups(b, r, n, depth);
}

/* r[0, n) are copies of one pid: all but the first in the file are duplicates. */
static void mark_copies(sort_rec *r, size_t n)
{
    size_t first = 0;
    for (size_t i = 1; i < n; i++)
        if (r[i].idx < r[first].idx)
            first = i;
    for (size_t i = 0; i < n; i++)
        r[i].dup = i != first;
}

static void radix_sort(const builder *b, sort_rec *r, size_t n, size_t depth, int byte);

/* r[0, n) share pid bytes up to depth + 8 and all go on: sort them on the following bytes. */
static void sort_deeper(const builder *b, sort_rec *r, size_t n, size_t depth)
{
    uint64_t key = r[0].key;
    depth += 8;
    for (size_t i = 0; i < n; i++) {
        uint32_t plen = b->ent[r[i].idx].plen;
        /* a pid that ends exactly here keys as 0 (and may have no arena bytes to point at) */
        r[i].key = plen > depth ? pid_key(pid_suffix(b, r[i].idx) + depth - 8, plen - depth) : 0;
    }
    if (depth >= MAX_RADIX_DEPTH)
        heap_sort(b, r, n, depth);
    else
        radix_sort(b, r, n, depth, 0);
    for (size_t i = 0; i < n; i++)   /* the table stores the first 8 bytes: restore them */
        r[i].key = key;
}

static void radix_sort(const builder *b, sort_rec *r, size_t n, size_t depth, int byte)
{
    if (n < SMALL_BUCKET) {
        insertion_sort(b, r, n, depth);
        return;
    }
    unsigned shift = 56u - 8u * (unsigned)byte;
    uint32_t start[257] = {0}, next[256];   /* n < 2^32; small frames keep the recursion light */
    for (size_t i = 0; i < n; i++)
        start[((r[i].key >> shift) & 0xff) + 1]++;
    for (int c = 0; c < 256; c++) {
        start[c + 1] += start[c];
        next[c] = start[c];
    }
    for (int c = 0; c < 256; c++) {
        while (next[c] < start[c + 1]) {
            sort_rec x = r[next[c]];
            unsigned d = (unsigned)(x.key >> shift) & 0xff;
            while (d != (unsigned)c) {
                sort_rec t = r[next[d]];
                r[next[d]++] = x;
                x = t;
                d = (unsigned)(x.key >> shift) & 0xff;
            }
            r[next[c]++] = x;
        }
    }
    for (int c = 0; c < 256; c++) {
        size_t m = (size_t)start[c + 1] - start[c];
        if (m < 2)
            continue;
        sort_rec *bucket = r + start[c];
        if (c == 0)
            mark_copies(bucket, m);   /* these pids all ended: they are equal */
        else if (byte < 7)
            radix_sort(b, bucket, m, depth, byte + 1);
        else
            sort_deeper(b, bucket, m, depth);
    }
}

/* ---- from sorted records to the index -------------------------------------------------------- */

/* Line number of entry i, counted from the nearest checkpoint. */
static size_t line_of(const builder *b, uint32_t i)
{
    const checkpoint *k = &b->chk[i / CHK_EVERY];
    const unsigned char *p = b->base + b->ent[i / CHK_EVERY * CHK_EVERY].off;
    const unsigned char *end = b->base + b->ent[i].off;
    size_t line = (size_t)k->line;
    while ((p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
        line++;
        p++;
    }
    return line;
}

/* Drops the duplicates from the entries and fills the sorted keys and perm of c. */
static void finish_index(builder *b, rt_collection *c)
{
    size_t dups = 0;
    uint32_t first_dup = UINT32_MAX;
    for (size_t i = 0; i < b->n; i++)
        if (b->rec[i].dup) {
            dups++;
            if (b->rec[i].idx < first_dup)
                first_dup = b->rec[i].idx;
        }
    uint32_t *newidx = NULL;
    if (dups) {
        c->first_dup_line = line_of(b, first_dup);
        uint8_t *drop = rt_calloc(b->n, 1);
        for (size_t i = 0; i < b->n; i++)
            drop[b->rec[i].idx] = (uint8_t)b->rec[i].dup;
        newidx = rt_malloc(b->n * sizeof *newidx);
        size_t k = 0;
        for (size_t i = 0; i < b->n; i++) {
            newidx[i] = (uint32_t)k;
            if (!drop[i])
                b->ent[k++] = b->ent[i];
        }
        free(drop);
    }
    /* The sorted keys are written over the records as they are read (key k lands at or before
     * record k), so that the index never needs records, keys and perm at once. */
    size_t n = b->n - dups, k = 0;
    c->heap_perm = rt_malloc(n * sizeof *c->heap_perm);
    for (size_t i = 0; i < b->n; i++) {
        sort_rec r = b->rec[i];
        if (r.dup)
            continue;
        memcpy((char *)b->rec + k * sizeof r.key, &r.key, sizeof r.key);
        c->heap_perm[k++] = newidx ? newidx[r.idx] : r.idx;
    }
    c->heap_keys = rt_reallocarray(b->rec, n, sizeof *c->heap_keys);
    b->rec = NULL;
    free(newidx);
    c->heap_ent = rt_reallocarray(b->ent, n, sizeof *b->ent);
    b->ent = NULL;
    c->ent = c->heap_ent;
    c->keys = c->heap_keys;
    c->perm = c->heap_perm;
    c->n = n;
    c->duplicates = dups;
    c->lines = b->lines;
}

static void builder_free(builder *b)
{
    free(b->ent);
    free(b->rec);
    free(b->arena);
    free(b->chk);
}

static rt_status index_build(rt_collection *c, rt_progress_fn progress, void *ctx, rt_err *err)
{
    builder b = {.path = c->path, .base = c->base, .size = c->size};
    rt_status st = scan(&b, progress, ctx, err);
    if (st == RT_OK) {
        radix_sort(&b, b.rec, b.n, 0, 0);
        free(b.arena);   /* the sort was its only reader */
        b.arena = NULL;
        finish_index(&b, c);
    }
    builder_free(&b);
    return st;
}

/* Writes the built index beside the collection or else in the cache folder, then maps the file
 * and drops the heap copy. Returns 0, or -1 with why no file could be written in why. */
static int index_save(rt_collection *c, const coll_stamp *stamp, char **cpath, char *why,
                      size_t whylen)
{
    idx_header h = {.version = IDX_VERSION, .header_size = sizeof h, .order_mark = IDX_ORDER_MARK,
                    .coll_size = stamp->size, .mtime_sec = stamp->mtime_sec,
                    .mtime_nsec = stamp->mtime_nsec, .sample_hash = stamp->sample_hash,
                    .ino = stamp->ino, .ctime_sec = stamp->ctime_sec, .ctime_nsec = stamp->ctime_nsec,
                    .count = c->n, .duplicates = c->duplicates,
                    .first_dup_line = c->first_dup_line, .lines = c->lines};
    memcpy(h.magic, IDX_MAGIC, 8);
    h.body_hash = body_hash(c->ent, c->keys, c->perm, c->n);
    h.header_hash = header_hash(&h);
    char *dest = side_index_path(c->path);
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
    if (index_load(&tmp, dest, stamp, 0)) {
        free(c->heap_ent);
        free(c->heap_keys);
        free(c->heap_perm);
        *c = tmp;
        c->heap_ent = NULL;
        c->heap_keys = NULL;
        c->heap_perm = NULL;
    }
    return 0;
}

/* ---- opening --------------------------------------------------------------------------------- */

static rt_status map_collection(rt_collection *c, coll_stamp *stamp, rt_err *err)
{
    int fd = open(c->path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return rt_err_set(err, RT_EINPUT, "%s: cannot open: %s", c->path, strerror(errno));
    struct stat st;
    rt_status rs = RT_OK;
    if (fstat(fd, &st) != 0)
        rs = rt_err_set(err, RT_EINPUT, "%s: %s", c->path, strerror(errno));
    else if (S_ISDIR(st.st_mode))
        rs = rt_err_set(err, RT_EINPUT, "%s: is a directory, expected a collection file", c->path);
    else if (!S_ISREG(st.st_mode))
        rs = rt_err_set(err, RT_EINPUT, "%s: not a regular file (a collection must be mappable)",
                        c->path);
    else if (st.st_size == 0)
        rs = rt_err_set(err, RT_EINPUT, "%s: no passages (the file is empty)", c->path);
    else if ((uint64_t)st.st_size > SIZE_MAX)
        rs = rt_err_set(err, RT_EINPUT, "%s: too large to map", c->path);
    if (rs == RT_OK) {
        void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (m == MAP_FAILED)
            rs = rt_err_set(err, RT_EINPUT, "%s: cannot map: %s", c->path, strerror(errno));
        else {
            c->base = m;
            c->size = (size_t)st.st_size;
            rt_mapguard_add(m, c->size, c->path);   /* truncated under us: no SIGBUS death */
            /* Passages are read one at a time, in no order: without this, each lookup would
             * fault in a readahead window and an open would read most of a large file. */
            madvise(m, c->size, MADV_RANDOM);
            *stamp = (coll_stamp){(uint64_t)st.st_size, (int64_t)st.st_mtim.tv_sec,
                                  (int64_t)st.st_mtim.tv_nsec, sample_hash(m, c->size),
                                  (uint64_t)st.st_ino, (int64_t)st.st_ctim.tv_sec,
                                  (int64_t)st.st_ctim.tv_nsec};
        }
    }
    close(fd);
    return rs;
}

/* True when the file at path still looks the way stamp recorded (it was not written meanwhile). */
static int unchanged(const char *path, const coll_stamp *stamp)
{
    struct stat st;
    return stat(path, &st) == 0 && (uint64_t)st.st_size == stamp->size &&
           st.st_mtim.tv_sec == stamp->mtime_sec && st.st_mtim.tv_nsec == stamp->mtime_nsec &&
           (uint64_t)st.st_ino == stamp->ino && st.st_ctim.tv_sec == stamp->ctime_sec &&
           st.st_ctim.tv_nsec == stamp->ctime_nsec;
}

static void report_open(const rt_collection *c, const char *unsaved, rt_report *report)
{
    if (unsaved) {
        rt_report_add(report, RT_REPORT_INFO, "%s: %zu passages (index built, kept in memory)",
                      c->path, c->n);
        rt_report_add(report, RT_REPORT_WARNING,
                      "%s: offset index not saved (%s); the next open will scan the file again",
                      c->path, unsaved);
    } else {
        rt_report_add(report, RT_REPORT_INFO, "%s: %zu passages (index %s: %s)", c->path, c->n,
                      c->reused ? "reused" : "built", c->idx_path);
    }
    if (c->duplicates)
        rt_report_add(report, RT_REPORT_WARNING,
                      "%s:%llu: %llu duplicate pids dropped (the first passage of each kept)",
                      c->path, (unsigned long long)c->first_dup_line,
                      (unsigned long long)c->duplicates);
}

rt_status rt_collection_open(rt_collection **out, const char *path, rt_progress_fn progress,
                             void *progress_ctx, rt_report *report, rt_err *err)
{
    *out = NULL;
    rt_collection *c = rt_calloc(1, sizeof *c);
    c->path = rt_strdup(path);
    coll_stamp stamp;
    rt_status st = map_collection(c, &stamp, err);
    if (st != RT_OK) {
        rt_collection_close(&c);
        return st;
    }
    char *side = side_index_path(path), *cpath = cache_index_path(path);
    if (index_load(c, side, &stamp, 1)) {
        c->idx_path = side;
        side = NULL;
    } else if (cpath && index_load(c, cpath, &stamp, 1)) {
        c->idx_path = cpath;
        cpath = NULL;
    }
    free(side);
    c->reused = c->idx_path != NULL;
    char why[2600];   /* two rt_err messages and glue */
    const char *unsaved = NULL;
    if (!c->reused) {
        st = index_build(c, progress, progress_ctx, err);
        if (st == RT_OK && !unchanged(path, &stamp))
            st = rt_err_set(err, RT_EINPUT, "%s: the file changed while it was being read", path);
        if (st == RT_OK && index_save(c, &stamp, &cpath, why, sizeof why) != 0)
            unsaved = why;
    }
    free(cpath);
    if (st != RT_OK) {
        rt_collection_close(&c);
        return st;
    }
    report_open(c, unsaved, report);
    *out = c;
    return RT_OK;
}

void rt_collection_close(rt_collection **cp)
{
    if (!cp || !*cp)
        return;
    rt_collection *c = *cp;
    if (c->base) {
        rt_mapguard_remove(c->base);
        munmap((void *)c->base, c->size);
    }
    if (c->idx_map) {
        rt_mapguard_remove(c->idx_map);
        munmap(c->idx_map, c->idx_len);
    }
    free(c->heap_ent);
    free(c->heap_keys);
    free(c->heap_perm);
    free(c->idx_path);
    free(c->path);
    free(c);
    *cp = NULL;
}

/* ---- lookups --------------------------------------------------------------------------------- */

size_t rt_collection_count(const rt_collection *c) { return c->n; }

/* Compares the len bytes at pid with the pid of entry i. */
static int pid_cmp(const rt_collection *c, const char *pid, size_t len, uint32_t i)
{
    const coll_entry *e = &c->ent[i];
    int r = memcmp(pid, c->base + e->off, len < e->plen ? len : e->plen);
    return r ? r : (len > e->plen) - (len < e->plen);
}

int rt_collection_find(const rt_collection *c, const char *pid, size_t len, const char **text,
                       size_t *tlen)
{
    if (rt_mapguard_tripped())
        return 0;   /* a mapping shrank under us: what it holds now is not the collection */
    /* The keys narrow the search to the pids sharing the first 8 bytes, usually one, so that a
     * lookup touches one page of the collection instead of log2(count). */
    uint64_t key = pid_key((const unsigned char *)pid, len);
    size_t lo = 0, hi = c->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c->keys[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    hi = lo;
    while (hi < c->n && c->keys[hi] == key && hi - lo < 8)
        hi++;
    if (hi - lo == 8) {   /* many pids share these 8 bytes: find the end of the run */
        size_t l = hi, h = c->n;
        while (l < h) {
            size_t mid = l + (h - l) / 2;
            if (c->keys[mid] <= key)
                l = mid + 1;
            else
                h = mid;
        }
        hi = l;
    }
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int r = pid_cmp(c, pid, len, c->perm[mid]);
        if (r == 0) {
            const coll_entry *e = &c->ent[c->perm[mid]];
            *text = (const char *)c->base + e->off + e->plen + 1;
            *tlen = e->tlen;
            return 1;
        }
        if (r < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return 0;
}

void rt_collection_at(const rt_collection *c, size_t i, const char **pid, size_t *pid_len,
                      const char **text, size_t *tlen)
{
    const coll_entry *e = &c->ent[i];
    *pid = (const char *)c->base + e->off;
    *pid_len = e->plen;
    *text = *pid + e->plen + 1;
    *tlen = e->tlen;
}

int rt_collection_index_reused(const rt_collection *c) { return c->reused; }
const char *rt_collection_index_path(const rt_collection *c) { return c->idx_path; }
