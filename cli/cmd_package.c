/* cmd_package — `retriage package` splits the pairs to judge into packages assigned to annotators
 * (saved in the journal of whoever runs it); `retriage review-report` reports, per package, the
 * annotator's progress and the reviewers' accuracy on its sample (DuReader-retrieval, Appendix A.3). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "rt_journal.h"
#include "rt_mem.h"
#include "rt_op.h"
#include "rt_package.h"
#include "rt_num.h"
#include "rt_utf8.h"
#include "rt_id.h"
#include "ws_args.h"

#define STR_(x) #x
#define STR(x) STR_(x)

static const char package_usage[] =
    "Usage: retriage package [WORKSPACE OPTIONS] --annotator LEAD --to A,B,… [OPTIONS]\n"
    "\n"
    "Splits the pairs to judge — the depth-K pool of the runs, over every query or a query set —\n"
    "into packages of about N pairs (a query's pairs stay together), assigns them to the\n"
    "annotators in turn, and saves them as operations in LEAD's journal. Each package records the\n"
    "seed of its review sample, so every reviewer reviews the same R pairs. Prints the packages.\n"
    "\n"
    "      --to LIST           the annotators, comma-separated (required)\n"
    "  -k, --depth K           pool depth (default 10)\n"
    "      --size N            pairs a package (default " STR(RT_PACKAGE_SIZE) ")\n"
    "      --sample R          pairs a reviewer checks per package (default " STR(RT_PACKAGE_SAMPLE) ")\n"
    "      --seed S            the first package's sample seed (default: from the clock; said)\n"
    "      --set NAME          only the queries of query set NAME\n"
    "      --unjudged          only pairs the base qrels does not judge\n"
    "      --prefix P          package names P-001, P-002, … (default pkg); a name any journal\n"
    "                          of the folder has already is refused\n"
    "  -h, --help              show this help\n"
    "\n"
    "Exit status: 0 ok, 1 usage error, 2 input error. The packages are saved before they are\n"
    "listed: exit 2 with \"saved all the same\" on stderr means only the list could not be\n"
    "written to standard output (a rerun would be refused: the names are taken).\n"
    "\n";

static const char report_usage[] =
    "Usage: retriage review-report [WORKSPACE OPTIONS] [--threshold T] [--reviewers N] [--format F] [-o FILE]\n"
    "\n"
    "Per package of the team (every journal of the journal folder): its annotator, pairs judged of\n"
    "all, the reviewers and each one's accuracy on the review sample, their mean, and the status:\n"
    "pass when at least N reviewers checked the whole sample and their mean accuracy is at least T,\n"
    "revise when it is below (the annotator then sees the pairs marked wrong first), else judging\n"
    "or in review. A totals row ends it. An annotator's reviews of their own package never count.\n"
    "The means and the threshold are written exactly, never rounded; JSON gives them as numbers.\n"
    "\n"
    "      --threshold T       accuracy to pass, 0-1 (default 0.93)\n"
    "      --reviewers N       complete reviews needed (default " STR(RT_PACKAGE_REVIEWERS) ")\n"
    "      --annotators LIST   only these annotators' journals (comma-separated; default every one)\n"
    "  -f, --format F          tsv (default), csv, json, md, latex\n"
    CLI_HELP_OUTPUT
    "  -h, --help              show this help\n"
    "\n";

static const struct option package_options[] = {
    {"to", required_argument, 0, 't'},     {"depth", required_argument, 0, 'k'},
    {"size", required_argument, 0, 'n'},   {"sample", required_argument, 0, 'r'},
    {"seed", required_argument, 0, 'e'},   {"set", required_argument, 0, 'T'},
    {"unjudged", no_argument, 0, 'u'},     {"prefix", required_argument, 0, 'p'},
    {"help", no_argument, 0, 'h'},         {0, 0, 0, 0},
};

static const struct option report_options[] = {
    {"threshold", required_argument, 0, 'x'}, {"reviewers", required_argument, 0, 'v'},
    {"format", required_argument, 0, 'f'},    CLI_LONG_OUTPUT,
    {"annotators", required_argument, 0, 'a'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0},
};

static int count(const char *cmd, const char *opt, const char *arg, int64_t lo, int64_t hi, size_t *v)
{
    int64_t x;
    if (!rt_num_parse_int_in(arg, lo, hi, &x))
        return cli_usage(cmd, "%s expects a whole number from %lld to %lld, not '%s'", opt, (long long)lo,
                         (long long)hi, arg);
    *v = (size_t)x;
    return CLI_OK;
}

typedef struct package_args {
    rt_package_plan plan;
    char **to;
    size_t nto;
    const char *set;
    int have_seed;
} package_args;

static int parse_package(int argc, char **argv, ws_args *w, package_args *p)
{
    int c;
    size_t v = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "k:m:l:h", w->longopts, NULL)) != -1) {
        int h = ws_args_handle(w, "package", c, optarg), rc = CLI_OK;
        if (h == 1)
            continue;
        if (h == WS_ARGS_BAD)
            return CLI_USAGE;
        switch (c) {
        case 't': cli_split_names(optarg, &p->to, &p->nto); break;
        case 'k': rc = count("package", "--depth", optarg, 1, 100000, &p->plan.depth); break;
        case 'n': rc = count("package", "--size", optarg, 1, 100000000, &p->plan.size); break;
        case 'r': rc = count("package", "--sample", optarg, 1, 1000000, &p->plan.sample); break;
        case 'e':
            rc = count("package", "--seed", optarg, 0, (int64_t)1 << 52, &v);
            p->plan.seed = v;
            p->have_seed = 1;
            break;
        case 'T': p->set = optarg; break;
        case 'u': p->plan.unjudged = 1; break;
        case 'p': p->plan.prefix = optarg; break;
        case 'h':
            fputs(package_usage, stdout);
            fputs(ws_args_help, stdout);
            return -1;
        default: return cli_usage("package", "unknown option");
        }
        if (rc != CLI_OK)
            return rc;
    }
    if (!p->nto)
        return cli_usage("package", "--to A,B,… names the annotators to assign the packages to");
    for (size_t i = 0; i < p->nto; i++) {
        const char *why = rt_journal_name_problem(p->to[i]);
        char shown[80];
        if (why)
            return cli_usage("package", "--to: \"%s\" cannot name an annotator's journal: %s",
                             rt_id_show(p->to[i], strlen(p->to[i]), shown, sizeof shown), why);
    }
    if (!w->annotator)
        return cli_usage("package", "--annotator LEAD: whose journal keeps the packages");
    return ws_args_finish(w, "package", argc, argv);
}

/* Refuses a package name any journal of the folder has already: the team would see only the
 * later of the two (RT_EUSAGE, naming whose). */
