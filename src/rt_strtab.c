/* rt_strtab — string interning: an arena of NUL-terminated copies, an id → string index and an
 * open-addressing hash table of ids (with a slice of each hash kept beside it to skip compares).
 * A table can also start from an image (the workspace cache, mapped): its first nbase strings
 * are read from there and later ones from the heap, and the hash slots are the image's own
 * until a rehash (the mapping is private, so an insert copies only the page it writes). */
#include "config.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_hash.h"
#include "rt_image.h"
#include "rt_mem.h"
#include "rt_num.h"
#include "rt_strtab.h"

#define CHUNK_BYTES (256u * 1024u)

typedef struct slot {
    uint32_t id;    /* RT_NO_ID when empty */
    uint32_t tag;   /* high 32 bits of the hash */
} slot;

typedef struct chunk {
    struct chunk *next;
    size_t used, cap;
    char data[];
} chunk;

struct rt_strtab {
    chunk *chunks;
    const char **strs;      /* of ids nbase.. (index id - nbase) */
    uint32_t *lens;
    uint32_t count, cap;    /* cap: of strs and lens */
    slot *slots;
    size_t mask;   /* slot count - 1; slot count is a power of two */
    uint32_t nslotted;      /* ids in the slots: all but those num[] keeps (below) */
    size_t bytes;
    uint64_t text;          /* the lengths + 1 of the strings of ids nbase.. (an image's arena) */
    /* the image's strings, ids 0..nbase (none for a table built from scratch) */
    uint32_t nbase;
    const char *barena;
    const uint64_t *boff;
    const uint32_t *blen;
    int slots_mapped;       /* slots lie in the image: not freed */
    /* Decimal ids (MS MARCO's pids and qids): a string of 1-8 digits without a leading zero is
     * found by its value in num[] (one read) instead of by its hash (a slot, the id's length and
     * pointer, the string). Such a string is in num[] only, not in the slots: no other string can
     * equal it, and a first open of MS MARCO inserts 8.8 million of them, each a random write the
     * slots would cost (the image, whose reader finds every string by its hash, places them when
     * written). Built as strings are interned (not for an image's strings: num is NULL in an
     * attached table, and every string is in the slots). */
    uint32_t *num;          /* value -> id + 1, 0 when not interned (pages never written cost no
                             * memory: values seldom fill the power of two); num_len entries */
    size_t num_len;
    int num_reserved;       /* num is NUM_MAX entries of rt_reserve'd space, never grown */
    int num_off;            /* 1: not kept (an attached table, or values too large) */
};

#define NUM_MAX RT_STRTAB_VALUE_MAX
#define NUM_HEAP (1u << 16)  /* num[] up to this many entries is a heap block; past it, reserved */

/* The value of s when it is a canonical decimal of 1-8 digits, else -1. */
static inline int64_t decimal_of(const char *s, size_t len)
{
    if (len == 0 || len > 8 || (s[0] == '0' && len > 1))
        return -1;
    int64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned d = (unsigned char)s[i] - '0';
        if (d > 9)
            return -1;
        v = v * 10 + d;
    }
    return v;
}

static inline const char *str_of(const rt_strtab *t, uint32_t id);
static inline uint32_t len_of(const rt_strtab *t, uint32_t id);

/* Whether the string of id is num[]'s alone (not in the slots). */
static inline int num_kept(const rt_strtab *t, uint32_t id)
{
    if (t->num_off)
        return 0;
    int64_t v = decimal_of(str_of(t, id), len_of(t, id));
    return v >= 0 && v < NUM_MAX;
}

static inline const char *str_of(const rt_strtab *t, uint32_t id)
{
    return id < t->nbase ? t->barena + t->boff[id] : t->strs[id - t->nbase];
}

static inline uint32_t len_of(const rt_strtab *t, uint32_t id)
{
    return id < t->nbase ? t->blen[id] : t->lens[id - t->nbase];
}

static inline uint64_t hash_of(const rt_strtab *t, uint32_t id)
{
    return rt_hash_bytes(str_of(t, id), len_of(t, id));   /* not kept: 8 bytes an id, for a lookup's rare miss */
}

