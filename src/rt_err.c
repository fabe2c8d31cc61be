/* rt_err — building error messages. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>

#include "rt_err.h"

rt_status rt_err_set(rt_err *err, rt_status status, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
        err->status = status;
        err->what = 0;
    }
    return status;
}

rt_status rt_err_at(rt_err *err, rt_status status, const char *path, size_t line,
                    const char *fmt, ...)
{
    if (err) {
        int n = line ? snprintf(err->msg, sizeof err->msg, "%s:%zu: ", path, line)
                     : snprintf(err->msg, sizeof err->msg, "%s: ", path);
        if (n < 0 || (size_t)n >= sizeof err->msg)
            n = 0;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg + n, sizeof err->msg - (size_t)n, fmt, ap);
        va_end(ap);
        err->status = status;
        err->what = 0;
    }
    return status;
}

void rt_err_clear(rt_err *err)
{
    if (err) {
        err->status = RT_OK;
        err->what = 0;
        err->msg[0] = '\0';
    }
}
