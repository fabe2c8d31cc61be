/* rt_facets — facets of queries (question type, fact or opinion, leaked or clean, …): a TSV file
 * with a header line `qid<TAB>NAME…` and one line a query, a value per facet (empty: none); or
 * DuReader's JSON lines (its answers file), whose question_id, question_type and fact_or_opinion
 * become the facets question_type and fact_or_opinion. The
 * metrics panel, `export --what metrics --by FACET` and `compare --facet NAME=VALUE` split or
 * select queries by them. */
#ifndef RT_FACETS_H
#define RT_FACETS_H

#include <stddef.h>
#include <stdint.h>

#include "rt_err.h"
#include "rt_report.h"
#include "rt_strtab.h"

typedef struct rt_facet {
    char *name;
    char **values;       /* the distinct values, in order of first appearance */
    size_t nv;
    uint32_t *of;        /* of[qid] = value index + 1; 0: none (or beyond nof) */
    size_t nof;
} rt_facet;

typedef struct rt_facets {
    rt_facet *f;
    size_t n;
    char *path;                  /* the file they were read from (NULL: made otherwise) */
} rt_facets;

/* Loads path for the queries of qids (others are counted in rep and ignored). Errors name
 * file:line: no header, a line with another number of fields, a qid twice. */
rt_status rt_facets_load(rt_facets **out, const char *path, const rt_strtab *qids, rt_report *rep, rt_err *err);
void rt_facets_free(rt_facets **f);

/* A facet from a mask over qids (n of them): value yes where mask[qid], no elsewhere (the
 * leaked / clean split as a facet). Owned: the caller frees it with rt_facets_free. */
rt_facets *rt_facets_from_mask(const char *name, const char *yes, const char *no, const unsigned char *mask, size_t n);

/* The facet named name, or (size_t)-1. */
size_t rt_facets_find(const rt_facets *f, const char *name);

/* The value index of qid in facet k, or (size_t)-1 when it has none. */
size_t rt_facet_value(const rt_facets *f, size_t k, uint32_t qid);

/* The value index named value in facet k, or (size_t)-1. */
size_t rt_facet_value_index(const rt_facets *f, size_t k, const char *value);

#endif
