/* tuning — the RETRIAGE_* variables that tune loading, read once from the environment into the
 * rt_tuning every open carries (see the man page's ENVIRONMENT). */
#ifndef CLI_TUNING_H
#define CLI_TUNING_H

#include "rt_tuning.h"

/* Reads the environment (once, at start, before any thread): RETRIAGE_PARALLEL_MIN,
 * RETRIAGE_SETTLE_STEP, RETRIAGE_CACHE_MIN, RETRIAGE_CACHE_BACKGROUND_MIN, the test holds
 * RETRIAGE_COLLECTION_WAIT and RETRIAGE_CACHE_WRITER_WAIT, and RETRIAGE_FAISS_MODULE (given to
 * rt_faiss_set_module). A number that cannot be read is the default. */
void cli_tuning_init(void);

/* What cli_tuning_init read. Borrowed: static, for the life of the program. */
const rt_tuning *cli_tuning(void);

#endif
