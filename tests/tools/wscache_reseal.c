/* wscache_reseal — recomputes the header hash of a workspace cache (a COLLECTION.HASH.rtws) in
 * place, so that a test can change one header field and see the open reject that field on its
 * own, not through the hash. The layout (64-byte header, 72-byte collection record, 56-byte
 * stamps, a 24-byte entry per section: five and one per run, offset, length and checksum; the
 * header hash XXH3_64bits of all of that with its own field 0) is src/rt_wscache.c's; cache.sh
 * checks that resealing an unchanged cache leaves it in use, so a drift here fails that test.
 * Usage: wscache_reseal FILE; exit 0, or 2 with a message. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

enum { HEADER = 64, COLL = 72, STAMP = 56, SECTION = 24, FIXED_SECTIONS = 5 };
enum { AT_NINPUTS = 40, AT_NRUNS = 48, AT_HASH = 56 };

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: wscache_reseal FILE\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "r+b");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    unsigned char h[HEADER];
    uint64_t ninputs, nruns;
    if (fread(h, 1, HEADER, f) != HEADER) {
        fprintf(stderr, "%s: shorter than a cache header\n", argv[1]);
        fclose(f);
        return 2;
    }
    memcpy(&ninputs, h + AT_NINPUTS, 8);
    memcpy(&nruns, h + AT_NRUNS, 8);
    if (ninputs > 1000000 || nruns > 1000000) {
        fprintf(stderr, "%s: not a cache header\n", argv[1]);
        fclose(f);
        return 2;
    }
    size_t rest = COLL + ninputs * STAMP + (FIXED_SECTIONS + nruns) * SECTION;
    unsigned char *meta = malloc(HEADER + rest);
    if (!meta || fread(meta + HEADER, 1, rest, f) != rest) {
        fprintf(stderr, "%s: shorter than its header says\n", argv[1]);
        free(meta);
        fclose(f);
        return 2;
    }
    memset(h + AT_HASH, 0, 8);   /* the hash covers the header with this field 0 */
    memcpy(meta, h, HEADER);
    uint64_t x = XXH3_64bits(meta, HEADER + rest);
    free(meta);
    int ok = fseek(f, AT_HASH, SEEK_SET) == 0 && fwrite(&x, 8, 1, f) == 1;
    ok = fclose(f) == 0 && ok;
    if (!ok) {
        perror(argv[1]);
        return 2;
    }
    return 0;
}
