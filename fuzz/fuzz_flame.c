/* libFuzzer target: flame graphs (spec/visual.md) of folded stacks with options from the
 * first byte, and the text escaping and fitting of the raw bytes. Aborts when the SVG holds
 * a control byte, "]]>" or a raw '<' inside a name, i.e. when a name could break the file. */
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../libtrace/tt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_text(const tt_buf *b)
{
    for (size_t i = 0; i < b->len; i++) {
        unsigned char c = (unsigned char)b->data[i];
        if ((c < 0x20 && c != '\n') || c == '<' || c == '>')
            abort();
    }
}

static void check_svg(const tt_buf *b)
{
    for (size_t i = 0; i < b->len; i++) {
        unsigned char c = (unsigned char)b->data[i];
        if (c < 0x20 && c != '\n')
            abort();
    }
    if (b->data && strstr(b->data, "]]>"))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    unsigned opt = size ? data[0] : 0;
    tt_buf t = {0};
    tt_svg_escape(&t, (const char *)data, size, 1);
    check_text(&t);
    for (size_t cells = 0; cells < 12; cells += 3) {
        t.len = 0;
        if (tt_svg_fit(&t, (const char *)data, size, cells, (int)(opt & 1)) == 1)
            check_text(&t);
    }
    tt_buf_free(&t);

    tt_profile *p = NULL;
    tt_stats *st = tt_stats_new();
    tt_input *in = NULL;
    tt_error err;
    tt_import_opts io = {0};
    tt_flame *f = NULL;
    if (tt_profile_new(&p, TT_IDENT_NAME) == 0 && tt_flame_new(&f) == 0 &&
        tt_input_open_mem(&in, "fuzz", data, size, &err) == 0 &&
        tt_folded_import(p, in, &io, st, &err) == 0 && tt_profile_finish(p, NULL) == 0) {
        tt_export_opts eo;
        tt_export_opts_init(&eo);
        eo.folded_root = (int)(opt % 3);
        tt_flame_xform x = {.reverse = (int)(opt >> 2 & 1), .fold_recursion = (int)(opt >> 3 & 1)};
        if (tt_flame_add_profile(f, p, &eo, &x, NULL, 0, 0, NULL) == 0) {
            tt_flame_finish(f);
            tt_flame_layout_opts lo = {(int)(opt >> 4 & 1), 200 + (int)(opt & 0x30) * 10,
                                       (int64_t)(opt >> 6) * 400, 0, (size_t)(opt & 7), 0};
            tt_flame_layout l;
            if (tt_flame_layout_build(&l, f, &lo) == 0) {
                tt_svg_opts so;
                tt_svg_opts_init(&so);
                so.script = 0;
                so.icicle = (int)(opt >> 5 & 1);
                so.colors = (int)(opt % 5);
                tt_buf b = {0};
                tt_svg_write(&b, f, &l, &so);
                check_svg(&b);
                b.len = 0;
                tt_flame_write_tsv(&b, f, &l);
                tt_buf_free(&b);
                tt_flame_layout_free(&l);
            }
        }
    }
    tt_flame_free(f);
    tt_input_close(in);
    tt_profile_free(p);
    tt_stats_free(st);
    return 0;
}
