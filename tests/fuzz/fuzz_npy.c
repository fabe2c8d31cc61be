/* fuzz_npy — a .npy header (magic, versions 1-3, lengths, the dictionary). */
#include "config.h"

#include "fuzz.h"
#include "rt_npy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    rt_npy_header h;
    size_t need = 0;
    rt_err err;
    if (rt_npy_parse(data, n, "x.npy", &h, &need, &err) == RT_OK && h.data_offset > n)
        abort();   /* a header it accepted lies inside what it was given */
    return 0;
}
