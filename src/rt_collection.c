/* rt_collection — the passage collection read through a read-only mmap, with an offset index that
 * one sequential pass builds and that later opens map after revalidating it. The index file is
 * rt_colindex.c's, the pid sort rt_pidsort.c's. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt_collection_impl.h"
#include "rt_file.h"
#include "rt_hash.h"
#include "rt_mapguard.h"
#include "rt_mem.h"
#include "rt_id.h"
#include "rt_reader.h"
#include "rt_stamp.h"

#define PROGRESS_STEP ((size_t)64 << 20)   /* bytes scanned between progress calls */
#define PHASE "collection"                  /* the phase it reports (rt_progress) */

/* ---- the building pass ------------------------------------------------------------------------
 * While scanning, each passage gets an entry and a sort record (its first 8 pid bytes as a key);
 * pid bytes beyond the 8th are copied to an arena, so that sorting never reads the mapping again
 * (on a collection larger than memory, random reads there would be disk seeks). */

static int skippable(const unsigned char *s, size_t len)
{
    size_t i = 0;
    while (i < len && (s[i] == ' ' || s[i] == '\t'))
        i++;
    return i == len || s[i] == '#';
}

/* Entry b->n (not yet counted) as the pid numbered v in the dense table: 0 when v is taken (a
 * duplicate, which the sorted layout reports) or too large for the passages so far. */
static int dense_add(builder *b, uint32_t v)
{
    if ((size_t)v >= DENSE_SLACK * (b->n + 1) + DENSE_BASE)
        return 0;
    if (v >= b->tcap) {   /* by half again, not doubled: the new part is written (zeroed) now */
        size_t cap = b->tcap + b->tcap / 2;
        if (cap < (size_t)v + 1)
            cap = (size_t)v + 1;
        if (cap < 4096)
            cap = 4096;
        b->table = rt_grow_array(b->table, b->tcap, cap, sizeof *b->table);
        memset(b->table + b->tcap, 0, (cap - b->tcap) * sizeof *b->table);
        b->tcap = cap;
    }
    if (b->table[v])
        return 0;
    b->table[v] = (uint32_t)b->n + 1;
    if (v >= b->span)
        b->span = (size_t)v + 1;
    return 1;
}

/* Leaves the dense layout: the sort records and hashes of the entries so far, whose pids are the
 * numbers in the table (so spelled again from them, not read from the file). */
static void dense_to_sorted(builder *b)
{
    size_t cap = b->cap ? b->cap : 1;
    b->rec = rt_reallocarray(NULL, cap, sizeof *b->rec);
    b->hash = rt_reallocarray(NULL, cap, sizeof *b->hash);
    for (size_t v = 0; v < b->span; v++) {
        uint32_t t = b->table[v];
        if (!t)
            continue;
        char digits[16];
        int len = snprintf(digits, sizeof digits, "%zu", v);
        b->rec[t - 1] = (sort_rec){pid_key((const unsigned char *)digits, (size_t)len), t - 1, 0};
        b->hash[t - 1] = rt_hash_bytes(digits, (size_t)len);
    }
    free(b->table);
    b->table = NULL;
    b->tcap = b->span = 0;
    b->dense = 0;
}

/* Adds the line s[0, len) found at file offset off. */
static rt_status add_line(builder *b, const unsigned char *s, size_t off, size_t len, size_t line,
                          rt_err *err)
{
    const unsigned char *tab = memchr(s, '\t', len);
    if (!tab)
        return rt_err_at(err, RT_EINPUT, b->path, line, "expected pid<TAB>text, found no tab");
    size_t plen = (size_t)(tab - s), tlen = len - plen - 1;
    const unsigned char *z = memchr(tab + 1, 0, tlen);
    if (z)
        return rt_err_at(err, RT_EINPUT, b->path, line, "a NUL byte at column %zu: not a text file",
                         (size_t)(z - s) + 1);
    const char *why = rt_id_problem((const char *)s, plen);
    if (why) {
        char shown[128];
        return rt_err_at(err, RT_EINPUT, b->path, line, "bad pid \"%s\": %s",
                         rt_id_show((const char *)s, plen, shown, sizeof shown), why);
    }
    if (plen > UINT32_MAX || tlen > UINT32_MAX)
        return rt_err_at(err, RT_EINPUT, b->path, line, "passage longer than 4 GiB");
    if (b->n >= UINT32_MAX)
        return rt_err_at(err, RT_EINPUT, b->path, line, "more than %u passages", UINT32_MAX - 1);
    if (b->n % CHK_EVERY == 0) {
        RT_GROW(b->chk, b->chkcap, b->nchk + 1);
        b->chk[b->nchk++] = (checkpoint){b->alen, line};
    }
    if (b->n == b->cap) {
        size_t cap = b->cap, hcap = b->cap;
        RT_GROW(b->ent, b->cap, b->n + 1);
        if (!b->dense) {
            RT_GROW(b->rec, cap, b->n + 1);
            RT_GROW(b->hash, hcap, b->n + 1);
        }
    }
    uint32_t v;
    if (b->dense && !(dense_number(s, plen, &v) && dense_add(b, v)))
        dense_to_sorted(b);
    if (!b->dense) {
        b->hash[b->n] = rt_hash_bytes(s, plen);
        b->rec[b->n] = (sort_rec){pid_key(s, plen), (uint32_t)b->n, 0};
    }
    b->ent[b->n] = (coll_entry){off, (uint32_t)plen, (uint32_t)tlen};
    b->n++;
    if (plen > 8) {
        RT_GROW(b->arena, b->acap, b->alen + plen - 8);
        memcpy(b->arena + b->alen, s + 8, plen - 8);
        b->alen += plen - 8;
    }
    return RT_OK;
}

