/* test_breakdown — the category breakdown (rt_breakdown), computed by hand on the tiny workspace:
 * counts and shares per category and group, overall and among each run's top K, query-level tags
 * counting for every run, and a query subset. */
#include "config.h"

#include "journal_fixture.h"
#include "rt_breakdown.h"

static void tag(rt_session *s, const char *q, const char *p, const char *cat)
{
    rt_err err;
    if (rt_session_tag(s, RT_OP_TAG, q, p, cat, &err) != RT_OK)
        printf("#   tag %s %s %s: %s\n", q, p ? p : "-", cat, err.msg);
}

static size_t catn(const rt_breakdown *b, size_t col, const rt_taxonomy *t, const char *id, double *share)
{
    return rt_breakdown_cat(b, col, rt_taxonomy_find(t, id), share);
}

int main(void)
{
    if (!fixture_begin())
        return 2;
    write_inputs();
    rt_workspace *ws = open_ws(0, NULL);
    rt_session *s = NULL;
    rt_err err;
    if (!ok(ws && rt_session_open(&s, ws, P("bk"), "b", 0, &err) == RT_OK, "a session on the tiny workspace")) {
        rt_workspace_free(&ws);
        return fixture_end();
    }
    const rt_taxonomy *t = ws->taxonomy;
    /* A ranks q1: p09 p03 …, q2: p05 p06 …; B ranks q1: p01 p02 …, q2: p08 p09 … */
    tag(s, "q1", "p09", "entity");
    tag(s, "q1", "p02", "numeral");
    tag(s, "q1", "p02", "entity");
    tag(s, "q2", "p05", "entity");
    tag(s, "q1", NULL, "other");        /* the query itself: counts for every run */
    rt_breakdown *b = rt_breakdown_compute(s, 2, NULL, 0);
    double sh;
    /* overall: four tagged items — q1 p09, q1 p02, q2 p05, q1 itself */
    is_int(b->total[0], 4, "overall: four tagged items");
    ok(catn(b, 0, t, "entity", &sh) == 3 && fabs(sh - 0.75) < 1e-15, "overall: entity 3 of 4");
    ok(catn(b, 0, t, "numeral", &sh) == 1 && fabs(sh - 0.25) < 1e-15, "overall: numeral 1 of 4");
    ok(catn(b, 0, t, "other", &sh) == 1 && fabs(sh - 0.25) < 1e-15, "overall: other 1 of 4");
    ok(catn(b, 0, t, "typo", &sh) == 0 && sh == 0, "overall: typo 0");
    /* run A's top 2: q1 p09 (entity), q2 p05 (entity), and the query tag */
    is_int(b->total[1], 3, "A top 2: three tagged items");
    ok(catn(b, 1, t, "entity", &sh) == 2 && fabs(sh - 2.0 / 3) < 1e-15, "A top 2: entity 2 of 3");
    ok(catn(b, 1, t, "numeral", &sh) == 0, "A top 2: numeral 0 (p02 is at rank 4)");
    ok(catn(b, 1, t, "other", &sh) == 1, "A top 2: the query tag counts");
    /* run B's top 2: q1 p02 (numeral and entity), and the query tag */
    is_int(b->total[2], 2, "B top 2: two tagged items");
    ok(catn(b, 2, t, "entity", &sh) == 1 && fabs(sh - 0.5) < 1e-15, "B top 2: entity 1 of 2");
    ok(catn(b, 2, t, "numeral", &sh) == 1 && fabs(sh - 0.5) < 1e-15, "B top 2: numeral 1 of 2");
    /* groups: salient phrase mismatch (entity, numeral, modifier) counts an item once */
    ok(rt_breakdown_group(b, 0, 0, &sh) == 3 && fabs(sh - 0.75) < 1e-15, "overall: the first group 3 of 4 (p02 once)");
    ok(rt_breakdown_group(b, 2, 0, &sh) == 1, "B top 2: the first group once for p02's two categories");
    rt_breakdown_free(&b);
    /* a deeper k: A's top 4 reaches q1 p02 */
    b = rt_breakdown_compute(s, 4, NULL, 0);
    ok(catn(b, 1, t, "numeral", &sh) == 1 && b->total[1] == 4, "A top 4: p02 now counts (4 items)");
    rt_breakdown_free(&b);
    /* a subset: only q2 */
    uint32_t only[] = {QID(s, "q2")};
    b = rt_breakdown_compute(s, 2, only, 1);
    ok(b->total[0] == 1 && catn(b, 0, t, "entity", &sh) == 1 && sh == 1, "q2 only: one item, entity");
    ok(b->nqueries == 1, "q2 only: one query in scope");
    rt_table *tab = rt_breakdown_table(b, s, 0), *md = rt_breakdown_table(b, s, 1);
    rt_breakdown_free(&b);
    FILE *f = tmpfile();
    ok(rt_table_write(tab, RT_TABLE_TSV, f, &err) == RT_OK, "the table writes as TSV");
    rewind(f);
    char line[512];
    int found = 0;
    while (fgets(line, sizeof line, f))
        found += strstr(line, "entity") && strstr(line, "\t1\t") != NULL;
    ok(found, "the table holds the entity row with its count");
    rewind(f);
    found = 0;
    while (fgets(line, sizeof line, f))
        found += strstr(line, "entity") && strstr(line, "\t1\t100\t") != NULL;
    ok(found, "unrounded: the share is written as 100, not 100.0");
    fclose(f);
    f = tmpfile();
    ok(rt_table_write(md, RT_TABLE_MD, f, &err) == RT_OK, "the rounded table writes as Markdown");
    rewind(f);
    int rounded = 0, noted = 0;
    while (fgets(line, sizeof line, f)) {
        rounded += strstr(line, "| 100.0 |") != NULL;
        noted += strstr(line, "<!-- shares in percent rounded to 1 decimal place") != NULL;
    }
    ok(rounded && noted, "Markdown rounds to 1 decimal and says so in a comment");
    fclose(f);
    rt_table_free(&md);
    rt_table_free(&tab);
    rt_session_close(&s);
    rt_workspace_free(&ws);
    return fixture_end();
}
