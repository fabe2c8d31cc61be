/* test_text — sanitising to drawable glyphs: escapes, replacements, widths against the C
 * library's wcwidth, source ranges, and fitting and wrapping without overflowing a column. */
#include "config.h"

#include <locale.h>
#include <stdint.h>
#include <stdlib.h>

#include "rt_mem.h"
#include "rt_text.h"
#include "tap.h"

static rt_glyphs sanitized(const char *s, size_t len, int keep)
{
    rt_glyphs g = {0};
    rt_text_sanitize(s, len, keep, &g);
    return g;
}

/* The drawable form of s, as UTF-8, in a static buffer. */
static const char *shown(const char *s, int keep)
{
    static char buf[4096];
    rt_glyphs g = sanitized(s, strlen(s), keep);
    rt_glyphs_utf8(&g, 0, g.n, buf, sizeof buf);
    rt_glyphs_free(&g);
    return buf;
}

static size_t width_of(const char *s) { return rt_text_width(s, strlen(s)); }

static int is_newline(const rt_glyph *x) { return x->cp == '\n' && !x->escaped; }

static int unreliable(uint32_t c)
{
    return c < 0x20 || (c >= 0x7F && c < 0xA0) || c == 0x200D || (c >= 0x200B && c <= 0x200F) ||
           (c >= 0x2060 && c <= 0x2064) || (c >= 0xFE00 && c <= 0xFE0F) || c == 0xFEFF ||
           (c >= 0xE0000 && c <= 0xE007F) || (c >= 0xD800 && c <= 0xDFFF) ||
           (c >= 0xE000 && c <= 0xF8FF) || c >= 0xF0000 || (c >= 0x202A && c <= 0x202E);
}

static size_t span(const rt_glyphs *g, size_t a, size_t b)
{
    size_t w = 0;
    for (size_t i = a; i < b; i++)
        w += g->g[i].width;
    return w;
}

/* Fitting from every start (sampled on long texts) never exceeds cols and takes all that fits. */
static int fit_ok(const rt_glyphs *g, size_t cols)
{
    size_t step = g->n > 2000 ? 97 : 1;
    for (size_t s = 0; s <= g->n; s += step) {
        size_t used = 99999, k = rt_glyphs_fit(g, s, cols, &used);
        if (used > cols || used != span(g, s, s + k) || s + k > g->n)
            return 0;
        if (s + k < g->n && !(k && is_newline(&g->g[s + k - 1])) &&
            used + g->g[s + k].width <= cols)
            return 0;   /* stopped early */
    }
    return 1;
}

static int wrap_ok(const rt_glyphs *g, size_t cols)
{
    size_t max = g->n + 1;
    size_t *st = rt_calloc(max, sizeof *st);
    size_t lines = rt_glyphs_wrap(g, cols, st, max);
    int good = lines <= max && (g->n == 0 ? lines == 0 : lines >= 1 && st[0] == 0);
    for (size_t i = 0; good && i < lines; i++) {
        size_t end = i + 1 < lines ? st[i + 1] : g->n;
        if (end <= st[i] || span(g, st[i], end) > cols)
            good = 0;
        else if (g->g[st[i]].width == 0 && !is_newline(&g->g[st[i]]))
            good = 0;   /* a combining mark separated from its base */
    }
    free(st);
    return good;
}

/* Ranges in order tile [0, len); the glyphs of one escape share one range. */
static int tiles(const rt_glyphs *g, size_t len)
{
    if (g->n == 0)
        return 1;
    size_t at = 0;
    for (size_t i = 0; i < g->n; i++) {
        const rt_glyph *x = &g->g[i];
        if (i && x->src_off == g->g[i - 1].src_off) {
            if (x->src_len != g->g[i - 1].src_len)
                return 0;
            continue;
        }
        if (x->src_off != at || x->src_len == 0)
            return 0;
        at = (size_t)x->src_off + x->src_len;
    }
    return at == len;
}

