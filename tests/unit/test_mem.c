/* test_mem — big blocks: rt_malloc's and a grown array's start on the 2 MiB grid (whole huge
 * pages, see rt_mem.c), growing keeps every element, shrinking and the small sizes too. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "rt_mem.h"
#include "tap.h"

#define MIB ((size_t)1 << 20)

static int aligned(const void *p) { return ((uintptr_t)p & (2 * MIB - 1)) == 0; }

/* Whether moved arrays get room to grow in place: not under strict overcommit, ulimit -v or -d
 * (nor on a machine of less than 512 MiB, where half the memory is under the room's minimum). */
static int room_expected(void)
{
    struct rlimit lim;
    if (getrlimit(RLIMIT_AS, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY)
        return 0;
    if (getrlimit(RLIMIT_DATA, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY)
        return 0;
    FILE *f = fopen("/proc/sys/vm/overcommit_memory", "r");
    int mode = 0;
    if (f) {
        if (fscanf(f, "%d", &mode) != 1)
            mode = 0;
        fclose(f);
    }
    return mode != 2;
}

int main(void)
{
    rt_mem_init();
    int room = room_expected();
    char *a = rt_malloc(2 * MIB), *b = rt_malloc(5 * MIB + 3), *s = rt_malloc(100);
    memset(b, 7, 5 * MIB + 3);
    ok(aligned(a) && aligned(b) && s != NULL, "2 MiB and more from rt_malloc: on the 2 MiB grid");
    free(a);
    free(s);

    /* an array grown one element at a time past many huge pages */
    uint32_t *v = NULL;
    size_t cap = 0, n = 0, grows = 0, big = 0, big_unaligned = 0, moves = 0;
    for (uint32_t i = 0; i < 3000000; i++) {
        size_t was = cap;
        uint32_t *at = v;
        RT_GROW(v, cap, n + 1);
        if (cap != was) {
            grows++;
            big += cap * sizeof *v >= 2 * MIB;
            big_unaligned += cap * sizeof *v >= 2 * MIB && !aligned(v);
            moves += cap * sizeof *v >= 2 * MIB && v != at;
        }
        v[n++] = i * 2654435761u;
    }
    int same = 1;
    for (uint32_t i = 0; i < n && same; i++)
        same = v[i] == i * 2654435761u;
    ok(same && grows > 15 && big == 4 && big_unaligned == 0,
       "3 million elements grown one by one (%zu times, %zu big): every one kept, each big block on "
       "the grid", grows, big);
    /* 2 MiB became big with room for three more doublings (4, 8 and 16 MiB): it stayed there,
     * written only where it held elements (each move had copied it into fresh pages) */
    ok(moves == (room ? 1 : 4), "of the 4 big grows, %s moved the array (%zu moved)",
       room ? "only the first" : "each (no room where address space is counted)", moves);

    /* up to 256 MiB, an array that became big never moves again (the room is address space:
     * only the elements written here cost memory) */
    uint32_t *g = rt_grow_array(NULL, 0, MIB, sizeof *g), *g0 = g;
    g[0] = 7;
    size_t gmoves = 0;
    for (size_t c = 2 * MIB; c <= 64 * MIB; c *= 2) {
        uint32_t *was = g;
        g = rt_grow_array(g, c / 2, c, sizeof *g);
        gmoves += g != was;
        g[c - 1] = 9;
    }
    ok((room ? gmoves == 0 && g == g0 : gmoves > 0) && g[0] == 7 && g[64 * MIB - 1] == 9,
       "an array of 4 MiB grown to 256 MiB stays where it is (%zu moves)", gmoves);
    free(g);

    /* rt_grow_array itself: growing a big block, and asked for less (in place) */
    uint32_t *w = rt_grow_array(v, n, 4000000, sizeof *w);
    same = aligned(w);
    for (uint32_t i = 0; i < n && same; i++)
        same = w[i] == i * 2654435761u;
    w[3999999] = 5;
    uint32_t *x = rt_grow_array(w, 4000000, 1000, sizeof *x);
    for (uint32_t i = 0; i < 1000 && same; i++)
        same = x[i] == i * 2654435761u;
    ok(same, "grown again by rt_grow_array, then shrunk to 1,000: the elements kept");
    free(x);

    /* rt_realloc of a big block (remapped), and of a small one becoming big */
    char *c = rt_realloc(b, 9 * MIB);
    same = 1;
    for (size_t i = 0; i < 5 * MIB + 3 && same; i++)
        same = c[i] == 7;
    char *d = rt_realloc(NULL, 10);
    memcpy(d, "0123456789", 10);
    d = rt_realloc(d, 3 * MIB);
    ok(same && memcmp(d, "0123456789", 10) == 0 && aligned(d),
       "rt_realloc: a big block keeps its bytes; a small one becoming big moves onto the grid");
    free(c);
    free(d);
    return tap_done();
}
