/* gen_workspace — writes a synthetic workspace shaped like DuReader-retrieval (DESIGN §10: "every
 * key press within one frame on a DuReader-scale workspace") for the UI benchmark:
 *
 *   DIR/queries.tsv      qid<TAB>question: 32-hex qids, 6–15 Chinese characters
 *   DIR/collection.tsv   pid<TAB>passage: 32-hex pids, ~300 characters each (200–400), with
 *                        punctuation, now and then a number or a Latin word
 *   DIR/qrels.trec       3–5 relevant passages per query
 *   DIR/runs/runN.trec   N = 1..RUNS, 50 passages per query in TREC format, scored so that the
 *                        runs share most candidates, differ in quality, and sometimes miss
 *   DIR/workspace.json   naming them, with "measures": "dureader"
 *
 * Text is drawn from a lexicon of 30,000 words (1–4 characters, Zipf-distributed, built from ~600
 * frequent characters and the whole CJK block); the relevant passages of a query and ~15
 * distractors per query contain its words, so the overlap highlighting has work to do.
 * Deterministic for a seed. The collection is written under a temporary name and renamed last,
 * so a complete DIR/collection.tsv means a complete workspace.
 *
 * --msmarco shapes it like MS MARCO passage ranking instead (the full-scale benchmark, make
 * bench-scale): qids and pids are decimal numbers (pid = passage number), passages 80–140
 * characters (~330 bytes), so 10 runs × 7,000 queries × 1,000 passages take ~2.3 GB.
 *
 * Usage: gen_workspace [--msmarco] DIR [PASSAGES [QUERIES [RUNS [DEPTH [SEED]]]]]
 *        defaults: 1000000 4000 5 50 20220523 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define NWORDS 30000u
#define WORD_MAX 16          /* bytes of one word: up to 4 characters + room for an ASCII token */
#define ZIPF_BITS 20
#define NREL_MAX 5
#define NDIS 15
#define QWORDS_MAX 10
#define NSHARED 45           /* random candidates every run of a query may retrieve */
#define NOWN 25              /* random candidates of one run only */
#define MAX_RUNS 20
#define MAX_DEPTH 1000

