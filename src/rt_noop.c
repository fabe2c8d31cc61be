/* rt_noop — the words for an operation that changes nothing (see rt_noop.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "rt_id.h"
#include "rt_noop.h"

/* The printable name of a query or passage: op's text when set, else the table's string of id;
 * none (RT_NO_ID) reads "(query)". */
static const char *name_of(const char *text, uint32_t id, const rt_strtab *tab, char *buf, size_t n)
{
    const char *s = text ? text : id != RT_NO_ID && tab && id < rt_strtab_count(tab) ? rt_strtab_str(tab, id) : NULL;
    if (!s)
        return "(query)";
    return rt_id_show(s, strlen(s), buf, n);
}

/* The taxonomy's name of op's category (tag, untag). */
static const char *cat_of(const rt_op *op, const rt_taxonomy *tax)
{
    size_t c = op->cat && tax ? rt_taxonomy_find(tax, op->cat) : op->by_id ? op->id.cat : (size_t)-1;
    return tax && c < tax->ncats ? tax->cats[c].name : op->cat ? op->cat : "?";
}

/* The state op found for the kinds named by a name alone (sets, packages, reviews). */
static void say_named(const rt_op *op, const char *pair, char *buf, size_t len)
{
    char nm[200];
    const char *name = op->name ? rt_id_show(op->name, strlen(op->name), nm, sizeof nm) : "";
    switch (op->kind) {
    case RT_OP_SET:
        snprintf(buf, len, op->has_list ? "query set %s already holds these queries" : "no query set %s", name);
        break;
    case RT_OP_PACKAGE:
        snprintf(buf, len, op->has_list ? "package %s is already so" : "no package %s", name);
        break;
    default:   /* RT_OP_REVIEW: only withdrawing a review that is not there changes nothing */
        snprintf(buf, len, "%s in %s has no review", pair, name);
    }
}

char *rt_noop_say(const rt_op *op, const rt_op_names *names, char *buf, size_t len)
{
    char q[200], p[200], pair[420], t[200];
    const rt_op_names none = {0};
    if (!names)
        names = &none;
    snprintf(pair, sizeof pair, "%s %s", name_of(op->qid, op->by_id ? op->id.qid : RT_NO_ID, names->qids, q, sizeof q),
             name_of(op->pid, op->by_id ? op->id.pid : RT_NO_ID, names->pids, p, sizeof p));
    const char *text = op->text ? op->text : "";
    switch (op->kind) {
    case RT_OP_LABEL:
        if (op->has_grade)
            snprintf(buf, len, "%s already labelled %d", pair, (int)op->grade);
        else
            snprintf(buf, len, "%s already has its base judgment", pair);
        break;
    case RT_OP_TAG:
    case RT_OP_UNTAG:
        snprintf(buf, len, "%s %s %s", pair, op->kind == RT_OP_TAG ? "already tagged" : "not tagged",
                 cat_of(op, names->tax));
        break;
    case RT_OP_NOTE:
        snprintf(buf, len, text[0] ? "%s already has this note" : "%s has no note", pair);
        break;
    case RT_OP_LEAK:
        snprintf(buf, len, "%s × %s: %s%s", name_of(op->qid, op->by_id ? op->id.qid : RT_NO_ID, names->qids, q, sizeof q),
                 op->train ? rt_id_show(op->train, strlen(op->train), t, sizeof t) : "",
                 text[0] ? "already " : "no leak label", text);
        break;
    case RT_OP_ADJUDICATE:
        snprintf(buf, len, op->has_grade || op->has_cats ? "%s already adjudicated so" : "%s has no adjudication", pair);
        break;
    default:
        say_named(op, pair, buf, len);
    }
    return buf;
}
