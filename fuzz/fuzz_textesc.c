/* libFuzzer target: the text escaper of every text output (textesc.c). The input, written in
 * pieces whose sizes come from its first byte, gives what it gives written whole (a UTF-8
 * sequence or CR LF split between writes is seen whole), and the output is plain: escaping it
 * again changes nothing (no control character but newline, tab and CR LF, no C1, valid
 * UTF-8); as a table cell it is one such line. */
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../libtrace/tt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int collect(void *ctx, const char *p, size_t n) { return tt_buf_put(ctx, p, n); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *s = (const char *)data;
    tt_buf whole = {0}, cut = {0};
    tt_textesc e;
    tt_textesc_init(&e, collect, &whole);
    if (tt_textesc_put(&e, s, size) || tt_textesc_flush(&e))
        abort();
    tt_textesc_init(&e, collect, &cut);
    unsigned piece = size ? 1 + data[0] % 7 : 1;
    for (size_t at = 0; at < size;) {
        size_t n = size - at < piece ? size - at : piece;
        if (tt_textesc_put(&e, s + at, n))
            abort();
        at += n;
        piece = 1 + (piece * 5 + (unsigned)n) % 7;
    }
    if (tt_textesc_flush(&e))
        abort();
    if (whole.len != cut.len || (whole.len && memcmp(whole.data, cut.data, whole.len)))
        abort();
    if (tt_textesc_plain(whole.data ? whole.data : "", whole.len) != whole.len)
        abort();
    /* a table cell (tt_textesc_cell): one line of plain text, as wide as its characters */
    tt_buf cell = {0};
    size_t w = 0;
    if (tt_textesc_cell(&cell, s, size, &w))
        abort();
    if (tt_textesc_plain(cell.data ? cell.data : "", cell.len) != cell.len || w > cell.len ||
        (cell.len && (memchr(cell.data, '\n', cell.len) || memchr(cell.data, '\t', cell.len) ||
                      memchr(cell.data, '\r', cell.len))))
        abort();
    tt_buf_free(&cell);
    tt_buf_free(&whole);
    tt_buf_free(&cut);
    return 0;
}
