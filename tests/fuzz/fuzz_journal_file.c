/* fuzz_journal_file — a journal file as found on disk: opened writable (torn tails set aside,
 * bad lines making it read-only), then read-only; an open that succeeds twice must read the same
 * operations the second time (a repair never loses an operation). */
#include "config.h"

#include <sys/stat.h>

#include "fuzz.h"
#include "rt_journal.h"
#include "rt_report.h"

static size_t open_count(const char *dir, int readonly, int *ok)
{
    rt_journal *j = NULL;
    rt_op *ops = NULL;
    size_t nops = 0;
    rt_report *rep = rt_report_new();
    rt_err err;
    *ok = (readonly ? rt_journal_open_readonly : rt_journal_open)(&j, dir, "a", &ops, &nops, rep, &err) == RT_OK;
    for (size_t i = 0; i < nops; i++)
        rt_op_clear(&ops[i]);
    free(ops);
    rt_journal_close(&j);
    rt_report_free(&rep);
    return nops;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    char dir[128];
    snprintf(dir, sizeof dir, "%s/j", fuzz_tmp());
    fuzz_empty_dir(dir);
    mkdir(dir, 0700);
    fuzz_file("j/a.jsonl", data, n);
    int ok1, ok2;
    size_t first = open_count(dir, 0, &ok1);
    size_t again = open_count(dir, 1, &ok2);
    if (ok1 && (!ok2 || again != first))
        abort();   /* what the writable open kept is what the next open reads */
    return 0;
}
