/* retriage-faiss.so — the BLAS and the Faiss C API behind rt_faiss_api (rt_faiss.h), built as a
 * module of its own so that only a leakage search loads them. It holds no state: each call is
 * the library's. */
#include "config.h"

#include <cblas.h>
#include <faiss/c_api/AutoTune_c.h>
#include <faiss/c_api/IndexFlat_c.h>
#include <faiss/c_api/Index_c.h>
#include <faiss/c_api/error_c.h>
#include <faiss/c_api/index_factory_c.h>

#include "rt_faiss.h"

static void sgemm_abt(int m, int n, int k, const float *a, const float *b, float *c)
{
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, m, n, k, 1.0f, a, k, b, k, 0.0f, c, n);
}

static int flat_ip(void **ix, int64_t d)
{
    FaissIndexFlatIP *flat = NULL;
    int rc = faiss_IndexFlatIP_new_with(&flat, (idx_t)d);
    *ix = flat;
    return rc;
}

static int factory_ip(void **ix, int d, const char *spec)
{
    FaissIndex *x = NULL;
    int rc = faiss_index_factory(&x, d, spec, METRIC_INNER_PRODUCT);
    *ix = x;
    return rc;
}

static int set_params(void *ix, const char *params)
{
    FaissParameterSpace *ps = NULL;
    int rc = faiss_ParameterSpace_new(&ps);
    if (rc == 0)
        rc = faiss_ParameterSpace_set_index_parameters(ps, ix, params);
    faiss_ParameterSpace_free(ps);
    return rc;
}

static int is_trained(void *ix) { return faiss_Index_is_trained(ix); }
static int train(void *ix, int64_t n, const float *x) { return faiss_Index_train(ix, (idx_t)n, x); }
static int add(void *ix, int64_t n, const float *x) { return faiss_Index_add(ix, (idx_t)n, x); }

static int search(void *ix, int64_t n, const float *x, int64_t k, float *dis, int64_t *labels)
{
    return faiss_Index_search(ix, (idx_t)n, x, (idx_t)k, dis, (idx_t *)labels);
}

static void free_index(void *ix) { faiss_Index_free(ix); }

__attribute__((visibility("default"))) const rt_faiss_api rt_faiss_api_v1 = {
    RT_FAISS_API_VERSION, sgemm_abt, flat_ip, factory_ip, set_params, is_trained, train, add,
    search, free_index, faiss_get_last_error,
};
