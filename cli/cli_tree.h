/* Call-tree rendering shared by beat and report; the flat JSON node parent link (samples, art). */
#ifndef CLI_TREE_H
#define CLI_TREE_H

#include <stddef.h>

#include "cli.h"

/* Appends "[N frames missing]", N = gap - 1, for a depth gap (tt_stree_node.gap) above 1
 * (method-beat.md 7.7 step 3: gaps stay visible, above a root too). */
void cli_tree_missing(tt_buf *b, int64_t gap);
/* Appends a table "count total_ms self_ms method" with tree indentation to out. */
int cli_tree_text(tt_buf *out, const tt_mitem *it, size_t n, const tt_mapping *m,
                  ptrdiff_t key_index, int style, const char *indent);
/* Writes the flat array of nodes {id,name,depth,count,total_ms,self_ms,parent} in pre-order
 * (line order); parent is the position of the parent node in the array, null for a root. */
/* Writes the key "parent" of a flat JSON call-tree node: the 0-based position pos of its
 * parent in the node array, null (pos < 0) for a root. */
void cli_tree_json_parent(tt_jsonw *w, int64_t pos);
int cli_tree_json(tt_jsonw *w, const tt_mitem *it, size_t n, const tt_mapping *m,
                  ptrdiff_t key_index, int style);

#endif