static rt_status names_taken(rt_workspace *ws, rt_session *sess, const rt_op *ops, size_t n, rt_err *err)
{
    rt_team *team;
    rt_status st = rt_team_open(&team, ws, sess, 1, sess->journal_dir, NULL, 0, err);
    if (st != RT_OK)
        return st;
    size_t owner;
    const char *name = rt_package_name_taken(team, ops, n, &owner);
    if (name)
        st = rt_err_set(err, RT_EUSAGE, "a package named %s exists already in %s's journal (choose another --prefix)",
                        name, team->m[owner].name);
    rt_team_free(&team);
    return st;
}

int cmd_package(int argc, char **argv)
{
    ws_args w;
    package_args p = {0};
    ws_args_init(&w, package_options);
    int rc = parse_package(argc, argv, &w, &p);
    rt_workspace *ws = NULL;
    rt_session *sess = NULL;
    rt_op *ops = NULL;
    size_t n = 0;
    rt_err err;
    if (rc == CLI_OK)
        rc = ws_args_open(&w, isatty(2), 0, &ws, &sess);
    if (rc == CLI_OK && rt_session_readonly(sess)) {
        fprintf(stderr, "retriage: %s's journal cannot be written (%s); no package was made\n", sess->annotator,
                rt_session_readonly(sess));
        rc = CLI_INPUT;
    }
    if (rc == CLI_OK) {
        const rt_qset *set = p.set ? rt_annot_set(sess->annot, p.set) : NULL;
        if (p.set && !set) {
            fprintf(stderr, "retriage: no query set named \"%s\" in %s\n", p.set, rt_journal_path(sess->journal));
            rc = CLI_INPUT;
        } else {
            if (set) {
                p.plan.qids = set->qids;
                p.plan.nqids = set->n;
            }
            if (!p.have_seed)
                p.plan.seed = (uint64_t)rt_op_now_ms() & ((1ull << 52) - 1);
            p.plan.annotators = p.to;
            p.plan.nannotators = p.nto;
            if (rt_package_make(ws, &p.plan, &ops, &n, &err) != RT_OK || names_taken(ws, sess, ops, n, &err) != RT_OK ||
                rt_session_add_packages(sess, ops, n, &err) != RT_OK)
                rc = cli_fail(&err);
        }
    }
    if (ws)
        cli_print_warnings(ws->report);   /* the workspace's, and the journals' (a torn tail set aside) */
    if (rc == CLI_OK) {
        printf("package\tannotator\tqueries\tpairs\tseed\tsample\n");
        size_t pairs = 0;
        for (size_t i = 0; i < n; i++) {
            size_t nq = 0;
            for (size_t k = 0; k < ops[i].nqids; k++)
                nq += k == 0 || ops[i].id.qids[k] != ops[i].id.qids[k - 1];   /* by ids: rt_package_make */
            printf("%s\t%s\t%zu\t%zu\t%llu\t%u\n", ops[i].name, ops[i].text, nq, ops[i].nqids,
                   (unsigned long long)ops[i].seed, ops[i].sample);
            pairs += ops[i].nqids;
        }
        fprintf(stderr, "retriage: %zu packages, %zu pairs, saved in %s\n", n, pairs, rt_journal_path(sess->journal));
        if (fflush(stdout) != 0 || ferror(stdout)) {
            /* the packages are in the journal: say so, or a rerun would make them twice (and be
             * refused, the names taken). Exit 2 all the same: the list asked for is not there. */
            fprintf(stderr, "retriage: standard output: cannot write the list of packages (%s); the %zu packages "
                    "were saved all the same (see them with 'retriage review-report')\n", strerror(errno), n);
            rc = CLI_INPUT;
        }
    }
    for (size_t i = 0; i < n; i++)
        rt_op_clear(&ops[i]);
    free(ops);
    for (size_t i = 0; i < p.nto; i++)
        free(p.to[i]);
    free(p.to);
    if (rc == CLI_OK)
        rt_session_close(&sess);
    else
        rt_session_discard(&sess);   /* a journal made for packages refused is removed */
    rt_workspace_free(&ws);
    ws_args_free(&w);
    return rc < 0 ? CLI_OK : rc;
}

