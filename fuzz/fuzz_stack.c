/* libFuzzer target: report stack strings (method-beat.md 7.7, print form 5.10) parsed into
 * items, rebuilt as a call tree, and run through trim, stackToString and getTreeKey. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "../libtrace/tt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tt_error err;
    tt_mitem *items = NULL;
    size_t n = 0;
    if (tt_stack_parse(&items, &n, (const char *)data, size, "fuzz", 1, &err))
        return 0;
    tt_stree_node *nodes = NULL;
    size_t clamps;
    if (tt_stree_build(&nodes, items, n, &clamps) == 0)
        free(nodes);
    tt_buf b = {0};
    tt_mstack_to_string(&b, items, n);
    tt_buf_free(&b);
    int64_t cost = tt_mstack_max_dur(items, n);
    tt_mstack_tree_key(items, n, cost);
    n = tt_mstack_trim(items, n, 30);
    tt_mstack_tree_key(items, n, size > 0 ? (int64_t)data[0] * 1000 : 0);
    free(items);
    return 0;
}
