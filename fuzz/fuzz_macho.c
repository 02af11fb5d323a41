/* libFuzzer target: the Mach-O reader (spec/ios.md 5, 6) on mutated containers: fat and
 * fat64 headers, slices, load commands, nlist symbols and function starts, and DWARF handed
 * to libdwarf through the object-access interface, all from memory (seeds in
 * fuzz/corpus/macho/: thin and fat executables, a DWARF 4 and a DWARF 5 dSYM, a 32-bit
 * container, a truncated fat header). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../libsym/tsym_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int inited;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!inited) {
        tsym_init();
        inited = 1;
    }
    tsym__macho m;
    tt_error err;
    if (tsym__macho_open_mem(&m, data, size, "fuzz", &err) == 0) {
        for (size_t i = 0; i < m.n_slices; i++) {
            if (tsym__macho_select(&m, i, &err))
                continue;
            tsym__index ix;
            memset(&ix, 0, sizeof ix);
            tt_vec_init(&ix.funcs, sizeof(tsym__func));
            tt_vec_init(&ix.nodes, sizeof(tsym__node));
            tt_vec_init(&ix.ranges, sizeof(tsym__range));
            tt_vec_init(&ix.rows, sizeof(tsym__row));
            tt_vec_init(&ix.rblocks, sizeof(tsym__rblock));
            tt_vec_init(&ix.syms, sizeof(tsym__sym));
            tt_vec_init(&ix.loads, sizeof(tsym__load));
            tt_vec_init(&ix.fstarts, sizeof(uint64_t)); /* as tsym__module_open (lookup.c) */
            if (!tsym__macho_text_load(&ix, &m) && !tsym__macho_syms(&ix, &m, &err)) {
                tsym__macho_dwarf(&ix, &m, &err);
                if (!tsym__index_finish(&ix))
                    for (uint64_t a = m.text_vmaddr; a < m.text_vmaddr + 0x2000; a += 8)
                        (void)tsym__index_row(&ix, a);
            }
            tsym__index_free(&ix);
        }
        (void)tsym__macho_find(&m, "arm64", "00112233445566778899aabbccddeeff");
    }
    tsym__macho_close(&m);
    return 0;
}
