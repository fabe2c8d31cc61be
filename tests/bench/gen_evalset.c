/* gen_evalset — writes a synthetic evaluation set shaped like a large passage-retrieval test
 * (MS MARCO / DuReader-retrieval dev): numeric qids, 32-hex pids drawn from a collection of
 * 8.8M, a few graded positives and some judged negatives per query, and a TREC run of 1,000
 * passages per query in rank order with 6-decimal scores that tie now and then. Deterministic.
 * With -s it also writes the same run with each query's lines shuffled (trec_eval accepts the
 * lines of a query in any order; the ranking comes from the scores), from a second generator so
 * that run.trec stays the same.
 *
 * Usage: gen_evalset [-s] DIR [QUERIES [DEPTH [SEED]]]
 *        writes DIR/qrels.trec, DIR/run.trec and, with -s, DIR/run.shuffled.trec */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COLLECTION 8800000u
#define MAX_DEPTH 100000u

static uint64_t rng_state, shuffle_state = 0x5eed5eedULL;

/* splitmix64: small, fast, and the same sequence everywhere. */
static uint64_t mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint64_t rnd(void)
{
    rng_state += 0x9e3779b97f4a7c15ULL;
    return mix(rng_state);
}

static uint32_t below(uint32_t n) { return (uint32_t)(rnd() % n); }

/* The shuffle's own sequence: drawing from rnd() would change every later query. */
static uint32_t shuffle_below(uint32_t n)
{
    shuffle_state += 0x9e3779b97f4a7c15ULL;
    return (uint32_t)(mix(shuffle_state) % n);
}

/* The pid of collection passage i: 32 hex digits, a fixed function of i. */
static void pid_of(uint32_t i, char out[33])
{
    static const char hex[] = "0123456789abcdef";
    uint64_t a = mix((uint64_t)i * 2 + 1), b = mix((uint64_t)i * 2 + 2);
    for (int k = 0; k < 16; k++) {
        out[k] = hex[(a >> (60 - 4 * k)) & 15];
        out[16 + k] = hex[(b >> (60 - 4 * k)) & 15];
    }
    out[32] = '\0';
}

/* A set of collection indices for one query (open addressing, cleared per query). */
typedef struct idset {
    uint32_t *slot;   /* index + 1; 0 = empty */
    uint32_t mask;
} idset;

static int idset_add(idset *s, uint32_t v)
{
    uint32_t j = (uint32_t)mix(v) & s->mask;
    while (s->slot[j]) {
        if (s->slot[j] == v + 1)
            return 0;
        j = (j + 1) & s->mask;
    }
    s->slot[j] = v + 1;
    return 1;
}

static FILE *open_out(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "gen_evalset: %s: %s\n", path, strerror(errno));
        exit(2);
    }
    static char bufs[3][1 << 20];
    static int nb;
    setvbuf(f, bufs[nb++ % 3], _IOFBF, sizeof bufs[0]);
    return f;
}

static void close_out(FILE *f, const char *name)
{
    if (ferror(f) || fclose(f) != 0) {
        fprintf(stderr, "gen_evalset: error writing %s\n", name);
        exit(2);
    }
}

/* One query: judged passages first (a few positives, some negatives), then the ranking, into
 * which most positives and negatives are placed at ranks skewed to the top. */
/* The run lines of one query, kept to be written in rank order and shuffled. */
typedef struct lines {
    char *text;
    size_t *off;       /* depth + 1 offsets into text */
} lines;