/* memcmp(a, b, n) == 0 for the short strings ids are, without a library call. */
static inline int bytes_equal(const char *a, const char *b, size_t n)
{
    for (; n >= 8; a += 8, b += 8, n -= 8) {
        uint64_t x, y;
        memcpy(&x, a, 8);
        memcpy(&y, b, 8);
        if (x != y)
            return 0;
    }
    while (n--)
        if (*a++ != *b++)
            return 0;
    return 1;
}

rt_strtab *rt_strtab_new(void)
{
    rt_strtab *t = rt_calloc(1, sizeof *t);
    t->mask = 63;
    t->slots = rt_malloc((t->mask + 1) * sizeof *t->slots);
    memset(t->slots, 0xff, (t->mask + 1) * sizeof *t->slots);
    return t;
}

void rt_strtab_free(rt_strtab **tp)
{
    if (!tp || !*tp)
        return;
    rt_strtab *t = *tp;
    for (chunk *c = t->chunks, *n; c; c = n) {
        n = c->next;
        free(c);
    }
    free(t->strs);
    free(t->lens);
    if (t->num_reserved)
        rt_unreserve(t->num, (size_t)NUM_MAX * sizeof *t->num);
    else
        free(t->num);
    if (!t->slots_mapped)
        free(t->slots);
    free(t);
    *tp = NULL;
}

static char *store(rt_strtab *t, const char *s, size_t len)
{
    chunk *c = t->chunks;
    if (!c || c->cap - c->used < len + 1) {
        size_t cap = len + 1 > CHUNK_BYTES ? len + 1 : CHUNK_BYTES, big = CHUNK_BYTES * 16 - sizeof *c;
        if (t->count - t->nbase >= 65536 && cap < big)   /* a large table: chunks of two huge */
            cap = big;   /* pages (rt_malloc: 4 MiB, aligned); never less than the string */
        c = rt_malloc(sizeof *c + cap);
        c->cap = cap;
        c->used = 0;
        c->next = t->chunks;
        t->chunks = c;
        t->bytes += sizeof *c + cap;
    }
    char *d = c->data + c->used;
    memcpy(d, s, len);
    d[len] = '\0';
    c->used += len + 1;
    return d;
}

/* store of a value's decimal text, spelled in place (no copy through a buffer); its length in
 * *len. */
static char *store_u32(rt_strtab *t, uint32_t v, size_t *len)
{
    chunk *c = t->chunks;
    if (!c || c->cap - c->used < 16) {   /* the most a u32 takes, and its NUL: a new chunk */
        char buf[16];
        *len = rt_num_format_u32(buf, v);
        return store(t, buf, *len);
    }
    char *d = c->data + c->used;
    *len = rt_num_format_u32(d, v);
    d[*len] = '\0';
    c->used += *len + 1;
    return d;
}

/* Doubles the slots, placing every id they hold by its hash (recomputed from the strings, read in
 * id order): ids in order, not the old slots, so nothing a damaged image's slots held survives. */
static void rehash(rt_strtab *t)
{
    size_t n = (t->mask + 1) * 2;
    slot *s = rt_malloc(n * sizeof *s);
    rt_advise_huge(s, n * sizeof *s);
    memset(s, 0xff, n * sizeof *s);
    for (uint32_t id = 0; id < t->count; id++) {
        if (num_kept(t, id))
            continue;
        uint64_t h = hash_of(t, id);
        size_t j = h & (n - 1);
        while (s[j].id != RT_NO_ID)
            j = (j + 1) & (n - 1);
        s[j] = (slot){id, (uint32_t)(h >> 32)};
    }
    t->bytes += (n - (t->mask + 1)) * sizeof *s;
    if (!t->slots_mapped)
        free(t->slots);
    t->slots_mapped = 0;
    t->slots = s;
    t->mask = n - 1;
}

static inline uint32_t num_find(const rt_strtab *t, const char *s, size_t len);

