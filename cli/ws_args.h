/* ws_args — the options that name a workspace (a JSON file, the demo, or inputs given as flags)
 * and the annotator's journal, shared by the workbench and by the commands that read
 * annotations (export). */
#ifndef RT_WS_ARGS_H
#define RT_WS_ARGS_H

#include <getopt.h>

#include "opts.h"
#include "rt_outguard.h"
#include "rt_session.h"
#include "rt_workspace.h"

typedef struct ws_args {
    rt_ws_spec spec;
    cli_opts opts;             /* the shared options (-m, -l, --order, --strict, and -o where the
                                  command takes it): copied into spec by ws_args_finish */
    const char **paths, **names;
    char **owned;
    size_t n;
    int demo;
    const char *workspace;     /* the positional WORKSPACE.json */
    const char *annotator;
    const char *journal_dir;   /* --journal-dir; after ws_args_open, the folder used */
    char *keyed_dir;           /* the folder chosen for a workspace given by flags (owned) */
    const char *spec_flag;     /* the first option that describes a workspace given by flags
                                  (-m, --qrels…): refused with a WORKSPACE.json or --demo */
    struct option *longopts;   /* the command's options followed by these */
} ws_args;

/* The help lines for these options. */
extern const char ws_args_help[];

/* Prepares w and the option array: own (terminated by a zero entry) followed by the workspace
 * options. Codes used here: 0x100-0x10f and the shared ones of opts.h. */
void ws_args_init(ws_args *w, const struct option *own);
void ws_args_free(ws_args *w);

/* Handles option c of getopt_long; returns 1 when it was a workspace option, 0 when not, and
 * WS_ARGS_BAD (after printing why) when its value is wrong. */
#define WS_ARGS_BAD (-2)
int ws_args_handle(ws_args *w, const char *cmd, int c, const char *arg);

/* Takes the positional WORKSPACE argument and checks that a workspace was named; returns
 * CLI_OK or CLI_USAGE. */
int ws_args_finish(ws_args *w, const char *cmd, int argc, char **argv);

/* Opens the workspace and its session (readonly: for export) and reports errors on stderr;
 * returns CLI_OK or the exit status. progress: show loading progress on a terminal. */
int ws_args_open(ws_args *w, int progress, int readonly, rt_workspace **ws, rt_session **sess);

/* The files an output of this command must never replace: every input named by the flags or
 * the workspace file, those ws loaded, and the journal folder of sess (ws and sess may be NULL).
 * The command adds its own inputs. Owned: a new guard, freed with rt_outguard_free. */
rt_outguard *ws_args_guard(const ws_args *w, const rt_workspace *ws, const rt_session *sess);

#endif
