#!/usr/bin/env python3
"""Build the three demo runs of the retriage demo workspace (stdlib only).

    python3 data/demo/make_runs.py

Reads queries.tsv, collection.tsv and qrels.trec beside this script and writes
runs/bm25.trec, runs/dense.trec and runs/rerank.trec (TREC format, DEPTH passages a
query, scores written with repr(float), ranks following score descending with ties
broken by pid descending, as trec_eval orders them). Everything is deterministic:
no clock, no hash(), no set iteration in arithmetic, seeded RNGs with string seeds;
running it twice gives byte-identical files and byte-identical standard output.

The three systems:
  bm25    Okapi BM25 (k1=0.9, b=0.4, Lucene idf) over Chinese character unigrams and
          bigrams plus lower-cased ASCII letter/digit tokens. No width folding: the
          full-width digits of p0258 ("１４", "３２７９") match nothing.
  dense   NOT a neural model: a deterministic stand-in for a dual encoder. Text is
          NFKC-folded, lower-cased, a short hand-written list of paraphrases and of the
          two query typos is folded (DENSE_FOLDS: "孩子"->"儿童", "周杰仑"->"周杰伦"...),
          and every digit becomes 0 ("digit-blind"); character
          bigrams and trigrams are hashed (CRC-32) into a 1024-dimensional signed vector;
          the score is the cosine plus a fixed per-passage offset from a seeded RNG (a
          crude imitation of "hub" passages) and a small per-pair jitter.
  rerank  bm25's top 50 re-scored by query-term coverage (idf-weighted share of the
          query's bigrams and tokens present), phrase proximity (longest common
          substring with the query), a keyword-stuffing penalty and a little bm25;
          rounded to 4 decimals, so it has ties.

It then prints MRR@10 / Recall@1 / Recall@50 (DuReader's names; = RR@10, Success@1,
Success@50 over the queries of the qrels) per run, the rank of the first relevant
passage per query, and, per error category, the cases where a run puts a labelled
hard negative (or an unjudged false negative) in its top 5 above the first relevant
passage. It exits with status 1 if some category has no such case.
"""
import math
import os
import random
import sys
import unicodedata
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
DEPTH = 50
BM25_K1, BM25_B = 0.9, 0.4
DENSE_DIM = 1024
DENSE_HUB_WEIGHT = 0.04
DENSE_JITTER_WEIGHT = 0.02
# What a dual encoder gets for free and n-grams do not: a few paraphrases and the two
# typos of the demo queries folded to one form (applied to queries and passages alike).
DENSE_FOLDS = [
    ("孩子", "儿童"), ("宝宝", "儿童"), ("小儿", "儿童"),
    ("怀孕", "孕妇"), ("准妈妈", "孕妇"), ("孕期", "孕妇"),
    ("周杰仑", "周杰伦"), ("高血鸭", "高血压"), ("血压高", "高血压"),
    ("一战", "第一次世界大战"), ("本名", "原名"), ("月亮", "月球"),
    ("发源于", "发源地在"), ("闪电接口", "lightning"), ("type-c", "usb-c"),
    ("煮饭", "煮米饭"), ("粘底", "粘锅"), ("睡得好", "睡眠质量"),
]

# Error categories of DESIGN.md section 7 (DuReader-retrieval Table 10), key -> name.
CATEGORIES = [
    ("entity", 1, "entity mismatch"),
    ("numeral", 2, "numeral mismatch"),
    ("modifier", 3, "modifier mismatch"),
    ("syntactic", 4, "syntactic mismatch"),
    ("typo", 5, "robustness on typos"),
    ("overlap", 6, "over-sensitivity on term overlap"),
    ("false negative", 7, "false negative"),
    ("other", 8, "other"),
]

