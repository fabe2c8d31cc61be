/* fuzz_workspace — a workspace JSON file: types, numbers and ranges, the taxonomy, the leakage
 * block. Its paths point into the fuzzer's folder, where small valid inputs exist. */
#include "config.h"

#include "fuzz.h"
#include "rt_workspace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    static int ready;
    if (!ready) {
        static const char q[] = "q1\tquery one\nq2\tquery two\n", qr[] = "q1 0 p1 1\nq2 0 p2 0\n",
                          r[] = "q1 Q0 p1 1 2 r\nq2 Q0 p2 1 2 r\n", c[] = "p1\tpassage one\np2\ttwo\n";
        fuzz_file("q.tsv", (const uint8_t *)q, sizeof q - 1);
        fuzz_file("qrels", (const uint8_t *)qr, sizeof qr - 1);
        fuzz_file("run", (const uint8_t *)r, sizeof r - 1);
        fuzz_file("c.tsv", (const uint8_t *)c, sizeof c - 1);
        ready = 1;
    }
    const char *path = fuzz_file("ws.json", data, n);
    rt_workspace *ws = NULL;
    rt_err err;
    if (rt_workspace_open_json(&ws, path, 0, NULL, &err) == RT_OK)
        rt_workspace_free(&ws);
    return 0;
}