/* ---- review-report ------------------------------------------------------------------------ */

/* The report as JSON, figures as numbers (exact: cJSON writes a double so that it reads back the
 * same), a missing mean as null; names repaired to UTF-8 as agree does. */
static char *report_json(const rt_team *t, const rt_package_report *r)
{
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddNumberToObject(doc, "threshold", r->threshold);
    cJSON_AddNumberToObject(doc, "min_reviewers", (double)r->min_reviewers);
    cJSON *pk = cJSON_AddArrayToObject(doc, "packages");
    for (size_t i = 0; i < r->n; i++) {
        const rt_package_state *s = &r->s[i];
        cJSON *o = cJSON_CreateObject();
        char *u = rt_utf8_repaired(s->p->name);
        cJSON_AddStringToObject(o, "package", u);
        free(u);
        u = rt_utf8_repaired(s->p->annotator);
        cJSON_AddStringToObject(o, "annotator", u);
        free(u);
        cJSON_AddBoolToObject(o, "annotator_read", s->annotator != (size_t)-1);
        cJSON_AddNumberToObject(o, "judged", (double)s->judged);
        cJSON_AddNumberToObject(o, "pairs", (double)s->p->n);
        cJSON_AddNumberToObject(o, "sample", (double)s->sample);
        cJSON *revs = cJSON_AddArrayToObject(o, "reviewers");
        for (size_t k = 0; k < s->nrev; k++) {
            const rt_package_reviewer *v = &s->rev[k];
            cJSON *x = cJSON_CreateObject();
            u = rt_utf8_repaired(t->m[v->member].name);
            cJSON_AddStringToObject(x, "reviewer", u);
            free(u);
            cJSON_AddNumberToObject(x, "reviewed", (double)v->reviewed);
            cJSON_AddNumberToObject(x, "correct", (double)v->correct);
            cJSON_AddNumberToObject(x, "accuracy", (double)v->correct / (double)v->reviewed);
            cJSON_AddBoolToObject(x, "complete", v->complete);
            cJSON_AddItemToArray(revs, x);
        }
        if (s->has_accuracy)
            cJSON_AddNumberToObject(o, "mean", s->accuracy);
        else
            cJSON_AddNullToObject(o, "mean");
        cJSON_AddStringToObject(o, "status", s->status);
        cJSON_AddItemToArray(pk, o);
    }
    cJSON *tot = cJSON_AddObjectToObject(doc, "total");
    cJSON_AddNumberToObject(tot, "judged", (double)r->judged);
    cJSON_AddNumberToObject(tot, "pairs", (double)r->pairs);
    cJSON_AddNumberToObject(tot, "pass", (double)r->passed);
    cJSON_AddNumberToObject(tot, "revise", (double)r->revise);
    char *s = cJSON_Print(doc);
    cJSON_Delete(doc);
    return s;
}

