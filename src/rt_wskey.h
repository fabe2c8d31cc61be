/* rt_wskey — where a workspace given by flags keeps its journals: a folder under the user's state
 * directory named by a key of the canonical paths of its inputs, so that the same files opened
 * from any directory find the same annotations (a workspace JSON keeps them beside itself). */
#ifndef RT_WSKEY_H
#define RT_WSKEY_H

#include "rt_wsconfig.h"

/* The key of spec's inputs: 16 hex digits of a hash over the canonical (realpath) paths of its
 * queries, collection, qrels, DBQA file and runs (the runs' paths sorted, so their order and
 * names do not matter; a path that cannot be resolved is taken as given, made absolute). Written
 * into key (17 bytes with the NUL). */
void rt_wskey_of(const rt_ws_spec *spec, char key[17]);

/* The journal folder of spec: ${XDG_STATE_HOME:-$HOME/.local/state}/retriage/journals/KEY, or
 * NULL when neither names an absolute folder. The folder may not exist yet. Owned: the caller
 * frees it with free. */
char *rt_wskey_journal_dir(const rt_ws_spec *spec);

#endif
