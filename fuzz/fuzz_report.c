/* libFuzzer target: the Matrix issue report reader (method-beat.md 7.1-7.7) over every
 * container, with each report's stack rebuilt as a tree. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "../libtrace/tt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tt_error err;
    tt_input *in = NULL;
    if (tt_input_open_mem(&in, "fuzz", data, size, &err))
        return 0;
    tt_stats *st = tt_stats_new();
    tt_report_reader *r = NULL;
    if (tt_report_reader_new(&r, in, st, &err) == 0) {
        const tt_report *rep;
        volatile size_t sink = 0;
        while (tt_report_reader_next(r, &rep, &err) == 0) {
            tt_stree_node *nd = NULL;
            if (tt_stree_build(&nd, rep->items, rep->n_items, NULL) == 0)
                free(nd);
            sink += rep->json_len + (rep->tag ? 1 : 0);
            if (rep->key_index >= 0)
                sink += (size_t)rep->items[rep->key_index].dur;
        }
        (void)sink;
    }
    tt_report_reader_free(r);
    tt_input_close(in);
    tt_stats_free(st);
    return 0;
}