/* Frequent characters of written Chinese (duplicates are harmless). */
static const char COMMON[] =
    "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过"
    "子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制"
    "机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正"
    "心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党"
    "程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角"
    "期根论运农指几九区强放决西被干做必战先回则任取据处队南给色光门即保治北造百规热领七海口东导器压"
    "志世金增争济阶油思术极交受联什认六共权收证改清己美再采转更单风切打白教速花带安场身车例真务具万"
    "每目至达走积示议声报斗完类八离华名确才科张信马节话米整空元况今集温传土许步群广石记需段研界拉林"
    "律叫且究观越织装影算低持音众书布复容儿须际商非验连断深难近矿千周委素技备半办青省列习响约支般史"
    "感劳便团往酸历市克何除消构府称太准精值号率族维划选标写存候毛亲快效斯院查江型眼王按格养易置派层"
    "片始却专状育厂京识适属圆包火住调满县局照参红细引听该铁价严首底液官德随病苏失尔死讲配女黄推显谈"
    "罪神艺呢席含企望密批营项防举球英氧势告李台落木帮轮破亚师围注远字材排供河态封另施减树溶怎止案言"
    "士均武固叶鱼波视仅费紧爱左章早朝害续轻服试食充兵源判护司足某练差致板田降黑犯负击范继兴似余坚曲"
    "输修故城夫够送笔船占右财吃富春职觉汉画功巴跟虽杂飞检吸助升阳互初创抗考投坏策古径换未跑留钢曾端"
    "责站简述钱副尽帝射草冲承独令限阿宣环双请超微让控州良轴找否纪益依优顶础载倒房突坐粉敌略客袁冷胜"
    "绝析块剂测丝协诉念陈仍罗盐友洋错苦夜刑移频逐靠混母短皮终聚汽村云哪既距卫停烈央察烧迅境若印洲刻"
    "括激孔搞甚室待核校散侵吧甲游久菜味旧模湖货损预阻毫普稳乙妈植息扩银语挥酒守拿序纸医缺雨吗针刘啊"
    "急唱误训愿审附获茶鲜粮斤孩脱硫肥善龙演父渐血欢械掌歌沙刚攻谓盾讨晚粒乱燃矛乎杀药宁鲁贵钟煤读班"
    "伯香介迫句丰培握兰担弦蛋沉假穿执答乐谁顺烟缩征脸喜松脚困异免背星福买染井概慢怕磁倍祖皇促静补评"
    "翻肉践尼衣宽扬棉希伤操垂秋宜氢套督振架亮末宪庆编牛触映雷销诗座居抓裂胞呼娘景威绿晶厚盟衡鸡孙延"
    "危胶屋乡临陆顾掉呀灯岁措束耐剧玉赵跳哥季课凯胡额款绍卷齐伟蒸殖永宗苗川炉岩弱零杨奏沿露杆探滑镇"
    "饭浓航怀赶库夺伊灵税途灭赛归召鼓播盘裁险康唯录菌纯借糖盖横符私努堂域枪润幅哈竟熟虫泽脑壤碳欧遍"
    "侧寨敢彻虑斜薄庭纳弹饲伸折麦湿暗荷瓦塞床筑恶户访塔奇透梁刀旋迹卡氯遇份毒泥退洗摆灰彩卖耗夏择忙"
    "铜献硬予繁圈雪函亦抽篇阵阴丁尺追堆雄迎泛爸楼避谋吨野猪旗累偏典馆索秦脂潮爷豆忽托惊塑遗愈朱替纤"
    "粗倾尚痛楚谢奋购磨君池旁碎骨监捕弟暴割贯殊释词亡壁顿宝午尘闻揭炮残冬桥妇警综招吴付浮遭徐您摇谷"
    "赞箱隔订男吹园纷唐败宋玻巨耕坦荣闭湾键凡驻锅救恩剥凝碱齿截炼麻纺禁废盛版缓净睛昌婚涉筒嘴插岸朗"
    "庄街藏姑贸腐奴啦惯乘伙恢匀纱扎辩耳彪臣亿璃抵脉秀萨俄网舞店喷纵寸汗挂洪贺闪柬爆烯津稻墙软勇像滚"
    "厘蒙芳肯坡柱荡腿仪旅尾轧冰贡登黎削钻勒逃障氨郭峰币港伏轨亩毕擦莫刺浪秘援株健售股岛甘泡睡童铸汤"
    "阀休汇舍牧绕炸哲磷绩朋淡尖启陷柴呈徒颜泪稍忘泵蓝拖洞授镜辛壮锋贫虚弯摩泰幼廷尊窗纲弄隶疑氏宫姐"
    "震瑞怪尤琴循描膜违夹腰缘珠穷森枝竹沟催绳忆邦剩幸浆栏拥牙贮礼滤钠纹罢拍咱喊袖埃勤罚焦潜伍墨欲缝"
    "姓刊饱仿奖铝鬼丽跨默挖链扫喝袋炭污幕诸弧励梅奶洁灾舟鉴苯讼抱毁懂寒智埔寄届跃渡挑丹艰贝碰拔爹戴"
    "码梦芽熔赤渔哭敬颗奔铅仲虎稀妹乏珍申桌遵允隆螺仓魏锐晓氮兼隐碍赫拨忠肃缸牵抢博巧壳兄杜讯诚碧祥"
    "柯页巡矩悲灌龄伦票寻桂铺圣恐恰郑趣抬荒腾贴柔滴猛阔辆妻填撤储签闹扰紫砂递戏吊陶伐喂疗瓶婆抚臂摸"
    "忍虾蜡邻胸巩挤偶弃槽劲乳邓吉仁烂砖租乌舰伴瓜浅丙暂燥橡柳迷暖牌秧胆详簧踏瓷谱呆宾糊洛辉愤竞隙怒"
    "粘乃绪肩籍敏涂熙皆侦悬掘享纠醒狂锁淀恨牲霸爬赏逆玩陵祝秒浙貌役彼悉鸭趋凤晨畜辈秩卵署梯炎滩棋驱"
    "筛峡冒啥寿译浸泉帽迟硅疆贷漏稿冠嫩胁芯牢叛蚀奥鸣岭羊凭串塘绘酵融盆锡庙筹冻辅摄袭筋拒僚旱钾鸟漆"
    "沈眉疏添棒穗硝韩逼扭侨凉挺碗栽炒杯患馏劝豪辽勃鸿旦吏拜狗埋辊掩饮搬骂辞勾扣估蒋绒雾丈朵姆拟宇辑"
    "陕雕偿蓄崇剪倡厅咬驶薯刷斥番赋奉佛浇漫曼扇钙桃扶仔返俗亏腔鞋棱覆框悄叔撞骗勘旺沸孤吐孟渠屈疾妙"
    "惜仰狠胀谐抛霉桑岗嘛衰盗渗脏赖涌甜曹阅肌哩厉烃纬毅昨伪症煮叹钉搭茎笼酷偷弓锥恒杰坑鼻翼纶叙狱逮"
    "罐络棚抑膨蔬寺骤穆冶枯册尸凸绅坯牺焰轰欣晋瘦御锭锦丧旬锻垄搜扑邀亭酯迈舒脆酶闲忧酚顽羽涨卸仗陪"
    "辟惩杭姚肚捉飘漂昆欺吾郎烷汁呵饰萧雅邮迁燕撒姻赴宴烦债帐斑铃旨醇董饼雏姿拌傅腹妥揉贤拆歪葡胺丢"
    "浩徽昂垫挡览贪慰缴汪慌冯诺姜谊凶劣诬耀昏躺盈骑乔溪丛卢抹闷咨刮驾缆悟摘铒掷颇幻柄惠惨佳仇腊窝涤"
    "剑瞧堡泼葱罩霍捞胎苍滨俩捅湘砍霞邵萄疯淮遂熊粪烘宿档戈驳嫂裕徙箭捐肠撑晒辨殿莲摊搅酱屏疫哀蔡堵"
    "沫皱畅叠阁莱敲辖钩痕坝巷饿祸丘玄溜曰逻彭尝卿妨艇吞韦怨矮歇";

