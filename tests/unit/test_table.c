/* test_table — tables for papers and scripts (rt_table): the exact text of each format, with the
 * characters each one must escape, numbers kept as JSON numbers only when every cell of the
 * column is one in JSON's grammar, and the name table of formats. */
#include "config.h"

#include <cjson/cJSON.h>

#include "rt_table.h"
#include "tap.h"

static char *render(const rt_table *t, rt_table_format fmt)
{
    static char buf[4096];
    FILE *f = tmpfile();
    rt_err err;
    if (rt_table_write(t, fmt, f, &err) != RT_OK)
        return NULL;
    rewind(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

int main(void)
{
    const char *h[] = {"name", "value"};
    rt_table *t = rt_table_new(2, h);
    rt_table_number(t, 1);
    const char *r1[] = {"a,b \"q\"", "0.5"}, *r2[] = {"tab\there|pipe_100%", "+0.25"}, *r3[] = {"ctl\x1b\x01x", "1e-3"};
    rt_table_add(t, r1);
    rt_table_add(t, r2);
    rt_table_add(t, r3);
    is_str(render(t, RT_TABLE_TSV), "name\tvalue\na,b \"q\"\t0.5\ntab here|pipe_100%\t+0.25\nctl\x1b\x01x\t1e-3\n",
           "TSV: a tab inside a cell becomes a space, nothing else changes");
    is_str(render(t, RT_TABLE_CSV), "name,value\n\"a,b \"\"q\"\"\",0.5\ntab\there|pipe_100%,+0.25\nctl\x1b\x01x,1e-3\n",
           "CSV: commas and quotes quoted, quotes doubled");
    is_str(render(t, RT_TABLE_MD), "| name | value |\n|---|---:|\n| a,b \"q\" | 0.5 |\n| tab here\\|pipe_100% | +0.25 |\n"
           "| ctl\x1b\x01x | 1e-3 |\n", "Markdown: pipes escaped, the numeric column right-aligned");
    is_str(render(t, RT_TABLE_LATEX), "\\begin{tabular}{lr}\n\\toprule\nname & value \\\\\n\\midrule\n"
           "a,b \"q\" & 0.5 \\\\\ntab here|pipe\\_100\\% & +0.25 \\\\\nctl\x1b\x01x & 1e-3 \\\\\n\\bottomrule\n\\end{tabular}\n",
           "LaTeX: _ and %% escaped");
    char *js = render(t, RT_TABLE_JSON);
    cJSON *doc = cJSON_Parse(js);
    ok(cJSON_IsArray(doc) && cJSON_GetArraySize(doc) == 3, "JSON: parses, three rows");
    const cJSON *row0 = cJSON_GetArrayItem(doc, 0), *row1 = cJSON_GetArrayItem(doc, 1), *row2 = cJSON_GetArrayItem(doc, 2);
    ok(cJSON_IsString(cJSON_GetObjectItem(row0, "name")) &&
       strcmp(cJSON_GetObjectItem(row0, "name")->valuestring, "a,b \"q\"") == 0, "JSON: quotes escaped and read back");
    ok(cJSON_IsNumber(cJSON_GetObjectItem(row1, "value")) && cJSON_GetObjectItem(row1, "value")->valuedouble == 0.25,
       "JSON: +0.25 is written as the number 0.25");
    ok(strcmp(cJSON_GetObjectItem(row2, "name")->valuestring, "ctl\x1b\x01x") == 0 && strstr(js, "\\u001b"),
       "JSON: control characters escaped as \\u00XX");
    cJSON_Delete(doc);
    rt_table_free(&t);

    const char *h2[] = {"x"};
    t = rt_table_new(1, h2);
    rt_table_number(t, 0);
    const char *a[] = {"1"}, *b[] = {"inf"}, *c[] = {"007"};
    rt_table_add(t, a);
    rt_table_add(t, b);
    rt_table_add(t, c);
    js = render(t, RT_TABLE_JSON);
    ok(strstr(js, "\"1\"") && strstr(js, "\"inf\"") && strstr(js, "\"007\""),
       "JSON: a column with inf or 007 in it stays strings (not JSON numbers)");
    doc = cJSON_Parse(js);
    ok(doc != NULL, "JSON: still valid");
    cJSON_Delete(doc);
    rt_table_free(&t);
    t = rt_table_new(1, h2);
    is_str(render(t, RT_TABLE_JSON), "[]\n", "JSON: no rows is an empty array");
    rt_table_free(&t);

    /* Once a bug: the JSON writer guessed a column's type from its cells, so two 19-digit qids
     * became one double and the qid "+5" was written 5. Ids are text unless declared numbers. */
    const char *h3[] = {"qid", "run", "RR@10"};
    t = rt_table_new(3, h3);
    rt_table_number(t, 2);
    const char *q1[] = {"1234567890123456789", "007", "0.5"}, *q2[] = {"1234567890123456788", "+5", "1"};
    rt_table_add(t, q1);
    rt_table_add(t, q2);
    is_str(render(t, RT_TABLE_JSON),
           "[\n  {\"qid\": \"1234567890123456789\", \"run\": \"007\", \"RR@10\": 0.5},\n"
           "  {\"qid\": \"1234567890123456788\", \"run\": \"+5\", \"RR@10\": 1}\n]\n",
           "JSON: id columns are strings whatever they hold; the declared measure column is numbers");
    rt_table_free(&t);

    FILE *f = tmpfile();
    rt_json_put_string("bad\xff utf8 \xc2\x9b c1 \x7f del", f);
    rewind(f);
    char line[256];
    size_t n = fread(line, 1, sizeof line - 1, f);
    line[n] = 0;
    fclose(f);
    const char *got = line;
    is_str(got, "\"bad\\ufffd utf8 \\u009b c1 \\u007f del\"", "JSON strings: invalid UTF-8, C1 and DEL escaped");

    rt_table_format fmt;
    ok(rt_table_format_parse("markdown", &fmt) && fmt == RT_TABLE_MD && rt_table_format_parse("tex", &fmt) &&
       fmt == RT_TABLE_LATEX && !rt_table_format_parse("xlsx", &fmt), "format names and aliases");
    char list[128];
    is_str(rt_name_list(rt_table_formats, list, sizeof list), "tsv, csv, json, md, latex", "the listed names skip aliases");
    return tap_done();
}