/* The file is read, not scanned through its mapping: on a VM a page first touched through a
 * mapping costs a fault (tests/bench/PERF.md), while read() copies through the kernel's own
 * mapping. Lines are cut from a buffer of SCAN_BYTES, grown for a longer line. */
#define SCAN_BYTES ((size_t)256 << 10)

static rt_status scan(builder *b, int fd, const rt_progress *progress, rt_err *err)
{
    size_t size = b->size, mark = PROGRESS_STEP;
    size_t cap = SCAN_BYTES, have = 0;   /* buf[0, have): bytes from file offset at */
    uint64_t at = 0, read_to = 0;
    unsigned char *buf = rt_malloc(cap);
    posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    rt_status st = RT_OK;
    int bom_checked = 0;
    while (st == RT_OK) {
        if (have == cap) {   /* one line fills the buffer: a larger one */
            cap *= 2;
            buf = rt_realloc(buf, cap);
        }
        size_t want = cap - have;
        if (want > size - read_to)   /* never past the size the mapping and stamp have */
            want = (size_t)(size - read_to);
        ssize_t got = want ? pread(fd, buf + have, want, (off_t)read_to) : 0;
        if (got < 0) {
            if (errno == EINTR)
                continue;
            st = rt_err_set(err, RT_EINPUT, "%s: cannot read: %s", b->path, strerror(errno));
            break;
        }
        if (got == 0 && read_to < size) {
            st = rt_err_set(err, RT_EINPUT, "%s: the file changed while it was being read", b->path);
            break;
        }
        read_to += (uint64_t)got;
        have += (size_t)got;
        int last = read_to >= size;
        size_t pos = 0;
        if (!bom_checked && (have >= 3 || last)) {
            bom_checked = 1;
            if (have >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0)
                pos = 3;
        } else if (!bom_checked) {
            continue;
        }
        while (pos < have) {
            const unsigned char *nl = memchr(buf + pos, '\n', have - pos);
            if (!nl && !last)
                break;
            size_t len = nl ? (size_t)(nl - buf) - pos : have - pos;
            size_t next = nl ? pos + len + 1 : have;
            b->lines++;
            if (len && buf[pos + len - 1] == '\r')
                len--;
            if (!skippable(buf + pos, len) &&
                (st = add_line(b, buf + pos, (size_t)at + pos, len, b->lines, err)) != RT_OK)
                break;
            pos = next;
        }
        if (st != RT_OK || last)
            break;
        memmove(buf, buf + pos, have - pos);   /* the partial last line to the front */
        have -= pos;
        at += pos;
        if (read_to >= mark) {
            rt_progress_report(progress, PHASE, read_to, size);
            mark = read_to + PROGRESS_STEP;
        }
    }
    free(buf);
    posix_fadvise(fd, 0, 0, POSIX_FADV_NORMAL);
    if (st != RT_OK)
        return st;
    rt_progress_report(progress, PHASE, size, size);
    if (b->n == 0)
        return rt_err_set(err, RT_EINPUT, "%s: no passages (expected lines of pid<TAB>text)", b->path);
    return RT_OK;
}

/* ---- from sorted records to the index -------------------------------------------------------- */

