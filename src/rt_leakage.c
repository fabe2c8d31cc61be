/* rt_leakage — a workspace's leakage candidates and its leaked / other split. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rt_leakage.h"
#include "rt_mem.h"
#include "rt_leak.h"

static rt_status load_embeddings(const rt_workspace *ws, const rt_leakage *l, rt_embed **test,
                                 rt_embed **train, rt_err *err)
{
    const rt_ws_leak *k = &ws->leak;
    *test = *train = NULL;
    if (!k->test_emb && !k->train_emb)
        return RT_OK;
    if (!k->test_emb || !k->train_emb)
        return rt_err_set(err, RT_EUSAGE, "leakage: give both test and training embeddings, or neither");
    rt_status st = rt_embed_load_queries(test, k->test_emb, NULL, ws->queries, ws->qids, k->queries_path, err);
    if (st == RT_OK)
        st = rt_embed_load_queries(train, k->train_emb, NULL, l->train, l->train_qids, k->train_queries, err);
    if (st != RT_OK) {
        rt_embed_free(test);
        rt_embed_free(train);
    }
    return st;
}

static rt_status search(rt_leakage *l, const rt_workspace *ws, rt_err *err)
{
    size_t ntrain = rt_queries_count(l->train);
    const char **te = rt_calloc(l->ntest + 1, sizeof *te), **tr = rt_calloc(ntrain + 1, sizeof *tr);
    for (size_t i = 0; i < l->ntest; i++)
        te[i] = rt_queries_text(ws->queries, l->test_qid[i]);
    for (size_t i = 0; i < ntrain; i++)
        tr[i] = rt_queries_text(l->train, rt_queries_qid(l->train, (uint32_t)i));
    rt_embed *etest, *etrain;
    rt_status st = load_embeddings(ws, l, &etest, &etrain, err);
    rt_leak_opts o;
    rt_leak_opts_default(&o);
    if (!isnan(ws->leak.threshold))
        o.threshold = ws->leak.threshold;
    if (ws->leak.k)
        o.k = ws->leak.k;
    if (ws->leak.dim)
        o.dim = ws->leak.dim;
    o.index_spec = ws->leak.index;
    l->builtin = etest == NULL;
    l->threshold = rt_leak_threshold(&o, l->builtin);
    if (st == RT_OK)
        st = rt_leak_find(te, l->ntest, tr, ntrain, etest, etrain, &o, &l->pairs, &l->npairs, err);
    rt_embed_free(&etest);
    rt_embed_free(&etrain);
    free(te);
    free(tr);
    return st;
}

rt_status rt_leakage_find(rt_leakage **out, const rt_workspace *ws, rt_err *err)
{
    *out = NULL;
    if (!ws->leak.train_queries)
        return rt_err_set(err, RT_EUSAGE, "the workspace names no training queries (\"train_queries\")");
    if (!ws->queries)
        return rt_err_set(err, RT_EUSAGE, "leakage needs the workspace's queries file (the test queries)");
    rt_leakage *l = rt_calloc(1, sizeof *l);
    l->train_qids = rt_strtab_new();
    rt_load_opts lo = {0};
    rt_status st = rt_queries_load(&l->train, ws->leak.train_queries, RT_QUERIES_AUTO, l->train_qids,
                                   &lo, ws->report, err);
    if (st == RT_OK) {
        l->ntest = rt_queries_count(ws->queries);
        l->test_qid = rt_calloc(l->ntest + 1, sizeof *l->test_qid);
        for (size_t i = 0; i < l->ntest; i++)
            l->test_qid[i] = rt_queries_qid(ws->queries, (uint32_t)i);
        st = search(l, ws, err);
    }
    if (st != RT_OK) {
        rt_leakage_free(&l);
        return st;
    }
    l->first = rt_calloc(l->ntest + 2, sizeof *l->first);
    for (size_t p = 0; p < l->npairs; p++)
        l->first[l->pairs[p].test + 1]++;
    for (size_t i = 0; i < l->ntest; i++)
        l->first[i + 1] += l->first[i];
    *out = l;
    return RT_OK;
}

void rt_leakage_free(rt_leakage **lp)
{
    if (!lp || !*lp)
        return;
    rt_leakage *l = *lp;
    rt_queries_free(&l->train);
    rt_strtab_free(&l->train_qids);
    free(l->test_qid);
    free(l->pairs);
    free(l->first);
    free(l);
    *lp = NULL;
}

const char *rt_leakage_train_qid(const rt_leakage *l, const rt_leak_pair *p)
{
    return rt_strtab_str(l->train_qids, rt_queries_qid(l->train, p->train));
}

const char *rt_leakage_train_text(const rt_leakage *l, const rt_leak_pair *p)
{
    return rt_queries_text(l->train, rt_queries_qid(l->train, p->train));
}

int rt_leak_type_is_leak(const char *type)
{
    for (size_t i = 0; i < RT_LEAK_TYPES_LEAKING; i++)
        if (strcmp(type, rt_leak_types[i]) == 0)
            return 1;
    return 0;
}

unsigned char *rt_leakage_mask(const rt_session *s, const rt_leakage *l, int candidates, size_t *count)
{
    size_t n = 0, nq = rt_strtab_count(s->ws->qids);
    unsigned char *leaked = rt_calloc(nq + 1, 1);
    for (uint32_t q = 0; q < nq; q++) {
        size_t nl;
        const rt_leak_label *lb = rt_annot_leaks(s->annot, q, &nl);
        for (size_t i = 0; i < nl && !leaked[q]; i++)
            if (rt_leak_type_is_leak(lb[i].type)) {
                leaked[q] = 1;
                n++;
            }
    }
    for (size_t i = 0; candidates && l && i < l->ntest; i++)
        if (l->first[i + 1] > l->first[i] && !leaked[l->test_qid[i]]) {
            leaked[l->test_qid[i]] = 1;
            n++;
        }
    if (count)
        *count = n;
    return leaked;
}
