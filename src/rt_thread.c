/* rt_thread — thread priorities (rt_thread.h): nice levels, the idle scheduling class and the
 * I/O classes, each for the calling thread only (Linux thread ids); elsewhere they do nothing. */
#include "config.h"

#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rt_thread.h"

#define IOPRIO_WHO_PROCESS 1
#define IOPRIO_IDLE (3 << 13)     /* class 3 (idle) in the top bits, level 0 */
#define IOPRIO_NORMAL (2 << 13 | 4)   /* class 2 (best effort), its middle level */

void rt_thread_lower_priority(void)
{
#ifdef SYS_gettid
    /* this thread only: the keys first, for the processor and for the disk (the idle class reads
     * only when nothing else waits on it) */
    long tid = syscall(SYS_gettid);
    (void)setpriority(PRIO_PROCESS, (id_t)tid, 10);
#ifdef SYS_ioprio_set
    (void)syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, (int)tid, IOPRIO_IDLE);
#endif
#endif
}

void rt_thread_behind_ui_priority(void)
{
#ifdef SYS_gettid
    (void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 5);   /* this thread only (Linux) */
#endif
}

long rt_thread_idle_priority(void)
{
#ifdef SYS_gettid
    long tid = syscall(SYS_gettid);
#ifdef SCHED_IDLE
    struct sched_param none = {0};
    (void)sched_setscheduler((pid_t)tid, SCHED_IDLE, &none);   /* refused: it stays as it is */
#else
    (void)setpriority(PRIO_PROCESS, (id_t)tid, 10);
#endif
#ifdef SYS_ioprio_set
    (void)syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, (int)tid, IOPRIO_IDLE);
#endif
    return tid;
#else
    return 0;
#endif
}

void rt_thread_normal_priority(long tid)
{
    if (tid <= 0)
        return;
#ifdef SCHED_IDLE
    struct sched_param none = {0};   /* allowed without privilege: SCHED_IDLE to SCHED_OTHER at nice 0 */
    (void)sched_setscheduler((pid_t)tid, SCHED_OTHER, &none);
#endif
#ifdef SYS_ioprio_set
    (void)syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, (int)tid, IOPRIO_NORMAL);
#endif
}
