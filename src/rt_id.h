/* rt_id — query and passage ids: what one may hold, whether it fits a TREC line, how one is
 * shown in a message. */
#ifndef RT_ID_H
#define RT_ID_H

#include <stddef.h>

#include "rt_err.h"

/* Why the len bytes at s cannot be an id (qid or pid), or NULL when they can: ids are non-empty
 * valid UTF-8 without control characters. Borrowed: a static string. */
const char *rt_id_problem(const char *s, size_t len);

/* Checks the query and passage ids of a judgment or a ranked line at path:line: RT_OK, or
 * RT_EINPUT with "bad query id: …" / "bad passage id: …" in err. */
rt_status rt_id_check_pair(const char *path, size_t line, const char *qid, size_t ql,
                            const char *pid, size_t pl, rt_err *err);

/* True when id can stand in a blank-separated TREC line (no space, tab or other blank in it). */
int rt_id_trec_safe(const char *id);

/* A printable, shortened copy of an id for messages ("…" after 60 bytes; control bytes and the
 * bytes of invalid UTF-8 as \xNN, so the copy is valid UTF-8), written to buf of size n; returns
 * buf. Borrowed: it is the caller's buf. */
char *rt_id_show(const char *s, size_t len, char *buf, size_t n);

#endif