static uint64_t mix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

typedef struct rng {
    uint64_t s;
} rng;

static uint64_t rnd(rng *r)
{
    r->s += 0x9e3779b97f4a7c15ULL;
    uint64_t z = r->s;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint32_t below(rng *r, uint32_t n) { return (uint32_t)(((rnd(r) >> 32) * n) >> 32); }
static double unif(rng *r) { return (double)(rnd(r) >> 11) / 9007199254740992.0; }

/* Roughly normal (Irwin–Hall of 4 uniforms, scaled to unit variance). */
static double gauss(rng *r) { return (unif(r) + unif(r) + unif(r) + unif(r) - 2.0) * 1.7320508; }

static void hex32(uint64_t seed, uint64_t i, char out[33])
{
    static const char hex[] = "0123456789abcdef";
    uint64_t a = mix(seed ^ mix(i * 2 + 1)), b = mix(seed ^ mix(i * 2 + 2));
    for (int k = 0; k < 16; k++) {
        out[k] = hex[(a >> (60 - 4 * k)) & 15];
        out[16 + k] = hex[(b >> (60 - 4 * k)) & 15];
    }
    out[32] = '\0';
}

static int msmarco;   /* --msmarco: decimal ids, shorter passages */

/* The id of query or passage i: 32 hex digits, or (--msmarco) its number. */
static void make_id(uint64_t seed, uint64_t i, char out[33])
{
    if (msmarco)
        snprintf(out, 33, "%llu", (unsigned long long)i);
    else
        hex32(seed, i, out);
}

static void die(const char *what)
{
    fprintf(stderr, "gen_workspace: %s: %s\n", what, strerror(errno));
    exit(2);
}

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p)
        die("out of memory");
    return p;
}

static FILE *open_out(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        die(path);
    setvbuf(f, NULL, _IOFBF, 1 << 20);
    return f;
}

static void close_out(FILE *f, const char *path)
{
    if (ferror(f) || fclose(f) != 0)
        die(path);
}

/* ---- the lexicon ------------------------------------------------------------------------- */

static uint32_t *common;      /* code points of COMMON, deduplicated */
static size_t ncommon;
static char words[NWORDS][WORD_MAX];
static uint8_t wlen[NWORDS];  /* bytes */
static uint8_t wchars[NWORDS];
static uint32_t *zipf;        /* 2^ZIPF_BITS entries: a word rank drawn with p ∝ 1/(rank+10) */

