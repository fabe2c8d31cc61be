/* rt_thread — where a thread stands in the queue for the processor and the disk: the work done
 * ahead of use (warming, indexing, contrasts) runs behind the thread that draws and takes keys. */
#ifndef RT_THREAD_H
#define RT_THREAD_H

/* Lowers the calling thread's priority to the warming thread's: nice 10, and the idle I/O class
 * (it reads only when nothing else waits on the disk). For other work done ahead of use. */
void rt_thread_lower_priority(void);

/* Puts the calling thread a little behind the thread that draws and takes keys (nice 5, the I/O
 * class unchanged): work the user waits for, but not at the cost of a key. */
void rt_thread_behind_ui_priority(void);

/* Puts the calling thread behind all other work: the idle scheduling class (it runs on a core that
 * would otherwise idle) and the idle I/O class. Returns its thread id, for
 * rt_thread_normal_priority (0 when it has none). For work nothing waits on yet. */
long rt_thread_idle_priority(void);

/* Thread tid (from rt_thread_idle_priority) back to the normal classes: something waits on it now,
 * and other work must not starve it. Nothing for tid 0. */
void rt_thread_normal_priority(long tid);

#endif
