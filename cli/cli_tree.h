/* Call-tree rendering shared by beat and report. */
#ifndef CLI_TREE_H
#define CLI_TREE_H

#include <stddef.h>

#include "cli.h"

/* Appends a table "count total_ms self_ms method" with tree indentation to out. */
int cli_tree_text(tt_buf *out, const tt_mitem *it, size_t n, const tt_mapping *m,
                  ptrdiff_t key_index, int style, const char *indent);
/* Writes the nested array of nodes {id,name,depth,count,total_ms,self_ms,children}. */
int cli_tree_json(tt_jsonw *w, const tt_mitem *it, size_t n, const tt_mapping *m,
                  ptrdiff_t key_index, int style);

#endif
