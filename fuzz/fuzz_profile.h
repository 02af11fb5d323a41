/* Shared by the sampled-stack readers' fuzz targets: what every target does with a profile it
 * read (slice rebuilding, spec/samples.md section 5, and every exporter, section 7), and the
 * common shape of a target that reads one text input with one reader. */
#ifndef FUZZ_PROFILE_H
#define FUZZ_PROFILE_H

#include <stdint.h>
#include <stdlib.h>

#include "../libtrace/tt.h"

typedef int (*fuzz_import_fn)(tt_profile *p, tt_input *in, const tt_import_opts *o,
                              tt_stats *stats, tt_error *err);

static inline int fuzz_sink(void *ctx, const char *p, size_t n)
{
    (void)ctx;
    (void)p;
    (void)n;
    return 0;
}

/* Finish the profile, then run every exporter and the samples command's weights in every
 * unit over it. */
static inline void fuzz_exercise(tt_profile *p)
{
    if (tt_profile_finish(p, NULL))
        return;
    tt_export_opts o;
    tt_export_opts_init(&o);
    o.slice.mark_gaps = 1;
    tt_export_chrome(p, &o, fuzz_sink, NULL, NULL);
    o.slice.end_policy = TT_END_MID;
    o.weight = TT_WEIGHT_WALL;
    tt_export_speedscope(p, &o, fuzz_sink, NULL, NULL);
    o.weight = TT_WEIGHT_SAMPLES;
    tt_export_folded(p, &o, fuzz_sink, NULL, NULL);
    size_t nc = tt_profile_ncallsites(p);
    tt_weight *w = malloc((nc ? nc : 1) * sizeof *w);
    for (int u = TT_WEIGHT_SAMPLES; w && u <= TT_WEIGHT_PERIOD; u++)
        tt_profile_callsite_weights(w, p, TT_NONE, u, TT_GAP_AUTO, 10);
    free(w);
}

/* Read DATA with IMPORT (a line reader cut into CHUNK-byte reads when CHUNK is not 0) and
 * exercise what it read. */
static inline void fuzz_import_exercise(fuzz_import_fn import, const uint8_t *data, size_t size,
                                        size_t chunk)
{
    tt_profile *p = NULL;
    tt_stats *st = tt_stats_new();
    tt_input *in = NULL;
    tt_error err;
    tt_import_opts io = {0};
    io.chunk_bytes = chunk;
    if (st && tt_profile_new(&p, TT_IDENT_NAME) == 0 &&
        tt_input_open_mem(&in, "fuzz", data, size, &err) == 0 &&
        import(p, in, &io, st, &err) == 0)
        fuzz_exercise(p);
    tt_input_close(in);
    tt_profile_free(p);
    tt_stats_free(st);
}

#endif