static size_t put_utf8(char *p, uint32_t c)
{
    if (c < 0x80) {
        p[0] = (char)c;
        return 1;
    }
    if (c < 0x800) {
        p[0] = (char)(0xc0 | (c >> 6));
        p[1] = (char)(0x80 | (c & 0x3f));
        return 2;
    }
    p[0] = (char)(0xe0 | (c >> 12));
    p[1] = (char)(0x80 | ((c >> 6) & 0x3f));
    p[2] = (char)(0x80 | (c & 0x3f));
    return 3;
}

static void build_lexicon(rng *r)
{
    static uint8_t seen[0x10000];
    common = xcalloc(sizeof COMMON, sizeof *common);
    for (const unsigned char *s = (const unsigned char *)COMMON; *s; s += 3) {
        uint32_t c = ((uint32_t)(s[0] & 0x0f) << 12) | ((uint32_t)(s[1] & 0x3f) << 6) | (s[2] & 0x3f);
        if (!seen[c]++)
            common[ncommon++] = c;
    }
    for (uint32_t w = 0; w < NWORDS; w++) {
        uint32_t u = below(r, 100);
        int n = u < 22 ? 1 : u < 80 ? 2 : u < 92 ? 3 : 4;
        if (w < 40)
            n = 1;   /* the most frequent words are single function characters */
        size_t len = 0;
        for (int k = 0; k < n; k++) {
            uint32_t c;
            if (below(r, 100) < 96) {
                /* skewed to the front of the common list */
                double x = unif(r);
                c = common[(size_t)(x * x * (double)ncommon)];
            } else {
                c = 0x4e00 + below(r, 0x9fa5 - 0x4e00 + 1);
            }
            len += put_utf8(words[w] + len, c);
        }
        wlen[w] = (uint8_t)len;
        wchars[w] = (uint8_t)n;
    }
    /* Zipf-like table: cumulative weights 1/(k+10), quantised into 2^ZIPF_BITS slots. */
    double total = 0;
    for (uint32_t k = 0; k < NWORDS; k++)
        total += 1.0 / (k + 10.0);
    size_t slots = (size_t)1 << ZIPF_BITS, at = 0;
    zipf = xcalloc(slots, sizeof *zipf);
    double acc = 0;
    for (uint32_t k = 0; k < NWORDS; k++) {
        acc += 1.0 / (k + 10.0);
        size_t end = (size_t)(acc / total * (double)slots);
        if (k == NWORDS - 1)
            end = slots;
        while (at < end)
            zipf[at++] = k;
    }
}

static uint32_t word(rng *r) { return zipf[rnd(r) >> (64 - ZIPF_BITS)]; }

/* ---- queries ----------------------------------------------------------------------------- */

typedef struct query {
    char qid[33];
    uint32_t w[QWORDS_MAX];   /* content words (drawn from the middle of the lexicon) */
    int nw;
    int suffix;               /* index into SUFFIX, or -1 */
    uint32_t rel[NREL_MAX];
    int nrel;
    uint32_t dis[NDIS];
} query;

static const char *const SUFFIX[] = {"是什么", "怎么办", "多少钱", "哪个好", "怎么样", "为什么",
                                     "有哪些", "什么意思", "如何", "好不好"};
#define NSUFFIX (sizeof SUFFIX / sizeof SUFFIX[0])

static void make_query(rng *r, query *q)
{
    int target = 6 + (int)below(r, 10);   /* 6..15 characters */
    q->suffix = below(r, 100) < 55 ? (int)below(r, NSUFFIX) : -1;
    int chars = 0;
    if (q->suffix >= 0) {
        const char *s = SUFFIX[q->suffix];
        chars = (int)(strlen(s) / 3);
    }
    q->nw = 0;
    while (q->nw < QWORDS_MAX) {
        uint32_t w = 40 + below(r, 8000);   /* topical words, not function characters */
        if (chars + wchars[w] > 15)
            break;
        q->w[q->nw++] = w;
        chars += wchars[w];
        if (chars >= target)
            break;
    }
    while (chars < 6) {   /* pad with single characters */
        uint32_t w;
        do
            w = below(r, NWORDS);
        while (wchars[w] != 1);
        q->w[q->nw++] = w;
        chars++;
    }
}

