/* Writes a base/new pair of method-beat builds for tracetool diff tests (tracetool-diff(1)):
 *   gen_diffpair [--noise | --same] DIR
 * DIR/base.bin, DIR/base-map.txt, DIR/new.bin, DIR/new-map.txt. Every method has another
 * Matrix id in the new mapping, so only name matching pairs them (storage.md 8).
 * Default: com.example.Util.parse(java.lang.String) three times slower (100 -> 300 ms per
 * call, 3 calls) and a new 750 ms dispatch in com.example.Feed.load() (an evil method).
 * --noise: parse 5% slower (100 -> 105 ms), no new dispatch. --same: identical timings. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../libtrace/tt.h"

enum { ON_CREATE, PARSE, BIND, LOAD, NMETHODS };
static const char *const methods[NMETHODS] = {
    "com.example.Main onCreate (Landroid.os.Bundle;)V",
    "com.example.Util parse (Ljava.lang.String;)I",
    "com.example.Feed bind (I)V",
    "com.example.Feed load ()V",
};
static const unsigned base_ids[NMETHODS] = {1, 2, 3, 4};
static const unsigned new_ids[NMETHODS] = {13, 12, 11, 10};

static FILE *open_out(const char *dir, const char *name, const char *mode)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, mode);
    if (!f) {
        perror(path);
        exit(2);
    }
    return f;
}

static void word(FILE *f, int entry, unsigned id, int64_t t)
{
    uint64_t w = tt_beat_encode(entry, id, t);
    unsigned char b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(w >> (8 * i));
    fwrite(b, 1, 8, f);
}

static void write_map(const char *dir, const char *name, const unsigned *ids)
{
    FILE *f = open_out(dir, name, "w");
    for (int i = 0; i < NMETHODS; i++)
        fprintf(f, "%u,1,%s\n", ids[i], methods[i]);
    fprintf(f, "%u,1,android.os.Handler dispatchMessage (Landroid.os.Message;)V\n",
            TT_BEAT_DISPATCH);
    fclose(f);
}

/* Three dispatches: onCreate { parse parse_ms; bind 50 }; optionally a long load dispatch. */
static void write_buffer(const char *dir, const char *name, const unsigned *ids, int parse_ms,
                         int evil)
{
    FILE *f = open_out(dir, name, "wb");
    int64_t t = 1000;
    for (int i = 0; i < 3; i++, t += 1000) {
        int64_t u = t;
        word(f, 1, TT_BEAT_DISPATCH, u);
        word(f, 1, ids[ON_CREATE], u);
        word(f, 1, ids[PARSE], u);
        u += parse_ms;
        word(f, 0, ids[PARSE], u);
        word(f, 1, ids[BIND], u);
        u += 50;
        word(f, 0, ids[BIND], u);
        word(f, 0, ids[ON_CREATE], u);
        word(f, 0, TT_BEAT_DISPATCH, u);
    }
    if (evil) {
        word(f, 1, TT_BEAT_DISPATCH, t);
        word(f, 1, ids[LOAD], t);
        word(f, 0, ids[LOAD], t + 750);
        word(f, 0, TT_BEAT_DISPATCH, t + 750);
    }
    fclose(f);
}

int main(int argc, char **argv)
{
    int noise = 0, same = 0;
    if (argc == 3 && !strcmp(argv[1], "--noise"))
        noise = 1;
    else if (argc == 3 && !strcmp(argv[1], "--same"))
        same = 1;
    else if (argc != 2) {
        fprintf(stderr, "usage: gen_diffpair [--noise | --same] DIR\n");
        return 2;
    }
    const char *dir = argv[argc - 1];
    write_map(dir, "base-map.txt", base_ids);
    write_map(dir, "new-map.txt", new_ids);
    write_buffer(dir, "base.bin", base_ids, 100, 0);
    write_buffer(dir, "new.bin", new_ids, same ? 100 : noise ? 105 : 300, !noise && !same);
    return 0;
}