static void invariants(const char *name, const char *s, size_t len)
{
    for (int keep = 0; keep <= 1; keep++) {
        rt_glyphs g = sanitized(s, len, keep);
        size_t sum = 0, sum_libc = 0;
        int ctl = 0, bad_width = 0;
        for (size_t i = 0; i < g.n; i++) {
            const rt_glyph *x = &g.g[i];
            sum += x->width;
            if (is_newline(x) && keep)
                continue;
            int lw = rt_text_libc_width(x->cp);
            if (lw < 0 || lw != x->width)
                bad_width = 1;
            sum_libc += (size_t)(lw < 0 ? 0 : lw);
            if (unreliable(x->cp))
                ctl = 1;
        }
        ok(sum == g.width && sum == sum_libc && !bad_width,
           "%s (keep %d): widths %zu = libc %zu = total %zu", name, keep, sum, sum_libc, g.width);
        ok(!ctl, "%s (keep %d): no control or unreliable character is output", name, keep);
        if (!keep)
            is_int(rt_text_width(s, len), g.width, "%s: rt_text_width", name);
        ok(tiles(&g, len), "%s (keep %d): source ranges tile the input", name, keep);
        int fits = 1, wraps = 1;
        static const size_t cols[] = {2, 3, 5, 8, 13, 80, 100000};
        for (size_t c = 0; c < sizeof cols / sizeof cols[0]; c++) {
            fits &= fit_ok(&g, cols[c]);
            wraps &= wrap_ok(&g, cols[c]);
        }
        fits &= fit_ok(&g, 0) & fit_ok(&g, 1);
        ok(fits, "%s (keep %d): fit never exceeds the columns and never stops early", name, keep);
        ok(wraps, "%s (keep %d): wrapped lines never exceed the columns", name, keep);
        /* Drawing the output and sanitising it again changes nothing. */
        size_t cap = 8 * g.n + 1;
        char *out = rt_malloc(cap);
        size_t n = rt_glyphs_utf8(&g, 0, g.n, out, cap);
        int clean = 1;
        for (size_t i = 0; i < n; i++)
            if ((unsigned char)out[i] < 0x20 || out[i] == 0x7F)
                clean = 0;
        rt_glyphs again = sanitized(out, n, keep);
        ok(clean && again.width == g.width && (keep || again.n == g.n),
           "%s (keep %d): output has no control bytes and sanitises to itself", name, keep);
        rt_glyphs_free(&again);
        free(out);
        rt_glyphs_free(&g);
    }
}

static void escapes(void)
{
    is_str(shown("\x1b[31mred\x1b[0m", 0), "^[[31mred^[[0m", "ESC sequence shown in caret notation");
    is_str(shown("a\x07" "b\rc\x7f", 0), "a^Gb^Mc^?", "BEL, CR, DEL");
    is_str(shown("a\tb", 0), "a\xE2\x87\xA5" "b", "tab shown as U+21E5");
    is_str(shown("a\xC2\x85" "b\xC2\x9B" "c", 0), "a<85>b<9B>c", "C1 controls in hex");
    is_str(shown("a\nb", 0), "a b", "newline becomes a space");
    is_str(shown("a\nb", 1), "ab", "kept newline is written as nothing");
    rt_glyphs g = sanitized("\0x", 2, 0);
    ok(g.n == 3 && g.g[0].cp == '^' && g.g[1].cp == '@' && g.g[0].escaped && g.g[1].escaped &&
           !g.g[2].escaped, "NUL is ^@, escaped");
    ok(g.g[0].src_off == 0 && g.g[0].src_len == 1 && g.g[1].src_off == 0 && g.g[2].src_off == 1,
       "both glyphs of an escape carry the control's range");
    rt_glyphs_free(&g);
    g = sanitized("a\nb", 3, 1);
    ok(g.n == 3 && g.g[1].cp == '\n' && g.g[1].width == 0 && g.width == 2, "kept newline glyph");
    rt_glyphs_free(&g);
    is_str(shown("a\xE2\x80\xA8" "b", 0), "a b", "U+2028 is a newline");
}

static void invalid(void)
{
    is_str(shown("a\xFF" "b", 0), "a\xEF\xBF\xBD" "b", "invalid byte becomes U+FFFD");
    rt_glyphs g = sanitized("a\xE4\xB8", 3, 0);
    ok(g.n == 2 && g.g[1].cp == 0xFFFD && g.g[1].escaped && g.g[1].src_len == 2 && g.width == 2,
       "a truncated sequence is one U+FFFD");
    rt_glyphs_free(&g);
    g = sanitized("\xE0\x80\x80\xED\xA0\x80\xF4\x90\x80\x80\xC0\xAF", 12, 0);
    is_int(g.n, 12, "overlong, surrogate, past U+10FFFF: one U+FFFD per byte");
    rt_glyphs_free(&g);
}

