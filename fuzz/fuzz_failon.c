/* libFuzzer target: the --fail-on and --threshold parsers of tracetool diff (libtrace/diff.c)
 * and analyze's --fail-on conditions (libtrace/issue_cond.c),
 * gate formatting and evaluation, and the name checks of cross-build matching. Option
 * values come from CI configuration files that are edited by many people. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../libtrace/tt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        return 0;
    memcpy(s, data, size);
    s[size] = 0;
    tt_error err;
    tt_gate g[TT_GATES_MAX];
    size_t n = 0;
    volatile int sink = 0;
    if (tt_diff_parse_gates(g, TT_GATES_MAX, &n, s, &err) == 0) {
        for (size_t i = 0; i < n; i++) {
            char out[64];
            tt_gate_format(out, sizeof out, &g[i]);
            tt_gate g2[1];
            size_t n2;
            /* a formatted gate parses back to the same gate, value included */
            if (tt_diff_parse_gates(g2, 1, &n2, out, &err) != 0 || g2[0].dir != g[i].dir ||
                g2[0].is_pct != g[i].is_pct || strcmp(g2[0].metric, g[i].metric) ||
                g2[0].value != g[i].value)
                abort();
            sink += tt_gate_trips(&g[i], 100, 100 + g[i].value, NULL);
        }
    }
    double pct;
    sink += tt_diff_parse_pct(&pct, s, &err);
    sink += tt_name_classify(s);
    tt_issue_cond c;
    if (tt_issue_cond_parse(&c, s, &err) == 0 && (c.min_count < 1 || (c.what == TT_COND_LOST && c.kind)))
        abort();
    (void)sink;
    free(s);
    return 0;
}