/* Line number of entry i, counted from the nearest checkpoint. */
static size_t line_of(const builder *b, uint32_t i)
{
    const checkpoint *k = &b->chk[i / CHK_EVERY];
    const unsigned char *p = b->base + b->ent[i / CHK_EVERY * CHK_EVERY].off;
    const unsigned char *end = b->base + b->ent[i].off;
    size_t line = (size_t)k->line;
    while ((p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
        line++;
        p++;
    }
    return line;
}

/* Drops the duplicates from the entries and fills the sorted keys and perm of c. */
static void finish_index(builder *b, rt_collection *c)
{
    size_t dups = 0;
    uint32_t first_dup = UINT32_MAX;
    for (size_t i = 0; i < b->n; i++)
        if (b->rec[i].dup) {
            dups++;
            if (b->rec[i].idx < first_dup)
                first_dup = b->rec[i].idx;
        }
    uint32_t *newidx = NULL;
    if (dups) {
        c->first_dup_line = line_of(b, first_dup);
        uint8_t *drop = rt_calloc(b->n, 1);
        for (size_t i = 0; i < b->n; i++)
            drop[b->rec[i].idx] = (uint8_t)b->rec[i].dup;
        newidx = rt_malloc(b->n * sizeof *newidx);
        size_t k = 0;
        for (size_t i = 0; i < b->n; i++) {
            newidx[i] = (uint32_t)k;
            if (!drop[i]) {
                b->hash[k] = b->hash[i];
                b->ent[k++] = b->ent[i];
            }
        }
        free(drop);
    }
    /* The sorted keys are written over the records as they are read (key k lands at or before
     * record k), so that the index never needs records, keys and perm at once. */
    size_t n = b->n - dups, k = 0;
    c->heap_perm = rt_malloc(n * sizeof *c->heap_perm);
    for (size_t i = 0; i < b->n; i++) {
        sort_rec r = b->rec[i];
        if (r.dup)
            continue;
        memcpy((char *)b->rec + k * sizeof r.key, &r.key, sizeof r.key);
        c->heap_perm[k++] = newidx ? newidx[r.idx] : r.idx;
    }
    c->heap_keys = rt_reallocarray(b->rec, n, sizeof *c->heap_keys);
    b->rec = NULL;
    free(newidx);
    c->heap_hashes = rt_malloc((n + 1) * sizeof *c->heap_hashes);   /* into pid order */
    for (size_t i = 0; i < n; i++)
        c->heap_hashes[i] = b->hash[c->heap_perm[i]];
    free(b->hash);
    b->hash = NULL;
    c->heap_ent = rt_reallocarray(b->ent, n, sizeof *b->ent);
    b->ent = NULL;
    c->ent = c->heap_ent;
    c->keys = c->heap_keys;
    c->perm = c->heap_perm;
    c->hashes = c->heap_hashes;
    c->n = n;
    c->duplicates = dups;
    c->lines = b->lines;
}

/* The dense layout needs no sort and no duplicate pass: the entries and the table as they are. */
static void finish_dense(builder *b, rt_collection *c)
{
    c->heap_ent = rt_reallocarray(b->ent, b->n, sizeof *b->ent);
    c->heap_table = rt_reallocarray(b->table, b->span, sizeof *b->table);
    b->ent = NULL;
    b->table = NULL;
    c->ent = c->heap_ent;
    c->table = c->heap_table;
    c->span = b->span;
    c->n = b->n;
    c->duplicates = 0;
    c->lines = b->lines;
}

static void builder_free(builder *b)
{
    free(b->table);
    free(b->ent);
    free(b->rec);
    free(b->hash);
    free(b->arena);
    free(b->chk);
}

static rt_status index_build(rt_collection *c, int fd, const rt_progress *progress, rt_err *err)
{
    builder b = {.path = c->path, .base = c->base, .size = c->size, .dense = 1};
    rt_status st = scan(&b, fd, progress, err);
    if (st == RT_OK && b.dense) {
        finish_dense(&b, c);
    } else if (st == RT_OK) {
        pidsort(&b, b.rec, b.n);
        free(b.arena);   /* the sort was its only reader */
        b.arena = NULL;
        finish_index(&b, c);
    }
    builder_free(&b);
    return st;
}

/* ---- opening --------------------------------------------------------------------------------- */

/* Maps the collection; *fdp receives its descriptor, open for the building pass (the caller closes
 * it), or -1 on failure. */
static rt_status map_collection(rt_collection *c, coll_stamp *stamp, int *fdp, rt_err *err)
{
    *fdp = -1;
    /* O_NONBLOCK: a FIFO in the collection's place is refused below, not waited on */
    int fd = open(c->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return rt_err_set(err, RT_EINPUT, "%s: cannot open: %s", c->path, strerror(errno));
    struct stat st;
    rt_status rs = RT_OK;
    if (fstat(fd, &st) != 0)
        rs = rt_err_set(err, RT_EINPUT, "%s: %s", c->path, strerror(errno));
    else if (S_ISDIR(st.st_mode))
        rs = rt_err_set(err, RT_EINPUT, "%s: is a directory, expected a collection file", c->path);
    else if (!S_ISREG(st.st_mode))
        rs = rt_err_set(err, RT_EINPUT, "%s: not a regular file (a collection must be mappable)",
                        c->path);
    else if (st.st_size == 0)
        rs = rt_err_set(err, RT_EINPUT, "%s: no passages (the file is empty)", c->path);
    else if ((uint64_t)st.st_size > SIZE_MAX)
        rs = rt_err_set(err, RT_EINPUT, "%s: too large to map", c->path);
    if (rs == RT_OK) {
        void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (m == MAP_FAILED)
            rs = rt_err_set(err, RT_EINPUT, "%s: cannot map: %s", c->path, strerror(errno));
        else {
            c->base = m;
            c->size = (size_t)st.st_size;
            rt_mapguard_add(m, c->size, c->path);   /* truncated under us: no SIGBUS death */
            /* Passages are read one at a time, in no order: without this, each lookup would
             * fault in a readahead window and an open would read most of a large file. */
            madvise(m, c->size, MADV_RANDOM);
            *stamp = (coll_stamp){(uint64_t)st.st_size, (int64_t)st.st_mtim.tv_sec,
                                  (int64_t)st.st_mtim.tv_nsec, rt_stamp_sample(m, c->size),
                                  (uint64_t)st.st_ino, (int64_t)st.st_ctim.tv_sec,
                                  (int64_t)st.st_ctim.tv_nsec, (uint64_t)st.st_dev};
        }
    }
    if (rs == RT_OK)
        *fdp = fd;
    else
        close(fd);
    return rs;
}

/* True when the file at path still looks the way stamp recorded (it was not written meanwhile). */
static int unchanged(const char *path, const coll_stamp *stamp)
{
    struct stat st;
    return stat(path, &st) == 0 && (uint64_t)st.st_size == stamp->size &&
           st.st_mtim.tv_sec == stamp->mtime_sec && st.st_mtim.tv_nsec == stamp->mtime_nsec &&
           (uint64_t)st.st_ino == stamp->ino && (uint64_t)st.st_dev == stamp->dev &&
           st.st_ctim.tv_sec == stamp->ctime_sec && st.st_ctim.tv_nsec == stamp->ctime_nsec;
}

static void report_dups(const rt_collection *c, rt_report *report)
{
    if (c->duplicates)
        rt_report_add(report, RT_REPORT_WARNING,
                      "%s:%llu: %llu duplicate pids dropped (the first passage of each kept)",
                      c->path, (unsigned long long)c->first_dup_line,
                      (unsigned long long)c->duplicates);
}

static void report_open(const rt_collection *c, const char *unsaved, rt_report *report)
{
    if (unsaved) {
        rt_report_add(report, RT_REPORT_INFO, "%s: %zu passages (index built, kept in memory)",
                      c->path, c->n);
        rt_report_add(report, RT_REPORT_WARNING,
                      "%s: offset index not saved (%s); the next open will scan the file again",
                      c->path, unsaved);
    } else {
        rt_report_add(report, RT_REPORT_INFO, "%s: %zu passages (index %s: %s)", c->path, c->n,
                      c->reused ? "reused" : "built", c->idx_path);
    }
    report_dups(c, report);
}

/* The stamp of a compressed collection and of its decompressed text, as the cache records it:
 * the source's size, times, inode and a hash of sampled content (as the index is revalidated),
 * then the text's the same way (rt_stamp: size, mtime, inode, ctime, sampled content). The copy
 * is ours, so any change to it (an edit in place with its mtime put back changes the ctime, which
 * no user can set back) means it is decompressed again. A checksum of the whole text is not
 * taken: it would read the whole copy at every open (MS MARCO: 3 GB; README, "Input formats",
 * and tests/bench/PERF.md), where the ctime already catches every write through the filesystem. */
static int source_stamp(const char *path, const char *text, char *buf, size_t n)
{
    rt_stamp st, tt;
    rt_err e;
    if (rt_stamp_file(path, &st, &e) != RT_OK || st.size == 0)
        return -1;
    int have = text && rt_stamp_file(text, &tt, &e) == RT_OK;
    if (!have)
        memset(&tt, 0, sizeof tt);
    snprintf(buf, n, "retriage-decompressed 3 %llu %lld %lld %llu %lld %lld %016llx "
             "%llu %lld %lld %llu %lld %lld %016llx\n",
             (unsigned long long)st.size, (long long)st.mtime_sec, (long long)st.mtime_nsec,
             (unsigned long long)st.ino, (long long)st.ctime_sec, (long long)st.ctime_nsec,
             (unsigned long long)st.sample, (unsigned long long)tt.size, (long long)tt.mtime_sec,
             (long long)tt.mtime_nsec, (unsigned long long)tt.ino, (long long)tt.ctime_sec,
             (long long)tt.ctime_nsec, (unsigned long long)tt.sample);
    return 0;
}

/* A gzip or zstd collection is decompressed once into the cache folder (NAME.tsv, with
 * NAME.src recording the compressed file's stamp and the text's: a change to either decompresses
 * it again) and mapped from there. *plain receives the text's path. */
static rt_status decompressed(const char *path, char **plain, const rt_progress *progress, rt_report *report,
                              rt_err *err)
{
    *plain = NULL;
    char *dir = rt_file_cache_dir("decompressed"), *abs = realpath(path, NULL), stamp[512], old[512];
    if (!dir) {
        free(abs);
        return rt_err_set(err, RT_EIO, "%s: compressed, and no cache folder to decompress it into (neither "
                          "XDG_CACHE_HOME nor HOME is an absolute path)", path);
    }
    const char *key = abs ? abs : path;
    size_t dl = strlen(dir) + 40;
    char *text = rt_malloc(dl), *src = rt_malloc(dl);
    uint64_t h = rt_hash_bytes(key, strlen(key));
    snprintf(text, dl, "%s/%016llx.tsv", dir, (unsigned long long)h);
    snprintf(src, dl, "%s/%016llx.src", dir, (unsigned long long)h);
    free(abs);
    rt_status st = source_stamp(path, text, stamp, sizeof stamp) == 0 ? RT_OK
                   : rt_err_set(err, RT_EINPUT, "%s: cannot read: %s", path, strerror(errno));
    FILE *f = st == RT_OK ? fopen(src, "re") : NULL;
    int fresh = f && fgets(old, sizeof old, f) && strcmp(old, stamp) == 0 && access(text, R_OK) == 0;
    if (f)
        fclose(f);
    if (st == RT_OK && !fresh) {
        rt_reader *r = NULL;
        rt_outfile *o = NULL;
        struct stat sb;
        uint64_t total = stat(path, &sb) == 0 ? (uint64_t)sb.st_size : 0;
        st = rt_file_mkdirs(dir, 0777, err);
        if (st == RT_OK)
            st = rt_reader_open(&r, path, err);
        if (st == RT_OK)
            st = rt_outfile_open(&o, text, err);
        char *buf = rt_malloc(1 << 20);
        uint64_t out = 0, mark = 0;
        while (st == RT_OK) {
            ssize_t n = rt_reader_read(r, buf, 1 << 20, err);
            if (n < 0)
                st = RT_EINPUT;
            if (n <= 0)
                break;
            fwrite(buf, 1, (size_t)n, rt_outfile_stream(o));
            out += (uint64_t)n;
            if (progress && rt_reader_offset(r) >= mark) {
                rt_progress_report(progress, PHASE, rt_reader_offset(r), total);
                mark = rt_reader_offset(r) + (16u << 20);
            }
        }
        free(buf);
        rt_reader_close(&r);
        if (st == RT_OK)
            st = rt_outfile_commit(&o, err);
        else
            rt_outfile_discard(&o);
        if (st == RT_OK && source_stamp(path, text, stamp, sizeof stamp) != 0)
            st = rt_err_set(err, RT_EIO, "%s: cannot read it back", text);
        if (st == RT_OK) {   /* the stamp last: a text without it is decompressed again */
            rt_outfile *so;
            if (rt_outfile_open(&so, src, err) == RT_OK) {
                fputs(stamp, rt_outfile_stream(so));
                rt_outfile_commit(&so, err);
            }
            rt_report_add(report, RT_REPORT_INFO, "%s: decompressed (%.1f MiB of text) into %s", path,
                          (double)out / (1 << 20), text);
        }
    }
    free(src);
    free(dir);
    if (st != RT_OK) {
        free(text);
        return st;
    }
    *plain = text;
    return RT_OK;
}

/* A compressed collection's progress, one bar for both of its passes: decompressing is the first
 * half (of the compressed bytes), indexing the text the second (of the text's bytes). Without a
 * decompression (done before), the index is the whole bar. */
typedef struct two_pass {
    const rt_progress *to;
    int second, first_seen;
} two_pass;

static void two_pass_progress(void *ctx, const char *phase, uint64_t done, uint64_t total)
{
    two_pass *t = ctx;
    if (t->second && !t->first_seen) {
        rt_progress_report(t->to, phase, done, total);
        return;
    }
    t->first_seen = 1;
    if (total == 0)
        total = 1;
    done = done < total ? done : total;
    rt_progress_report(t->to, phase, t->second ? total + done : done, 2 * total);
}

static rt_status open_any(rt_collection **out, const char *path, int defer, const rt_progress *progress,
                          rt_report *report, rt_err *err)
{
    *out = NULL;
    if (rt_file_codec(path) != RT_CODEC_NONE) {
        char *plain;
        two_pass tp = {progress, 0, 0};
        rt_progress both = {two_pass_progress, &tp};
        const rt_progress *p = progress ? &both : NULL;
        rt_status st = decompressed(path, &plain, p, report, err);
        tp.second = 1;
        if (st == RT_OK)
            st = open_any(out, plain, defer, p, report, err);
        size_t pl = plain ? strlen(plain) : 0;
        if (st != RT_OK && plain && strncmp(err->msg, plain, pl) == 0) {   /* name the file the user gave */
            char msg[sizeof err->msg];
            snprintf(msg, sizeof msg, "%s (decompressed)%s", path, err->msg + pl);
            snprintf(err->msg, sizeof err->msg, "%s", msg);
        }
        free(plain);
        return st;
    }
    rt_collection *c = rt_calloc(1, sizeof *c);
    c->path = rt_strdup(path);
    coll_stamp stamp;
    int fd;
    rt_status st = map_collection(c, &stamp, &fd, err);
    if (st != RT_OK) {
        rt_collection_close(&c);
        return st;
    }
    char *side = colindex_side_path(path), *cpath = colindex_cache_path(path);
    int ls = colindex_load(c, side, &stamp), lc = ls == 1 || !cpath ? 0 : colindex_load(c, cpath, &stamp);
    if (ls == 1) {
        c->idx_path = side;
        side = NULL;
    } else if (lc == 1) {
        c->idx_path = cpath;
        cpath = NULL;
    }
    if (ls < 0 || lc < 0)   /* one line, then the index is built again as if there were none */
        rt_report_add(report, RT_REPORT_WARNING, "%s: offset index damaged (its checksum does not match); "
                      "the collection is indexed again", ls < 0 ? side : cpath);
    free(side);
    c->reused = c->idx_path != NULL;
    char why[2600];   /* two rt_err messages and glue */
    const char *unsaved = NULL;
    c->stamp = stamp;
    if (!c->reused) {
        st = index_build(c, fd, progress, err);
        if (st == RT_OK && !unchanged(path, &stamp))
            st = rt_err_set(err, RT_EINPUT, "%s: the file changed while it was being read", path);
        if (st == RT_OK && defer)
            c->unsaved = 1;
        else if (st == RT_OK && colindex_save(c, &stamp, &cpath, why, sizeof why) != 0)
            unsaved = why;
    }
    free(cpath);
    close(fd);
    if (st != RT_OK) {
        rt_collection_close(&c);
        return st;
    }
    if (!c->unsaved)
        report_open(c, unsaved, report);
    *out = c;
    return RT_OK;
}

rt_status rt_collection_open(rt_collection **out, const char *path, const rt_progress *progress,
                             rt_report *report, rt_err *err)
{
    return open_any(out, path, 0, progress, report, err);
}

rt_status rt_collection_open_unsaved(rt_collection **out, const char *path, const rt_progress *progress,
                                     rt_report *report, rt_err *err)
{
    return open_any(out, path, 1, progress, report, err);
}

int rt_collection_unsaved(const rt_collection *c) { return c && c->unsaved; }

void rt_collection_save(rt_collection *c, rt_report *report)
{
    if (!c || !c->unsaved)
        return;
    char why[2600], *cpath = colindex_cache_path(c->path);
    c->unsaved = 0;
    coll_stamp stamp = c->stamp;
    int failed = colindex_save(c, &stamp, &cpath, why, sizeof why) != 0;
    free(cpath);
    report_open(c, failed ? why : NULL, report);
}

void rt_collection_saved_by(rt_collection *c, long pid, rt_report *report)
{
    if (!c || !c->unsaved)
        return;
    c->unsaved = 0;
    rt_report_add(report, RT_REPORT_INFO, "%s: %zu passages (index built; being written by process %ld "
                  "beside the file, or in the cache folder when that cannot be written)", c->path, c->n, pid);
    report_dups(c, report);
}

void rt_collection_close(rt_collection **cp)
{
    if (!cp || !*cp)
        return;
    rt_collection *c = *cp;
    if (c->base) {
        rt_mapguard_remove(c->base);
        munmap((void *)c->base, c->size);
    }
    if (c->idx_map) {
        rt_mapguard_remove(c->idx_map);
        munmap(c->idx_map, c->idx_len);
    }
    free(c->heap_ent);
    free(c->heap_keys);
    free(c->heap_perm);
    free(c->heap_hashes);
    free(c->heap_table);
    free(c->idx_path);
    free(c->path);
    free(c);
    *cp = NULL;
}

/* ---- lookups --------------------------------------------------------------------------------- */

size_t rt_collection_count(const rt_collection *c) { return c->n; }

/* Entry i when it and its passage lie inside the collection, else NULL: a mapped index is not
 * read whole at an open, so each access checks what it uses (a damaged index then hides a
 * passage, never reads outside the mapping). */
static const coll_entry *entry(const rt_collection *c, size_t i)
{
    if (i >= c->n)
        return NULL;
    const coll_entry *e = &c->ent[i];
    return e->plen && e->off <= c->size && (uint64_t)e->plen + 1 + e->tlen <= c->size - e->off ? e : NULL;
}

/* The dense layout: the entry the table gives the pid, or SIZE_MAX when it gives none. A pid
 * that is no plain decimal number is in no dense collection. */
static size_t dense_entry(const rt_collection *c, const char *pid, size_t len)
{
    uint32_t v;
    if (!dense_number((const unsigned char *)pid, len, &v) || v >= c->span)
        return SIZE_MAX;
    uint32_t t = c->table[v];
    return t && t <= c->n ? (size_t)t - 1 : SIZE_MAX;
}

/* Compares the len bytes at pid with the pid of entry i (an entry out of bounds sorts last). */
static int pid_cmp(const rt_collection *c, const char *pid, size_t len, uint32_t i)
{
    const coll_entry *e = entry(c, i);
    if (!e)
        return -1;
    int r = memcmp(pid, c->base + e->off, len < e->plen ? len : e->plen);
    return r ? r : (len > e->plen) - (len < e->plen);
}

/* Whether pid (of key and, beyond 8 bytes, hash h) is among the pids from keys[lo] on, where lo
 * is the first key not below key. */
static int has_at(const rt_collection *c, size_t lo, const char *pid, size_t len, uint64_t key, uint64_t h)
{
    /* A pid shorter than 8 bytes is its key: another pid with the same key would hold a NUL byte
     * (the zero padding), which no pid does. So the entries (the largest part of the index, read
     * at random) are not touched by the lookup: MS MARCO's 7-digit pids read keys only (the
     * open has read the whole index once, for its checksum). */
    if (len < 8)
        return lo < c->n && c->keys[lo] == key;
    /* the pids sharing the first 8 bytes: the same length and, beyond 8 bytes, the same hash */
    for (size_t i = lo; i < c->n && c->keys[i] == key; i++) {
        if (i - lo == 64) {   /* a long run of one prefix: ask the collection */
            const char *t;
            size_t tl;
            return rt_collection_find(c, pid, len, &t, &tl);
        }
        const coll_entry *e = entry(c, c->perm[i]);
        if (e && e->plen == len && (len <= 8 || c->hashes[i] == h))
            return 1;
    }
    return 0;
}

/* The first index in [lo, hi) whose key is not below key (hi when none). */
static size_t lower_bound(const rt_collection *c, size_t lo, size_t hi, uint64_t key)
{
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c->keys[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int rt_collection_has(const rt_collection *c, const char *pid, size_t len)
{
    if (rt_mapguard_tripped())
        return 0;
    if (c->table)   /* the table alone, as the keys alone below: neither the entries nor the file */
        return dense_entry(c, pid, len) != SIZE_MAX;
    uint64_t key = pid_key((const unsigned char *)pid, len), h = len > 8 ? rt_hash_bytes(pid, len) : 0;
    return has_at(c, lower_bound(c, 0, c->n, key), pid, len, key, h);
}

typedef struct probe {
    uint64_t key;
    size_t i;
} probe;

static int probe_cmp(const void *a, const void *b)
{
    const probe *x = a, *y = b;
    return x->key < y->key ? -1 : x->key > y->key;
}

size_t rt_collection_count_missing(const rt_collection *c, const char *const *pids, const size_t *lens,
                                   size_t n)
{
    if (rt_mapguard_tripped())
        return n;
    if (c->table) {
        size_t missing = 0;
        for (size_t k = 0; k < n; k++)
            missing += dense_entry(c, pids[k], lens[k]) == SIZE_MAX;
        return missing;
    }
    probe *p = rt_reallocarray(NULL, n ? n : 1, sizeof *p);
    for (size_t k = 0; k < n; k++)
        p[k] = (probe){pid_key((const unsigned char *)pids[k], lens[k]), k};
    qsort(p, n, sizeof *p, probe_cmp);
    /* in key order, each search gallops from where the last one ended: nearby pages, not a
     * binary search over the whole index per pid */
    size_t at = 0, missing = 0;
    for (size_t k = 0; k < n; k++) {
        uint64_t key = p[k].key;
        size_t step = 1, hi = at;
        while (hi < c->n && c->keys[hi] < key) {
            at = hi + 1;
            hi += step;
            step *= 2;
        }
        at = lower_bound(c, at, hi < c->n ? hi : c->n, key);
        const char *pid = pids[p[k].i];
        size_t len = lens[p[k].i];
        missing += !has_at(c, at, pid, len, key, len > 8 ? rt_hash_bytes(pid, len) : 0);
    }
    free(p);
    return missing;
}

int rt_collection_find(const rt_collection *c, const char *pid, size_t len, const char **text,
                       size_t *tlen)
{
    if (rt_mapguard_tripped())
        return 0;   /* a mapping shrank under us: what it holds now is not the collection */
    if (c->table) {
        size_t i = dense_entry(c, pid, len);
        if (i == SIZE_MAX || pid_cmp(c, pid, len, (uint32_t)i) != 0)
            return 0;
        const coll_entry *e = entry(c, i);   /* checked by pid_cmp */
        *text = (const char *)c->base + e->off + e->plen + 1;
        *tlen = e->tlen;
        return 1;
    }
    /* The keys narrow the search to the pids sharing the first 8 bytes, usually one, so that a
     * lookup touches one page of the collection instead of log2(count). */
    uint64_t key = pid_key((const unsigned char *)pid, len);
    size_t lo = lower_bound(c, 0, c->n, key), hi = lo;
    while (hi < c->n && c->keys[hi] == key && hi - lo < 8)
        hi++;
    if (hi - lo == 8) {   /* many pids share these 8 bytes: find the end of the run */
        size_t l = hi, h = c->n;
        while (l < h) {
            size_t mid = l + (h - l) / 2;
            if (c->keys[mid] <= key)
                l = mid + 1;
            else
                h = mid;
        }
        hi = l;
    }
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int r = pid_cmp(c, pid, len, c->perm[mid]);
        if (r == 0) {
            const coll_entry *e = entry(c, c->perm[mid]);   /* checked by pid_cmp */
            *text = (const char *)c->base + e->off + e->plen + 1;
            *tlen = e->tlen;
            return 1;
        }
        if (r < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return 0;
}

void rt_collection_prefetch(const rt_collection *c, const char *const *pids, const size_t *lens,
                            size_t n, size_t bytes)
{
    if (!c || rt_mapguard_tripped())
        return;
    for (size_t k = 0; k < n; k++) {
        /* the entry told from the index alone, as has_at does: the passage itself is not touched
         * (a lookup would read its pid), only asked for; a wrong guess costs a wasted read */
        size_t len = lens[k];
        const coll_entry *e = NULL;
        if (c->table) {
            size_t i = dense_entry(c, pids[k], len);
            e = i == SIZE_MAX ? NULL : entry(c, i);
        } else {
            uint64_t key = pid_key((const unsigned char *)pids[k], len), h = len > 8 ? rt_hash_bytes(pids[k], len) : 0;
            for (size_t i = lower_bound(c, 0, c->n, key); i < c->n && c->keys[i] == key && !e; i++) {
                e = entry(c, c->perm[i]);
                if (e && (e->plen != len || (len > 8 && c->hashes[i] != h)))
                    e = NULL;
            }
        }
        if (!e || e->plen != len)
            continue;
        size_t want = e->plen + 1 + (e->tlen < bytes ? e->tlen : bytes);
        uintptr_t a = (uintptr_t)(c->base + e->off) & ~(uintptr_t)4095;
        uintptr_t b = ((uintptr_t)(c->base + e->off) + want + 4095) & ~(uintptr_t)4095;
        (void)madvise((void *)a, b - a, MADV_WILLNEED);   /* read in the background */
    }
}

size_t rt_collection_warm(const rt_collection *c, const atomic_int *stop)
{
    enum { WARM_CHUNK = 4 << 20 };
    long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
    if (!c || !c->base || pages <= 0 || psize <= 0 || (uint64_t)c->size > (uint64_t)pages * (uint64_t)psize / 4)
        return 0;
    /* the file again, read but never mapped: the same one (device, inode and size as opened), and
     * a FIFO put in its place cannot block the open */
    int fd = open(c->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    struct stat st;
    if (fd < 0)
        return 0;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_ino != c->stamp.ino ||
        (uint64_t)st.st_dev != c->stamp.dev || (uint64_t)st.st_size != c->size) {
        close(fd);
        return 0;
    }
    size_t page = (size_t)psize, asked = 0;
    unsigned char vec[WARM_CHUNK / 4096 + 1];
    uintptr_t base = (uintptr_t)c->base;   /* page-aligned: the mapping's start */
    for (size_t off = 0; off < c->size && !atomic_load(stop); off += WARM_CHUNK) {
        size_t len = c->size - off < WARM_CHUNK ? c->size - off : WARM_CHUNK;
        size_t np = (len + page - 1) / page;
        int cached = np <= sizeof vec && mincore((void *)(base + off), np * page, vec) == 0;
        for (size_t i = 0; cached && i < np; i++)   /* (mincore maps nothing in) */
            cached = vec[i] & 1;
        if (cached)
            continue;
        (void)posix_fadvise(fd, (off_t)off, (off_t)len, POSIX_FADV_WILLNEED);   /* read ahead */
        asked += len;
        /* then waits for the chunk's last byte: paced by the disk, so that a key's own read never
         * queues behind the whole file */
        char last;
        if (pread(fd, &last, 1, (off_t)(off + len - 1)) != 1)
            break;   /* cut short meanwhile: the map guard's business when it is read */
    }
    close(fd);
    return asked;
}

void rt_collection_at(const rt_collection *c, size_t i, const char **pid, size_t *pid_len,
                      const char **text, size_t *tlen)
{
    static const coll_entry none = {0, 0, 0};
    const coll_entry *e = entry(c, i);
    if (!e)
        e = &none;   /* a damaged index: an empty passage rather than a fault */
    *pid = e == &none ? "" : (const char *)c->base + e->off;
    *pid_len = e->plen;
    *text = e == &none ? "" : *pid + e->plen + 1;
    *tlen = e->tlen;
}

int rt_collection_index_reused(const rt_collection *c) { return c->reused; }

int rt_collection_changed(const rt_collection *c) { return c && !unchanged(c->path, &c->stamp); }

const char *rt_collection_path(const rt_collection *c) { return c->path; }

const void *rt_collection_index_map(const rt_collection *c, size_t *len)
{
    *len = c->idx_map ? c->idx_len : 0;
    return c->idx_map;
}
const char *rt_collection_index_path(const rt_collection *c) { return c->idx_path; }
