/* rt_npy — the header of NumPy's .npy format (versions 1.0, 2.0 and 3.0): reading it to find a
 * matrix's dtype, order, shape and where its data starts, and writing one for a float32 matrix.
 * Only the header: the caller reads or writes the data itself (it may be gigabytes). */
#ifndef RT_NPY_H
#define RT_NPY_H

#include <stddef.h>

#include "rt_err.h"

#define RT_NPY_MAX_DIMS 8

typedef struct rt_npy_header {
    int major, minor;                /* format version */
    char descr[32];                  /* dtype string, e.g. "<f4" */
    int fortran_order;
    size_t ndim;
    size_t shape[RT_NPY_MAX_DIMS];
    size_t data_offset;              /* bytes before the data: magic, lengths and dictionary */
} rt_npy_header;

/* The most bytes a header can take that rt_npy_parse reads (a 4 GiB dictionary is not a matrix
 * header; this bounds what a corrupt length can make the caller read). */
#define RT_NPY_MAX_HEADER (1u << 20)

/* Parses the first len bytes of a file (at least the whole header; len may be more) into h.
 * Fails with RT_EINPUT and a message after "path: " when the magic is wrong, the version is not
 * 1, 2 or 3, the header is cut short, or the dictionary is not {'descr': str, 'fortran_order':
 * bool, 'shape': tuple of ints}. *need (may be NULL) is set to the header's length in bytes as
 * soon as the length fields are read (so a caller holding too few bytes can read more). */
rt_status rt_npy_parse(const unsigned char *buf, size_t len, const char *path, rt_npy_header *h,
                       size_t *need, rt_err *err);

/* Writes a version 1.0 header for a C-order little-endian float32 matrix of n rows × d columns
 * into buf (capacity cap, 128 bytes suffice) padded so the data starts at a multiple of 64, as
 * NumPy does. Returns its length, or 0 when cap is too small. */
size_t rt_npy_write_f32_header(char *buf, size_t cap, size_t n, size_t d);

#endif
