/* tracetool diff, inside cli/: the comparison model shared by the driver (cli_diff.c), its
 * outputs (cli_diff_text.c: text and JSON; cli_diff_html.c: the HTML report's tables) and the
 * helpers they share (cli_diff_util.c). The outputs never call back into the driver. */
#ifndef CLI_DIFF_INT_H
#define CLI_DIFF_INT_H

#include "cli_diff.h"

enum { U_MS, U_COUNT, U_FPS, U_PCT };

/* Per section: JSON names, units, regression direction, which values can make a row
 * "changed" (drives), the primary value (sorting, +/- marker) and the count values. */
typedef struct smeta {
    const char *json, *title, *subname, *keyname, *added, *removed;
    int nval;
    const char *vname[TDB_DIFF_NVAL];
    int unit[TDB_DIFF_NVAL], dir[TDB_DIFF_NVAL], drives[TDB_DIFF_NVAL];
    int count[2]; /* value indexes summed for --min-count; -1 unused */
    int named;    /* keys are method/function names: unresolved/obfuscated checks */
} smeta;

extern const smeta cli_diff_meta[TDB_DIFF__COUNT];

/* --fail-on metric -> section, value and row filter */
typedef struct gate_metric {
    const char *metric;
    int section, val;
    const char *sub; /* startup kind; NULL = any */
    int total;       /* startup: 1 only 'total' and 'launch:' rows, 0 only segments */
} gate_metric;

extern const gate_metric cli_diff_gates[];
extern const size_t cli_diff_ngates;

typedef struct item {
    int section;
    const char *sub, *key;
    const char *from, *to; /* startup: the endpoint events (part of the key), or NULL */
    int have[2];
    double v[2][TDB_DIFF_NVAL];
    int count_ok, reported, mark; /* mark: +1 regression, -1 improvement, 0 neutral */
    unsigned sig;                 /* bit j: value j changed beyond the noise filters */
    int hot[2];
} item;

typedef struct trip {
    char gate[64];
    const item *it; /* NULL for issue.new */
    double base, new_value, amount;
    int is_pct;
} trip;

typedef struct dctx {
    const cli_diff_opts *o;
    tt_arena *arena;
    tt_vec items; /* item */
    tt_vec trips; /* trip */
    uint64_t unmatched[2][3]; /* side x TT_NAME_* */
    int64_t traces[2];
    item **sorted; /* items in output order */
    int section;
    int oom;
} dctx;

/* ---- cli_diff_util.c ---- */
/* A name (function, stack key, scene, file) as the text outputs print it: control characters
 * (a line break, ESC) as \xNN, so one row stays one line and reaches a terminal inert. */
void cli_diff__name(tt_buf *b, const char *s);
/* A number as the text outputs print it: integers bare, else at most 2 decimals; NaN "-". */
void cli_diff__num(tt_buf *b, double v);
/* An item as the text outputs name it: "SUB KEY", and a startup's endpoint events
 * " (FROM..TO)" when recorded. */
void cli_diff__subject(tt_buf *b, const item *it);
/* The endpoint events of a startup item, " (FROM..TO)", or nothing. */
void cli_diff__endpoints(tt_buf *b, const item *it);
/* Key order of two items of a section with the same sub: key, then endpoints. */
int cli_diff__cmp_key(const item *x, const item *y);
/* "+d, +p%" (the percentage only when base is not 0). */
void cli_diff__delta_text(tt_buf *b, double base, double n);
/* "added"/"removed" (the section's words) or "changed". */
const char *cli_diff__status_of(const item *it);
/* One tripped gate as a text line. */
void cli_diff__trip_text(tt_buf *b, const trip *t);
/* The tripped gates, each line after prefix, at most 10 rows per gate (the largest changes),
 * then a line counting the others. */
void cli_diff__trips_text(tt_buf *b, const dctx *c, const char *prefix);
/* The gates that tripped: distinct gates (c->trips is sorted by gate), not the rows they
 * tripped on (c->trips.len). */
size_t cli_diff__gates_tripped(const dctx *c);
/* The reported regressions and improvements. */
void cli_diff__counts(const dctx *c, int *reg, int *imp);
/* The gate that tripped on value j of it, if any. */
const trip *cli_diff__trip_of(const dctx *c, const item *it, int j);

/* ---- the outputs: each writes the result of c (exit status rc) to b; -1 when out of memory ---- */
int cli_diff__text_out(const dctx *c, tt_buf *b, int rc);
int cli_diff__json_out(const dctx *c, tt_buf *b, int rc);
/* The HTML report's diff tables (visual.md 10.2 item 8) go to c->o->report, not to b. */
int cli_diff__html_tables(const dctx *c, tt_buf *b, int rc);

#endif