static void one_query(FILE *qrels, FILE *run, FILE *shuffled, uint32_t qid, uint32_t depth,
                      idset *seen, uint32_t *ranked, lines *ln)
{
    enum { MAX_JUDGED = 16 };
    uint32_t judged[MAX_JUDGED];
    int grade[MAX_JUDGED];
    uint32_t npos = 1 + below(9);          /* 1..9, mean 5 */
    uint32_t nneg = below(5);              /* 0..4 judged non-relevant */
    uint32_t nj = npos + nneg;
    memset(seen->slot, 0, ((size_t)seen->mask + 1) * sizeof *seen->slot);
    for (uint32_t k = 0; k < nj; k++) {
        uint32_t id;
        do
            id = below(COLLECTION);
        while (!idset_add(seen, id));
        judged[k] = id;
        grade[k] = k < npos ? 1 + (below(4) == 0) + (below(10) == 0) : 0;
    }
    for (uint32_t r = 0; r < depth; r++) {
        uint32_t id;
        do
            id = below(COLLECTION);
        while (!idset_add(seen, id));
        ranked[r] = id;
    }
    /* Place about 70% of the judged passages in the ranking; the rank is the smaller of two
     * uniform draws and, for positives, often near the top. */
    for (uint32_t k = 0; k < nj; k++) {
        if (below(10) >= 7)
            continue;
        uint32_t a = below(depth), b = below(depth);
        uint32_t r = a < b ? a : b;
        if (grade[k] > 0 && below(2) == 0)
            r = below(depth < 20 ? depth : 20);
        ranked[r] = judged[k];   /* the passage it replaces is simply not retrieved */
    }
    char pid[33];
    for (uint32_t k = 0; k < nj; k++) {
        pid_of(judged[k], pid);
        fprintf(qrels, "%u 0 %s %d\n", qid, pid, grade[k]);
    }
    /* Scores fall by random steps of whole millionths; one step in four is zero (a tie). */
    uint64_t score = 30000000 + below(5000000);
    size_t at = 0;
    for (uint32_t r = 0; r < depth; r++) {
        pid_of(ranked[r], pid);
        ln->off[r] = at;
        at += (size_t)sprintf(ln->text + at, "%u Q0 %s %u %llu.%06llu bench\n", qid, pid, r + 1,
                              (unsigned long long)(score / 1000000),
                              (unsigned long long)(score % 1000000));
        uint64_t step = below(4) == 0 ? 0 : below(20000);
        score = score > step ? score - step : 0;
    }
    ln->off[depth] = at;
    fwrite(ln->text, 1, at, run);
    if (!shuffled)
        return;
    for (uint32_t r = 0; r < depth; r++)   /* the rank order, shuffled (Fisher–Yates) */
        ranked[r] = r;
    for (uint32_t r = depth - 1; r > 0; r--) {
        uint32_t k = shuffle_below(r + 1), x = ranked[r];
        ranked[r] = ranked[k];
        ranked[k] = x;
    }
    for (uint32_t r = 0; r < depth; r++)
        fwrite(ln->text + ln->off[ranked[r]], 1, ln->off[ranked[r] + 1] - ln->off[ranked[r]], shuffled);
}

int main(int argc, char **argv)
{
    int shuffle = argc > 1 && strcmp(argv[1], "-s") == 0;
    argc -= shuffle;
    argv += shuffle;
    if (argc < 2 || argc > 5) {
        fprintf(stderr, "Usage: gen_evalset [-s] DIR [QUERIES [DEPTH [SEED]]]\n");
        return 1;
    }
    unsigned long nq = argc > 2 ? strtoul(argv[2], NULL, 10) : 6000;
    unsigned long depth = argc > 3 ? strtoul(argv[3], NULL, 10) : 1000;
    rng_state = argc > 4 ? strtoull(argv[4], NULL, 10) : 20220815;
    if (nq == 0 || nq > 1000000 || depth == 0 || depth > MAX_DEPTH) {
        fprintf(stderr, "gen_evalset: QUERIES must be 1..1000000 and DEPTH 1..%u\n", MAX_DEPTH);
        return 1;
    }
    uint32_t cap = 64;
    while (cap < 2 * (depth + 16))
        cap *= 2;
    idset seen = {calloc(cap, sizeof *seen.slot), cap - 1};
    uint32_t *ranked = malloc(depth * sizeof *ranked);
    /* a line is at most 10 + 4 + 32 + 6 + 20 + 7 bytes */
    lines ln = {malloc(depth * 96), malloc((depth + 1) * sizeof *ln.off)};
    if (!seen.slot || !ranked || !ln.text || !ln.off) {
        fprintf(stderr, "gen_evalset: out of memory\n");
        return 2;
    }
    FILE *qrels = open_out(argv[1], "qrels.trec");
    FILE *run = open_out(argv[1], "run.trec");
    FILE *shuffled = shuffle ? open_out(argv[1], "run.shuffled.trec") : NULL;
    /* Numeric qids of 7 digits, increasing with gaps, like MS MARCO dev. */
    uint32_t qid = 1000000;
    for (unsigned long i = 0; i < nq; i++) {
        qid += 1 + below(150);
        one_query(qrels, run, shuffled, qid, (uint32_t)depth, &seen, ranked, &ln);
    }
    close_out(qrels, "qrels.trec");
    close_out(run, "run.trec");
    if (shuffled)
        close_out(shuffled, "run.shuffled.trec");
    free(ln.text);
    free(ln.off);
    free(seen.slot);
    free(ranked);
    return 0;
}
