/* cmd_leak — `retriage leak`: train–test leakage detection. For each test query, the training
 * queries nearest to it by cosine (embeddings from the user's model, or the built-in lexical
 * embedder) at or above a threshold, written as TSV. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "opts.h"
#include "rt_embed.h"
#include "rt_file.h"
#include "rt_outguard.h"
#include "rt_leak.h"
#include "rt_mem.h"
#include "rt_ngram.h"
#include "rt_num.h"
#include "rt_queries.h"
#include "rt_report.h"

/* The defaults appear in the help as the macros spell them, so the two cannot drift apart. */
#define STR_(x) #x
#define STR(x) STR_(x)

static const char leak_help[] =
    "Usage: retriage leak --train FILE --test FILE [--train-emb FILE --test-emb FILE] [OPTIONS]\n"
    "\n"
    "Finds training queries that are near-duplicates of test queries (train-test leakage): for\n"
    "each test query, its k nearest training queries by cosine similarity, with a score at or\n"
    "above the threshold. Search is exact (every cosine, as a matrix product through the BLAS)\n"
    "unless --index asks for an approximate Faiss index.\n"
    "\n"
    "Options:\n"
    "      --train FILE        training queries: TSV qid<TAB>text, or DuReader JSON lines\n"
    "      --test FILE         test queries, in the same formats\n"
    "      --train-emb FILE    the training queries' embeddings from your own model: .npy\n"
    "                          (float32, C order, shape (n, d)), .fvecs, or TSV of floats; one\n"
    "                          row per query in the query file's order, or keyed by qid in a\n"
    "                          TSV id column; normalised here\n"
    "      --test-emb FILE     the test queries' embeddings (give both or neither)\n"
    "      --emb-format F      auto (default: by extension, then content), npy, fvecs, tsv\n"
    "      --emb-ids WHEN      TSV id column: auto (default: when the first field on the first\n"
    "                          line is not a number), yes (needed for numeric qids), no\n"
    "  -t, --threshold T       report pairs with cosine >= T, -1 <= T <= 1 (default "
    STR(RT_LEAK_THRESHOLD_EMB) " with\n"
    "                          embeddings, as Fröbe et al. 2022 for Sentence-BERT; "
    STR(RT_NGRAM_THRESHOLD) " with\n"
    "                          the built-in embedder)\n"
    "  -k, --neighbours N      at most N training queries per test query (default " STR(RT_LEAK_K) ")\n"
    "      --index SPEC        a Faiss index_factory string for large training sets, e.g.\n"
    "                          IVF1024,Flat or HNSW32 (default Flat: exact); approximate\n"
    "                          indexes can miss pairs\n"
    "      --index-params P    Faiss search parameters for it, e.g. nprobe=32, efSearch=128\n"
    "      --dim N             the built-in embedder's dimension (default " STR(RT_NGRAM_DIM) ")\n"
    CLI_HELP_QUERIES_FORMAT
    CLI_HELP_OUTPUT
    "  -Q, --quiet             no notice, summary or load warnings on stderr\n"
    "  -h, --help              show this help\n"
    "\n"
    "Without embeddings, the built-in embedder compares TF-IDF vectors of characters and\n"
    "ordered character pairs (NFKC, case-folded, punctuation and spaces ignored). It finds\n"
    "lexical near-duplicates (a character inserted, deleted or swapped, punctuation or spaces\n"
    "added), not paraphrases: for those, give embeddings of a sentence-embedding model.\n"
    "\n"
    "Output: TSV with a header line, test_qid, train_qid, cosine, test_text, train_text; test\n"
    "queries in file order, each one's matches best first (equal scores in training file\n"
    "order). Tabs, line breaks and other control characters in texts are written as spaces.\n"
    "Exit status: 0 ok, 1 usage error, 2 input error.\n";

typedef struct leak_args {
    const char *train, *test, *train_emb, *test_emb, *output;
    rt_embed_opts eo;
    rt_queries_format qfmt;
    rt_leak_opts lo;
    int quiet;
} leak_args;

/* One side: its queries, their id namespace, texts in file order and embeddings (or NULL). */
typedef struct side {
    rt_strtab *qids;
    rt_queries *q;
    const char **texts;
    size_t n;
    rt_embed *emb;
} side;

static int parse_number(const char *opt, const char *s, double lo, double hi, double *v)
{
    if (rt_num_parse_double(s, strlen(s), v) != RT_NUM_OK || *v < lo || *v > hi)
        return cli_usage("leak", "%s expects a number from %g to %g, not '%s'", opt, lo, hi, s);
    return CLI_OK;
}

