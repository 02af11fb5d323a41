/* Call-tree rendering shared by beat and report. */
#ifndef CLI_TREE_H
#define CLI_TREE_H

#include <stddef.h>

#include "cli.h"

/* Appends "[N frames missing]", N = gap - 1, for a depth gap (tt_stree_node.gap) above 1
 * (method-beat.md 7.7 step 3: gaps stay visible, above a root too). */
void cli_tree_missing(tt_buf *b, int32_t gap);
/* Appends a table "count total_ms self_ms method" with tree indentation to out. */
int cli_tree_text(tt_buf *out, const tt_mitem *it, size_t n, const tt_mapping *m,
                  ptrdiff_t key_index, int style, const char *indent);
/* Writes the nested array of nodes {id,name,depth,count,total_ms,self_ms,children}. */
int cli_tree_json(tt_jsonw *w, const tt_mitem *it, size_t n, const tt_mapping *m,
                  ptrdiff_t key_index, int style);

#endif