# The hard negatives written for each query, with the category each was written to
# show (judged 0 in qrels.trec or left unjudged), and the passages that answer the
# query but are deliberately absent from qrels.trec (false negatives).
HARD_NEGATIVES = {
    'q01': [('p0013', 'modifier'), ('p0023', 'numeral'), ('p0028', 'overlap'), ('p0155', 'numeral'), ('p0178', 'entity')],
    'q02': [('p0004', 'entity'), ('p0022', 'numeral'), ('p0123', 'modifier'), ('p0173', 'numeral'), ('p0187', 'overlap')],
    'q03': [('p0019', 'entity'), ('p0065', 'modifier'), ('p0167', 'entity'), ('p0171', 'overlap'), ('p0192', 'numeral')],
    'q04': [('p0010', 'overlap'), ('p0179', 'entity'), ('p0267', 'modifier'), ('p0292', 'modifier')],
    'q05': [('p0020', 'modifier'), ('p0070', 'overlap'), ('p0174', 'entity'), ('p0257', 'modifier')],
    'q06': [('p0058', 'entity'), ('p0068', 'entity'), ('p0101', 'overlap'), ('p0285', 'syntactic'), ('p0299', 'syntactic')],
    'q07': [('p0030', 'numeral'), ('p0141', 'modifier'), ('p0204', 'entity'), ('p0208', 'overlap'), ('p0222', 'syntactic')],
    'q08': [('p0048', 'overlap'), ('p0149', 'syntactic'), ('p0166', 'syntactic'), ('p0262', 'entity')],
    'q09': [('p0014', 'modifier'), ('p0036', 'entity'), ('p0255', 'typo'), ('p0312', 'typo')],
    'q10': [('p0052', 'modifier'), ('p0063', 'entity'), ('p0107', 'overlap'), ('p0291', 'typo')],
    'q11': [('p0074', 'modifier'), ('p0096', 'entity'), ('p0176', 'overlap')],
    'q12': [('p0088', 'entity'), ('p0095', 'syntactic'), ('p0145', 'entity'), ('p0182', 'overlap')],
    'q13': [('p0047', 'numeral'), ('p0087', 'modifier'), ('p0184', 'overlap'), ('p0219', 'entity')],
    'q14': [('p0025', 'entity'), ('p0121', 'numeral'), ('p0148', 'numeral'), ('p0163', 'entity'), ('p0191', 'overlap')],
    'q15': [('p0215', 'entity'), ('p0230', 'overlap'), ('p0254', 'modifier')],
    'q16': [('p0124', 'modifier'), ('p0214', 'overlap'), ('p0274', 'modifier'), ('p0303', 'entity')],
    'q17': [('p0064', 'numeral'), ('p0094', 'modifier'), ('p0116', 'overlap'), ('p0243', 'numeral')],
    'q18': [('p0075', 'entity'), ('p0169', 'overlap'), ('p0196', 'modifier'), ('p0270', 'entity')],
    'q19': [('p0078', 'overlap'), ('p0118', 'entity'), ('p0306', 'entity')],
    'q20': [('p0049', 'modifier'), ('p0057', 'entity'), ('p0170', 'overlap'), ('p0290', 'entity')],
    'q21': [('p0162', 'overlap'), ('p0272', 'syntactic'), ('p0276', 'overlap'), ('p0283', 'entity')],
    'q22': [('p0018', 'overlap'), ('p0147', 'numeral'), ('p0189', 'modifier'), ('p0217', 'entity')],
    'q23': [('p0073', 'entity'), ('p0100', 'entity'), ('p0154', 'other')],
    'q24': [('p0079', 'numeral'), ('p0085', 'numeral'), ('p0122', 'overlap'), ('p0200', 'numeral')],
    'q25': [('p0055', 'entity'), ('p0195', 'modifier'), ('p0260', 'overlap'), ('p0287', 'entity')],
    'q26': [('p0076', 'modifier'), ('p0105', 'modifier'), ('p0106', 'entity')],
    'q27': [('p0108', 'entity'), ('p0139', 'syntactic'), ('p0238', 'overlap')],
    'q28': [('p0011', 'overlap'), ('p0092', 'syntactic'), ('p0269', 'entity')],
    'q29': [('p0060', 'other'), ('p0111', 'modifier'), ('p0218', 'modifier'), ('p0298', 'entity')],
    'q30': [('p0129', 'entity'), ('p0135', 'entity'), ('p0168', 'overlap'), ('p0212', 'other')],
    'q31': [('p0126', 'overlap'), ('p0175', 'modifier'), ('p0300', 'other')],
    'q32': [('p0006', 'overlap'), ('p0151', 'numeral'), ('p0157', 'entity')],
    'q33': [('p0077', 'modifier'), ('p0080', 'modifier'), ('p0156', 'numeral')],
    'q34': [('p0082', 'numeral'), ('p0224', 'overlap'), ('p0226', 'numeral'), ('p0281', 'modifier'), ('p0297', 'numeral')],
}
FALSE_NEGATIVES = {
    'q01': ['p0054'],
    'q04': ['p0152'],
    'q09': ['p0051'],
    'q11': ['p0264'],
    'q15': ['p0207'],
    'q18': ['p0062'],
    'q19': ['p0069'],
    'q23': ['p0265'],
    'q26': ['p0117'],
    'q31': ['p0210'],
    'q32': ['p0232'],
    'q33': ['p0142'],
}


