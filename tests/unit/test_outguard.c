/* test_outguard — the targets an output must never replace (rt_outguard): protected files found
 * by identity whatever the spelling (./x, a hard link, a symlinked folder), journals found by
 * their content, their lock or their folder, locks held, caches; and what stays allowed. */
#include "config.h"

#include <sys/file.h>
#include <unistd.h>

#include "journal_fixture.h"
#include "rt_outguard.h"
#include "rt_reader.h"

/* Whether path is refused (RT_EINPUT naming it) and left as it was: same bytes, or still absent. */
static int is_refused(const rt_outguard *g, const char *path)
{
    size_t nb = 0, na = 0;
    int existed = exists(path);
    char *before = existed ? get_file(path, &nb) : NULL;
    rt_err err;
    rt_outfile *f = (rt_outfile *)1;
    rt_status st = rt_outguard_open(&f, path, g, &err);
    char *after = existed ? get_file(path, &na) : NULL;
    int same = existed ? nb == na && (!nb || (before && after && memcmp(before, after, nb) == 0)) : !exists(path);
    free(before);
    free(after);
    if (st == RT_OK)
        rt_outfile_discard(&f);
    return st == RT_EINPUT && !f && strstr(err.msg, path) && same;
}

static int is_allowed(const rt_outguard *g, const char *path)
{
    rt_err err;
    rt_outfile *f = NULL;
    if (rt_outguard_open(&f, path, g, &err) != RT_OK) {
        printf("# %s\n", err.msg);
        return 0;
    }
    rt_outfile_discard(&f);
    return 1;
}

