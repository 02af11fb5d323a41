/* libFuzzer target: the backtrace line parsers of libsym (tombstone / logcat / ANR frames,
 * module+offset tokens, perf script frames and MMAP events, raw addresses; spec 7). */
#include <stdint.h>
#include <stddef.h>
#include <string.h>

#include "../libsym/tsym.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void one_line(const char *l, size_t n)
{
    tsym_tomb_frame t;
    if (tsym_tombstone_parse(&t, l, n) == 0) {
        /* every returned span lies inside the line */
        if (t.map < l || t.map + t.map_len > l + n || t.lib < l || t.lib + t.lib_len > l + n ||
            (t.function && (t.function < l || t.function + t.function_len > l + n)) ||
            t.prefix_len > n || strlen(t.build_id) >= sizeof t.build_id)
            __builtin_trap();
    }
    size_t pos = 0;
    tsym_modoff mo;
    while (tsym_modoff_next(&mo, l, n, &pos) == 0)
        if (mo.end > n || mo.start >= mo.end || pos > n)
            __builtin_trap();
    tsym_perf_frame pf;
    if (tsym_perf_frame_parse(&pf, l, n) == 0 &&
        (pf.dso < l || pf.dso + pf.dso_len > l + n || pf.symbol + pf.symbol_len > l + n))
        __builtin_trap();
    tt_perf_mmap mm;
    if (tt_perf_mmap_parse(&mm, l, n) == 0 && (mm.path < l || mm.path + mm.path_len > l + n))
        __builtin_trap();
    uint64_t v;
    tsym_addr_parse(&v, l, n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *p = (const char *)data, *end = p + size;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        one_line(p, n);
        p += n + 1;
    }
    return 0;
}