/* ---- passages ---------------------------------------------------------------------------- */

#define TOPIC_NONE UINT32_MAX

/* Appends one passage's text to p (room for 2 KiB); topical passages mention words of q. */
static size_t make_passage(rng *r, char *p, const query *q, int relevant)
{
    static const char *const PUNCT[] = {"，", "，", "，", "。", "。", "、", "；", "：", "！", "？"};
    static const char *const LATIN[] = {"iPhone", "APP", "WiFi", "CPU", "USB", "PDF", "Windows",
                                        "Excel", "VIP", "QQ", "DNF", "LOL", "http", "GPS", "NBA"};
    int target = msmarco ? 80 + (int)below(r, 31) + (int)below(r, 31)   /* 80..140, mean 110 */
                         : 200 + (int)below(r, 101) + (int)below(r, 101);   /* 200..400, mean 300 */
    int chars = 0, since_punct = 0, clause = 6 + (int)below(r, 14);
    size_t len = 0;
    int mention = q ? (relevant ? 6 : 3) : 0;   /* per mille-ish: chance in 100 per word */
    while (chars < target) {
        uint32_t u = below(r, 1000);
        if (q && u < (uint32_t)mention * 10) {
            /* a query word (relevant passages also get the whole query phrase now and then) */
            if (relevant && u < 8) {
                for (int k = 0; k < q->nw; k++) {
                    memcpy(p + len, words[q->w[k]], wlen[q->w[k]]);
                    len += wlen[q->w[k]];
                    chars += wchars[q->w[k]];
                }
                since_punct += 4;
            } else {
                uint32_t w = q->w[below(r, (uint32_t)q->nw)];
                memcpy(p + len, words[w], wlen[w]);
                len += wlen[w];
                chars += wchars[w];
                since_punct += wchars[w];
            }
        } else if (u >= 995) {
            len += (size_t)sprintf(p + len, "%u", below(r, 2024));
            chars += 3;
            since_punct += 3;
        } else if (u >= 992) {
            const char *s = LATIN[below(r, sizeof LATIN / sizeof LATIN[0])];
            size_t n = strlen(s);
            memcpy(p + len, s, n);
            len += n;
            chars += (int)n / 2;
            since_punct += 2;
        } else {
            uint32_t w = word(r);
            memcpy(p + len, words[w], wlen[w]);
            len += wlen[w];
            chars += wchars[w];
            since_punct += wchars[w];
        }
        if (since_punct >= clause) {
            const char *s = PUNCT[below(r, sizeof PUNCT / sizeof PUNCT[0])];
            memcpy(p + len, s, 3);
            len += 3;
            chars++;
            since_punct = 0;
            clause = 6 + (int)below(r, 14);
        }
    }
    memcpy(p + len, "。", 3);
    return len + 3;
}

/* ---- runs -------------------------------------------------------------------------------- */

typedef struct cand {
    uint32_t idx;
    double score;
} cand;

