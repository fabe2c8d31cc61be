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
#include "rt_journal.h"
#include "rt_jtxn.h"
#include "rt_mem.h"
#include "rt_parse.h"
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
    "                      a category by id, name or number; pid - tags the query itself, as\n"
    "                      'export --what tags' writes it)\n"
    "  --annotator NAME    whose journal, when the file has no annotator column\n"
    "  -h, --help          show this help\n"
    "\n"
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

/* One imported line: its annotator and operation. */
typedef struct entry {
    char *annotator;
    rt_op op;
} entry;

typedef struct import_state {
    input *in;
    size_t nin;
    entry *e;
    size_t n, cap;
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

/* The columns of a TSV header: the index of each name, -1 when absent. */
typedef struct columns {
    int annotator, qid, pid, value;
    size_t n;
} columns;

static int field_is(const rt_field *f, const char *name)
{
    return f->len == strlen(name) && memcmp(f->s, name, f->len) == 0;
}

static int header(const rt_field *f, size_t nf, int tags, columns *c)
{
    const char *value = tags ? "category" : "grade";
    *c = (columns){-1, -1, -1, -1, nf};
    for (size_t i = 0; i < nf; i++) {
        int *slot = field_is(&f[i], "annotator") ? &c->annotator
                    : field_is(&f[i], "qid")     ? &c->qid
                    : field_is(&f[i], "pid")     ? &c->pid
                    : field_is(&f[i], value)     ? &c->value
                                                    : NULL;
        if (slot)
            *slot = (int)i;
    }
    return c->qid >= 0 && c->pid >= 0 && c->value >= 0;
}

static rt_status add(import_state *im, const rt_workspace *ws, const input *in, size_t line,
                     const char *who, const rt_field *q, const rt_field *p, const rt_field *v, rt_err *err)
{
    const char *path = in->path;
    if (!who || !who[0])
        return rt_err_at(err, RT_EUSAGE, path, line, "no annotator: the file has no annotator column (give --annotator NAME)");
    const char *why = rt_journal_name_problem(who);
    if (why) {
        char shown[80];
        return rt_err_at(err, RT_EINPUT, path, line, "annotator \"%s\" cannot name a journal: %s",
                         rt_id_show(who, strlen(who), shown, sizeof shown), why);
    }
    rt_status st = rt_check_pair_ids(path, line, q->s, q->len, p->s, p->len, err);
    if (st != RT_OK)
        return st;
    int query_tag = in->tags && p->len == 1 && p->s[0] == '-';   /* as 'export --what tags' writes one */
    rt_op op = {.kind = in->tags ? RT_OP_TAG : RT_OP_LABEL, .qid = rt_strndup(q->s, q->len),
                .pid = query_tag ? NULL : rt_strndup(p->s, p->len)};
    if (in->tags) {
        char *name = rt_strndup(v->s, v->len);
        size_t c = rt_taxonomy_find(ws->taxonomy, name);
        free(name);
        if (c == (size_t)-1) {
            rt_op_clear(&op);
            return rt_err_at(err, RT_EINPUT, path, line, "unknown category \"%.*s\"", (int)(v->len > 100 ? 100 : v->len), v->s);
        }
        op.cat = rt_strdup(ws->taxonomy->cats[c].id);
    } else if (rt_parse_int32(v->s, v->len, &op.grade) != RT_NUM_OK) {
        rt_op_clear(&op);
        return rt_err_at(err, RT_EINPUT, path, line, "the grade must be a whole number");
    } else {
        op.has_grade = 1;
    }
    size_t need = strlen(path) + 48;
    op.via = rt_malloc(need);
    snprintf(op.via, need, "import %s:%zu", path, line);
    RT_GROW(im->e, im->cap, im->n + 1);
    im->e[im->n++] = (entry){rt_strdup(who), op};
    return RT_OK;
}

/* Reads one file into entries. */
static rt_status read_input(import_state *im, const rt_workspace *ws, const input *in, const char *annotator,
                            rt_err *err)
{
    rt_reader *r;
    rt_status st = rt_reader_open(&r, in->path, err);
    if (st != RT_OK)
        return st;
    char *line;
    size_t len;
    int rc, first = 1, trec = 0;
    columns col = {0};
    while (st == RT_OK && (rc = rt_reader_next(r, &line, &len, err)) == 1) {
        size_t no = rt_reader_lineno(r);
        if (rt_line_skippable(line, len))
            continue;
        rt_field f[16];
        if (first) {
            first = 0;
            size_t nf = rt_split_tab(line, len, f, 16);
            if (header(f, nf, in->tags, &col))
                continue;
            if (col.qid >= 0 && col.pid >= 0) {   /* a header, of the other kind of file */
                st = rt_err_at(err, RT_EINPUT, in->path, no, "the header has no \"%s\" column (%s)",
                               in->tags ? "category" : "grade",
                               in->tags ? "judgments are imported with --judgments" : "tags are imported with --tags");
                break;
            }
            if (in->tags) {
                st = rt_err_at(err, RT_EINPUT, in->path, no, "a tags file starts with a header line: "
                               "[annotator<TAB>]qid<TAB>pid<TAB>category");
                break;
            }
            trec = 1;
        }
        if (trec) {
            size_t nf = rt_split_ws(line, len, f, 16);
            if (nf != 4) {
                st = rt_err_at(err, RT_EINPUT, in->path, no, "expected a header line (annotator qid pid grade) "
                               "or TREC qrels (qid iteration pid grade), got %zu fields", nf);
                break;
            }
            st = add(im, ws, in, no, annotator, &f[0], &f[2], &f[3], err);
            continue;
        }
        size_t nf = rt_split_tab(line, len, f, 16);
        if (nf != col.n) {
            st = rt_err_at(err, RT_EINPUT, in->path, no, "%zu tab-separated fields; the header has %zu", nf, col.n);
            break;
        }
        char *who = col.annotator >= 0 ? rt_strndup(f[col.annotator].s, f[col.annotator].len) : NULL;
        st = add(im, ws, in, no, who ? who : annotator, &f[col.qid], &f[col.pid], &f[col.value], err);
        free(who);
    }
    if (st == RT_OK && rc < 0)
        st = RT_EINPUT;
    if (st == RT_OK && first)
        st = rt_err_set(err, RT_EINPUT, "%s: nothing to import (the file is empty)", in->path);
    rt_reader_close(&r);
    return st;
}

static int entry_cmp(const void *x, const void *y)
{
    const entry *a = x, *b = y;
    int c = strcmp(a->annotator, b->annotator);
    if (!c)
        c = (int)a->op.kind - (int)b->op.kind;
    if (!c)
        c = strcmp(a->op.qid, b->op.qid);
    if (!c)
        c = strcmp(a->op.pid ? a->op.pid : "", b->op.pid ? b->op.pid : "");
    if (!c && a->op.cat)
        c = strcmp(a->op.cat, b->op.cat);
    return c;
}

/* Sorts by annotator and pair (stable in file order is not needed: a repeated line is either the
 * same decision, dropped, or a conflict, refused). */
static rt_status dedupe(import_state *im, rt_err *err)
{
    if (im->n > 1)
        qsort(im->e, im->n, sizeof *im->e, entry_cmp);
    size_t k = 0;
    for (size_t i = 0; i < im->n; i++) {
        if (k && entry_cmp(&im->e[k - 1], &im->e[i]) == 0) {
            const rt_op *a = &im->e[k - 1].op, *b = &im->e[i].op;
            if (a->kind == RT_OP_LABEL && a->grade != b->grade)
                return rt_err_set(err, RT_EINPUT, "%s: %s judged %s %s as %d, and as %d at %s", b->via + 7,
                                  im->e[i].annotator, b->qid, b->pid, (int)b->grade, (int)a->grade, a->via + 7);
            rt_op_clear(&im->e[i].op);
            free(im->e[i].annotator);
            continue;
        }
        im->e[k++] = im->e[i];
    }
    im->n = k;
    return RT_OK;
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
    for (size_t i = 0; i < im->n; i++) {
        if (!np || strcmp(parts[np - 1].annotator, im->e[i].annotator) != 0) {
            RT_GROW(parts, cap, np + 1);
            parts[np++] = (part){.annotator = im->e[i].annotator};
        }
        part *p = &parts[np - 1];
        p->ops = rt_reallocarray(p->ops, p->n + 1, sizeof *p->ops);
        p->ops[p->n++] = im->e[i].op;
        memset(&im->e[i].op, 0, sizeof im->e[i].op);
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
        if (read_input(&im, ws, &im.in[i], w.annotator, &err) != RT_OK)
            rc = cli_fail(&err);
    if (rc == CLI_OK && dedupe(&im, &err) != RT_OK)
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
    for (size_t i = 0; i < im.n; i++) {
        rt_op_clear(&im.e[i].op);
        free(im.e[i].annotator);
    }
    free(im.e);
    free(im.in);
    rt_session_close(&sess);
    rt_workspace_free(&ws);
    ws_args_free(&w);
    return rc < 0 ? CLI_OK : rc;
}
