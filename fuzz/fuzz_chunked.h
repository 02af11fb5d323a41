/* Differential check shared by the line-chunked text readers' fuzz targets (issue 16): the
 * input read line by line without the chunk reader's line numbering (jobs -1) and read in
 * chunks of a size the input picks, with numbered lines, runs of known frames and fields, give
 * the same result, warnings and error; a difference aborts, so libFuzzer keeps the input. */
#ifndef FUZZ_CHUNKED_H
#define FUZZ_CHUNKED_H

#include <stdlib.h>
#include <string.h>

#include "../libtrace/tt.h"
#include "fuzz_profile.h"

static int fuzz_collect(void *ctx, const char *p, size_t n) { return tt_buf_put(ctx, p, n); }

/* Everything one read shows: rc, the error, the stats and the folded stacks. */
static char *fuzz_digest(fuzz_import_fn import, const uint8_t *data, size_t size, int jobs,
                         size_t chunk)
{
    tt_buf b = {0};
    tt_profile *p = NULL;
    tt_stats *st = tt_stats_new();
    tt_input *in = NULL;
    tt_error err;
    memset(&err, 0, sizeof err);
    tt_import_opts io = {0};
    io.jobs = jobs;
    io.chunk_bytes = chunk;
    int rc = -1000;
    if (st && tt_profile_new(&p, TT_IDENT_NAME) == 0 &&
        tt_input_open_mem(&in, "fuzz", data, size, &err) == 0)
        rc = import(p, in, &io, st, &err);
    tt_buf_printf(&b, "rc %d %d %llu %s\n", rc, err.loc_kind, (unsigned long long)err.loc,
                  rc ? err.msg : "");
    for (size_t i = 0; st && i < tt_stats_count(st); i++) {
        const tt_stat *s = tt_stats_get(st, i);
        tt_buf_printf(&b, "stat %s %lld %s\n", s->name, (long long)s->count, s->example);
    }
    if (rc == 0 && tt_profile_finish(p, NULL) == 0) {
        tt_export_opts o;
        tt_export_opts_init(&o);
        o.weight = TT_WEIGHT_SAMPLES;
        tt_export_folded(p, &o, fuzz_collect, &b, NULL);
    }
    tt_input_close(in);
    tt_profile_free(p);
    tt_stats_free(st);
    tt_buf_puts(&b, "");
    return b.data;
}

static void fuzz_same_chunked(fuzz_import_fn import, const uint8_t *data, size_t size)
{
    char *want = fuzz_digest(import, data, size, -1, 0);
    char *got = fuzz_digest(import, data, size, 0, 1 + size % 89);
    if (want && got && strcmp(want, got))
        abort(); /* the chunked read differs from the line-by-line one */
    free(want);
    free(got);
}

#endif