/* The id of s among the slots' strings. */
static uint32_t find_slotted(const rt_strtab *t, const char *s, size_t len, uint64_t h)
{
    uint32_t tag = (uint32_t)(h >> 32);
    /* at most one pass over the slots, and an id past the strings is no match: slots that came
     * from an image are not scanned at attach, so a damaged one must not loop or read outside */
    for (size_t j = h & t->mask, probes = 0; probes <= t->mask; j = (j + 1) & t->mask, probes++) {
        const slot *sl = &t->slots[j];
        if (sl->id == RT_NO_ID)
            return RT_NO_ID;
        if (sl->tag == tag && sl->id < t->count && len_of(t, sl->id) == len &&
            bytes_equal(str_of(t, sl->id), s, len))
            return sl->id;
    }
    return RT_NO_ID;
}

#define NUM_UNKNOWN (RT_NO_ID - 1)

uint32_t rt_strtab_find_hashed(const rt_strtab *t, const char *s, size_t len, uint64_t h)
{
    uint32_t n = num_find(t, s, len);
    return n != NUM_UNKNOWN ? n : find_slotted(t, s, len, h);
}

/* The id of a decimal string from num[]: RT_NO_ID when it was never interned; NUM_UNKNOWN when
 * num cannot tell (not a decimal, too large, or num not kept). */
static inline uint32_t num_find(const rt_strtab *t, const char *s, size_t len)
{
    if (t->num_off)
        return NUM_UNKNOWN;
    int64_t v = decimal_of(s, len);
    if (v < 0 || v >= NUM_MAX)
        return NUM_UNKNOWN;
    return (size_t)v < t->num_len ? t->num[v] - 1 : RT_NO_ID;   /* 0 - 1: RT_NO_ID */
}

/* Records id as the string of decimal value v (below NUM_MAX), growing num[] to hold it. */
static void num_set(rt_strtab *t, size_t v, uint32_t id)
{
    if (v >= t->num_len) {
        /* Small values: a heap block grown by doubling. Past NUM_HEAP, the whole NUM_MAX range
         * reserved at once (rt_reserve): only the pages values land on cost memory, on huge pages
         * (every lookup is a random read), and nothing is copied again; where the system refuses
         * the reservation, the heap block keeps doubling. */
        uint32_t *num = NULL;
        size_t n = t->num_len ? t->num_len : 64;
        while (n <= v)
            n *= 2;
        if (n > NUM_HEAP && (num = rt_reserve((size_t)NUM_MAX * sizeof *num)) != NULL) {
            n = NUM_MAX;
            t->num_reserved = 1;
        } else {
            num = rt_calloc(n, sizeof *num);
            rt_advise_huge(num, n * sizeof *num);
        }
        if (t->num_len)
            memcpy(num, t->num, t->num_len * sizeof *num);
        free(t->num);
        t->num = num;
        t->num_len = n;
    }
    t->num[v] = id + 1;
}

/* Room in strs and lens for one more id. */
static void grow_ids(rt_strtab *t)
{
    if (t->count - t->nbase < t->cap)
        return;
    size_t old = t->cap;
    t->cap = t->cap ? t->cap * 2 : 64;
    t->strs = rt_grow_array(t->strs, old, t->cap, sizeof *t->strs);
    t->lens = rt_grow_array(t->lens, old, t->cap, sizeof *t->lens);
    t->bytes += (t->cap - old) * (sizeof *t->strs + sizeof *t->lens);
}

uint32_t rt_strtab_find(const rt_strtab *t, const char *s, size_t len)
{
    uint32_t n = num_find(t, s, len);
    if (n != NUM_UNKNOWN)
        return n;
    return find_slotted(t, s, len, rt_hash_bytes(s, len));
}

static uint32_t insert_hashed(rt_strtab *t, const char *s, size_t len, uint64_t h);

static uint32_t intern_hashed(rt_strtab *t, const char *s, size_t len, uint64_t h)
{
    uint32_t id = rt_strtab_find_hashed(t, s, len, h);
    if (id != RT_NO_ID)
        return id;
    return insert_hashed(t, s, len, h);
}

