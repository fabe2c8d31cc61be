/* main — dispatches to a subcommand, or opens the workbench. */
#include "config.h"

#include <langinfo.h>
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "actions.h"
#include "cli.h"
#include "rt_mem.h"
#include "rt_num.h"
#include "rt_reader.h"
#include "term.h"

static void usage(FILE *f)
{
    fputs("Usage: retriage [OPTIONS] WORKSPACE.json | --demo | --qrels F --run F…\n"
          "       retriage COMMAND [OPTIONS] [ARGS]\n"
          "\n"
          "A terminal workbench for error analysis of passage-retrieval systems.\n"
          "Without a command it opens the workbench ('retriage --help-open' lists its options).\n"
          "\n"
          "Commands:\n", f);
    for (const cli_command *c = cli_commands; c->name; c++)
        if (c->run)
            fprintf(f, "  %-13s %s\n", c->name, c->summary);
    fputs("\n"
          "Options:\n"
          "  -h, --help       show this help\n"
          "  -V, --version    show the version\n"
          "      --help-open  the workbench's options\n"
          "      --help-keys  the workbench's keys and commands\n"
          "\n"
          "Run 'retriage COMMAND --help' for a command's options; 'man retriage' for everything\n"
          "(from the source tree: man ./man/retriage.1).\n", f);
}

/* An import or a team holds every annotator's journal open at once, two descriptors each (the
 * file and its lock): under the usual soft limit of 1,024 an import for 510 annotators failed.
 * The soft limit is raised towards the hard one (to 65,536 at most: no descriptor is spent on
 * anything but files). */
static void raise_fd_limit(void)
{
    struct rlimit r;
    if (getrlimit(RLIMIT_NOFILE, &r) != 0 || r.rlim_cur == RLIM_INFINITY || r.rlim_cur >= 65536)
        return;
    rlim_t want = r.rlim_max == RLIM_INFINITY || r.rlim_max > 65536 ? 65536 : r.rlim_max;
    if (want > r.rlim_cur) {
        r.rlim_cur = want;
        (void)setrlimit(RLIMIT_NOFILE, &r);   /* refused: the limit as it was */
    }
}

/* RETRIAGE_JSON_MAX: the most bytes a JSON document or a line of an input may hold decompressed
 * (rt_input_max_set), in bytes or with a K, M or G suffix (powers of 1,024). 0 when it is set
 * and cannot be read, 1 otherwise. */
static int set_input_max(void)
{
    const char *v = getenv("RETRIAGE_JSON_MAX");
    if (!v) {
        rt_input_max_set(RT_INPUT_MAX_DEFAULT, "set RETRIAGE_JSON_MAX=BYTES, e.g. 4G, to raise it");
        return 1;
    }
    char num[32];
    size_t n = strlen(v), shift = 0;
    if (n && strchr("KkMmGg", v[n - 1])) {
        shift = strchr("Kk", v[n - 1]) ? 10 : strchr("Mm", v[n - 1]) ? 20 : 30;
        n--;
    }
    int64_t x;
    if (n >= sizeof num)
        return 0;
    memcpy(num, v, n);
    num[n] = '\0';
    if (!rt_num_parse_int_in(num, 1, INT64_MAX >> shift, &x))
        return 0;
    rt_input_max_set((size_t)x << shift, "RETRIAGE_JSON_MAX sets it");
    return 1;
}

/* Memory ran out (rt_mem_on_exhausted): most often an input bigger than the process may hold
 * (ulimit -v, a container's limit). Said plainly and exit 2, the terminal restored first; what
 * the journal acknowledged is on disk, and an output being written was never renamed over its
 * target. No stdio: the message is built on the stack and written once. */
static void memory_exhausted(size_t n)
{
    term_end_if_started();
    char msg[400];
    int len = n == (size_t)-1
        ? snprintf(msg, sizeof msg, "retriage: out of memory: an input asked for more memory than can be "
                   "counted; nothing unsaved was kept\n")
        : snprintf(msg, sizeof msg, "retriage: out of memory: %zu bytes more could not be had (the inputs need "
                   "more than this process may use: see ulimit -v and the machine's memory); changes "
                   "already saved are kept, no output was replaced\n", n);
    if (len > 0)
        (void)!write(2, msg, (size_t)len < sizeof msg ? (size_t)len : sizeof msg - 1);
    _exit(CLI_INPUT);
}

int main(int argc, char **argv)
{
    rt_mem_init();
    rt_mem_on_exhausted(memory_exhausted);
    raise_fd_limit();
    if (!set_input_max()) {
        fputs("retriage: RETRIAGE_JSON_MAX must be a size in bytes, with an optional K, M or G (e.g. 4G)\n",
              stderr);
        return CLI_USAGE;
    }
    /* Widths and wide-character drawing need a UTF-8 character type; fall back to C.UTF-8 when
     * the environment names none (CI, cron). LC_CTYPE only: numbers keep a decimal point. */
    const char *ct = setlocale(LC_CTYPE, "");
    if (!ct || strcmp(nl_langinfo(CODESET), "UTF-8") != 0)
        setlocale(LC_CTYPE, "C.UTF-8");
    /* Nothing read from a file reaches a terminal raw: every message (standard error, whatever
     * it is connected to) and, on a terminal, every result. Files and pipes keep the bytes. */
    stderr = cli_safe_stream(stderr, 2, _IOLBF);
    int workbench = argc < 2 || argv[1][0] == '-' || strchr(argv[1], '.') || strchr(argv[1], '/');
    for (const cli_command *c = cli_commands; argc >= 2 && c->name; c++)
        if (c->run && strcmp(argv[1], c->name) == 0)
            workbench = 0;
    if (!workbench && isatty(1))   /* (the workbench draws through curses, sanitised by rt_text;
                                    * in script mode cmd_open filters what --echo prints) */
        stdout = cli_safe_stream(stdout, 1, _IOFBF);
    if (argc < 2) {   /* a first run: say where to start */
        fputs("Welcome to retriage. To look around, open the bundled demo workspace:\n"
              "    retriage --demo\n"
              "To open your own: retriage --qrels QRELS --run RUN [--run RUN...] [--queries F] [--collection F]\n"
              "(README.md, \"Quick start\", sets everything up in one command.)\n\n", stdout);
        usage(stdout);
        return CLI_OK;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0) {
        usage(stdout);
        return CLI_OK;
    }
    if (strcmp(cmd, "-V") == 0 || strcmp(cmd, "--version") == 0) {
        printf("retriage %s\n", PACKAGE_VERSION);
        return CLI_OK;
    }
    if (strcmp(cmd, "--help-keys") == 0) {
        actions_write_keys(stdout, argc > 2 && strcmp(argv[2], "man") == 0);
        return CLI_OK;
    }
    if (strcmp(cmd, "--help-open") == 0) {
        char *args[] = {argv[0], (char *)"--help", NULL};
        return cmd_open(2, args);
    }
    for (const cli_command *c = cli_commands; c->name; c++)
        if (c->run && strcmp(cmd, c->name) == 0)
            return c->run(argc - 1, argv + 1);
    if (cmd[0] == '-' || strchr(cmd, '.') || strchr(cmd, '/'))
        return cmd_open(argc, argv);
    fprintf(stderr, "retriage: unknown command '%s'\n", cmd);
    usage(stderr);
    return CLI_USAGE;
}