# ---------------------------------------------------------------- reading

def read_tsv(path):
    """id<TAB>text lines; only the first TAB separates (passage text may hold a TAB)."""
    rows = []
    with open(path, "r", encoding="utf-8", newline="") as f:
        for line in f:
            if line.endswith("\n"):
                line = line[:-1]
            ident, text = line.split("\t", 1)
            rows.append((ident, text))
    return rows


def read_qrels(path):
    qrels = {}
    with open(path, "r", encoding="utf-8") as f:
        for line in f:
            qid, _, pid, grade = line.split()
            qrels.setdefault(qid, {})[pid] = int(grade)
    return qrels


# ---------------------------------------------------------------- tokens

def is_cjk(c):
    o = ord(c)
    return (0x4E00 <= o <= 0x9FFF or 0x3400 <= o <= 0x4DBF or 0xF900 <= o <= 0xFAFF
            or 0x20000 <= o <= 0x2FFFF)


def is_ascii_alnum(c):
    return ("a" <= c <= "z") or ("A" <= c <= "Z") or ("0" <= c <= "9")


def runs_of(text):
    """Maximal runs of CJK characters ('c') and of ASCII letters/digits ('a')."""
    out, cur, kind = [], [], None
    for c in text:
        k = "c" if is_cjk(c) else ("a" if is_ascii_alnum(c) else None)
        if k != kind and cur:
            out.append((kind, "".join(cur)))
            cur = []
        kind = k
        if k is not None:
            cur.append(c)
    if cur:
        out.append((kind, "".join(cur)))
    return out


def bm25_tokens(text):
    """Character unigrams and bigrams of CJK runs; ASCII alnum runs as lower-cased tokens."""
    toks = []
    for kind, s in runs_of(text):
        if kind == "a":
            toks.append(s.lower())
        else:
            toks.extend(s)
            toks.extend(s[i:i + 2] for i in range(len(s) - 1))
    return toks


def counts(tokens):
    c = {}
    for t in tokens:
        c[t] = c.get(t, 0) + 1
    return c


def ranked(scores, depth):
    """[(pid, score)] sorted by score descending, ties by pid descending (trec_eval)."""
    return sorted(scores, key=lambda x: (x[1], x[0]), reverse=True)[:depth]


# ---------------------------------------------------------------- bm25

class BM25:
    def __init__(self, collection):
        self.tf = {}
        self.dl = {}
        df = {}
        for pid, text in collection:
            c = counts(bm25_tokens(text))
            self.tf[pid] = c
            self.dl[pid] = sum(c.values())
            for t in c:
                df[t] = df.get(t, 0) + 1
        self.n = len(collection)
        self.avgdl = math.fsum(self.dl[p] for p, _ in collection) / self.n
        self.df = df
        self.pids = [p for p, _ in collection]

    def idf(self, t):
        df = self.df.get(t, 0)
        return math.log(1.0 + (self.n - df + 0.5) / (df + 0.5))

    def score(self, qtoks, pid):
        tf, dl, s = self.tf[pid], self.dl[pid], 0.0
        norm = BM25_K1 * (1.0 - BM25_B + BM25_B * dl / self.avgdl)
        for t in qtoks:
            f = tf.get(t, 0)
            if f:
                s += self.idf(t) * f * (BM25_K1 + 1.0) / (f + norm)
        return s

    def search(self, query, depth):
        qtoks = bm25_tokens(query)
        scores = [(pid, self.score(qtoks, pid)) for pid in self.pids]
        return ranked([x for x in scores if x[1] > 0.0], depth)