static int parse_count(const char *opt, const char *s, int32_t hi, size_t *v)
{
    int32_t x;
    if (rt_num_parse_int32(s, strlen(s), &x) != RT_NUM_OK || x < 1 || x > hi)
        return cli_usage("leak", "%s expects a whole number from 1 to %d, not '%s'", opt, (int)hi, s);
    *v = (size_t)x;
    return CLI_OK;
}

static int parse_option(int c, leak_args *a)
{
    double t;
    int v;
    switch (c) {
    case 'r': a->train = optarg; return CLI_OK;
    case 's': a->test = optarg; return CLI_OK;
    case 'R': a->train_emb = optarg; return CLI_OK;
    case 'S': a->test_emb = optarg; return CLI_OK;
    case 'I': a->lo.index_spec = optarg; return CLI_OK;
    case 'P': a->lo.index_params = optarg; return CLI_OK;
    case 'k': return parse_count("-k", optarg, RT_LEAK_MAX_K, &a->lo.k);
    case 'd': return parse_count("--dim", optarg, RT_LEAK_MAX_DIM, &a->lo.dim);
    case 't':
        if (parse_number("--threshold", optarg, -1, 1, &t) != CLI_OK)
            return CLI_USAGE;
        a->lo.threshold = t;
        return CLI_OK;
    case 'F':
        if (cli_parse_name("leak", "embedding format", rt_embed_formats, optarg, &v) != CLI_OK)
            return CLI_USAGE;
        a->eo.format = (rt_embed_format)v;
        return CLI_OK;
    case 'D':
        if (cli_parse_name("leak", "--emb-ids value", rt_embed_idcols, optarg, &v) != CLI_OK)
            return CLI_USAGE;
        a->eo.ids = (rt_embed_idcol)v;
        return CLI_OK;
    case 'h':
        fputs(leak_help, stdout);
        return -1;
    default:
        return cli_usage("leak", "unknown option");
    }
}

static int parse_args(int argc, char **argv, leak_args *a)
{
    static const struct option opts[] = {
        {"train", required_argument, 0, 'r'},       {"test", required_argument, 0, 's'},
        {"train-emb", required_argument, 0, 'R'},   {"test-emb", required_argument, 0, 'S'},
        {"emb-format", required_argument, 0, 'F'},  {"emb-ids", required_argument, 0, 'D'},
        {"threshold", required_argument, 0, 't'},   {"neighbours", required_argument, 0, 'k'},
        {"index", required_argument, 0, 'I'},       {"index-params", required_argument, 0, 'P'},
        {"dim", required_argument, 0, 'd'},         CLI_LONG_QUERIES_FORMAT,
        CLI_LONG_OUTPUT,                            CLI_LONG_QUIET,
        {"help", no_argument, 0, 'h'},              {0, 0, 0, 0},
    };
    int c;
    optind = 1;
    cli_opts o;   /* --queries-format, -o, -Q */
    cli_opts_init(&o);
    while ((c = getopt_long(argc, argv, "t:k:o:Qh", opts, NULL)) != -1) {
        int h = cli_opts_handle(&o, "leak", c, optarg);
        int rc = h == CLI_OPTS_BAD ? CLI_USAGE : h == 1 ? CLI_OK : parse_option(c, a);
        if (rc != CLI_OK)
            return rc;
    }
    a->qfmt = o.queries_format;
    a->output = o.output;
    a->quiet = o.quiet;
    cli_opts_free(&o);
    if (optind < argc)
        return cli_usage("leak", "unexpected argument '%s'", argv[optind]);
    if (!a->train || !a->test)
        return cli_usage("leak", "--train FILE and --test FILE are both required");
    if (!a->train_emb != !a->test_emb)
        return cli_usage("leak", "--train-emb and --test-emb go together: give both or neither");
    return CLI_OK;
}

static rt_status load_side(side *s, const char *path, const char *emb, const leak_args *a, rt_err *err)
{
    s->qids = rt_strtab_new();
    rt_report *rep = rt_report_new();
    rt_status st = rt_queries_load(&s->q, path, a->qfmt, s->qids, NULL, rep, err);
    if (!a->quiet)   /* with embeddings in file order, a dropped repeated qid would shift rows */
        cli_print_warnings(rep);
    rt_report_free(&rep);
    if (st != RT_OK)
        return st;
    s->n = rt_queries_count(s->q);
    s->texts = rt_reallocarray(NULL, s->n, sizeof *s->texts);
    for (size_t i = 0; i < s->n; i++)
        s->texts[i] = rt_queries_text(s->q, rt_queries_qid(s->q, (uint32_t)i));
    if (emb)
        st = rt_embed_load_queries(&s->emb, emb, &a->eo, s->q, s->qids, path, err);
    return st;
}

static void free_side(side *s)
{
    rt_embed_free(&s->emb);
    free(s->texts);
    rt_queries_free(&s->q);
    rt_strtab_free(&s->qids);
}

