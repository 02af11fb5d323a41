/* libFuzzer target: the btrace sampling + sampling-mapping reader (spec/samples.md 2.1); the input is split at the first 0xff 0xfe pair into sampling and mapping, then slice rebuilding
 * (section 5) and every exporter (section 7) on what was read. */
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../libtrace/tt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int sink(void *ctx, const char *p, size_t n)
{
    (void)ctx;
    (void)p;
    (void)n;
    return 0;
}

static void exercise(tt_profile *p)
{
    if (tt_profile_finish(p, NULL))
        return;
    tt_export_opts o;
    tt_export_opts_init(&o);
    o.slice.mark_gaps = 1;
    tt_export_chrome(p, &o, sink, NULL, NULL);
    o.slice.end_policy = TT_END_MID;
    o.weight = TT_WEIGHT_WALL;
    tt_export_speedscope(p, &o, sink, NULL, NULL);
    o.weight = TT_WEIGHT_SAMPLES;
    tt_export_folded(p, &o, sink, NULL, NULL);
    size_t nc = tt_profile_ncallsites(p); /* the samples command's weights in every unit */
    tt_weight *w = malloc((nc ? nc : 1) * sizeof *w);
    for (int u = TT_WEIGHT_SAMPLES; w && u <= TT_WEIGHT_PERIOD; u++)
        tt_profile_callsite_weights(w, p, TT_NONE, u, TT_GAP_AUTO, 10);
    free(w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tt_profile *p = NULL;
    tt_stats *st = tt_stats_new();
    tt_input *in = NULL, *min = NULL;
    tt_error err;
    tt_import_opts io = {0};
    if (tt_profile_new(&p, TT_IDENT_NAME) == 0) {
        size_t cut = size;
        for (size_t i = 0; i + 1 < size; i++)
            if (data[i] == 0xff && data[i + 1] == 0xfe) {
                cut = i;
                break;
            }
        if (tt_input_open_mem(&in, "fuzz", data, cut, &err) == 0 &&
            (cut + 2 > size || tt_input_open_mem(&min, "fuzz-map", data + cut + 2,
                                                  size - cut - 2, &err) == 0) &&
            tt_btrace_import(p, in, min, &io, st, &err) == 0)
            exercise(p);
    }
    tt_input_close(in);
    tt_input_close(min);
    tt_profile_free(p);
    tt_stats_free(st);
    return 0;
}