static void widths(void)
{
    /* Both tables agree on these; they must keep their width. */
    static const struct { uint32_t cp; int w; const char *what; } agree[] = {
        {0x4E2D, 2, "CJK ideograph"}, {0xFF11, 2, "full-width digit"},
        {0x3002, 2, "ideographic full stop"}, {0xFF0C, 2, "full-width comma"},
        {0x3000, 2, "ideographic space"}, {0xAC00, 2, "Hangul syllable"},
        {0x1F600, 2, "emoji U+1F600"}, {0x1F468, 2, "emoji U+1F468"}, {0x20000, 2, "CJK ext B"},
        {0x201C, 1, "left double quote (ambiguous)"}, {0x201D, 1, "right double quote"},
        {0x2026, 1, "ellipsis (ambiguous)"}, {0x2014, 1, "em dash (ambiguous)"},
        {0x00B7, 1, "middle dot (ambiguous)"}, {0x2764, 1, "heavy black heart"},
        {0x00E9, 1, "e acute"}, {0x0301, 0, "combining acute"}, {0x21E5, 1, "tab glyph"},
        {0xFFFD, 1, "replacement character"},
    };
    for (size_t i = 0; i < sizeof agree / sizeof agree[0]; i++)
        ok(rt_text_libc_width(agree[i].cp) == agree[i].w,
           "wcwidth(U+%04X %s) = %d", (unsigned)agree[i].cp, agree[i].what, agree[i].w);
    is_int(width_of("中文检索"), 8, "CJK width");
    is_int(width_of("１２３"), 6, "full-width digits");
    is_int(width_of("“…—·”"), 5, "ambiguous punctuation is narrow");
    is_int(width_of("\xF0\x9F\x98\x80"), 2, "emoji");
    is_int(width_of("한국어"), 6, "Hangul");
    /* Where utf8proc 2.8 and glibc 2.36 disagree, or glibc does not know the character. */
    static const char *const repl[] = {
        "\xE1\x85\xA1",       /* U+1161 jamo vowel alone: libc 0, utf8proc 1 */
        "\xE3\x89\x88",       /* U+3248 circled number on black square: libc 2, utf8proc 1 */
        "\xE4\xB7\x80",       /* U+4DC0 hexagram: libc 2, utf8proc 1 */
        "\xE0\xA4\x83",       /* U+0903 Devanagari visarga (Mc): libc 1, utf8proc 0 */
        "\xD8\x80",           /* U+0600 Arabic number sign (Cf): libc 1, utf8proc 0 */
        "\xF0\x9F\xAB\xA8",   /* U+1FAE8 (Unicode 15): libc -1, utf8proc 2 */
        "\xEE\x80\x80",       /* U+E000 private use */
        "\xCD\xB8",           /* U+0378 unassigned */
        "\xEF\xBF\xBE",       /* U+FFFE noncharacter */
        "\xEF\xBF\xB9",       /* U+FFF9 interlinear annotation anchor (Cf) */
    };
    for (size_t i = 0; i < sizeof repl / sizeof repl[0]; i++) {
        rt_glyphs g = sanitized(repl[i], strlen(repl[i]), 0);
        ok(g.n == 1 && g.g[0].cp == 0xFFFD && g.g[0].escaped && g.width == 1,
           "replaced: %s", repl[i]);
        rt_glyphs_free(&g);
    }
}

