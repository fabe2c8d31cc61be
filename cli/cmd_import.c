/* cmd_import — `retriage import`: judgments or tags made elsewhere become operations in the
 * journals of the annotators who made them (their via: "import FILE:LINE"). Every line of every
 * file is checked before any journal is written; each journal is then replaced at once by a copy
 * with the new operations, so a kill leaves it as it was or complete. */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "rt_import.h"
#include "rt_journal.h"
#include "rt_jtxn.h"
#include "rt_mem.h"
#include "rt_reader.h"
#include "ws_args.h"

static const char import_usage[] =
    "Usage: retriage import [WORKSPACE OPTIONS] [--annotator NAME] --judgments FILE | --tags FILE\n"
    "\n"
    "Turns judgments or error tags made elsewhere (another tool, a spreadsheet, a colleague's\n"
    "export) into operations of the annotators who made them, in their journals in the journal\n"
    "folder; each operation records \"import FILE:LINE\". A judgment equal to the base qrels is kept:\n"
    "it is the annotator's decision.\n"
    "\n"
    "  --judgments FILE    TSV with a header: [annotator] qid pid grade; or TREC qrels\n"
    "                      (qid iteration pid grade, no header)\n"
    "  --tags FILE         TSV with a header: [annotator] qid pid category (one line a category;\n"
    "                      a category by id, name or the digit of its key; pid - tags the query\n"
    "                      itself, as 'export --what tags' writes it)\n"
    "  --annotator NAME    whose journal, when the file has no annotator column\n"
    "  -h, --help          show this help\n"
    "\n"
    "A header may have any number of columns, in any order; after it every non-blank line is\n"
    "data (an annotator may start with '#').\n"
    "Both options may be given, and each more than once. Nothing is half-imported: an unknown query\n"
    "or passage, a grade outside the workspace's scale, an unknown category or a pair judged twice\n"
    "with different grades is an error naming FILE:LINE, and then no journal is written. Lines the\n"
    "journal already holds are skipped, so importing a file again adds nothing; judgments that\n"
    "change a grade the journal held are counted in a warning.\n"
    "Exit status: 0 ok, 1 usage error, 2 input error.\n"
    "\n";

static const struct option own_options[] = {
    {"judgments", required_argument, 0, 'j'}, {"tags", required_argument, 0, 't'},
    {"help", no_argument, 0, 'h'}, {0, 0, 0, 0},
};

typedef struct input {
    const char *path;
    int tags;
} input;

typedef struct import_state {
    input *in;
    size_t nin;
    rt_import rd;   /* what the files hold */
} import_state;

static int parse(int argc, char **argv, ws_args *w, import_state *im)
{
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "m:l:h", w->longopts, NULL)) != -1) {
        int h = ws_args_handle(w, "import", c, optarg);
        if (h == 1)
            continue;
        if (h == WS_ARGS_BAD)
            return CLI_USAGE;
        switch (c) {
        case 'j':
        case 't':
            im->in = rt_reallocarray(im->in, im->nin + 1, sizeof *im->in);
            im->in[im->nin++] = (input){optarg, c == 't'};
            break;
        case 'h':
            fputs(import_usage, stdout);
            fputs(ws_args_help, stdout);
            return -1;
        default: return cli_usage("import", "unknown option");
        }
    }
    if (!im->nin)
        return cli_usage("import", "give --judgments FILE or --tags FILE");
    return ws_args_finish(w, "import", argc, argv);
}

/* One annotator's part: entries [from, to) of im. */
typedef struct part {
    const char *annotator;
    rt_session *s;
    rt_op *ops;
    size_t n, kept;
    size_t changed;      /* judgments that change a grade the journal held */
} part;

/* How many of p's judgments to import give a pair another grade than the annotator's journal
 * has: an older file imported again would silently undo the annotator's later decisions. */
static size_t changed_grades(const part *p)
{
    const rt_workspace *ws = p->s->ws;
    size_t n = 0;
    for (size_t i = 0; i < p->kept; i++) {
        const rt_op *op = &p->ops[i];
        if (op->kind != RT_OP_LABEL || !op->has_grade)
            continue;
        const rt_label *l = rt_annot_label(p->s->annot, rt_strtab_find(ws->qids, op->qid, strlen(op->qid)),
                                           rt_strtab_find(ws->pids, op->pid, strlen(op->pid)));
        n += l && l->grade != op->grade;
    }
    return n;
}

/* RETRIAGE_IMPORT_FAULT=kill:N or fail:N: the transaction's step N is killed (SIGKILL) or fails as
 * a full disk would. For the tests of the all-or-nothing promise; read here, never by the core. */
static int fault_hook(void *ctx, unsigned step)
{
    const char *f = ctx;
    unsigned n = (unsigned)strtoul(strchr(f, ':') + 1, NULL, 10);
    if (step != n)
        return 0;
    if (strncmp(f, "kill:", 5) == 0)
        raise(SIGKILL);
    return 1;
}

/* Writes every part's operations as one transaction (rt_jtxn): every journal gets its lines, or
 * none does, even under kill -9 or a full disk. */