static uint32_t insert_hashed(rt_strtab *t, const char *s, size_t len, uint64_t h)
{
    int64_t v = t->num_off ? -1 : decimal_of(s, len);
    int slotted = v < 0 || v >= NUM_MAX;   /* else num[] alone finds it */
    if (slotted && (size_t)(t->nslotted + 1) * 4 > (t->mask + 1) * 3)
        rehash(t);
    grow_ids(t);
    uint32_t id = t->count++;
    t->strs[id - t->nbase] = store(t, s, len);
    t->lens[id - t->nbase] = (uint32_t)len;
    t->text += len + 1;
    if (!slotted) {
        num_set(t, (size_t)v, id);
        return id;
    }
    size_t j = h & t->mask, probes = 0;
    while (t->slots[j].id != RT_NO_ID && probes++ <= t->mask)
        j = (j + 1) & t->mask;
    if (t->slots[j].id != RT_NO_ID) {   /* only in a damaged image: no empty slot left */
        t->count--;   /* not placed yet: the rehash places the others */
        rehash(t);
        t->count++;
        for (j = h & t->mask; t->slots[j].id != RT_NO_ID; j = (j + 1) & t->mask)
            ;
    }
    t->slots[j].id = id;
    t->slots[j].tag = (uint32_t)(h >> 32);
    t->nslotted++;
    return id;
}

uint32_t rt_strtab_intern(rt_strtab *t, const char *s, size_t len)
{
    uint32_t n = num_find(t, s, len);
    if (n != NUM_UNKNOWN && n != RT_NO_ID)
        return n;
    uint64_t h = rt_hash_bytes(s, len);
    return n == RT_NO_ID ? insert_hashed(t, s, len, h) : intern_hashed(t, s, len, h);
}

void rt_strtab_intern_many(rt_strtab *t, const char *const *s, const size_t *len, size_t n, uint32_t *ids)
{
    /* A table of millions of ids is mostly cache misses: the slot, then the id's length and
     * string pointer, then the string. Each stage below asks for one of them for a batch of
     * strings before the next stage needs it, so the misses overlap instead of following each
     * other; the interning itself (last) is in order, so ids are what one by one would give. */
    enum { BATCH = 32 };
    uint64_t h[BATCH];
    if (!t->num_off) {   /* decimal ids: one read each from num[], fetched AHEAD strings ahead; */
        enum { AHEAD = 16 };
        size_t k = 0;
        for (; k < n; k++) {
            if (k + AHEAD < n) {
                int64_t v = decimal_of(s[k + AHEAD], len[k + AHEAD]);
                if (v >= 0 && (size_t)v < t->num_len)
                    __builtin_prefetch(&t->num[v]);
            }
            uint32_t id = num_find(t, s[k], len[k]);
            if (id == NUM_UNKNOWN)
                break;
            ids[k] = id != RT_NO_ID ? id : insert_hashed(t, s[k], len[k], rt_hash_bytes(s[k], len[k]));
        }
        if (k == n)
            return;
        s += k;   /* not all decimal: the rest as below */
        len += k;
        ids += k;
        n -= k;
    }
    for (size_t b = 0; b < n; b += BATCH) {
        size_t m = n - b < BATCH ? n - b : BATCH;
        for (size_t i = 0; i < m; i++) {
            h[i] = rt_hash_bytes(s[b + i], len[b + i]);
            __builtin_prefetch(&t->slots[h[i] & t->mask]);
        }
        for (size_t i = 0; i < m; i++) {
            uint32_t id = t->slots[h[i] & t->mask].id;
            if (id < t->nbase) {
                __builtin_prefetch(&t->boff[id]);
                __builtin_prefetch(&t->blen[id]);
            } else if (id < t->count) {
                __builtin_prefetch(&t->strs[id - t->nbase]);
                __builtin_prefetch(&t->lens[id - t->nbase]);
            }
        }
        for (size_t i = 0; i < m; i++) {
            uint32_t id = t->slots[h[i] & t->mask].id;
            if (id < t->count)
                __builtin_prefetch(str_of(t, id));
        }
        for (size_t i = 0; i < m; i++) {
            uint32_t nv = num_find(t, s[b + i], len[b + i]);   /* num[]'s alone: not in the slots */
            ids[b + i] = nv == NUM_UNKNOWN ? intern_hashed(t, s[b + i], len[b + i], h[i])
                       : nv != RT_NO_ID ? nv : insert_hashed(t, s[b + i], len[b + i], h[i]);
        }
    }
}

