/* rt_mapguard — a SIGBUS handler for mappings of files that may shrink. The handler only does
 * async-signal-safe things: lock-free atomic loads, mmap (a system call), write and _exit. Adds
 * and removes take no lock either (C11 atomics on each slot): the cache's writer process, forked
 * while another thread may have been adding a mapping, can still add and remove its own. */
#include "config.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rt_mapguard.h"
#include "rt_safeout.h"

#define SLOTS 8
#define CLAIMED ((uintptr_t)1)   /* a slot being filled: the handler skips it */

_Static_assert(ATOMIC_POINTER_LOCK_FREE == 2, "the handler reads the slots with lock-free atomics");

typedef struct guard {
    _Atomic uintptr_t base;    /* 0: free; CLAIMED: being filled; else the mapping's start */
    _Atomic uintptr_t len;
    char path[512];            /* written while CLAIMED, read once base is published */
} guard;

static guard slots[SLOTS];
static atomic_int fatal = 1;
static atomic_int installed;   /* 0, 1 while one thread installs the handler, 2 once installed */
static _Atomic(const char *) tripped;

static void on_sigbus(int sig, siginfo_t *si, void *uctx)
{
    (void)uctx;
    uintptr_t a = (uintptr_t)si->si_addr;
    for (int i = 0; i < SLOTS; i++) {
        uintptr_t b = atomic_load_explicit(&slots[i].base, memory_order_acquire);
        uintptr_t l = atomic_load_explicit(&slots[i].len, memory_order_relaxed);
        if (b <= CLAIMED || a < b || a >= b + l)
            continue;
        const char *none = NULL;
        atomic_compare_exchange_strong(&tripped, &none, slots[i].path);   /* the first to trip */
        if (atomic_load(&fatal)) {
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

/* The handler, installed by the first caller (the others go on: a mapping registered in the
 * instant before it is installed is guarded from then on). */
static void install(void)
{
    int none = 0;
    if (!atomic_compare_exchange_strong(&installed, &none, 1))
        return;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigbus;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGBUS, &sa, NULL);
    atomic_store(&installed, 2);
}

void rt_mapguard_add(const void *base, size_t len, const char *path)
{
    install();
    for (int i = 0; i < SLOTS; i++) {   /* a collection may open on its own thread: slots are claimed */
        uintptr_t free_slot = 0;
        if (!atomic_compare_exchange_strong(&slots[i].base, &free_slot, CLAIMED))
            continue;
        /* the handler writes it to standard error past the filter: its safe form, made now */
        rt_safeout_text(path, strlen(path), slots[i].path, sizeof slots[i].path);
        atomic_store_explicit(&slots[i].len, (uintptr_t)len, memory_order_relaxed);
        atomic_store_explicit(&slots[i].base, (uintptr_t)base, memory_order_release);   /* published */
        return;
    }
    /* all slots taken: this mapping is not guarded */
}

void rt_mapguard_remove(const void *base)
{
    for (int i = 0; i < SLOTS; i++) {
        uintptr_t b = (uintptr_t)base;
        atomic_compare_exchange_strong(&slots[i].base, &b, 0);
    }
}

void rt_mapguard_set_fatal(int f) { atomic_store(&fatal, f); }

const char *rt_mapguard_tripped(void) { return atomic_load(&tripped); }
