/* libFuzzer target: the perf script text reader (spec/samples.md 2.2), then slice rebuilding
 * (section 5) and every exporter (section 7) on what was read. */
#include <stdint.h>
#include <stddef.h>
#include <string.h>

#include "../libtrace/tt.h"
#include "fuzz_chunked.h"

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
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tt_profile *p = NULL;
    tt_stats *st = tt_stats_new();
    tt_input *in = NULL, *min = NULL;
    tt_error err;
    tt_import_opts io = {0};
    /* the input's length picks the chunk size of the line reader: lines cut across reads */
    io.chunk_bytes = 1 + size % 97;
    if (tt_profile_new(&p, TT_IDENT_NAME) == 0) {
        if (tt_input_open_mem(&in, "fuzz", data, size, &err) == 0 &&
            tt_perf_import(p, in, &io, st, &err) == 0)
            exercise(p);
    }
    tt_input_close(in);
    tt_input_close(min);
    tt_profile_free(p);
    tt_stats_free(st);
    fuzz_same_chunked(tt_perf_import, data, size);
    return 0;
}
