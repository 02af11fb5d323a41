/* Rendering a stack's call tree (method-beat.md 7.7) as indented text or a flat JSON node list;
 * shared by beat and report. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

#include "cli_tree.h"

static void name_of(tt_buf *b, const tt_mapping *m, int32_t id, int style)
{
    b->len = 0;
    if (b->data)
        b->data[0] = 0;
    tt_mapping_format_id(b, m, (uint32_t)id, style);
}

void cli_tree_missing(tt_buf *b, int64_t gap)
{
    tt_buf_printf(b, "[%lld frame%s missing]", (long long)(gap - 1), gap - 1 == 1 ? "" : "s");
}

int cli_tree_text(tt_buf *out, const tt_mitem *it, size_t n, const tt_mapping *m,
                  ptrdiff_t key_index, int style, const char *indent)
{
    tt_stree_node *nd;
    if (tt_stree_build(&nd, it, n, NULL))
        return TT_ENOMEM;
    tt_buf name = {0};
    tt_buf_printf(out, "%s%7s %9s %9s  %s\n", indent, "count", "total_ms", "self_ms", "method");
    /* indentation follows the tree level (not the raw depth), gaps are marked */
    int32_t *level = malloc((n ? n : 1) * sizeof *level);
    if (!level) {
        free(nd);
        return TT_ENOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        level[i] = nd[i].parent < 0 ? 0 : level[nd[i].parent] + 1;
        name_of(&name, m, it[i].id, style);
        tt_buf_printf(out, "%s%7d %9d %9lld  ", indent, it[i].count, it[i].dur,
                      (long long)nd[i].self_ms);
        for (int32_t l = 0; l < level[i] && l < 200; l++)
            tt_buf_puts(out, "  ");
        if (nd[i].gap > 1) {
            cli_tree_missing(out, nd[i].gap);
            tt_buf_puts(out, " ");
        }
        tt_buf_puts(out, name.data);
        if ((ptrdiff_t)i == key_index)
            tt_buf_puts(out, "   <== stackKey");
        tt_buf_puts(out, "\n");
    }
    free(level);
    free(nd);
    tt_buf_free(&name);
    return 0;
}

void cli_tree_json_parent(tt_jsonw *w, int64_t pos)
{
    tt_jsonw_key(w, "parent");
    if (pos < 0)
        tt_jsonw_null(w);
    else
        tt_jsonw_int(w, pos);
}

int cli_tree_json(tt_jsonw *w, const tt_mitem *it, size_t n, const tt_mapping *m,
                  ptrdiff_t key_index, int style)
{
    tt_stree_node *nd;
    if (tt_stree_build(&nd, it, n, NULL))
        return TT_ENOMEM;
    tt_buf name = {0};
    /* flat: the nodes are already in pre-order, so a node's position is its line index and
     * its parent's position is the parent's line index */
    tt_jsonw_arr_begin(w);
    for (size_t i = 0; i < n; i++) {
        name_of(&name, m, it[i].id, style);
        tt_jsonw_obj_begin(w);
        tt_jsonw_key(w, "id");
        tt_jsonw_int(w, it[i].id);
        tt_jsonw_key(w, "name");
        if (tt_mapping_get(m, (uint32_t)it[i].id) || (uint32_t)it[i].id == TT_BEAT_DISPATCH)
            tt_jsonw_str(w, name.data);
        else
            tt_jsonw_null(w);
        tt_jsonw_key(w, "depth");
        tt_jsonw_int(w, it[i].depth);
        tt_jsonw_key(w, "count");
        tt_jsonw_int(w, it[i].count);
        tt_jsonw_key(w, "total_ms");
        tt_jsonw_int(w, it[i].dur);
        tt_jsonw_key(w, "self_ms");
        tt_jsonw_int(w, nd[i].self_ms);
        if (nd[i].gap > 1) {
            tt_jsonw_key(w, "missing_frames");
            tt_jsonw_int(w, nd[i].gap - 1);
        }
        if ((ptrdiff_t)i == key_index) {
            tt_jsonw_key(w, "stack_key");
            tt_jsonw_bool(w, 1);
        }
        cli_tree_json_parent(w, nd[i].parent);
        tt_jsonw_obj_end(w);
    }
    tt_jsonw_arr_end(w);
    free(nd);
    tt_buf_free(&name);
    return 0;
}
