/* Synthetic flame graph load for `make bench` (spec/visual.md 9): N samples over M distinct
 * stacks (a Zipf-like weight, shared prefixes as in real profiles), then tree + layout + SVG
 * with the default options timed. Usage: gen_flame [--samples N] [--stacks M] [-o FILE.svg]
 * [--folded FILE] (also write the stacks as folded input). Prints one line of figures. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../libtrace/tt.h"

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
    long samples = 1000000, stacks = 200000;
    const char *out = NULL, *folded = NULL;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--samples"))
            samples = atol(argv[i + 1]);
        else if (!strcmp(argv[i], "--stacks"))
            stacks = atol(argv[i + 1]);
        else if (!strcmp(argv[i], "-o"))
            out = argv[i + 1];
        else if (!strcmp(argv[i], "--folded"))
            folded = argv[i + 1];
    }
    if (stacks < 1 || samples < stacks) {
        fputs("gen_flame: need samples >= stacks >= 1\n", stderr);
        return 2;
    }
    tt_flame *f;
    if (tt_flame_new(&f))
        return 1;
    /* names: 4000 functions of 40 classes in 8 packages */
    uint32_t ids[4000];
    char name[128];
    for (int i = 0; i < 4000; i++) {
        snprintf(name, sizeof name, "com.example.pkg%d.Class%d.method%d(int,java.lang.String)",
                 i % 8, i % 40, i);
        if (tt_flame_intern(f, &ids[i], name, TT_FCAT_JAVA_APP, NULL))
            return 1;
    }
    FILE *fo = folded ? fopen(folded, "w") : NULL;
    /* the stacks are generated (and written as folded text) first, so that the timed merge
     * is only tt_flame_add_stack */
    uint32_t *all = malloc((size_t)stacks * 49 * sizeof *all);
    long *wt = malloc((size_t)stacks * sizeof *wt);
    if (!all || !wt)
        return 1;
    uint32_t path[64];
    size_t d = 0;
    long left = samples - stacks;
    for (long s = 0; s < stacks; s++) {
        /* a stack grows from a prefix of the previous one plus 1..4 new frames (real
         * profiles share long prefixes and differ near the leaves); depth 4..48 */
        size_t keep = d < 5 ? d : 4 + (size_t)(next() % (d - 3));
        d = keep + 1 + (size_t)(next() % 4);
        if (d > 48)
            d = 8;
        for (size_t k = keep < d ? keep : 0; k < d; k++)
            path[k] = ids[k < 4 ? k : (size_t)(next() % 4000)];
        long w = 1;
        if (left > 0) { /* heavy head: the first stacks take most samples */
            long x = s < 64 ? left / 128 : (long)(next() % 8);
            if (x > left)
                x = left;
            w += x, left -= x;
        }
        if (s == stacks - 1)
            w += left;
        if (fo) {
            for (size_t k = 0; k < d; k++)
                fprintf(fo, "%s%s", k ? ";" : "", tt_flame_name(f, path[k], NULL));
            fprintf(fo, " %ld\n", w);
        }
        all[(size_t)s * 49] = (uint32_t)d;
        memcpy(all + (size_t)s * 49 + 1, path, d * sizeof *path);
        wt[s] = w;
    }
    if (fo)
        fclose(fo);
    double t0 = now_ms();
    for (long s = 0; s < stacks; s++) {
        uint32_t *q = all + (size_t)s * 49;
        if (tt_flame_add_stack(f, q + 1, q[0], wt[s], 0, NULL))
            return 1;
    }
    free(all);
    free(wt);
    double t1 = now_ms();
    tt_flame_finish(f);
    tt_flame_layout_opts lo = {0, 1200, 100, 0, 20000, 0};
    tt_flame_layout l;
    if (tt_flame_layout_build(&l, f, &lo))
        return 1;
    tt_svg_opts so;
    tt_svg_opts_init(&so);
    tt_buf b = {0};
    if (tt_svg_write(&b, f, &l, &so))
        return 1;
    double t2 = now_ms();
    printf("flame: %ld samples, %ld stacks, %zu tree nodes: merge %.0f ms, totals + layout + SVG "
           "%.0f ms, render %.0f ms (target < 1000), %zu frames, SVG %.2f MB (target < 5)\n",
           samples, stacks, tt_flame_nnodes(f), t1 - t0, t2 - t1, t2 - t0, l.n,
           (double)b.len / 1e6);
    if (out) {
        FILE *o = fopen(out, "w");
        if (!o || fwrite(b.data, 1, b.len, o) != b.len || fclose(o))
            return 1;
    }
    tt_buf_free(&b);
    tt_flame_layout_free(&l);
    tt_flame_free(f);
    return 0;
}
