/* rt_run — a system run held in memory: per query, a ranked list of (pid, score) with interned
 * ids, for browsing. Reading the file is rt_runscan's (which eval also uses to stream a run
 * query by query without keeping it), so both order and dedupe each query the same way. */
#ifndef RT_RUN_H
#define RT_RUN_H

#include <stddef.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "rt_err.h"
#include "rt_names.h"
#include "rt_report.h"
#include "rt_strtab.h"

#include "rt_runscan.h"

/* ---- a run held in memory ---------------------------------------------------------------- */

typedef struct rt_run rt_run;

/* Loads path, interning its qids and pids into the shared namespaces (which must outlive it).
 * Warnings (duplicates dropped) go to report. The one public way to load a run; the staged path
 * the workspace loader takes (parsed on worker threads, interned in steps) is rt_runstage.h's. */
rt_status rt_run_load(rt_run **out, const char *path, const rt_run_opts *opts, rt_strtab *qids,
                      rt_strtab *pids, rt_report *report, rt_err *err);
void rt_run_free(rt_run **run);

/* The run's name and path, and what reading it found. Borrowed: valid until rt_run_free. */
const char *rt_run_name(const rt_run *run);
const char *rt_run_path(const rt_run *run);
const rt_run_info *rt_run_get_info(const rt_run *run);

/* The one check that runs are told apart by name (on screen, in a table, by --baseline): for each
 * of names[0, n) that an earlier one already has, a warning "runs K and R are both named "NAME"HOW"
 * in rep (K, R numbered from 1; HOW says how to name them, e.g. ": name them with NAME=RUN").
 * Returns how many warnings it added. */
size_t rt_run_warn_same_names(const char *const *names, size_t n, const char *how, rt_report *rep);

/* The ranked pids of qid, or NULL with *n = 0 when the run has no such query. Borrowed: valid
 * until rt_run_free (for an attached run, the image's mapping must last as long). The scores are
 * not kept: they decided the order, and nothing reads them after (8 bytes a passage, in memory
 * and in the cache). */
const uint32_t *rt_run_ranking(const rt_run *run, uint32_t qid, size_t *n);

/* A mapped run: maps every page of its rankings now, in one call, before a pass that reads them
 * all (a page first touched costs a fault each, tens of microseconds on a virtual machine; read
 * from the disk when it is not in memory). Nothing for a run parsed into memory. */
void rt_run_populate(const rt_run *run);

/* Asks the system to read qid's ranking (pids and scores) in the background, without waiting:
 * for a mapped workspace cache on a cold disk, a screen that reads the rankings of ten runs then
 * waits for the slowest read, not for the ten one after the other. */
void rt_run_prefetch(const rt_run *run, uint32_t qid);

/* A mapped run: checks now, for every query, what rt_run_ranking checks when the ranking is first
 * read (its pids are known ids), returning early once *stop is set. Safe beside readers on other
 * threads. Nothing for a parsed run. */
void rt_run_check_all(const rt_run *run, const atomic_int *stop);

/* The image of the run, for the workspace cache: its size in bytes (a multiple of 8), and
 * writing it to f (0, or -1 on a stream error). */
size_t rt_run_image_size(const rt_run *run);
int rt_run_image_write(const rt_run *run, FILE *f);

/* The run read from path whose arrays are the image at mem (len bytes, 8-aligned, in a mapping
 * that must outlive it), in the namespaces qids and pids. NULL when the image is not whole and
 * consistent (every query known, every ranking inside it); a ranking holding a pid past the pid
 * table (checked when first read) reads as none: a damaged cache is never read out of bounds.
 * Owned: the caller frees it with rt_run_free, before the mapping goes. */
rt_run *rt_run_attach(void *mem, size_t len, const char *path, rt_strtab *qids, rt_strtab *pids);

/* Number of queries in the run and the qid of the i-th (order of first appearance). */
uint32_t rt_run_nqueries(const rt_run *run);
uint32_t rt_run_qid(const rt_run *run, uint32_t i);

#endif
