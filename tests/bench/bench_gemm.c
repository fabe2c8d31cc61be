/* bench_gemm — the floor of an exact leakage search: the bare matrix product of NTEST × D test
 * vectors with NTRAIN × D training vectors (every inner product, nothing kept), through
 * cblas_sgemm of the BLAS that Faiss links, in the blocks Faiss's exact search uses (4,096 test
 * rows × 1,024 training rows), which are also the calls retriage's exact search makes. What the
 * search adds on top is reading and normalising the vectors, the scan of each block for
 * candidates, and writing the pairs.
 *
 * Usage: bench_gemm NTEST NTRAIN D
 * Prints the product's wall time and rate; the vectors are random (the values do not matter). */
#include "config.h"

#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

/* Faiss's blocks (distance_compute_blas_query_bs and _database_bs), the default. */
#define BS_TEST 4096
#define BS_TRAIN 1024

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Allocated as retriage allocates a loaded matrix (rt_embed_new_unset): aligned to 2 MiB with
 * transparent huge pages, so that the floor has the same TLB behaviour. */
static float *random_matrix(size_t n, size_t d, unsigned seed)
{
    void *p = NULL;
    float *x = posix_memalign(&p, (size_t)2 << 20, n * d * sizeof *x) == 0 ? p : NULL;
#ifdef MADV_HUGEPAGE
    if (x)
        madvise(x, n * d * sizeof *x, MADV_HUGEPAGE);
#endif
    if (!x) {
        fprintf(stderr, "bench_gemm: out of memory\n");
        exit(1);
    }
    srand(seed);
    for (size_t i = 0; i < n * d; i++)
        x[i] = (float)rand() / (float)RAND_MAX - 0.5f;
    return x;
}

int main(int argc, char **argv)
{
    if (argc != 4 && argc != 6) {
        fprintf(stderr, "Usage: bench_gemm NTEST NTRAIN D [TEST_BLOCK TRAIN_BLOCK]\n");
        return 2;
    }
    size_t nq = strtoul(argv[1], NULL, 10), nb = strtoul(argv[2], NULL, 10), d = strtoul(argv[3], NULL, 10);
    size_t bs_test = argc == 6 ? strtoul(argv[4], NULL, 10) : BS_TEST;
    size_t bs_train = argc == 6 ? strtoul(argv[5], NULL, 10) : BS_TRAIN;
    if (!nq || !nb || !d || !bs_test || !bs_train) {
        fprintf(stderr, "bench_gemm: the sizes must be positive whole numbers\n");
        return 2;
    }
    float *q = random_matrix(nq, d, 1), *b = random_matrix(nb, d, 2);
    float *c = malloc(bs_test * bs_train * sizeof *c);
    double sum = 0, t0 = now();
    for (size_t i0 = 0; i0 < nq; i0 += bs_test) {
        size_t ni = nq - i0 < bs_test ? nq - i0 : bs_test;
        for (size_t j0 = 0; j0 < nb; j0 += bs_train) {
            size_t nj = nb - j0 < bs_train ? nb - j0 : bs_train;
            /* C (nj × ni, column-major) = B_block · Q_blockᵀ, as Faiss calls sgemm. */
            cblas_sgemm(CblasColMajor, CblasTrans, CblasNoTrans, (int)nj, (int)ni, (int)d, 1.0f,
                        b + j0 * d, (int)d, q + i0 * d, (int)d, 0.0f, c, (int)nj);
            sum += c[0];
        }
    }
    double t = now() - t0;
    printf("sgemm %zu x %zu x %zu in blocks of %zu x %zu: %.3f s, %.2f GFMA/s (checksum %g)\n", nq, nb, d, bs_test, bs_train, t,
           (double)nq * (double)nb * (double)d / t / 1e9, sum);
    free(q);
    free(b);
    free(c);
    return 0;
}