int rt_strtab_decimal(const char *s, size_t len, uint32_t *value)
{
    int64_t v = decimal_of(s, len);
    if (v < 0 || v >= NUM_MAX)
        return 0;
    *value = (uint32_t)v;
    return 1;
}

int rt_strtab_decimal_padded(const char *s, size_t len, uint32_t *value)
{
    if (len == 0 || len > 8 || (s[0] == '0' && len > 1))
        return 0;
    uint64_t w = rt_num_load8(s);
    if (rt_num_leading_digits(w) < len)
        return 0;
    uint64_t v = rt_num_digits_value(w, len);
    if (v >= NUM_MAX)
        return 0;
    *value = (uint32_t)v;
    return 1;
}

size_t rt_strtab_intern_decimals(rt_strtab *t, uint32_t *v, size_t n)
{
    char buf[16];
    if (t->num_off) {   /* not kept by value: by their strings */
        for (size_t k = 0; k < n; k++) {
            if (v[k] >= NUM_MAX)
                return k;
            size_t len = rt_num_format_u32(buf, v[k]);
            v[k] = rt_strtab_intern(t, buf, len);
        }
        return n;
    }
    enum { AHEAD = 24 };   /* one read of num[] each, fetched AHEAD values ahead */
    for (size_t k = 0; k < n; k++) {
        if (k + AHEAD < n && v[k + AHEAD] < t->num_len)
            __builtin_prefetch(&t->num[v[k + AHEAD]]);
        uint32_t x = v[k];
        if (x >= NUM_MAX)
            return k;
        uint32_t id = x < t->num_len ? t->num[x] - 1 : RT_NO_ID;
        if (id == RT_NO_ID) {   /* a new one: num[] alone finds it, no hash, no slot */
            size_t len;
            grow_ids(t);
            id = t->count++;
            t->strs[id - t->nbase] = store_u32(t, x, &len);
            t->lens[id - t->nbase] = (uint32_t)len;
            t->text += len + 1;
            num_set(t, x, id);
        }
        v[k] = id;
    }
    return n;
}

/* An id from another table, or RT_NO_ID, would read past the arrays: a caller's bug, caught here. */
const char *rt_strtab_str(const rt_strtab *t, uint32_t id)
{
    assert(id < t->count);
    return str_of(t, id);
}

size_t rt_strtab_len(const rt_strtab *t, uint32_t id)
{
    assert(id < t->count);
    return len_of(t, id);
}
uint32_t rt_strtab_count(const rt_strtab *t) { return t->count; }
size_t rt_strtab_bytes(const rt_strtab *t) { return t->bytes; }

/* ---- the image ------------------------------------------------------------------------------
 * u64 count, slot count, arena bytes; u64 off[count]; u32 len[count]; slot slots[slot count];
 * the arena (each string NUL-terminated), each section padded to 8 bytes (rt_image). */

static size_t arena_len(const rt_strtab *t, uint32_t n)
{
    size_t bytes = 0;
    uint32_t upto = n == t->count ? t->nbase : n;   /* all of them: the ids past the image summed as added */
    for (uint32_t id = 0; id < upto; id++)
        bytes += len_of(t, id) + 1;
    return n == t->count ? bytes + (size_t)t->text : bytes;
}

/* The image's slot count for its first n strings: every one is in its slots (its reader keeps no
 * num[]). The table's own slots when they hold exactly those. */
static size_t image_slots(const rt_strtab *t, uint32_t n)
{
    if (n == t->count && t->nslotted == t->count)
        return t->mask + 1;
    size_t slots = 64;
    while ((size_t)n * 4 > slots * 3)
        slots *= 2;
    return slots;
}

static uint32_t image_count(const rt_strtab *t, uint32_t n) { return n < t->count ? n : t->count; }

