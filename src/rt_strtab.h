/* rt_strtab — interns strings (qids, pids) to dense 32-bit ids, 0, 1, 2, … in order of first
 * sight. One table is one id namespace; a workspace has one for queries and one for passages. */
#ifndef RT_STRTAB_H
#define RT_STRTAB_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define RT_NO_ID UINT32_MAX

typedef struct rt_strtab rt_strtab;

/* Returns a new empty table. Owned: the caller frees it with rt_strtab_free. */
rt_strtab *rt_strtab_new(void);
void rt_strtab_free(rt_strtab **t);

/* Returns the id of the len bytes at s, adding them if absent. The table keeps its own copy. */
uint32_t rt_strtab_intern(rt_strtab *t, const char *s, size_t len);

/* Interns the n strings s[i] of len[i] bytes into ids[i], as n calls of rt_strtab_intern would,
 * faster on a large table (its cache misses overlap). */
void rt_strtab_intern_many(rt_strtab *t, const char *const *s, const size_t *len, size_t n, uint32_t *ids);

/* Decimal ids (MS MARCO's) can be carried as their values, four bytes, between a thread that
 * parses and the one that interns: rt_strtab_decimal gives the value of s when it is the
 * canonical decimal of a value such a table keeps by value (1-8 digits, no leading zero, below
 * 2^26), and rt_strtab_intern_decimals replaces each such value v[i] by the id of its string, as
 * rt_strtab_intern of the digits would (the same ids, in the same order), up to the first v[i]
 * that is not such a value (2^26 or more: the caller's mark for another kind of pid), returning
 * how many it replaced. */
#define RT_STRTAB_VALUE_MAX (1u << 26)   /* values kept by value are below it: num[] is at most 256 MiB */
int rt_strtab_decimal(const char *s, size_t len, uint32_t *value);
/* rt_strtab_decimal (the same answer) for s with at least 8 bytes readable from it. */
int rt_strtab_decimal_padded(const char *s, size_t len, uint32_t *value);
size_t rt_strtab_intern_decimals(rt_strtab *t, uint32_t *v, size_t n);

/* Returns the id of the len bytes at s, or RT_NO_ID if they were never interned. */
uint32_t rt_strtab_find(const rt_strtab *t, const char *s, size_t len);

/* As rt_strtab_find, with the hash already computed by rt_hash_bytes(s, len). */
uint32_t rt_strtab_find_hashed(const rt_strtab *t, const char *s, size_t len, uint64_t hash);

/* The NUL-terminated string of id (which must be < count). Borrowed: valid until rt_strtab_free
 * (interning never moves a string; an attached table's are in its image, which must outlive it). */
const char *rt_strtab_str(const rt_strtab *t, uint32_t id);
size_t rt_strtab_len(const rt_strtab *t, uint32_t id);

uint32_t rt_strtab_count(const rt_strtab *t);

/* Bytes held by the table (strings, index and hash slots), for load reports and benchmarks. */
size_t rt_strtab_bytes(const rt_strtab *t);

/* ---- an image of the table (for the workspace cache) ---------------------------------------- */

/* The bytes rt_strtab_image_write writes for n: a multiple of 8. */
size_t rt_strtab_image_size(const rt_strtab *t, uint32_t n);

/* Writes the image of the table's first n strings (ids 0..n-1; all of them when n is at least
 * rt_strtab_count: the table as it was when it had n) to f; 0, or -1 when the stream has an
 * error. */
int rt_strtab_image_write(const rt_strtab *t, uint32_t n, FILE *f);

/* A table whose strings and slots are those of the image at mem (len bytes, 8-aligned, in a
 * private writable mapping that must outlive the table: inserting writes into its slots). Its ids
 * are the imaged table's; new strings go to the heap. NULL when mem is not a whole, sane image
 * (every string inside it and terminated); damaged slots only cost lookups their answers. Owned:
 * the caller frees it with rt_strtab_free, before the mapping goes. */
rt_strtab *rt_strtab_attach(void *mem, size_t len);

#endif
