/* rt_err — status codes and error messages. Core functions never print: they return a
 * status and fill an rt_err whose message names the place (file:line) and what was expected. */
#ifndef RT_ERR_H
#define RT_ERR_H

#include <stddef.h>

typedef enum rt_status {
    RT_OK = 0,
    RT_EUSAGE = 1,   /* the caller asked for something that makes no sense */
    RT_EINPUT = 2,   /* a file is missing, unreadable or malformed */
    RT_EIO = 3,      /* a write or sync failed */
    RT_ELOCKED = 4,  /* another process holds a lock */
} rt_status;

typedef struct rt_err {
    rt_status status;
    unsigned what;   /* RT_ERR_* telling a caller which error of its status this is, or 0 */
    char msg[1024];
} rt_err;

/* rt_err.what: a file named as a journal that is none (its first line is not an operation, and
 * no line is): a team of "every journal in the folder" leaves it out. */
#define RT_ERR_NOT_JOURNAL 1u
/* rt_err.what: a change (RT_EUSAGE) refused because it is already so: nothing to do, nothing
 * written. A workbench reports it and goes on (a script run twice must run to its end). */
#define RT_ERR_NOOP 2u

/* rt_err.what: a measure name the parser does not know (rt_measure_parse). */
#define RT_ERR_UNKNOWN_MEASURE 2u

/* Sets err (which may be NULL) to status and a printf-style message, what 0; returns status. */
rt_status rt_err_set(rt_err *err, rt_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Like rt_err_set, with "path:line: " in front (line 0 leaves the line out). */
rt_status rt_err_at(rt_err *err, rt_status status, const char *path, size_t line,
                    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Clears err to RT_OK with an empty message. */
void rt_err_clear(rt_err *err);

#endif