static void dropped(void)
{
    is_str(shown("a\xE2\x80\x8B" "b\xEF\xBB\xBF" "c\xE2\x81\xA0" "d\xC2\xAD" "e", 0), "abcde",
           "ZWSP, BOM, word joiner, soft hyphen dropped");
    is_str(shown("\xF0\x9F\x91\xA8\xE2\x80\x8D\xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x91\xA7", 0),
           "\xF0\x9F\x91\xA8\xF0\x9F\x91\xA9\xF0\x9F\x91\xA7", "ZWJ family: emoji side by side");
    is_int(width_of("\xF0\x9F\x91\xA8\xE2\x80\x8D\xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x91\xA7"), 6,
           "ZWJ family width");
    rt_glyphs g = sanitized("\xE2\x9D\xA4\xEF\xB8\x8F!", 7, 0);
    ok(g.n == 2 && g.g[0].cp == 0x2764 && g.g[0].width == 1 && g.g[0].src_len == 6 &&
           g.g[1].src_off == 6, "VS16 dropped, its bytes join the heart's range");
    rt_glyphs_free(&g);
    is_str(shown("\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD", 0), "\xF0\x9F\x91\x8D",
           "skin-tone modifier after an emoji dropped");
    is_str(shown("\xE2\x80\xAE" "abc", 0), "abc", "bidi override dropped");
    g = sanitized("\xEF\xBB\xBFx", 4, 0);
    ok(g.n == 1 && g.g[0].src_off == 0 && g.g[0].src_len == 4, "leading BOM joins the first glyph");
    rt_glyphs_free(&g);
    /* England flag: black flag + tag characters + cancel tag. */
    is_str(shown("\xF0\x9F\x8F\xB4\xF3\xA0\x81\xA7\xF3\xA0\x81\xA2\xF3\xA0\x81\xBF", 0),
           "\xF0\x9F\x8F\xB4", "tag characters dropped");
}

static void marks(void)
{
    rt_glyphs g = sanitized("e\xCC\x81", 3, 0);
    ok(g.n == 2 && g.g[1].cp == 0x301 && g.g[1].width == 0 && g.width == 1,
       "combining mark kept on its base with width 0");
    rt_glyphs_free(&g);
    is_str(shown("\xCC\x81" "a", 0), "\xEF\xBF\xBD" "a", "combining mark without a base is U+FFFD");
    is_str(shown("\x1b\xCC\x81", 0), "^[\xEF\xBF\xBD", "combining mark after an escape is U+FFFD");
    g = sanitized("a\xCC\x81\xCC\x82\xCC\x83\xCC\x84\xCC\x85\xCC\x86" "b", 14, 0);
    ok(g.n == 6 && g.g[4].src_off == 7 && g.g[4].src_len == 6 && g.g[5].src_off == 13,
       "more than four marks on a base: the rest dropped into the last one's range");
    rt_glyphs_free(&g);
    g = sanitized("\xE1\x84\x92\xE1\x85\xA1\xE1\x86\xAB", 9, 0);
    ok(g.n == 1 && g.g[0].cp == 0xD55C && g.g[0].width == 2 && g.g[0].src_len == 9,
       "conjoining jamo compose to 한");
    rt_glyphs_free(&g);
    is_str(shown("\xE1\x84\x80\xE1\x85\xA1", 0), "가", "jamo L V compose to 가");
}

static void fitting(void)
{
    rt_glyphs g = sanitized("ab中文cd", 10, 0);
    size_t used;
    is_int(rt_glyphs_fit(&g, 0, 3, &used), 2, "fit does not split a wide character");
    is_int(used, 2, "fit: columns used");
    is_int(rt_glyphs_fit(&g, 0, 4, &used), 3, "fit takes the wide character when it fits");
    is_int(rt_glyphs_fit(&g, 2, 1, &used), 0, "nothing fits in one column before a wide char");
    is_int(rt_glyphs_fit(&g, 6, 5, &used), 0, "fit at the end");
    char buf[5];
    is_int(rt_glyphs_utf8(&g, 2, 4, buf, sizeof buf), 3, "utf8 truncates at a glyph boundary");
    const char *text = buf;
    is_str(text, "中", "utf8 truncated text");
    rt_glyphs_free(&g);
    g = sanitized("e\xCC\x81" "e\xCC\x81", 6, 0);
    is_int(rt_glyphs_fit(&g, 0, 1, &used), 2, "fit keeps the mark after the last base");
    rt_glyphs_free(&g);
}

static void wrap_is(const char *s, int keep, size_t cols, const char *want)
{
    rt_glyphs g = sanitized(s, strlen(s), keep);
    size_t st[64];
    size_t n = rt_glyphs_wrap(&g, cols, st, 64);
    char got[256] = "";
    size_t o = 0;
    for (size_t i = 0; i < n && i < 64; i++) {
        char line[128];
        rt_glyphs_utf8(&g, st[i], i + 1 < n ? st[i + 1] : g.n, line, sizeof line);
        o += (size_t)snprintf(got + o, sizeof got - o, "%s%s", i ? "|" : "", line);
    }
    char name[128] = "";
    o = 0;
    for (const char *c = s; *c && o + 3 < sizeof name; c++)
        o += (size_t)snprintf(name + o, sizeof name - o, *c == '\n' ? "\\n" : "%c", *c);
    const char *lines = got;
    is_str(lines, want, "wrap \"%s\" to %zu columns", name, cols);
    rt_glyphs_free(&g);
}

