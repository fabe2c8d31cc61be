/* json_near — checks that a JSON document holds every value of a reference document: the same
 * keys and nesting, strings and booleans equal, null where the reference has null, numbers within
 * a tolerance (default 1e-9); more members in the document are fine. Used by the shell tests to
 * compare output with fixtures computed elsewhere (scikit-learn, statsmodels).
 * Usage: json_near REFERENCE DOCUMENT [TOLERANCE] [KEY=TOLERANCE...]: a KEY=TOLERANCE applies to
 * the members named KEY and what they hold (Monte Carlo figures); exit 0 when it holds, 1 with the
 * first difference on stderr, 2 when a file cannot be read or parsed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

static double tol = 1e-9;
static char **keys;
static double *key_tol;
static int nkeys;

static double tolerance_for(const char *key, double inherited)
{
    for (int i = 0; key && i < nkeys; i++)
        if (strcmp(keys[i], key) == 0)
            return key_tol[i];
    return inherited;
}

static cJSON *load(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(2);
    }
    size_t cap = 1 << 16, n = 0, r;
    char *b = malloc(cap);
    while ((r = fread(b + n, 1, cap - n - 1, f)) > 0)
        if ((n += r) == cap - 1)
            b = realloc(b, cap *= 2);
    fclose(f);
    b[n] = 0;
    cJSON *j = cJSON_Parse(b);
    free(b);
    if (!j) {
        fprintf(stderr, "%s: not JSON\n", path);
        exit(2);
    }
    return j;
}

static int near(const cJSON *want, const cJSON *got, const char *where, double t)
{
    char sub[1024];
    if (!got) {
        fprintf(stderr, "%s: missing\n", where);
        return 0;
    }
    if (cJSON_IsNumber(want)) {
        if (!cJSON_IsNumber(got) || fabs(want->valuedouble - got->valuedouble) > t) {
            fprintf(stderr, "%s: want %.17g, got %s%.17g\n", where, want->valuedouble,
                    cJSON_IsNumber(got) ? "" : "a non-number ", got->valuedouble);
            return 0;
        }
        return 1;
    }
    if (cJSON_IsString(want)) {
        if (!cJSON_IsString(got) || strcmp(want->valuestring, got->valuestring) != 0) {
            fprintf(stderr, "%s: want \"%s\"\n", where, want->valuestring);
            return 0;
        }
        return 1;
    }
    if (cJSON_IsNull(want) || cJSON_IsBool(want)) {
        if ((cJSON_IsNull(want) && !cJSON_IsNull(got)) ||
            (cJSON_IsBool(want) && (!cJSON_IsBool(got) || cJSON_IsTrue(want) != cJSON_IsTrue(got)))) {
            fprintf(stderr, "%s: want %s\n", where, cJSON_IsNull(want) ? "null" : cJSON_IsTrue(want) ? "true" : "false");
            return 0;
        }
        return 1;
    }
    if (cJSON_IsArray(want)) {
        if (!cJSON_IsArray(got) || cJSON_GetArraySize(want) != cJSON_GetArraySize(got)) {
            fprintf(stderr, "%s: want an array of %d\n", where, cJSON_GetArraySize(want));
            return 0;
        }
        for (int i = 0; i < cJSON_GetArraySize(want); i++) {
            snprintf(sub, sizeof sub, "%s[%d]", where, i);
            if (!near(cJSON_GetArrayItem(want, i), cJSON_GetArrayItem(got, i), sub, t))
                return 0;
        }
        return 1;
    }
    const cJSON *m;
    if (!cJSON_IsObject(got)) {
        fprintf(stderr, "%s: want an object\n", where);
        return 0;
    }
    cJSON_ArrayForEach(m, want) {
        snprintf(sub, sizeof sub, "%s.%s", where, m->string);
        if (!near(m, cJSON_GetObjectItemCaseSensitive(got, m->string), sub, tolerance_for(m->string, t)))
            return 0;
    }
    return 1;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: json_near REFERENCE DOCUMENT [TOLERANCE] [KEY=TOLERANCE...]\n");
        return 2;
    }
    for (int i = 3; i < argc; i++) {
        char *eq = strchr(argv[i], '=');
        if (!eq) {
            tol = strtod(argv[i], NULL);
            continue;
        }
        *eq = 0;
        keys = realloc(keys, (size_t)(nkeys + 1) * sizeof *keys);
        key_tol = realloc(key_tol, (size_t)(nkeys + 1) * sizeof *key_tol);
        keys[nkeys] = argv[i];
        key_tol[nkeys++] = strtod(eq + 1, NULL);
    }
    cJSON *want = load(argv[1]), *got = load(argv[2]);
    int ok = near(want, got, "$", tol);
    cJSON_Delete(want);
    cJSON_Delete(got);
    free(keys);
    free(key_tol);
    return ok ? 0 : 1;
}