static int commit_all(ws_args *w, rt_workspace *ws, part *parts, size_t np)
{
    rt_err err;
    rt_jtxn *t = NULL;
    if (rt_jtxn_begin(&t, w->journal_dir, ws->report, &err) != RT_OK) {
        fprintf(stderr, "retriage: %s; nothing was imported\n", err.msg);
        return CLI_INPUT;
    }
    const char *fault = getenv("RETRIAGE_IMPORT_FAULT");
    if (fault && (strncmp(fault, "kill:", 5) == 0 || strncmp(fault, "fail:", 5) == 0))
        rt_jtxn_set_hook(t, fault_hook, (void *)fault);
    int rc = CLI_OK;
    for (size_t i = 0; i < np && rc == CLI_OK; i++)
        if (parts[i].kept && rt_jtxn_stage(t, parts[i].s->journal, parts[i].ops, parts[i].kept, &err) != RT_OK) {
            fprintf(stderr, "retriage: %s; nothing was imported\n", err.msg);
            rc = CLI_INPUT;
        }
    if (rc == CLI_OK && rt_jtxn_commit(t, &err) != RT_OK) {
        fprintf(stderr, "retriage: %s\n", err.msg);
        rc = CLI_INPUT;
    }
    rt_jtxn_free(&t);
    for (size_t i = 0; i < np && rc == CLI_OK; i++) {
        part *p = &parts[i];
        fprintf(stderr, "retriage: %s: %zu operation%s imported into %s%s\n", p->annotator, p->kept,
                p->kept == 1 ? "" : "s", rt_journal_path(p->s->journal),
                p->n > p->kept ? " (the rest were there already)" : "");
        if (p->changed)
            fprintf(stderr, "retriage: warning: %s: %zu of them change a grade the journal held (the file's grade "
                    "now stands)\n", p->annotator, p->changed);
    }
    return rc;
}

static int import_all(ws_args *w, rt_workspace *ws, import_state *im)
{
    rt_err err;
    part *parts = NULL;
    size_t np = 0, cap = 0;
    int rc = CLI_OK;
    for (size_t i = 0; i < im->rd.n; i++) {
        rt_import_entry *e = &im->rd.e[i];
        if (!np || strcmp(parts[np - 1].annotator, e->annotator) != 0) {
            RT_GROW(parts, cap, np + 1);
            parts[np++] = (part){.annotator = e->annotator};
        }
        part *p = &parts[np - 1];
        p->ops = rt_reallocarray(p->ops, p->n + 1, sizeof *p->ops);
        p->ops[p->n++] = e->op;
        memset(&e->op, 0, sizeof e->op);
    }
    if (!np)
        fputs("retriage: nothing imported: the files hold a header and no lines\n", stderr);
    /* open every journal and check every operation before writing any */
    for (size_t i = 0; i < np && rc == CLI_OK; i++) {
        part *p = &parts[i];
        if (rt_session_open(&p->s, ws, w->journal_dir, p->annotator, 0, &err) != RT_OK)
            rc = cli_fail(&err);
        else if (rt_session_readonly(p->s)) {
            fprintf(stderr, "retriage: %s's journal cannot be written (%s); nothing was imported\n",
                    p->annotator, rt_session_readonly(p->s));
            rc = CLI_INPUT;
        } else if (rt_session_import(p->s, p->ops, p->n, 1, &p->kept, &err) != RT_OK) {
            fprintf(stderr, "retriage: %s; nothing was imported\n", err.msg);
            rc = CLI_INPUT;
        } else {
            p->changed = changed_grades(p);
        }
    }
    if (rc == CLI_OK && np)
        rc = commit_all(w, ws, parts, np);
    for (size_t i = 0; i < np; i++) {
        for (size_t k = 0; k < parts[i].n; k++)
            rt_op_clear(&parts[i].ops[k]);
        free(parts[i].ops);
        rt_session_discard(&parts[i].s);   /* a journal made for an import refused is removed */
    }
    free(parts);
    return rc;
}

int cmd_import(int argc, char **argv)
{
    ws_args w;
    import_state im = {0};
    ws_args_init(&w, own_options);
    int rc = parse(argc, argv, &w, &im);
    rt_workspace *ws = NULL;
    rt_session *sess = NULL;
    if (rc == CLI_OK)
        rc = ws_args_open(&w, isatty(2), 1, &ws, &sess);
    rt_err err;
    for (size_t i = 0; rc == CLI_OK && i < im.nin; i++)
        if (rt_import_read(&im.rd, im.in[i].path, im.in[i].tags, ws->taxonomy, w.annotator, &err) != RT_OK)
            rc = cli_fail(&err);
    if (rc == CLI_OK && rt_import_dedupe(&im.rd, &err) != RT_OK)
        rc = cli_fail(&err);
    char *dir = NULL;
    if (rc == CLI_OK) {
        dir = rt_strdup(w.journal_dir ? w.journal_dir : sess->journal_dir);
        w.journal_dir = dir;
        rt_session_close(&sess);   /* the journals are opened for writing one by one */
        rc = import_all(&w, ws, &im);
    }
    if (ws)
        cli_print_warnings(ws->report);   /* the workspace's, and each journal's (a torn tail set aside) */
    free(dir);
    rt_import_clear(&im.rd);
    free(im.in);
    rt_session_close(&sess);
    rt_workspace_free(&ws);
    ws_args_free(&w);
    return rc < 0 ? CLI_OK : rc;
}
