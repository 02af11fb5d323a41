/* libFuzzer target: ELF + DWARF reading (libsym: libelf, libdwarf, the index) on mutated
 * small real binaries (seeds in fuzz/corpus/elf/: gcc and clang shared objects, DWARF 4
 * and 5, zlib sections, a relocatable object). libdwarf opens files by path, so each
 * input is written to one temporary file. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../libsym/tsym.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char tmp_path[64];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!tmp_path[0]) {
        tsym_init();
        snprintf(tmp_path, sizeof tmp_path, "/tmp/fuzz_elf_XXXXXX");
        int fd = mkstemp(tmp_path);
        if (fd < 0)
            abort();
        close(fd);
    }
    FILE *f = fopen(tmp_path, "wb");
    if (!f)
        abort();
    if (size && fwrite(data, 1, size, f) != size)
        abort();
    fclose(f);
    tsym_module *m = NULL;
    tt_error err;
    if (tsym_module_open(&m, tmp_path, NULL, &err) == 0) {
        const tsym_module_info *i = tsym_module_info_get(m);
        tsym_result r;
        /* a spread of addresses plus the start of every 16-byte block of the first 4 KiB */
        for (uint64_t a = 0; a < 0x1000; a += 16)
            tsym_module_lookup(&r, m, a, TSYM_F_DEMANGLE);
        tsym_module_lookup(&r, m, UINT64_MAX, TSYM_F_NEAREST);
        tsym_module_lookup(&r, m, tsym_module_offset_to_vaddr(m, 0x10), TSYM_F_SYMBOL_NAMES);
        uint64_t v;
        tsym_module_map_to_vaddr(&v, m, 0x7f0000001000, 0x7f0000000000, 0);
        (void)i;
        tsym_module_free(m);
    }
    char hex[TSYM_BUILD_ID_HEX_MAX];
    tsym_elf_build_id(hex, sizeof hex, tmp_path, &err);
    return 0;
}