/* Writes s with every control character — C0 (tab and line breaks included), DEL, C1, and the
 * Unicode line and paragraph separators — as a space, so that a field cannot break the TSV. */
static void put_field(const char *s, FILE *f)
{
    const unsigned char *p = (const unsigned char *)s;
    for (; *p; p++) {
        if (*p < 0x20 || *p == 0x7f)
            putc(' ', f);
        else if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
            putc(' ', f);
            p++;
        } else if (p[0] == 0xe2 && p[1] == 0x80 && (p[2] == 0xa8 || p[2] == 0xa9)) {
            putc(' ', f);
            p += 2;
        } else
            putc(*p, f);
    }
}

static void write_pairs(FILE *f, const side *test, const side *train, const rt_leak_pair *p, size_t n)
{
    fputs("test_qid\ttrain_qid\tcosine\ttest_text\ttrain_text\n", f);
    for (size_t i = 0; i < n; i++) {
        put_field(rt_strtab_str(test->qids, rt_queries_qid(test->q, p[i].test)), f);
        putc('\t', f);
        put_field(rt_strtab_str(train->qids, rt_queries_qid(train->q, p[i].train)), f);
        fprintf(f, "\t%.6f\t", (double)p[i].score);
        put_field(test->texts[p[i].test], f);
        putc('\t', f);
        put_field(train->texts[p[i].train], f);
        putc('\n', f);
    }
}

/* ---- the command ----------------------------------------------------------------------------- */

static rt_status check_dims(const side *test, const side *train, const leak_args *a, rt_err *err)
{
    if (test->emb && test->emb->d != train->emb->d)
        return rt_err_set(err, RT_EINPUT, "%s has dimension %zu but %s has dimension %zu: the "
                          "embeddings must come from the same model", a->test_emb, test->emb->d,
                          a->train_emb, train->emb->d);
    return RT_OK;
}

/* The built-in embedder's notice (what its pairs mean) and the counts, on stderr. */
static void summary(const leak_args *a, const rt_leak_pair *p, size_t n, size_t ntest)
{
    size_t matched = 0;
    for (size_t i = 0; i < n; i++)
        matched += i == 0 || p[i].test != p[i - 1].test;
    int builtin = !a->test_emb;
    if (builtin)
        fprintf(stderr, "retriage leak: note: %s; give --train-emb and --test-emb for semantic "
                "matches\n", RT_NGRAM_NOTICE);
    fprintf(stderr, "retriage leak: %zu pairs; %zu of %zu test queries have a training query with "
            "cosine >= %g (k %zu, %s%s)\n", n, matched, ntest, rt_leak_threshold(&a->lo, builtin),
            a->lo.k, a->lo.index_spec ? "index " : "exact search",
            a->lo.index_spec ? a->lo.index_spec : "");
}

static rt_status run(const leak_args *a, side *test, side *train, rt_err *err)
{
    rt_status st = load_side(test, a->test, a->test_emb, a, err);
    if (st == RT_OK)
        st = load_side(train, a->train, a->train_emb, a, err);
    if (st == RT_OK)
        st = check_dims(test, train, a, err);
    if (st != RT_OK)
        return st;
    rt_leak_pair *pairs = NULL;
    size_t n = 0;
    st = rt_leak_find(test->texts, test->n, train->texts, train->n, test->emb, train->emb, &a->lo,
                      &pairs, &n, err);
    rt_outfile *out = NULL;
    if (st == RT_OK && a->output) {
        rt_outguard *g = rt_outguard_new();
        rt_outguard_add(g, a->test, "the test queries");
        rt_outguard_add(g, a->train, "the training queries");
        rt_outguard_add(g, a->test_emb, "the test embeddings");
        rt_outguard_add(g, a->train_emb, "the training embeddings");
        st = rt_outguard_open(&out, a->output, g, err);
        rt_outguard_free(&g);
    }
    if (st == RT_OK) {
        write_pairs(out ? rt_outfile_stream(out) : stdout, test, train, pairs, n);
        if (out)
            st = rt_outfile_commit(&out, err);
        else if (fflush(stdout) != 0 || ferror(stdout))
            st = rt_err_set(err, RT_EIO, "standard output: cannot write: %s", strerror(errno));
    }
    if (st == RT_OK && !a->quiet)
        summary(a, pairs, n, test->n);
    free(pairs);
    return st;
}

int cmd_leak(int argc, char **argv)
{
    leak_args a = {0};
    rt_leak_opts_default(&a.lo);
    int rc = parse_args(argc, argv, &a);
    if (rc != CLI_OK)
        return rc < 0 ? CLI_OK : rc;
    side test = {0}, train = {0};
    rt_err err;
    rt_status st = run(&a, &test, &train, &err);
    free_side(&test);
    free_side(&train);
    return st == RT_OK ? CLI_OK : cli_fail(&err);
}
