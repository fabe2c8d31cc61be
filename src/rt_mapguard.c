/* rt_mapguard — a SIGBUS handler for mappings of files that may shrink. The handler only does
 * async-signal-safe things: mmap (a system call), write and _exit. */
#include "config.h"

#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rt_mapguard.h"
#include "rt_safeout.h"

#define SLOTS 8

typedef struct guard {
    volatile uintptr_t base, len;
    char path[512];
} guard;

static guard slots[SLOTS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;   /* adds and removes; never the handler */
static volatile sig_atomic_t fatal = 1, installed;
static const char *volatile tripped;

static void on_sigbus(int sig, siginfo_t *si, void *uctx)
{
    (void)uctx;
    uintptr_t a = (uintptr_t)si->si_addr;
    for (int i = 0; i < SLOTS; i++) {
        uintptr_t b = slots[i].base, l = slots[i].len;
        if (!b || a < b || a >= b + l)
            continue;
        if (!tripped)
            tripped = slots[i].path;
        if (fatal) {
            static const char pre[] = "retriage: ", post[] = ": the file changed on disk while it was "
                                                               "read (it is shorter now)\n";
            char msg[sizeof pre + sizeof slots[i].path + sizeof post];
            size_t n = 0, pl = strlen(slots[i].path);
            memcpy(msg, pre, sizeof pre - 1);
            n += sizeof pre - 1;
            memcpy(msg + n, slots[i].path, pl);
            n += pl;
            memcpy(msg + n, post, sizeof post - 1);
            n += sizeof post - 1;
            if (write(2, msg, n) < 0)
                _exit(2);
            _exit(2);
        }
        uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), at = a / page * page;
        if (mmap((void *)at, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED)
            return;   /* the read is retried and finds zeros */
        break;
    }
    /* not ours, or the page could not be replaced: the default action */
    signal(sig, SIG_DFL);
    raise(sig);
}

void rt_mapguard_add(const void *base, size_t len, const char *path)
{
    pthread_mutex_lock(&lock);   /* a collection may open on its own thread */
    if (!installed) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_sigbus;
        sa.sa_flags = SA_SIGINFO;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGBUS, &sa, NULL);
        installed = 1;
    }
    for (int i = 0; i < SLOTS; i++)
        if (!slots[i].base) {
            /* the handler writes it to standard error past the filter: its safe form, made now */
            rt_safeout_text(path, strlen(path), slots[i].path, sizeof slots[i].path);
            slots[i].len = len;
            slots[i].base = (uintptr_t)base;   /* last: the handler sees a whole slot or none */
            pthread_mutex_unlock(&lock);
            return;
        }
    pthread_mutex_unlock(&lock);   /* all slots taken: this mapping is not guarded */
}

void rt_mapguard_remove(const void *base)
{
    pthread_mutex_lock(&lock);
    for (int i = 0; i < SLOTS; i++)
        if (slots[i].base == (uintptr_t)base)
            slots[i].base = 0;
    pthread_mutex_unlock(&lock);
}

void rt_mapguard_set_fatal(int f) { fatal = f; }

const char *rt_mapguard_tripped(void) { return tripped; }
