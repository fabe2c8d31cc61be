/* rt_strtab — string interning: an arena of NUL-terminated copies, an id → string index and an
 * open-addressing hash table of ids (with a slice of each hash kept beside it to skip compares). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "rt_hash.h"
#include "rt_mem.h"
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
    const char **strs;
    uint32_t *lens;
    uint32_t count, cap;
    slot *slots;
    size_t mask;   /* slot count - 1; slot count is a power of two */
    size_t bytes;
};

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
    free(t->slots);
    free(t);
    *tp = NULL;
}

static char *store(rt_strtab *t, const char *s, size_t len)
{
    chunk *c = t->chunks;
    if (!c || c->cap - c->used < len + 1) {
        size_t cap = len + 1 > CHUNK_BYTES ? len + 1 : CHUNK_BYTES;
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

static void rehash(rt_strtab *t)
{
    size_t n = (t->mask + 1) * 2;
    slot *s = rt_malloc(n * sizeof *s);
    memset(s, 0xff, n * sizeof *s);
    for (size_t i = 0; i <= t->mask; i++) {
        if (t->slots[i].id == RT_NO_ID)
            continue;
        uint32_t id = t->slots[i].id;
        size_t j = rt_hash_bytes(t->strs[id], t->lens[id]) & (n - 1);
        while (s[j].id != RT_NO_ID)
            j = (j + 1) & (n - 1);
        s[j] = t->slots[i];
    }
    t->bytes += (n - (t->mask + 1)) * sizeof *s;
    free(t->slots);
    t->slots = s;
    t->mask = n - 1;
}

uint32_t rt_strtab_find_hashed(const rt_strtab *t, const char *s, size_t len, uint64_t h)
{
    uint32_t tag = (uint32_t)(h >> 32);
    for (size_t j = h & t->mask;; j = (j + 1) & t->mask) {
        const slot *sl = &t->slots[j];
        if (sl->id == RT_NO_ID)
            return RT_NO_ID;
        if (sl->tag == tag && t->lens[sl->id] == len && memcmp(t->strs[sl->id], s, len) == 0)
            return sl->id;
    }
}

uint32_t rt_strtab_find(const rt_strtab *t, const char *s, size_t len)
{
    return rt_strtab_find_hashed(t, s, len, rt_hash_bytes(s, len));
}

uint32_t rt_strtab_intern(rt_strtab *t, const char *s, size_t len)
{
    uint64_t h = rt_hash_bytes(s, len);
    uint32_t id = rt_strtab_find_hashed(t, s, len, h);
    if (id != RT_NO_ID)
        return id;
    if ((size_t)(t->count + 1) * 4 > (t->mask + 1) * 3) {
        rehash(t);
    }
    if (t->count == t->cap) {
        size_t old = t->cap;
        t->cap = t->cap ? t->cap * 2 : 64;
        t->strs = rt_reallocarray(t->strs, t->cap, sizeof *t->strs);
        t->lens = rt_reallocarray(t->lens, t->cap, sizeof *t->lens);
        t->bytes += (t->cap - old) * (sizeof *t->strs + sizeof *t->lens);
    }
    id = t->count++;
    t->strs[id] = store(t, s, len);
    t->lens[id] = (uint32_t)len;
    size_t j = h & t->mask;
    while (t->slots[j].id != RT_NO_ID)
        j = (j + 1) & t->mask;
    t->slots[j].id = id;
    t->slots[j].tag = (uint32_t)(h >> 32);
    return id;
}

const char *rt_strtab_str(const rt_strtab *t, uint32_t id) { return t->strs[id]; }
size_t rt_strtab_len(const rt_strtab *t, uint32_t id) { return t->lens[id]; }
uint32_t rt_strtab_count(const rt_strtab *t) { return t->count; }
size_t rt_strtab_bytes(const rt_strtab *t) { return t->bytes; }
