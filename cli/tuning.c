/* tuning — the environment's RETRIAGE_* loading knobs, read in one place, once; src/ only ever
 * sees the struct. */
#include "config.h"

#include <stdlib.h>

#include "rt_faiss.h"
#include "tuning.h"

static rt_tuning tuning = RT_TUNING_DEFAULTS;

/* A count of bytes (or of anything) from the variable name: def when unset, empty, or not all
 * digits. */
static uint64_t env_count(const char *name, uint64_t def)
{
    const char *e = getenv(name);
    if (!e || !*e || *e == '-' || *e == '+')
        return def;
    char *end;
    unsigned long long v = strtoull(e, &end, 10);
    return *end ? def : (uint64_t)v;
}

void cli_tuning_init(void)
{
    tuning.parallel_min = env_count("RETRIAGE_PARALLEL_MIN", tuning.parallel_min);
    uint64_t step = env_count("RETRIAGE_SETTLE_STEP", tuning.settle_step);
    tuning.settle_step = step > 0 && step <= SIZE_MAX ? (size_t)step : tuning.settle_step;
    tuning.cache_min = env_count("RETRIAGE_CACHE_MIN", tuning.cache_min);
    tuning.cache_background_min = env_count("RETRIAGE_CACHE_BACKGROUND_MIN", tuning.cache_background_min);
    tuning.contrast_ahead_max = env_count("RETRIAGE_CONTRAST_AHEAD_MAX", 0);
    tuning.collection_wait = getenv("RETRIAGE_COLLECTION_WAIT");   /* the environment's: lives as long */
    tuning.cache_writer_wait = getenv("RETRIAGE_CACHE_WRITER_WAIT");
    tuning.measure_wait = getenv("RETRIAGE_MEASURE_WAIT");
    rt_faiss_set_module(getenv("RETRIAGE_FAISS_MODULE"));
}

const rt_tuning *cli_tuning(void)
{
    return &tuning;
}