size_t rt_strtab_image_size(const rt_strtab *t, uint32_t n)
{
    n = image_count(t, n);
    return 3 * 8 + (size_t)n * 8 + RT_IMAGE_PAD((size_t)n * 4) + image_slots(t, n) * sizeof(slot) +
           RT_IMAGE_PAD(arena_len(t, n));
}

int rt_strtab_image_write(const rt_strtab *t, uint32_t n, FILE *f)
{
    n = image_count(t, n);
    uint64_t head[3] = {n, image_slots(t, n), arena_len(t, n)};
    rt_image_put(f, head, sizeof head);
    uint64_t off = 0;
    for (uint32_t id = 0; id < n; id++) {
        fwrite(&off, sizeof off, 1, f);
        off += len_of(t, id) + 1;
    }
    for (uint32_t id = 0; id < n; id++) {
        uint32_t len = len_of(t, id);
        fwrite(&len, sizeof len, 1, f);
    }
    rt_image_pad(f, (size_t)n * 4);
    if (n == t->count && t->nslotted == t->count) {
        rt_image_put(f, t->slots, (t->mask + 1) * sizeof *t->slots);
    } else {   /* num[]'s strings placed too, as a rehash would; ids from n on left out */
        size_t ns = (size_t)head[1];
        slot *sl = rt_malloc(ns * sizeof *sl);
        rt_advise_huge(sl, ns * sizeof *sl);
        memset(sl, 0xff, ns * sizeof *sl);
        for (uint32_t id = 0; id < n; id++) {
            uint64_t h = hash_of(t, id);
            size_t j = h & (ns - 1);
            while (sl[j].id != RT_NO_ID)
                j = (j + 1) & (ns - 1);
            sl[j] = (slot){id, (uint32_t)(h >> 32)};
        }
        rt_image_put(f, sl, ns * sizeof *sl);
        free(sl);
    }
    for (uint32_t id = 0; id < n; id++)
        fwrite(str_of(t, id), 1, len_of(t, id) + 1, f);
    rt_image_pad(f, head[2]);
    return ferror(f) ? -1 : 0;
}

rt_strtab *rt_strtab_attach(void *mem, size_t len)
{
    rt_image_cur c = {mem, (unsigned char *)mem + len, (uintptr_t)mem & 7};
    const uint64_t *head = rt_image_take(&c, 3, 8);
    if (!head)
        return NULL;
    uint64_t n = head[0], nslots = head[1], alen = head[2];
    if (n >= RT_NO_ID || nslots < 64 || nslots > len / sizeof(slot) || (nslots & (nslots - 1)) ||
        n * 4 > nslots * 3 || alen > len)
        return NULL;
    const uint64_t *off = rt_image_take(&c, (size_t)n, 8);
    const uint32_t *lens = rt_image_take(&c, (size_t)n, 4);
    slot *slots = rt_image_take(&c, (size_t)nslots, sizeof *slots);
    const char *arena = rt_image_take(&c, (size_t)alen, 1);
    if (c.bad || c.p != c.end)
        return NULL;
    /* every string inside the arena and NUL-terminated: a damaged image is refused rather than
     * read out of bounds. The slots (the largest part) are not scanned: a lookup takes at most
     * one pass over them and ignores an id past the strings. */
    uint64_t bad = 0;
    for (uint64_t id = 0; id < n; id++)
        bad |= (uint64_t)(off[id] >= alen) | (uint64_t)(lens[id] >= alen - (off[id] < alen ? off[id] : alen));
    if (bad)
        return NULL;
    for (uint64_t id = 0; id < n; id++)
        bad |= (uint64_t)(arena[off[id] + lens[id]] != '\0');
    if (bad)
        return NULL;
    rt_strtab *t = rt_calloc(1, sizeof *t);
    t->nbase = t->count = t->nslotted = (uint32_t)n;
    t->barena = arena;
    t->boff = off;
    t->blen = lens;
    t->slots = slots;
    t->slots_mapped = 1;
    t->mask = (size_t)nslots - 1;
    t->num_off = 1;   /* the image's decimal strings are not in num[]: found by their hash */
    return t;
}
