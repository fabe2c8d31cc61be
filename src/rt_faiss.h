/* rt_faiss — the BLAS and the Faiss C API, loaded when a leakage search first needs them.
 *
 * Faiss links in the C++ runtime, OpenMP, the BLAS and LAPACK; loading those and running their
 * constructors (OpenBLAS allocates its buffers and starts a thread per core) would cost every
 * process time before main (tests/bench/PERF.md), and most never search: eval, export, a
 * workbench that is not asked for leakage. So they live in a module, retriage-faiss.so
 * (src/rt_faissmod.c), opened on the first call of rt_faiss_load: from $RETRIAGE_FAISS_MODULE when
 * it is set (the tests), else beside the running program (a build tree), else in the package's
 * library folder (an installed one). */
#ifndef RT_FAISS_H
#define RT_FAISS_H

#include <stddef.h>
#include <stdint.h>

#include "rt_err.h"

/* Changes whenever rt_faiss_api does: a module of another version is refused. */
#define RT_FAISS_API_VERSION 1u

/* The symbol the module defines: a const rt_faiss_api. */
#define RT_FAISS_API_SYMBOL "rt_faiss_api_v1"

/* What the module does. An index is opaque; the int calls return 0 on success, else Faiss's
 * last_error says why. */
typedef struct rt_faiss_api {
    unsigned version;
    /* c[m × n] = a[m × k] · b[n × k]ᵀ, all row-major float32 (cblas_sgemm) */
    void (*sgemm_abt)(int m, int n, int k, const float *a, const float *b, float *c);
    int (*flat_ip)(void **ix, int64_t d);                     /* an exact inner-product index */
    int (*factory_ip)(void **ix, int d, const char *spec);    /* index_factory, inner product */
    int (*set_params)(void *ix, const char *params);          /* through a ParameterSpace */
    int (*is_trained)(void *ix);
    int (*train)(void *ix, int64_t n, const float *x);
    int (*add)(void *ix, int64_t n, const float *x);
    int (*search)(void *ix, int64_t n, const float *x, int64_t k, float *dis, int64_t *labels);
    void (*free_index)(void *ix);
    const char *(*last_error)(void);
} rt_faiss_api;

/* The module's calls, loaded once (thread-safe); NULL with RT_EINPUT in err naming the file
 * tried and why it could not be used (every later call says the same). Borrowed: a static
 * table, valid for the life of the program (the module is never unloaded). */
const rt_faiss_api *rt_faiss_load(rt_err *err);

#endif
