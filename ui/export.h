/* export — the :export command. */
#ifndef RT_UI_EXPORT_H
#define RT_UI_EXPORT_H

#include "app.h"

int act_export(app *a, const char *arg);

#endif
