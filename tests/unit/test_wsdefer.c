/* test_wsdefer — a collection indexed behind the first screen (rt_ws_spec.defer_collection): the
 * open returns without it, rt_loader_poll takes it in, and then everything is as an open that
 * waited would have left it: the passages, the judged passages it lacks, the workspace cache (and
 * what a reopen from that cache evaluates). Ids added before it came in are not in the cache; a
 * bad collection is an error at settling, with its file and line; a workspace freed
 * while its collection is still being indexed leaks nothing. */
#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_workspace.h"
#include "tap.h"
#include "ws_fixture.h"

static rt_workspace *open_ws(rt_ws_spec *spec, int defer, int no_cache)
{
    spec->defer_collection = defer;
    spec->no_cache = no_cache;
    spec->tuning = &tuning;
    rt_workspace *ws = NULL;
    rt_err err = {0};
    if (rt_workspace_open(&ws, spec, NULL, &err) != RT_OK)
        printf("# open: %s\n", err.msg);
    return ws;
}

static int passage_is(const rt_workspace *ws, const char *pid, const char *want)
{
    uint32_t id = rt_strtab_find(ws->pids, pid, strlen(pid));
    const char *t;
    size_t tl;
    return id != RT_NO_ID && rt_workspace_passage(ws, id, &t, &tl) && tl == strlen(want) &&
           memcmp(t, want, tl) == 0;
}