static void wrapping(void)
{
    wrap_is("hello world foo", 0, 11, "hello |world foo");
    wrap_is("hello world foo", 0, 15, "hello world foo");
    wrap_is("hello world foo", 0, 6, "hello |world |foo");
    wrap_is("abcdefghij", 0, 4, "abcd|efgh|ij");
    wrap_is("中文文本换行测试", 0, 5, "中文|文本|换行|测试");
    wrap_is("你好，世界", 0, 6, "你好，|世界");
    wrap_is("你好，世界", 0, 4, "你|好，|世界");
    wrap_is("他说（你好）", 0, 6, "他说|（你|好）");
    wrap_is("检索ab cd", 0, 6, "检索|ab cd");
    wrap_is("检索ab cd", 0, 7, "检索ab |cd");
    wrap_is("ab\ncd\n\nef", 1, 80, "ab|cd||ef");
    wrap_is("ab\ncd", 0, 80, "ab cd");
    wrap_is("e\xCC\x81" "e\xCC\x81" "e\xCC\x81", 0, 2,
            "e\xCC\x81" "e\xCC\x81|e\xCC\x81");
    wrap_is("", 0, 10, "");
    rt_glyphs g = sanitized("中", 3, 0);
    size_t st[4];
    is_int(rt_glyphs_wrap(&g, 1, st, 4), 1, "a wide glyph in one column still gets a line");
    rt_glyphs_free(&g);
    g = sanitized("abcdefghij", 10, 0);
    is_int(rt_glyphs_wrap(&g, 2, st, 2), 5, "wrap counts lines beyond max");
    rt_glyphs_free(&g);
}

