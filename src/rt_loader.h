/* rt_loader — opening a workspace and taking in what a deferred open left (rt_workspace_open,
 * rt_workspace_settle: declared in rt_workspace.h). This header holds what only the container
 * needs from the loader. */
#ifndef RT_LOADER_H
#define RT_LOADER_H

#include "rt_workspace.h"

/* Every loading thread of ws stopped (the run workers after the run they read, the collection's
 * after its index) and joined, and what they made freed: for rt_workspace_free. */
void rt_loader_stop(rt_workspace *ws);

#endif