int main(void)
{
    if (!fixture_begin())
        return 2;
    mkdir(P("in"), 0700);
    put_text(P("in/qrels.trec"), "q1 0 p1 1\n");
    put_text(P("in/run.trec"), "q1 Q0 p1 1 1.0 x\n");
    rt_outguard *g = rt_outguard_new();
    rt_outguard_add(g, P("in/qrels.trec"), "the base qrels");
    rt_outguard_add(g, P("in/run.trec"), "a run");
    rt_outguard_add(g, P("in/missing.tsv"), "the facets");   /* absent: nothing to protect */

    ok(is_refused(g, P("in/qrels.trec")), "a protected file is refused and untouched");
    ok(is_refused(g, P("in/../in/./run.trec")), "so is another spelling of its path");
    ok(link(P("in/qrels.trec"), P("hard")) == 0 && is_refused(g, P("hard")), "so is a hard link to it");
    ok(symlink("in", P("inlink")) == 0 && is_refused(g, P("inlink/run.trec")), "so is a path through a symlinked folder");
    char *cwd = getcwd(NULL, 0);
    ok(chdir(P("in")) == 0 && is_refused(g, "qrels.trec") && is_refused(g, "./qrels.trec"), "and a path relative to the folder");
    ok(cwd && chdir(cwd) == 0, "back");
    free(cwd);
    ok(is_allowed(g, P("in/missing.tsv")), "a file that did not exist when protected may be written");
    ok(is_allowed(g, P("in/new.tsv")) && !exists(P("in/new.tsv")), "a new file beside inputs is fine (discarded: never made)");
    ok(is_allowed(g, "/dev/null") && is_allowed(NULL, "-"), "a device and standard output are never refused");

    /* journals, by their content, their lock and their folder */
    mkdir(P("j"), 0700);
    rt_op op = op_label("q1", "p1", 1, 1);
    char *line = rt_op_to_json(&op);
    rt_op_clear(&op);
    put_text(P("j/alice.jsonl"), line);
    put_text(P("copy.txt"), line);
    free(line);
    ok(is_refused(NULL, P("j/alice.jsonl")), "a journal is refused without any guard");
    ok(is_refused(NULL, P("copy.txt")), "a file that begins with an operation is a journal, whatever its name");
    ok(is_refused(NULL, P("j/bob.jsonl")), "a new NAME.jsonl in a folder of journals is refused");
    ok(is_allowed(NULL, P("j/notes.tsv")), "another name in that folder is fine");
    put_text(P("j/alice.jsonl.torn-1795000000123"), "{\"seq\":");
    put_text(P("j/alice.jsonl.unimported-1795000000"), "lines an import could not finish\n");
    ok(is_refused(NULL, P("j/.import.txn")), "an import's marker in a folder of journals is refused");
    ok(is_refused(NULL, P("j/.alice.jsonl.import-4242")), "so is an import's staged copy");
    ok(is_refused(NULL, P("j/alice.jsonl.torn-1795000000123")) &&
       is_refused(NULL, P("j/alice.jsonl.unimported-1795000000")),
       "and the lines set aside beside a journal (a torn tail, an unfinished import)");
    ok(is_refused(NULL, P("j/alice.jsonl.lock")), "a journal's lock file is refused, existing or not");
    /* the journal reader's own rule: the first line that is not blank is an operation, however
     * long (a note of 20 KB) and after blank lines */
    mkdir(P("j2"), 0700);
    char *note = malloc(20001);
    memset(note, 'x', 20000);
    note[20000] = 0;
    op = op_text(RT_OP_NOTE, "q1", NULL, note);
    free(note);
    line = rt_op_to_json(&op);
    rt_op_clear(&op);
    put_text(P("j2/dora.jsonl"), line);
    put_text(P("longcopy.txt"), line);
    /* the same line after a byte order mark: a journal exactly when the reader takes it for one */
    size_t ll = strlen(line);
    char *bom = malloc(ll + 4);
    memcpy(bom, "\xEF\xBB\xBF", 3);
    memcpy(bom + 3, line, ll + 1);
    rt_op back;
    rt_err e;
    int is_op = rt_op_from_json(&back, bom, ll + 3, &e) == RT_OK;
    if (is_op)
        rt_op_clear(&back);
    put_text(P("bomcopy.txt"), bom);
    ok(is_op ? is_refused(NULL, P("bomcopy.txt")) : is_allowed(NULL, P("bomcopy.txt")),
       "a long first line after a byte order mark is a journal as the reader sees it (an operation: %s)",
       is_op ? "yes" : "no");
    free(bom);
    /* zeros (a file preallocated or torn) are no operation, decided at once */
    int zfd = open(P("zeros.txt"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ok(zfd >= 0 && ftruncate(zfd, (off_t)64 << 20) == 0 && close(zfd) == 0 && is_allowed(NULL, P("zeros.txt")),
       "a file of 64 MiB of zeros is not a journal");
    free(line);
    ok(is_refused(NULL, P("longcopy.txt")), "a journal whose first operation is over 16 KiB is a journal");
    ok(is_refused(NULL, P("j2/dora.jsonl")) && is_refused(NULL, P("j2/erin.jsonl")),
       "and its folder holds journals: it and a new NAME.jsonl there are refused");
    op = op_label("q1", "p1", 1, 1);
    line = rt_op_to_json(&op);
    rt_op_clear(&op);
    size_t blen = strlen(line) + 8;
    char *blank_first = malloc(blen);
    snprintf(blank_first, blen, "\n \t\r\n%s", line);
    free(line);
    put_text(P("blankfirst.txt"), blank_first);
    free(blank_first);
    ok(is_refused(NULL, P("blankfirst.txt")), "a journal that begins with blank lines is a journal");
    rt_input_max_set(64, NULL);   /* RETRIAGE_JSON_MAX=64: below every line above */
    ok(is_refused(NULL, P("copy.txt")) && is_refused(NULL, P("longcopy.txt")) && is_refused(NULL, P("j2/erin.jsonl")),
       "journals are journals whatever the input limit (RETRIAGE_JSON_MAX) says");
    rt_input_max_set(RT_INPUT_MAX_DEFAULT, NULL);
    mkdir(P("empty"), 0700);
    rt_outguard_add_journal_dir(g, P("empty"));
    ok(is_refused(g, P("empty/carol.jsonl")) && is_allowed(NULL, P("empty/carol.jsonl")),
       "a journal folder named by the workspace protects NAME.jsonl before any journal is in it");
    put_text(P("plain.txt"), "not a journal\n");
    put_text(P("plain.txt.lock"), "");
    ok(is_refused(NULL, P("plain.txt")), "a file with NAME.lock beside it is taken for a journal");
    unlink(P("plain.txt.lock"));
    ok(is_allowed(NULL, P("plain.txt")), "without it, the same file may be replaced");
    int fd = open(P("plain.txt"), O_RDONLY);
    ok(fd >= 0 && flock(fd, LOCK_EX) == 0 && is_refused(NULL, P("plain.txt")), "a file a process holds a lock on is refused");
    if (fd >= 0)
        close(fd);

    /* caches */
    ok(is_refused(NULL, P("x.rtws")) && is_refused(NULL, P("x.rtidx")), "a workspace cache or collection index is refused");
    setenv("XDG_CACHE_HOME", P("cache"), 1);
    mkdir(P("cache"), 0700);
    mkdir(P("cache/retriage"), 0700);
    mkdir(P("cache/retriage/index"), 0700);
    ok(is_refused(NULL, P("cache/retriage/index/mine.tsv")), "a file under retriage's cache folder is refused");
    ok(is_allowed(NULL, P("cache/mine.tsv")), "but not beside it");

    rt_outguard_free(&g);
    ok(g == NULL, "free sets the pointer to NULL");
    return fixture_end();
}
