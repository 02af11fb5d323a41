/* libFuzzer target: the btrace iOS database reader (spec/samples.md 2.1.6); the input is the
 * (decompressed) SQLite file, read in memory, then every exporter on what was read. */
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>

#include "../libtrace/tt.h"
#include "../sqlite/tdb.h"
#include "fuzz_profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tt_profile *p = NULL;
    tt_stats *st = tt_stats_new();
    tt_error err;
    tt_import_opts io = {0};
    if (tt_profile_new(&p, TT_IDENT_NAME) == 0 &&
        tdb_btrace_ios_import(p, data, size, "fuzz", &io, st, &err) == 0)
        fuzz_exercise(p);
    tt_profile_free(p);
    tt_stats_free(st);
    return 0;
}
