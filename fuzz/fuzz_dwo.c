/* libFuzzer target: split DWARF (libsym die.c, dwo.c): a skeleton binary and its split
 * unit's file, both mutated. Input: a 4-byte little-endian length n, n bytes of the module
 * (an ELF file with skeleton units naming f.dwo), then the .dwo file or .dwp package. The
 * second part is written as DIR/f.dwo and as DIR/m.dwp beside the module DIR/m, so it is
 * read as a package when it has a .debug_cu_index and as a .dwo file otherwise. Seeds in
 * fuzz/corpus/dwo/: gcc DWARF 5 and GNU DWARF 4, clang DWARF 5, .dwp packages of both
 * (tests/sym/lib.c, comp_dir mapped to a directory that does not exist). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../libsym/tsym.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64], mod[96], dwo[96], dwp[96];

static void put(const char *path, const uint8_t *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        abort();
    if (n && fwrite(p, 1, n, f) != n)
        abort();
    fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!dir[0]) {
        tsym_init();
        snprintf(dir, sizeof dir, "/tmp/fuzz_dwo_XXXXXX");
        if (!mkdtemp(dir))
            abort();
        snprintf(mod, sizeof mod, "%s/m", dir);
        snprintf(dwo, sizeof dwo, "%s/f.dwo", dir);
        snprintf(dwp, sizeof dwp, "%s/m.dwp", dir);
    }
    if (size < 4)
        return 0;
    size_t n = (size_t)data[0] | (size_t)data[1] << 8 | (size_t)data[2] << 16 |
               (size_t)data[3] << 24;
    data += 4;
    size -= 4;
    if (n > size)
        n = size;
    put(mod, data, n);
    put(dwo, data + n, size - n);
    put(dwp, data + n, size - n);
    tsym_module *m = NULL;
    tt_error err;
    if (tsym_module_open(&m, mod, NULL, &err) == 0) {
        tsym_result r;
        for (uint64_t a = 0; a < 0x1000; a += 4)
            tsym_module_lookup(&r, m, a, 0);
        tsym_module_free(m);
    }
    return 0;
}
