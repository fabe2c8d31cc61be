/* rt_noop — what an operation that changes nothing finds already so, in words: a change made
 * again (a script run twice, a key pressed twice) is reported, not refused as an error. */
#ifndef RT_NOOP_H
#define RT_NOOP_H

#include <stddef.h>

#include "rt_op.h"

/* Writes to buf (size len) what op, which rt_annot_is_noop (or a relabel to the base grade)
 * found already so: "q1 p02 already labelled 1", "q1 (query) not tagged entity mismatch". Names
 * come from op's text form, else from its ids through names; ids are shown printable
 * (rt_id_show). Returns buf (Borrowed: it is the caller's buf). */
char *rt_noop_say(const rt_op *op, const rt_op_names *names, char *buf, size_t len);

#endif