int main(void)
{
    fixture_dir("rt_wsdefer");
    const char *runs[2];
    rt_ws_spec spec = two_run_spec(runs);

    /* the reference: an open that waits for its collection, and reads no cache */
    rt_workspace *ref = open_ws(&spec, 0, 1);
    ok(ref && ref->collection && !rt_loader_collection_loading(ref, NULL, NULL), "an open that waits has its collection");
    ok(ref && report_has(ref, "1 judged passages are not in the collection"), "and reports the judged passage it lacks");
    remove_derived();

    /* deferred: nothing of the collection until it is settled */
    rt_workspace *ws = open_ws(&spec, 1, 0);
    uint64_t done, total;
    ok(ws && rt_loader_collection_loading(ws, NULL, NULL) && !ws->collection, "a deferred open returns without its collection");
    ok(ws && rt_loader_collection_loading(ws, &done, &total), "it says the collection is being indexed");
    ok(ws && !passage_is(ws, "p1", "the first passage"), "no passage shows before it is in");
    ok(ws && !report_has(ws, "judged passages are not in the collection"), "the judged passages are not checked yet");
    ok(ws && same_values(ws, ref), "every value is there before it, as an open that waits has it");
    ok(caches() == 0, "no workspace cache is written before it is in");
    rt_err err = {0};
    ok(ws && rt_loader_wait(ws, RT_LOAD_ALL, &err) == 1, "settling takes it in");
    ok(ws && ws->collection && !rt_loader_collection_loading(ws, NULL, NULL) && !rt_loader_collection_loading(ws, &done, &total),
       "then the workspace has it and nothing is pending");
    ok(ws && passage_is(ws, "p1", "the first passage") && passage_is(ws, "p3", "the third"), "the passages show");
    ok(ws && report_has(ws, "1 judged passages are not in the collection"), "the judged passage it lacks is reported");
    ok(ws && report_has(ws, "collection.tsv: 3 passages"), "the collection's own report line is there");
    ok(ws && rt_loader_wait(ws, RT_LOAD_ALL, &err) == 0, "settling again does nothing");
    ok(caches() == 1, "the workspace cache is written once it is in");
    rt_workspace_free(&ws);

    /* a reopen maps that cache: the same values, and the count the cache kept */
    rt_workspace *re = open_ws(&spec, 1, 0);
    ok(re && re->cache && !rt_loader_collection_loading(re, NULL, NULL) && re->collection, "a reopen uses the cache and the index: nothing deferred");
    ok(re && same_values(re, ref), "every value from the cache is the waiting open's");
    ok(re && report_has(re, "1 judged passages are not in the collection"), "the reopen reports the count the cache kept");
    rt_workspace_free(&re);
    remove_derived();

    /* a cache written by a background process: forked when the collection comes in, it writes
     * the index too */
    tuning.cache_background_min = 0;
    ws = open_ws(&spec, 1, 0);
    ok(ws && rt_loader_wait(ws, RT_LOAD_ALL, &err) == 1, "with a background writer: taken in");
    ok(ws && report_has(ws, "workspace cache being written in the background"), "the writer is started then");
    rt_workspace_free(&ws);
    for (int i = 0; i < 2000 && caches() == 0; i++)
        usleep(5000);
    tuning.cache_background_min = (rt_tuning)RT_TUNING_DEFAULTS.cache_background_min;
    re = open_ws(&spec, 0, 0);
    ok(caches() == 1 && re && same_values(re, ref) && report_has(re, "1 judged passages are not in the collection"),
       "the reopen from what it wrote has every value and the count");
    ok(re && report_has(re, "index reused"), "and the index it wrote");
    rt_workspace_free(&re);
    remove_derived();

    /* ids added before the collection is in (a journal's passage and query no input names, as a
     * replay adds them): the cache holds the ids as the open left them */
    ws = open_ws(&spec, 1, 0);
    uint32_t npids = ws ? rt_strtab_count(ws->pids) : 0, nqids = ws ? rt_strtab_count(ws->qids) : 0;
    if (ws) {
        rt_strtab_intern(ws->pids, "p-journal", 9);
        rt_strtab_intern(ws->qids, "q-journal", 9);
    }
    ok(ws && rt_loader_wait(ws, RT_LOAD_ALL, &err) == 1 && ws->collection, "ids added meanwhile: it is taken in");
    ok(caches() == 1, "and the cache is written");
    rt_workspace_free(&ws);
    re = open_ws(&spec, 0, 0);
    ok(re && re->cache && rt_strtab_count(re->pids) == npids && rt_strtab_count(re->qids) == nqids &&
       rt_strtab_find(re->pids, "p-journal", 9) == RT_NO_ID && rt_strtab_find(re->qids, "q-journal", 9) == RT_NO_ID,
       "its ids are the open's, without those added later");
    ok(re && rt_strtab_find(re->pids, "p3", 2) != RT_NO_ID && same_values(re, ref),
       "and every value from it is the waiting open's");
    rt_workspace_free(&re);
    remove_derived();

    /* freed while being indexed: the thread is waited for, nothing leaks (under ASan) */
    ws = open_ws(&spec, 1, 0);
    ok(ws && rt_loader_collection_loading(ws, NULL, NULL), "opened deferred");
    rt_workspace_free(&ws);
    ok(!ws, "freed before it was settled");
    remove_derived();

    /* a bad collection: the open succeeds, settling fails with the file and line */
    const char *bad = in_dir("bad.tsv", "p1\tfine\np2 no tab here\np3\tfine\n");
    rt_ws_spec bspec = spec;
    bspec.collection = bad;
    ws = open_ws(&bspec, 1, 0);
    ok(ws && rt_loader_collection_loading(ws, NULL, NULL), "a bad collection: the deferred open returns");
    memset(&err, 0, sizeof err);
    ok(ws && rt_loader_wait(ws, RT_LOAD_ALL, &err) == -1, "settling fails");
    ok(strstr(err.msg, "bad.tsv:2:") != NULL, "with the file and line (%s)", err.msg);
    ok(ws && !ws->collection && !rt_loader_collection_loading(ws, NULL, NULL), "the workspace goes on without a collection");
    ok(ws && report_has(ws, "bad.tsv:2:") && report_has(ws, "passages are not shown"), "the report says so");
    ok(caches() == 0, "no cache is written for it");
    rt_workspace_free(&ws);

    /* waiting only when asked: without wait, settling takes it in once the thread is done */
    ws = open_ws(&spec, 1, 1);
    rt_load_event ev = {0};
    int got = ws && rt_loader_poll(ws, 10000, &ev);   /* at most 10 s: the test fails, not hangs */
    ok(got && ev.kind == RT_LOAD_COLLECTION_READY && ws->collection,
       "polling takes it in once it is indexed, and says so");
    ok(ws && rt_loader_poll(ws, 0, &ev) && ev.kind == RT_LOAD_DONE && !rt_loader_poll(ws, 0, &ev),
       "then the end, once");
    rt_workspace_free(&ws);

    rt_workspace_free(&ref);
    remove_derived();
    unlink(spec.collection);
    unlink(spec.qrels);
    unlink(runs[0]);
    unlink(runs[1]);
    unlink(bad);
    rmdir(dir);
    return tap_done();
}
