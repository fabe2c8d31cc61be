/* queryset — the :sample and :set commands (named query sets kept in the journal). */
#ifndef RT_UI_QUERYSET_H
#define RT_UI_QUERYSET_H

#include "app.h"

int act_sample(app *a, const char *arg);
int act_set(app *a, const char *arg);

#endif
