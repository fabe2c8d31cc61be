/* rt_pidsort — orders the build records of a collection by pid bytes and marks duplicates. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "rt_collection_impl.h"

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
    for (;;) {
        if (n < SMALL_BUCKET) {
            insertion_sort(b, r, n, depth);
            return;
        }
        unsigned shift = 56u - 8u * (unsigned)byte;
        /* pids of one alphabet (decimal digits, hex) use a few byte values: only the range seen
         * is walked, and a byte all records share moves nothing */
        uint32_t start[257] = {0}, next[256];   /* n < 2^32; small frames keep the recursion light */
        unsigned lo = 255, hi = 0;
        for (size_t i = 0; i < n; i++) {
            unsigned d = (unsigned)(r[i].key >> shift) & 0xff;
            start[d + 1]++;
            lo = d < lo ? d : lo;
            hi = d > hi ? d : hi;
        }
        if (lo == hi) {   /* one bucket: the next byte, with no move */
            if (lo == 0) {
                mark_copies(r, n);   /* these pids all ended: they are equal */
            } else if (byte < 7) {
                byte++;
                continue;
            } else {
                sort_deeper(b, r, n, depth);
            }
            return;
        }
        for (unsigned c = lo; c <= hi; c++) {
            start[c + 1] += start[c];
            next[c] = start[c];
        }
        for (unsigned c = lo; c <= hi; c++) {
            while (next[c] < start[c + 1]) {
                sort_rec x = r[next[c]];
                unsigned d = (unsigned)(x.key >> shift) & 0xff;
                while (d != c) {
                    sort_rec t = r[next[d]];
                    r[next[d]++] = x;
                    x = t;
                    d = (unsigned)(x.key >> shift) & 0xff;
                }
                r[next[c]++] = x;
            }
        }
        for (unsigned c = lo; c <= hi; c++) {
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
        return;
    }
}

void pidsort(const builder *b, sort_rec *r, size_t n)
{
    radix_sort(b, r, n, 0, 0);
}
