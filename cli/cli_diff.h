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
    tt_hreport *report;   /* DIFF_HTML: the diff tables go here (visual.md 10.2 item 8) */
    int quiet;            /* no tripped gates on stderr (tracetool html) */
    const char *output;   /* -o FILE of text, json, folded-diff; NULL: standard output */
} cli_diff_opts;

/* The defaults of tracetool diff: thresholds and the default gates. */
void cli_diff_opts_init(cli_diff_opts *o);
/* The default gates at o->threshold_pct (percent gates) plus issue.new. */
void cli_diff_default_gates(cli_diff_opts *o);

/* Reads every section of d, applies the filters and gates, prints the result in o->format.
 * Returns CLI_OK, CLI_CHECK_FAILED (a gate tripped) or CLI_BAD after printing an error. */
int cli_diff_run(tdb_diff *d, const cli_diff_opts *o);

/* tracetool html (cmd_html.c); diff_report: the diff tables already filled by a DIFF_HTML
 * cli_diff_run (tracetool diff --format html), or NULL to compute them with the defaults. */
int cli_html_run(int argc, char **argv, cli_ctx *ctx, tt_hreport *diff_report);

#endif