# ---------------------------------------------------------------- dense stand-in

def dense_normalise(text):
    text = unicodedata.normalize("NFKC", text).lower()
    for variant, canonical in DENSE_FOLDS:
        text = text.replace(variant, canonical)
    out = []
    for c in text:
        if "0" <= c <= "9":
            out.append("0")
        elif is_cjk(c) or is_ascii_alnum(c):
            out.append(c)
    return "".join(out)


def dense_vector(text):
    s = dense_normalise(text)
    feats = {}
    for n, w in ((2, 0.5), (3, 1.0)):
        for i in range(len(s) - n + 1):
            g = "%d:%s" % (n, s[i:i + n])
            feats[g] = feats.get(g, 0.0) + w
    vec = {}
    for g in sorted(feats):
        h = zlib.crc32(g.encode("utf-8"))
        idx = h % DENSE_DIM
        sign = 1.0 if (h >> 20) & 1 else -1.0
        vec[idx] = vec.get(idx, 0.0) + sign * (1.0 + math.log(feats[g]))
    norm = math.sqrt(math.fsum(v * v for v in vec.values()))
    return {k: v / norm for k, v in sorted(vec.items())} if norm else {}


def dense_search(query, qid, pvecs, depth):
    q = dense_vector(query)
    scores = []
    for pid, pv in pvecs:
        cos = math.fsum(w * pv.get(k, 0.0) for k, w in q.items())
        hub = random.Random("retriage-demo-dense-hub:" + pid).uniform(-1.0, 1.0)
        jitter = random.Random("retriage-demo-dense:%s:%s" % (qid, pid)).uniform(-1.0, 1.0)
        scores.append((pid, cos + DENSE_HUB_WEIGHT * hub + DENSE_JITTER_WEIGHT * jitter))
    return ranked(scores, depth)


# ---------------------------------------------------------------- rerank

def query_terms(query):
    """Distinct CJK bigrams (unigram for a 1-character run) and ASCII tokens, in order."""
    terms = []
    for kind, s in runs_of(query):
        if kind == "a":
            grams = [s.lower()]
        elif len(s) == 1:
            grams = [s]
        else:
            grams = [s[i:i + 2] for i in range(len(s) - 1)]
        for g in grams:
            if g not in terms:
                terms.append(g)
    return terms


def compact(text):
    return "".join(c.lower() for c in text if is_cjk(c) or is_ascii_alnum(c))


def longest_common_substring(a, b):
    best, prev = 0, [0] * (len(b) + 1)
    for i in range(1, len(a) + 1):
        cur = [0] * (len(b) + 1)
        ai = a[i - 1]
        for j in range(1, len(b) + 1):
            if ai == b[j - 1]:
                cur[j] = prev[j - 1] + 1
                if cur[j] > best:
                    best = cur[j]
        prev = cur
    return best


def rerank(query, candidates, bm25, texts):
    terms = query_terms(query)
    weights = [bm25.idf(t) for t in terms]
    wsum = math.fsum(weights)
    cq = compact(query)
    top = candidates[0][1] if candidates else 1.0
    scores = []
    for pid, bscore in candidates:
        tf = bm25.tf[pid]
        cov = math.fsum(w for t, w in zip(terms, weights) if tf.get(t, 0)) / wsum
        prox = longest_common_substring(cq, compact(texts[pid])) / len(cq)
        # keyword stuffing: several query bigrams three times or more; question lists
        repeated = sum(1 for t in terms if len(t) > 1 and tf.get(t, 0) >= 3)
        questions = texts[pid].count("？") + texts[pid].count("?")
        penalty = (min(1.0, max(0, repeated - 1) / 3.0)
                   + min(1.0, max(0, questions - 1) / 2.0))
        s = 0.55 * cov + 0.35 * prox - 0.25 * penalty + 0.1 * (bscore / top)
        scores.append((pid, round(s, 4)))
    return ranked(scores, len(scores))


