/* tracetool diff: the comparison model (noise filters, hot set, gates) and its outputs,
 * shared by cmd_diff.c; the rows come from sqlite/diff.c. */
#ifndef CLI_DIFF_H
#define CLI_DIFF_H

#include "cli.h"

#include "../sqlite/tdb.h"

enum { DIFF_TEXT, DIFF_JSON, DIFF_FOLDED, DIFF_SVG, DIFF_HTML }; /* SVG, HTML: drawn by the caller */

typedef struct cli_diff_opts {
    double threshold_pct; /* --threshold */
    double min_ms;        /* --min-ms */
    int64_t min_count;    /* --min-count */
    int top;              /* --top: size of the hot set */
    tt_gate gates[TT_GATES_MAX];
    size_t ngates;
    int custom_gates;     /* --fail-on given: only those gates apply */
    int format;
    const char *path[2];  /* as given */
    int is_db[2];
} cli_diff_opts;

/* Reads every section of d, applies the filters and gates, prints the result in o->format.
 * Returns CLI_OK, CLI_CHECK_FAILED (a gate tripped) or CLI_BAD after printing an error. */
int cli_diff_run(tdb_diff *d, const cli_diff_opts *o);

#endif
