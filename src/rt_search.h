/* rt_search — whole-collection search: the passages of a collection file (pid<TAB>text lines)
 * whose text holds every one of some words. ASCII letters match in either case; every other byte
 * as it is, so a CJK word matches as its UTF-8 bytes (which never match inside another
 * character) and needs no spaces around it. Found in the file's order, each with the pid and
 * the text around its first match, for listing (`retriage grep`, the workbench's :grep all). */
#ifndef RT_SEARCH_H
#define RT_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#include "rt_err.h"

/* A passage found: its pid and a window of its text around the first match of the first word
 * (whole characters, at most RT_SEARCH_SNIP bytes), both in the result's arena. */
typedef struct rt_search_hit {
    uint64_t line_off;       /* the line's first byte in the (decompressed) file */
    size_t pid, pid_len;     /* arena offsets and lengths */
    size_t snip, snip_len;
    uint32_t snip_at;        /* the match's start within the snippet */
    uint32_t text_at;        /* the match's start within the passage text (bytes) */
} rt_search_hit;

enum { RT_SEARCH_SNIP = 160, RT_SEARCH_MAX_WORDS = 16 };

typedef struct rt_search_result {
    rt_search_hit *hits;
    size_t n, cap;
    char *arena;
    size_t alen, acap;
    uint64_t lines;          /* lines with a tab that were searched (passages) */
} rt_search_result;

/* Searches the collection at path (plain, gzip or zstd; a plain one on two threads) for the
 * passages whose text holds all nwords words (1..RT_SEARCH_MAX_WORDS, none empty) and fills *out
 * (released with rt_search_result_free). A line without a tab is an input error naming
 * path:line. Everything found is owned by *out. */
rt_status rt_search_file(const char *path, const char *const *words, size_t nwords, rt_search_result *out,
                         rt_err *err);

void rt_search_result_free(rt_search_result *r);

/* The first match of word (wlen bytes, ASCII letters in either case) in s[0, n), or (size_t)-1. */
size_t rt_search_find(const char *s, size_t n, const char *word, size_t wlen);

#endif