# ---------------------------------------------------------------- output, measures

def write_run(path, tag, results, qids):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for qid in qids:
            for rank, (pid, score) in enumerate(results[qid], 1):
                f.write("%s Q0 %s %d %s %s\n" % (qid, pid, rank, repr(float(score)), tag))


def first_relevant(ranking, rel):
    for rank, (pid, _) in enumerate(ranking, 1):
        if rel.get(pid, 0) >= 1:
            return rank
    return None


def measures(results, qrels):
    qids = sorted(q for q in qrels if any(g >= 1 for g in qrels[q].values()))
    rr, s1, s50 = [], [], []
    for qid in qids:
        r = first_relevant(results.get(qid, [])[:50], qrels[qid])
        rr.append(1.0 / r if r is not None and r <= 10 else 0.0)
        s1.append(1.0 if r == 1 else 0.0)
        s50.append(1.0 if r is not None and r <= 50 else 0.0)
    n = len(qids)
    return math.fsum(rr) / n, math.fsum(s1) / n, math.fsum(s50) / n


def main():
    queries = read_tsv(os.path.join(HERE, "queries.tsv"))
    collection = read_tsv(os.path.join(HERE, "collection.tsv"))
    qrels = read_qrels(os.path.join(HERE, "qrels.trec"))
    texts = dict(collection)
    qids = [q for q, _ in queries]

    bm25 = BM25(collection)
    pvecs = [(pid, dense_vector(text)) for pid, text in collection]
    runs = {"bm25": {}, "dense": {}, "rerank": {}}
    for qid, query in queries:
        runs["bm25"][qid] = bm25.search(query, DEPTH)
        runs["dense"][qid] = dense_search(query, qid, pvecs, DEPTH)
        runs["rerank"][qid] = rerank(query, runs["bm25"][qid][:50], bm25, texts)
    names = ["bm25", "dense", "rerank"]
    for name in names:
        write_run(os.path.join(HERE, "runs", name + ".trec"), name, runs[name], qids)

    print("run      MRR@10    Recall@1  Recall@50   (%d queries, depth %d)"
          % (len(qrels), DEPTH))
    for name in names:
        mrr, r1, r50 = measures(runs[name], qrels)
        print("%-8s %-9.4f %-9.4f %.4f" % (name, mrr, r1, r50))

    print("\nrank of the first relevant passage (- = none in the run)")
    print("qid  " + "".join("%-8s" % n for n in names) + "query")
    for qid, query in queries:
        cells = []
        for name in names:
            r = first_relevant(runs[name][qid], qrels.get(qid, {}))
            cells.append("%-8s" % (r if r is not None else "-"))
        print(qid + "  " + "".join(cells) + query)

    label = {}
    for qid, ents in HARD_NEGATIVES.items():
        for pid, cat in ents:
            label[(qid, pid)] = cat
    for qid, pids in FALSE_NEGATIVES.items():
        for pid in pids:
            label[(qid, pid)] = "false negative"
    hurts = {c: {} for c, _, _ in CATEGORIES}
    for qid, _ in queries:
        for name in names:
            ranking = runs[name][qid]
            r = first_relevant(ranking, qrels.get(qid, {}))
            for rank, (pid, _) in enumerate(ranking[:5], 1):
                cat = label.get((qid, pid))
                if cat and (r is None or rank < r):
                    hurts[cat].setdefault((qid, pid), []).append(
                        "%s@%d<%s" % (name, rank, r if r is not None else "-"))

    print("\nlabelled passages ranked in a top 5 above the first relevant passage")
    print("(run@rank<rank of the first relevant passage in that run)")
    missing = []
    for cat, key, title in CATEGORIES:
        cases = hurts[cat]
        print("%d %s: %d passages" % (key, title, len(cases)))
        if not cases:
            missing.append(title)
        for (qid, pid) in sorted(cases):
            print("    %s %s  %s" % (qid, pid, " ".join(cases[(qid, pid)])))
    if missing:
        print("\nno case for: " + ", ".join(missing), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