typedef struct report_out {
    const rt_team *t;
    const rt_package_report *r;
    rt_table_format fmt;
} report_out;

static rt_status write_report(FILE *f, void *ctx, rt_err *err)
{
    const report_out *o = ctx;
    if (o->fmt == RT_TABLE_JSON) {
        char *s = report_json(o->t, o->r);
        fputs(s, f);
        fputc('\n', f);
        cJSON_free(s);
        return RT_OK;
    }
    rt_table *tab = rt_package_report_table(o->t, o->r);
    rt_status st = rt_table_write(tab, o->fmt, f, err);
    rt_table_free(&tab);
    return st;
}

int cmd_review_report(int argc, char **argv)
{
    ws_args w;
    ws_args_init(&w, report_options);
    double threshold = RT_PACKAGE_THRESHOLD;
    size_t reviewers = RT_PACKAGE_REVIEWERS;
    rt_table_format fmt = RT_TABLE_TSV;
    char **names = NULL;
    size_t nnames = 0;
    int c, v, rc = CLI_OK;
    optind = 1;
    while (rc == CLI_OK && (c = getopt_long(argc, argv, "f:o:m:l:h", w.longopts, NULL)) != -1) {
        int h = ws_args_handle(&w, "review-report", c, optarg);
        if (h == 1)
            continue;
        if (h == WS_ARGS_BAD) {
            rc = CLI_USAGE;
            break;
        }
        switch (c) {
        case 'x':
            if (rt_num_parse_double(optarg, strlen(optarg), &threshold) != RT_NUM_OK ||
                !(threshold >= 0 && threshold <= 1))
                rc = cli_usage("review-report", "--threshold expects a number from 0 to 1, not '%s'", optarg);
            break;
        case 'v': rc = count("review-report", "--reviewers", optarg, 1, 1000, &reviewers); break;
        case 'a': cli_split_names(optarg, &names, &nnames); break;
        case 'f':
            rc = cli_parse_name("review-report", "format", rt_table_formats, optarg, &v);
            fmt = (rt_table_format)v;
            break;
        case 'h':
            fputs(report_usage, stdout);
            fputs(ws_args_help, stdout);
            rc = -1;
            break;
        default: rc = cli_usage("review-report", "unknown option");
        }
    }
    if (rc == CLI_OK)
        rc = ws_args_finish(&w, "review-report", argc, argv);
    rt_workspace *ws = NULL;
    rt_session *sess = NULL;
    rt_team *team = NULL;
    rt_package_report *r = NULL;
    rt_err err;
    if (rc == CLI_OK)
        rc = ws_args_open(&w, isatty(2), 1, &ws, &sess);
    if (rc == CLI_OK && rt_team_open(&team, ws, sess, 0, sess->journal_dir, names, nnames, &err) != RT_OK)
        rc = cli_fail(&err);
    if (rc == CLI_OK) {
        cli_print_warnings(ws->report);
        r = rt_package_report_make(team, threshold, reviewers);
        if (!r->n)
            fprintf(stderr, "retriage: no packages in the journals of %s (make them with 'retriage package')\n",
                    sess->journal_dir);
        report_out o = {team, r, fmt};
        rt_outguard *g = ws_args_guard(&w, ws, sess);
        rc = cli_write_output(w.opts.output, write_report, &o, g);
        rt_outguard_free(&g);
    }
    rt_package_report_free(&r);
    rt_team_free(&team);
    rt_session_close(&sess);
    rt_workspace_free(&ws);
    ws_args_free(&w);
    for (size_t i = 0; i < nnames; i++)
        free(names[i]);
    free(names);
    return rc < 0 ? CLI_OK : rc;
}
