/* measure — the list's measure (:measure LIST, M): any measure `retriage eval -m` knows, those the
 * workspace lacks computed for every run on worker threads (rt_measure job), then kept live like
 * the workspace's own. The event loop polls the job; a key is never held up by it for long. */
#ifndef RT_UI_MEASURE_H
#define RT_UI_MEASURE_H

#include <stddef.h>

#include "app.h"

/* A measure job done since the last call joined to the workspace and the live metrics, the list
 * showing what was asked for (if nothing else was since): 1 when something changed (redraw). */
int measure_poll(app *a);

/* 1 while measures are being computed, with the status line's words for it in buf. */
int measure_busy(const app *a, char *buf, size_t n);

/* Stops a job still running (the workbench ends). */
void measure_release(app *a);

#endif