static void tricky(void)
{
    static const struct { const char *name, *s; } cases[] = {
        {"ascii", "Plain ASCII text, with punctuation!"},
        {"cjk", "北京大学是中国的一所大学。它位于海淀区，建于1898年。"},
        {"full-width", "１２３４５６７８９０ＡＢＣ！？"},
        {"emoji", "\xF0\x9F\x98\x80\xF0\x9F\x8E\x89 ok \xE2\x9C\x85\xE2\x9D\xA4"},
        {"zwj", "\xF0\x9F\x91\xA8\xE2\x80\x8D\xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x91\xA7\xE2\x80"
                "\x8D\xF0\x9F\x91\xA6 \xF0\x9F\x8F\xB3\xEF\xB8\x8F\xE2\x80\x8D\xF0\x9F\x8C\x88"},
        {"vs16", "\xE2\x9D\xA4\xEF\xB8\x8F \xE2\x98\xBA\xEF\xB8\x8F \x31\xEF\xB8\x8F\xE2\x83\xA3"},
        {"skin", "\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBB\xF0\x9F\x8F\xBF"},
        {"flags", "\xF0\x9F\x87\xA8\xF0\x9F\x87\xB3\xF0\x9F\x87\xAF"},
        {"ambiguous", "“引号”……——·×§①"},
        {"combining", "e\xCC\x81 a\xCC\x8A\xCC\x81 \xCC\x81 x\xE2\x83\x9D \xE3\x81\x8B\xE3\x82\x99"},
        {"hangul", "한국어 \xE1\x84\x92\xE1\x85\xA1\xE1\x86\xAB \xE1\x85\xA1\xE1\x86\xAB \xE1\x84\x92"},
        {"zero-width", "a\xE2\x80\x8B" "b\xE2\x80\x8C" "c\xE2\x80\x8E" "d\xE2\x81\xA0" "e\xEF\xBB"
                       "\xBF" "f\xC2\xAD" "g\xE2\x80\xAE" "h\xE2\x81\xA6"},
        {"controls", "\x01\x02\x07\x08\t\x0b\x0c\r\x1f\x7f\xC2\x80\xC2\x9f end"},
        {"escape sequences", "\x1b[31mred\x1b[0m \x1b]0;title\x07 \x1b" "c \xC2\x9B" "2J"},
        {"invalid", "\xFF\xFE\xC0\xAF\xE0\x80\x80\xED\xA0\x80\xF4\x90\x80\x80\xE4\xB8 \xF0\x9F\x98"},
        {"disagreeing", "\xE3\x89\x88\xE4\xB7\x80\xE0\xA4\x95\xE0\xA4\xBF\xD8\x80\xF0\x9F\xAB\xA8"
                        "\xEE\x80\x80\xF3\xB0\x80\x80\xCD\xB8\xEF\xBF\xBF"},
        {"newlines", "line one\nline two\r\n\nthird \xE2\x80\xA8 fourth\n"},
        {"leading drop", "\xEF\xBB\xBF\xE2\x80\x8B" "start"},
        {"only drops", "\xE2\x80\x8B\xEF\xB8\x8F"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        invariants(cases[i].name, cases[i].s, strlen(cases[i].s));
    /* A 10 KB line of all of the above, repeated. */
    size_t cap = 12 * 1024, n = 0;
    char *big = rt_malloc(cap);
    while (n < 10 * 1024)
        for (size_t i = 0; i < sizeof cases / sizeof cases[0] && n < 10 * 1024; i++) {
            size_t l = strlen(cases[i].s);
            if (n + l > cap)
                break;
            memcpy(big + n, cases[i].s, l);
            n += l;
        }
    invariants("10 KB line", big, n);
    free(big);
}

/* Short run names: kept when they fit, told apart by what differs, never equal, never wider. */
static int short_is(const char *const *names, size_t n, size_t cols, const char *const *want, size_t nshort)
{
    char **out = calloc(n, sizeof *out);
    size_t k = rt_text_short_names(names, n, cols, out);
    int same = k == nshort;
    for (size_t i = 0; i < n; i++) {
        if (!want[i] || strcmp(out[i], want[i]) != 0) {
            printf("#   name %zu: got \"%s\", want \"%s\"\n", i, out[i], want[i] ? want[i] : "(null)");
            same = 0;
        }
        if (rt_text_width(out[i], strlen(out[i])) > cols)
            same = 0;
        free(out[i]);
    }
    free(out);
    return same;
}

static void short_names(void)
{
    const char *runs[] = {"xapian-bm25-jieba", "xapian-bm25-bigram", "sklearn-tfidf-char", "fused-rrf"};
    const char *w10[] = {"\u2026jieba", "\u2026bigram", "sklearn-t\u2026", "fused-rrf"};
    ok(short_is(runs, 4, 10, w10, 3), "the differing part of shared starts; others cut with an ellipsis");
    const char *w20[] = {"xapian-bm25-jieba", "xapian-bm25-bigram", "sklearn-tfidf-char", "fused-rrf"};
    ok(short_is(runs, 4, 20, w20, 0), "names that fit are kept whole");
    const char *long2[] = {"exp-2024-dense-retriever-v1", "exp-2024-dense-retriever-v2"};
    const char *wl[] = {"\u2026v1", "\u2026v2"};
    ok(short_is(long2, 2, 8, wl, 2), "only the last word differs: it is kept");
    const char *tail[] = {"abc-xxxxxxxx1", "abc-xxxxxxxx2"};
    const char *wt[] = {"#1", "#2"};
    ok(short_is(tail, 2, 6, wt, 2), "forms still equal after cutting are numbered");
    const char *cjk[] = {"稠密检索-实验一", "稠密检索-实验二"};
    const char *wc[] = {"\u2026实验一", "\u2026实验二"};
    ok(short_is(cjk, 2, 8, wc, 2), "CJK names by display width");
    const char *dup[] = {"bm25-with-a-long-name", "bm25-with-a-long-name"};
    const char *wd[] = {"\u2026name", "\u2026name"};
    ok(short_is(dup, 2, 9, wd, 2), "identical names stay identical (eval warns about them)");
}

int main(void)
{
    if (!setlocale(LC_CTYPE, "C.UTF-8")) {
        printf("1..0 # SKIP no C.UTF-8 locale\n");
        return 0;
    }
    escapes();
    invalid();
    widths();
    dropped();
    marks();
    fitting();
    wrapping();
    tricky();
    short_names();
    return tap_done();
}
