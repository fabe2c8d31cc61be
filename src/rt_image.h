/* rt_image — the few helpers every cached structure's image uses (rt_strtab, rt_qrels, rt_run in
 * the workspace cache, rt_wscache): sections are written padded to 8 bytes, so that each one
 * starts 8-aligned in the mapped file, and read back through a cursor that refuses to step
 * outside the image. Native byte order; the cache's header marks it. */
#ifndef RT_IMAGE_H
#define RT_IMAGE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define RT_IMAGE_PAD(n) (((n) + (size_t)7) & ~(size_t)7)

/* Writes the zeros that pad a section of len bytes to the next multiple of 8. */
static inline void rt_image_pad(FILE *f, size_t len)
{
    static const char zero[8];
    fwrite(zero, 1, RT_IMAGE_PAD(len) - len, f);
}

/* Writes len bytes at p and the padding after them. */
static inline void rt_image_put(FILE *f, const void *p, size_t len)
{
    if (len)
        fwrite(p, 1, len, f);
    rt_image_pad(f, len);
}

typedef struct rt_image_cur {
    unsigned char *p, *end;
    int bad;                 /* a take went past the end: everything after is NULL */
} rt_image_cur;

/* The next n items of size bytes (and the padding after them), or NULL (setting bad) when they
 * do not fit in what is left. Borrowed: points into the memory c walks, valid as long as it. */
static inline void *rt_image_take(rt_image_cur *c, size_t n, size_t size)
{
    if (c->bad || (size && n > (size_t)(c->end - c->p) / size) ||
        RT_IMAGE_PAD(n * size) > (size_t)(c->end - c->p)) {
        c->bad = 1;
        return NULL;
    }
    void *at = c->p;
    c->p += RT_IMAGE_PAD(n * size);
    return at;
}

#endif
