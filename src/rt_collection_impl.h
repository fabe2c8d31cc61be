/* rt_collection_impl — what the three files of the collection share, and only they: the
 * collection's own struct, the index file's layout (rt_colindex.c), and the build records the pid
 * sort orders (rt_pidsort.c). Not an interface for other modules: they use rt_collection.h
 * (test_collection reaches into the stamp, which no public call can make differ). */
#ifndef RT_COLLECTION_IMPL_H
#define RT_COLLECTION_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "rt_collection.h"
#include "rt_err.h"

/* ---- the index file ------------------------------------------------------------------------
 * Native byte order (a marker in the header rejects a file from a machine of the other order).
 * Two layouts, told apart by the header's span:
 *   sorted (span 0), for any pids:
 *     header    136 bytes, below
 *     entries   count x {u64 off; u32 pid_len; u32 text_len}, file order; off is where the pid
 *               starts in the collection, the text follows the pid and one tab
 *     keys      count x u64: the first 8 pid bytes, big-endian and zero-padded, in pid order
 *     hashes    count x u64: rt_hash_bytes of each whole pid, in pid order (so that whether a pid
 *               is there can be told without reading the collection: rt_collection_has)
 *     perm      count x u32: entry numbers in pid (byte) order
 *     exactly 136 + 36 * count bytes;
 *   dense (span > 0), when every pid is a decimal number written plainly (no sign, no leading
 *   zero), no two alike, and the largest below DENSE_SLACK * count + DENSE_BASE (MS MARCO's
 *   0 … 8841822): no sort is needed, and a lookup is one read of the table
 *     header    as above
 *     entries   as above
 *     table     span x u32: for each number below span, 1 + the entry number of its pid, 0 when
 *               no pid has that number
 *     exactly 136 + 16 * count + 4 * span bytes.
 * The file is used only when the header (XXH3 of all of it, this hash field 0) matches the
 * collection (size, mtime and ctime in ns, inode, a hash of sampled content) and the body matches
 * the header's body_sum (XXH3_64bits of every byte after the header); otherwise it is rebuilt.
 * Each lookup also checks the entries it reads, but that alone cannot tell a flipped offset or
 * table slot that still lands on some passage: a damaged index must never change a number. */
#define IDX_MAGIC "RTCOLIDX"
#define IDX_VERSION 5u   /* 2: the header holds the inode and ctime too; 3: the pid hashes;
                          * 4: the dense layout (span); 5: the body's checksum, the header
                          * hashed whole */
#define DENSE_DIGITS 9          /* at most 999,999,999 */
#define DENSE_SLACK 4
#define DENSE_BASE ((size_t)1 << 20)
#define IDX_ORDER_MARK 0x0102030405060708ULL
#define IDX_EXT ".rtidx"

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
    uint64_t span;          /* the dense layout's table length; 0: the sorted layout */
    uint64_t header_hash;   /* XXH3_64bits of the whole header with this field 0 */
    uint64_t ino;
    int64_t ctime_sec, ctime_nsec;
    uint64_t body_sum;      /* XXH3_64bits of everything after the header */
} idx_header;

_Static_assert(sizeof(idx_header) == 136, "the index header is 136 bytes");
_Static_assert(sizeof(coll_entry) == 16, "an index entry is 16 bytes");

/* What the collection file looked like when it was opened: an index must match all of it. */
typedef struct coll_stamp {
    uint64_t size;
    int64_t mtime_sec, mtime_nsec;
    uint64_t sample_hash;
    uint64_t ino;                /* a rename over the file changes it */
    int64_t ctime_sec, ctime_nsec;   /* any write or touch changes it, and no user sets it back */
    uint64_t dev;                /* with ino, which file it is (an inode number is only unique on
                                  * one filesystem); compared with the live file, never stored in
                                  * the index (its header has no place for it) */
} coll_stamp;

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
    const uint64_t *hashes;      /* of each whole pid, in pid order */
    const uint32_t *table;       /* the dense layout (keys, perm and hashes NULL): 1 + entry by
                                  * pid number, span of them; NULL for the sorted layout */
    size_t span;
    size_t n;
    coll_entry *heap_ent;
    uint64_t *heap_keys;
    uint32_t *heap_perm;
    uint64_t *heap_hashes;
    uint32_t *heap_table;
    uint64_t duplicates, first_dup_line, lines;
    int reused;
    int unsaved;                 /* built, not yet written (rt_collection_open_unsaved) */
    coll_stamp stamp;            /* the file as this open found it */
};


/* The first 8 bytes of a pid as a big-endian number, so that comparing keys compares bytes. */
static inline uint64_t pid_key(const unsigned char *s, size_t len)
{
    uint64_t k = 0;
    for (size_t i = 0; i < 8; i++)
        k = k << 8 | (i < len ? s[i] : 0);
    return k;
}

/* The number a pid spells when it fits the dense layout: 1 to DENSE_DIGITS decimal digits, no
 * leading zero but in "0" itself. 1 and *v, or 0. */
static inline int dense_number(const unsigned char *s, size_t len, uint32_t *v)
{
    if (len == 0 || len > DENSE_DIGITS || (s[0] == '0' && len > 1))
        return 0;
    uint32_t x = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned d = (unsigned)s[i] - '0';
        if (d > 9)
            return 0;
        x = x * 10 + d;
    }
    *v = x;
    return 1;
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
    uint64_t *hash;         /* of each entry's whole pid, entry order */
    size_t n, cap;
    /* While every pid so far fits the dense layout, rec and hash are not kept (NULL): table[v] is
     * 1 + the entry whose pid is the number v, span = 1 + the largest; the first pid that does
     * not fit turns them back into records (dense_to_sorted). */
    int dense;
    uint32_t *table;
    size_t tcap, span;
    unsigned char *arena;   /* pid bytes from the 9th on, entry after entry */
    size_t alen, acap;
    checkpoint *chk;
    size_t nchk, chkcap;
    size_t lines;
} builder;

static inline size_t suffix_len(uint32_t plen) { return plen > 8 ? plen - 8 : 0; }

/* The arena bytes of entry i: pid bytes [8, plen). Borrowed: points into b's arena, valid
 * until the next entry is added (the arena may grow) or the builder is freed. */
static inline const unsigned char *pid_suffix(const builder *b, uint32_t i)
{
    size_t k = i / CHK_EVERY * CHK_EVERY;
    uint64_t a = b->chk[i / CHK_EVERY].aoff;
    for (; k < i; k++)
        a += suffix_len(b->ent[k].plen);
    return b->arena + a;
}

/* ---- rt_colindex.c: the index file ---- */

/* Maps the index at ipath into c when its header is valid for the collection described by
 * stamp and its body matches its checksum: 1. Else 0, or -1 when only the body is wrong (the
 * file is damaged, which the caller reports). */
int colindex_load(rt_collection *c, const char *ipath, const coll_stamp *stamp);

/* The index's path beside the collection, and in the user's cache folder (NULL when there is
 * none). Owned: the caller frees them with free. */
char *colindex_side_path(const char *path);
char *colindex_cache_path(const char *path);

/* Writes the built index beside the collection or else in the cache folder, then maps the file
 * and drops the heap copy. Returns 0, or -1 with why no file could be written in why. */
int colindex_save(rt_collection *c, const coll_stamp *stamp, char **cpath, char *why, size_t whylen);

/* ---- rt_pidsort.c: the pid sort ---- */

/* Sorts r[0, n) by pid bytes (from depth on; 0 for a whole sort) and marks every copy of a pid
 * but the one with the smallest entry number dup. */
void pidsort(const builder *b, sort_rec *r, size_t n);

#endif
