/* libFuzzer target: the ART method trace reader (spec/art-trace.md 2-4; a header then a bare
 * data section is read as --art-keys), then call rebuilding (5.1) in both modes with overhead
 * subtraction and from samples (5.5, sizes with bit 3 set), the profile, sampled-trace
 * detection and slow messages (6.3); the chunked reader must agree with the whole-file parse. */
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../libtrace/tt_art.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int on_slice(void *ud, const tt_art_slice *s)
{
    (void)s;
    ++*(size_t *)ud;
    return 0;
}

typedef struct mem {
    const uint8_t *p;
    size_t n;
} mem;

static int mem_open(void *ud, tt_input **in, tt_error *err)
{
    const mem *m = ud;
    return tt_input_open_mem(in, "fuzz", m->p, m->n, err);
}

/* The chunked reader (sizes with bit 4 set) must agree with the whole-file parse a. */
static void chunked(const uint8_t *data, size_t size, tt_art_opts *o, const tt_art *a)
{
    if (!(size & 16))
        return;
    mem m = {data, size};
    tt_art_src src = {mem_open, &m, NULL};
    tt_art *b = NULL;
    o->chunk_bytes = 1 + size % 61;
    int rc = tt_art_parse_src(&b, &src, "fuzz", o, NULL, NULL);
    if (!rc != !!a || (a && (a->records != b->records || a->nthreads != b->nthreads ||
                             a->nmethods != b->nmethods)))
        abort();
    tt_art_free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tt_stats *st = tt_stats_new();
    tt_art *a = NULL;
    tt_art_opts o = {.clock_guess = (size & 1) ? TT_ART_CLOCK_CPU : TT_ART_CLOCK_WALL,
                     .keys_name = "keys"};
    char what[200];
    tt_art_detect(data, size, what, sizeof what);
    /* --art-keys (sizes with bit 2 set): the text header up to "*end\n" is the keys file and
     * the rest a bare data section */
    for (size_t i = 0; (size & 4) && i + 9 <= size; i++)
        if (!memcmp(data + i, "*end\nSLOW", 9)) {
            o.keys = data;
            o.nkeys = i + 5;
            data += i + 5;
            size -= i + 5;
            break;
        }
    if (st && !tt_art_parse(&a, data, size, "fuzz", &o, st, NULL)) {
        size_t n = 0;
        if (size & 2)
            tt_art_normalize_synthetic(a, &n);
        tt_art_visit v = {NULL, on_slice, &n};
        tt_art_rebuild_opts ro = {.close_at = TT_ART_CLOSE_TRACE_END, .sampled = 1,
                                  .overhead_ns = 3424};
        ro.samples = (size & 8) != 0; /* --art-mode samples */
        for (size_t i = 0; i < a->nthreads; i++)
            tt_art_rebuild(a, i, &ro, &v, st, "fuzz", NULL);
        ro.samples = 0;
        tt_art_prof *prof = calloc(a->nmethods + 1, sizeof *prof);
        int64_t s1, s2, iv;
        ro.close_at = TT_ART_CLOSE_THREAD_LAST;
        ro.sampled = 0;
        if (prof)
            tt_art_profile(prof, &s1, &s2, a, NULL, &ro, st, "fuzz", NULL);
        free(prof);
        tt_art_detect_sampled(a, &iv);
        uint32_t win = 0; /* every call of the first method is a slow message */
        tt_buf name = {0}, path = {0};
        for (size_t i = 0; i < a->nthreads && a->nmethods; i++) {
            tt_vec iss;
            if (tt_art_slow_messages(&iss, a, i, &win, 1, 0, NULL))
                continue;
            for (size_t k = 0; k < iss.len; k++)
                tt_art_issue_blame(&name, &path, a, &TT_VEC_AT(&iss, tt_art_issue, k), win);
            tt_art_issues_free(&iss);
        }
        tt_buf_free(&name);
        tt_buf_free(&path);
    }
    chunked(data, size, &o, a);
    tt_art_free(a);
    tt_stats_free(st);
    return 0;
}