static int by_score_desc(const void *a, const void *b)
{
    const cand *x = a, *y = b;
    if (x->score != y->score)
        return x->score < y->score ? 1 : -1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Per run: how strongly it prefers relevant and topical passages (run1 is the best). */
static const double REL_BONUS[] = {2.4, 1.6, 0.9, 1.2, 2.0, 0.7, 1.8, 1.2, 2.2, 1.6,
                                   2.4, 1.6, 0.9, 1.2, 2.0, 0.7, 1.8, 1.2, 2.2, 1.6};
/* Per run: the share of queries it finds hard (most relevant passages not retrieved at all). */
static const double HARD[] = {0.10, 0.20, 0.45, 0.30, 0.15, 0.50, 0.25, 0.35, 0.15, 0.20,
                              0.10, 0.20, 0.45, 0.30, 0.15, 0.50, 0.25, 0.35, 0.15, 0.20};
static const double TOPIC_BONUS[] = {1.2, 1.6, 1.0, 1.8, 0.6, 1.4, 1.0, 1.2, 0.8, 1.5,
                                     1.2, 1.6, 1.0, 1.8, 0.6, 1.4, 1.0, 1.2, 0.8, 1.5};

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--msmarco") == 0) {
        msmarco = 1;
        argv++;
        argc--;
    }
    if (argc < 2 || argc > 7 || argv[1][0] == '-') {   /* --help is not a folder to fill */
        fprintf(stderr, "Usage: gen_workspace [--msmarco] DIR [PASSAGES [QUERIES [RUNS [DEPTH [SEED]]]]]\n");
        return 1;
    }
    const char *dir = argv[1];
    unsigned long np = argc > 2 ? strtoul(argv[2], NULL, 10) : 1000000;
    unsigned long nq = argc > 3 ? strtoul(argv[3], NULL, 10) : 4000;
    unsigned long nruns = argc > 4 ? strtoul(argv[4], NULL, 10) : 5;
    unsigned long depth = argc > 5 ? strtoul(argv[5], NULL, 10) : 50;
    uint64_t seed = argc > 6 ? strtoull(argv[6], NULL, 10) : 20220523;
    if (nq == 0 || nq > 1000000 || nruns == 0 || nruns > MAX_RUNS || depth == 0 ||
        depth > MAX_DEPTH || np > 100000000 || np < nq * (NREL_MAX + NDIS) + NSHARED + NOWN + depth) {
        fprintf(stderr, "gen_workspace: need QUERIES 1..1000000, RUNS 1..%d, DEPTH 1..%d and "
                        "PASSAGES ≥ %lu × %d + %d\n",
                MAX_RUNS, MAX_DEPTH, nq, NREL_MAX + NDIS, NSHARED + NOWN + (int)depth);
        return 1;
    }
    char path[4096], tmp[4096];
    snprintf(path, sizeof path, "%s/runs", dir);
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        die(dir);
    if (mkdir(path, 0777) != 0 && errno != EEXIST)
        die(path);

    rng r = {seed};
    build_lexicon(&r);

    /* Queries, and which passages are about them: topic[i] = query index, or TOPIC_NONE. */
    query *qs = xcalloc(nq, sizeof *qs);
    uint32_t *topic = xcalloc(np, sizeof *topic);
    uint8_t *isrel = xcalloc(np, 1);
    for (size_t i = 0; i < np; i++)
        topic[i] = TOPIC_NONE;
    for (size_t q = 0; q < nq; q++) {
        if (msmarco)
            snprintf(qs[q].qid, sizeof qs[q].qid, "%zu", 1000000 + q * 37);
        else
            hex32(seed ^ 0x71, q, qs[q].qid);
        make_query(&r, &qs[q]);
        qs[q].nrel = 3 + (int)below(&r, 3);
        for (int k = 0; k < qs[q].nrel + NDIS; k++) {
            uint32_t i;
            do
                i = below(&r, (uint32_t)np);
            while (topic[i] != TOPIC_NONE);
            topic[i] = (uint32_t)q;
            if (k < qs[q].nrel) {
                qs[q].rel[k] = i;
                isrel[i] = 1;
            } else {
                qs[q].dis[k - qs[q].nrel] = i;
            }
        }
    }

    /* queries.tsv */
    snprintf(path, sizeof path, "%s/queries.tsv", dir);
    FILE *f = open_out(path);
    for (size_t q = 0; q < nq; q++) {
        fprintf(f, "%s\t", qs[q].qid);
        for (int k = 0; k < qs[q].nw; k++)
            fwrite(words[qs[q].w[k]], 1, wlen[qs[q].w[k]], f);
        if (qs[q].suffix >= 0)
            fputs(SUFFIX[qs[q].suffix], f);
        fputc('\n', f);
    }
    close_out(f, path);

    /* qrels.trec */
    snprintf(path, sizeof path, "%s/qrels.trec", dir);
    f = open_out(path);
    char pid[33];
    for (size_t q = 0; q < nq; q++)
        for (int k = 0; k < qs[q].nrel; k++) {
            make_id(seed, qs[q].rel[k], pid);
            fprintf(f, "%s 0 %s 1\n", qs[q].qid, pid);
        }
    close_out(f, path);

    /* runs/runN.trec: candidates = relevant + distractors + NSHARED random passages shared by
     * the runs of the query + NOWN of the run's own; score = bonuses + noise; top DEPTH kept. */
    size_t ncand_max = NREL_MAX + NDIS + NSHARED + NOWN + depth;
    cand *cs = xcalloc(ncand_max, sizeof *cs);
    uint32_t *drawn = xcalloc(np, sizeof *drawn);   /* stamp of the (run, query) that drew it */
    uint32_t stamp = 0;
    for (unsigned long run = 0; run < nruns; run++) {
        snprintf(path, sizeof path, "%s/runs/run%lu.trec", dir, run + 1);
        f = open_out(path);
        for (size_t q = 0; q < nq; q++) {
            rng shared = {mix(seed ^ mix(q + 1))};
            rng own = {mix(seed ^ mix((q + 1) * 64 + run + 7))};
            size_t n = 0;
            const query *Q = &qs[q];
            double miss = unif(&own) < HARD[run] ? 0.85 : 0.08;
            for (int k = 0; k < Q->nrel; k++)
                cs[n++] = (cand){Q->rel[k], unif(&own) < miss ? -50.0 + gauss(&own)
                                                              : REL_BONUS[run] + 1.2 * gauss(&own)};
            for (int k = 0; k < NDIS; k++)
                cs[n++] = (cand){Q->dis[k], TOPIC_BONUS[run] + 1.0 * gauss(&own)};
            stamp++;
            size_t nrandom = NSHARED + NOWN + (depth > NSHARED + NOWN ? depth : 0);
            for (size_t k = 0; k < nrandom; k++) {
                rng *g = k < NSHARED ? &shared : &own;
                uint32_t i;
                int dup;
                do {
                    i = below(g, (uint32_t)np);
                    dup = topic[i] == (uint32_t)q || drawn[i] == stamp;
                } while (dup);
                drawn[i] = stamp;
                double s = gauss(&own);
                if (k < NSHARED)
                    s += 0.8 - 0.02 * (double)k;   /* a common first stage: similar order */
                cs[n++] = (cand){i, s};
            }
            qsort(cs, n, sizeof *cs, by_score_desc);
            double base = 12.0 + 6.0 * unif(&shared);
            for (size_t k = 0; k < depth && k < n; k++) {
                make_id(seed, cs[k].idx, pid);
                fprintf(f, "%s Q0 %s %zu %.4f run%lu\n", Q->qid, pid, k + 1, base + 2.5 * cs[k].score,
                        run + 1);
            }
        }
        close_out(f, path);
    }
    free(cs);
    free(drawn);

    /* workspace.json */
    snprintf(path, sizeof path, "%s/workspace.json", dir);
    f = open_out(path);
    fprintf(f, "{\n  \"name\": \"synthetic %s workspace (%lu queries, %lu passages, "
               "%lu runs)\",\n  \"queries\": \"queries.tsv\",\n  \"collection\": "
               "\"collection.tsv\",\n  \"qrels\": \"qrels.trec\",\n  \"runs\": [\n",
            msmarco ? "MS MARCO-shaped" : "DuReader-scale", nq, np, nruns);
    for (unsigned long run = 0; run < nruns; run++)
        fprintf(f, "    {\"name\": \"run%lu\", \"path\": \"runs/run%lu.trec\"}%s\n", run + 1, run + 1,
                run + 1 < nruns ? "," : "");
    fprintf(f, "  ],\n  \"measures\": \"dureader\"\n}\n");
    close_out(f, path);

    /* collection.tsv, last and under a temporary name */
    snprintf(path, sizeof path, "%s/collection.tsv", dir);
    snprintf(tmp, sizeof tmp, "%s/collection.tsv.tmp", dir);
    f = open_out(tmp);
    static char buf[4096];
    for (size_t i = 0; i < np; i++) {
        make_id(seed, i, pid);
        size_t plen = strlen(pid);
        memcpy(buf, pid, plen);
        buf[plen] = '\t';
        const query *q = topic[i] == TOPIC_NONE ? NULL : &qs[topic[i]];
        size_t len = plen + 1 + make_passage(&r, buf + plen + 1, q, isrel[i]);
        buf[len++] = '\n';
        fwrite(buf, 1, len, f);
    }
    close_out(f, tmp);
    if (rename(tmp, path) != 0)
        die(path);
    free(qs);
    free(topic);
    free(isrel);
    free(zipf);
    free(common);
    return 0;
}
