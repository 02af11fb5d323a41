/* libFuzzer target: the .debug_line decoder of libsym (line.c) on raw section bytes.
 * Input: one flags byte (bit 0 big-endian, bit 1 a str_offsets_base of 8), a 4-byte
 * little-endian length of .debug_line, the .debug_line bytes, then the bytes used as
 * .debug_line_str, .debug_str and .debug_str_offsets. Seeds in fuzz/corpus/dwarf_line/
 * are those sections of gcc and clang binaries (DWARF 4, 5 and 64-bit DWARF). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../libsym/tsym_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 5)
        return 0;
    unsigned flags = data[0];
    size_t n = (size_t)data[1] | (size_t)data[2] << 8 | (size_t)data[3] << 16 |
               (size_t)data[4] << 24;
    data += 5;
    size -= 5;
    if (n > size)
        n = size;
    tsym__dsecs s = {.big_endian = flags & 1};
    s.data[TSYM_DS_LINE] = data;
    s.size[TSYM_DS_LINE] = n;
    for (int k = TSYM_DS_LINE_STR; k < TSYM_DS_N; k++) {
        s.data[k] = data + n;
        s.size[k] = size - n;
    }
    tsym__index ix;
    memset(&ix, 0, sizeof ix);
    tt_vec_init(&ix.rows, sizeof(tsym__row));
    tt_vec_init(&ix.loads, sizeof(tsym__load));
    tsym__lhdr h;
    tsym__lhdr_init(&h);
    uint32_t *files = NULL;
    size_t nf = 0;
    char msg[200];
    uint64_t off = 0;
    /* every unit in turn, as the CUs' DW_AT_stmt_list offsets would name them */
    for (int unit = 0; unit < 64 && off < n; unit++) {
        size_t before = ix.rows.len;
        if (tsym__line_header(&h, &s, off, flags & 2 ? 8 : 0, msg, sizeof msg))
            break;
        if (h.prog < data + off || h.end > data + n || h.prog > h.end)
            __builtin_trap();
        if (tsym__line_files(&files, &nf, &ix, &h, flags & 4 ? "/comp" : NULL))
            break;
        int rc = tsym__line_rows(&ix, &h, files, nf, msg, sizeof msg);
        if (rc && ix.rows.len != before)
            __builtin_trap(); /* a corrupt unit keeps no rows */
        const tsym__row *r = ix.rows.data;
        for (size_t i = before; i < ix.rows.len; i++)
            if (r[i].file != TSYM_NONE && r[i].file >= ix.str.bytes.len)
                __builtin_trap();
        off = (uint64_t)(h.end - data);
    }
    free(files);
    tsym__lhdr_free(&h);
    tsym__index_free(&ix);
    return 0;
}
