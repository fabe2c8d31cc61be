/* rusage — runs a command and reports its wall time, CPU time and peak resident memory, for the
 * benchmark where GNU time is not installed. The peak is the largest of the command and the
 * children it waited for (getrusage RUSAGE_CHILDREN), so `sh -c 'a | b'` reports the bigger one.
 *
 * Usage: rusage [-o FILE] COMMAND [ARG...]
 * Prints "WALL s MAXRSS KiB (user U s, sys S s)" to FILE or stderr; exits with the command's
 * status (128 + signal when it was killed). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double seconds(const struct timeval *tv) { return (double)tv->tv_sec + tv->tv_usec / 1e6; }

int main(int argc, char **argv)
{
    const char *out = NULL;
    int first = 1;
    if (argc > 2 && strcmp(argv[1], "-o") == 0) {
        out = argv[2];
        first = 3;
    }
    if (first >= argc) {
        fprintf(stderr, "Usage: rusage [-o FILE] COMMAND [ARG...]\n");
        return 125;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid = fork();
    if (pid < 0) {
        perror("rusage: fork");
        return 125;
    }
    if (pid == 0) {
        execvp(argv[first], argv + first);
        fprintf(stderr, "rusage: %s: %s\n", argv[first], strerror(errno));
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            perror("rusage: waitpid");
            return 125;
        }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    struct rusage ru;
    getrusage(RUSAGE_CHILDREN, &ru);
    double wall = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    FILE *f = out ? fopen(out, "a") : stderr;
    if (!f) {
        fprintf(stderr, "rusage: %s: %s\n", out, strerror(errno));
        return 125;
    }
    fprintf(f, "%.3f s %ld KiB (user %.3f s, sys %.3f s)\n", wall, ru.ru_maxrss,
            seconds(&ru.ru_utime), seconds(&ru.ru_stime));
    if (out)
        fclose(f);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return WEXITSTATUS(status);
}
