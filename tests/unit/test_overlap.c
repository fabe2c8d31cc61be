/* test_overlap — CJK-aware query overlap: characters, bigrams, stop characters, whole-token
 * numbers and case-folded words, shown one letter per character ('T' term, 'c' char, '.'). */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "rt_mem.h"
#include "rt_overlap.h"
#include "rt_text.h"
#include "tap.h"

static size_t found;

/* The marks of text against query, one letter per character; checks that all bytes of a
 * character carry the same mark. */
static const char *marks(const char *query, const char *text)
{
    static char out[512];
    rt_overlap *o = rt_overlap_new(query, strlen(query));
    size_t len = strlen(text), n = 0;
    uint8_t *m = rt_malloc(len + 1);
    found = rt_overlap_mark(o, text, len, m);
    for (size_t i = 0; i < len && n + 1 < sizeof out;) {
        uint32_t cp;
        size_t l = rt_text_decode(text + i, len - i, &cp);
        for (size_t k = 1; k < l; k++)
            if (m[i + k] != m[i])
                return "(bytes of one character marked differently)";
        out[n++] = m[i] == RT_OVERLAP_TERM ? 'T' : m[i] == RT_OVERLAP_CHAR ? 'c' : '.';
        i += l;
    }
    out[n] = '\0';
    free(m);
    rt_overlap_free(&o);
    ok(o == NULL, "free sets the pointer to NULL");
    return out;
}

static size_t nterms(const char *query)
{
    rt_overlap *o = rt_overlap_new(query, strlen(query));
    size_t n = rt_overlap_nterms(o);
    rt_overlap_free(&o);
    return n;
}

int main(void)
{
    /* Characters and bigrams. */
    is_str(marks("北京大学的历史", "北京大学建于1898年"), "TTTT.......", "shared bigrams are terms");
    is_int(found, 7, "found: 北 京 大 学 and 北京 京大 大学");
    is_int(nterms("北京大学"), 7, "4 characters + 3 bigrams");
    is_str(marks("北京大学", "大北"), "cc", "characters without a shared bigram");
    is_str(marks("北京，大学", "京大学"), "cTT", "punctuation breaks bigrams in the query");
    is_str(marks("北京大学", "北，京"), "c.c", "and in the passage");
    is_str(marks("北京", "北\xE2\x80\x8B京"), "T.T", "ZWSP neither joins nor separates (and is unmarked)");
    /* Stop characters. */
    is_int(nterms("什么是"), 0, "stop characters alone give no terms, nor bigrams of two");
    is_str(marks("什么是人工智能", "什么是"), "...", "stop characters are not highlighted");
    is_str(marks("什么是人工智能", "这是人工"), ".TTT", "a bigram of a stop and a content char is");
    is_str(marks("我的书", "的书的"), "TT.", "的书 is a term, 的 alone is not");
    is_int(nterms("的了是在和与或也就都而及着吗呢吧啊么什怎哪个一有为这那之其把被对从向以于等请问"), 0,
           "the whole stop list");
    is_int(nterms("這個問題為什麼"), 3, "traditional stop forms: only 題, 問題 and 題為");
    /* Numbers. */
    is_str(marks("2022年", "20221年 2022年"), ".....c.TTTTc", "numbers match whole tokens only");
    is_str(marks("２０２２", "2022"), "TTTT", "full-width digits in the query");
    is_str(marks("2022", "２０２２年"), "TTTT.", "full-width digits in the passage");
    is_str(marks("3.5", "3.5 35 3 .5"), "TTT........", "decimal numbers are one token");
    is_str(marks("3", "3.5 3"), "....T", "3 does not match inside 3.5");
    is_str(marks("1.", "1. 1.2"), "T.....", "a trailing point is not part of a number");
    /* Words. */
    is_str(marks("iPhone14多少钱", "IPHONE 14 价格"), "TTTTTT.TT...", "case-folded words, split digits");
    is_str(marks("iphone", "iphone14"), "TTTTTT..", "letters and digits are separate tokens");
    is_str(marks("phone", "iphone"), "......", "words match whole");
    is_str(marks("ＣＰＵ", "cpu CPU"), "TTT.TTT", "full-width letters");
    is_str(marks("Café", "CAFÉ cafe"), "TTTT.....", "non-ASCII letters fold case");
    is_str(marks("soft", "so\xC2\xAD" "ft"), "TTTTT", "soft hyphen inside a word is skipped");
    /* Edges. */
    is_str(marks("", "北京"), "..", "empty query");
    is_int(found, 0, "empty query finds nothing");
    is_str(marks("\xFF北京\xE4", "北京"), "TT", "invalid bytes in the query are ignored");
    is_str(marks("北京", "\xFF北京\xE4\xB8"), ".TT.", "invalid bytes in the passage are unmarked");
    is_str(marks("北京", ""), "", "empty passage");
    return tap_done();
}
