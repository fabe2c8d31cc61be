/* rt_json — checks every JSON input goes through around cJSON: ids that are strings or exact whole
 * numbers, and no string that would decode to hold U+0000. */
#ifndef RT_JSON_H
#define RT_JSON_H

#include <stddef.h>

#include "rt_err.h"

/* The largest integer below which every JSON number (a double) is exactly the digits written:
 * numeric ids beyond it are refused (9007199254740993 would read as …992). */
#define RT_JSON_INT_MAX 9007199254740991LL

/* An id in JSON (question_id, paragraph_id): a string, or a whole number within ±RT_JSON_INT_MAX
 * written in decimal into buf. Sets *s to it and returns its length; -1 when v is neither. */
struct cJSON;
int rt_json_id(const struct cJSON *v, char *buf, size_t n, const char **s);

/* Offset in the len bytes of JSON text at s of the first place where a string would decode to
 * hold U+0000 (a \u0000 escape, or a NUL byte), or len when none would. cJSON decodes \u0000
 * into a NUL that then ends the C string early: "q1\u0000x" would be read as "q1" and merged
 * with another query. Every JSON input is checked with it (rt_json_check_nul) before parsing. */
size_t rt_json_nul_at(const char *s, size_t len);

/* RT_OK when no string of the JSON text at s (len bytes, starting at line `line` of path) holds
 * U+0000; else RT_EINPUT with "path:LINE: a JSON string holds \u0000 …" in err, LINE being the
 * line of the escape. */
rt_status rt_json_check_nul(const char *path, size_t line, const char *s, size_t len, rt_err *err);

/* The line (1-based) of the JSON text at s (len bytes) where the value of member key of the
 * top-level object starts or, with index >= 0 and that value an array, where its element index
 * starts; 0 when there is none. For messages naming file:line (cJSON keeps no positions). */
size_t rt_json_member_line(const char *s, size_t len, const char *key, long index);

#endif
