/* rt_mapguard — survives a mapped file shrinking under us. Reading a page of a mapping past the
 * end of its file raises SIGBUS (another program truncated the collection while the workbench
 * shows it). The guard's handler, for an address inside a registered mapping, maps a zero page
 * over the faulting page so the read completes, and records that the file changed; the caller
 * checks rt_mapguard_tripped and stops trusting that file. Any other SIGBUS keeps its default
 * action. In fatal mode (the CLI) the handler says which file changed and exits with status 2. */
#ifndef RT_MAPGUARD_H
#define RT_MAPGUARD_H

#include <stddef.h>

/* Registers [base, base + len) as a mapping of path (its terminal-safe form, rt_safeout_text,
 * is copied: the handler writes it unfiltered; at most 8 mappings at once) and installs the
 * handler on first use. */
void rt_mapguard_add(const void *base, size_t len, const char *path);

/* Forgets the mapping at base (before it is unmapped). */
void rt_mapguard_remove(const void *base);

/* Fatal mode (the default, for commands): a tripped guard writes
 * "retriage: PATH: the file changed on disk while it was read" and exits with status 2.
 * The workbench turns it off and checks rt_mapguard_tripped instead. */
void rt_mapguard_set_fatal(int fatal);

/* The (safe form of the) path of the first mapping that tripped, or NULL. Async-signal-safe to
 * read. Borrowed: a static slot, which rt_mapguard_add overwrites once that mapping was removed:
 * copy it to keep it. */
const char *rt_mapguard_tripped(void);

#endif
