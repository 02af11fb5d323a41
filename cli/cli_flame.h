/* Flame graph options and rendering shared by flamegraph, diff --format svg and html
 * (spec/visual.md). */
#ifndef CLI_FLAME_H
#define CLI_FLAME_H

#include "cli.h"

#define CLI_FLAME_MAX_LIST 64

typedef struct cli_flame_opts {
    int64_t trace;              /* 0 = newest with data */
    int source;                 /* CF_SRC_* */
    int64_t source_id;          /* tree:ID, issue:ID, startup:ID (0: the first) */
    const char *threads[CLI_FLAME_MAX_LIST];
    size_t nthreads;
    int root, weight;           /* TT_ROOT_*, TT_WEIGHT_* */
    int weight_given, countname_given;
    int reverse, fold_recursion, sort_weight;
    int chart;                  /* flame chart: time order, no merging */
    const char *focus;
    int64_t minwidth_milli;
    int minwidth_pct;
    int64_t max_frames;
    const char *app[CLI_FLAME_MAX_LIST];
    size_t napp;
    int format;                 /* 0 svg, 1 tsv */
    const char *output;
    /* differential (diff --format svg) */
    int widths, diff_total, normalize;
    int norm_roots;             /* thread roots with digit runs as '#' (cross-build) */
    int threads_optional;       /* no --thread match: CLI_FLAME_NONE, no message */
    int data_optional;          /* no trace with stacks: CLI_FLAME_NONE, no message (html) */
    int64_t diff_min_milli;
    tt_svg_opts svg;
    char note[200];             /* the default subtitle of a startup window or Matrix chart */
    char win_clock[32];         /* clock of the startup window's trace */
} cli_flame_opts;
enum { CF_SRC_SAMPLES = 0, CF_SRC_SLICES, CF_SRC_TREE, CF_SRC_ISSUE, CF_SRC_STARTUP };

enum { CF_TRACE = 2000, CF_SOURCE, CF_THREAD, CF_ROOT, CF_WEIGHT, CF_CHART, CF_ICICLE,
       CF_REVERSE, CF_SORT, CF_FOLD, CF_FOCUS, CF_WIDTH, CF_HEIGHT, CF_FONTSIZE, CF_MINWIDTH,
       CF_MAXFRAMES, CF_COLORS, CF_APP, CF_TITLE, CF_SUBTITLE, CF_COUNTNAME, CF_NAMETYPE,
       CF_TRUNCATE, CF_SCRIPT, CF_FORMAT, CF_DWIDTHS, CF_DCOLOR, CF_NORMALIZE, CF_DMIN };
/* Options common to flamegraph and diff --format svg (without --trace, --thread, --format,
 * which each command spells itself). */
#define CLI_FLAME_LONGOPTS                                                                   \
    {"source", required_argument, NULL, CF_SOURCE},                                          \
    {"root", required_argument, NULL, CF_ROOT},                                              \
    {"weight", required_argument, NULL, CF_WEIGHT},                                          \
    {"chart", no_argument, NULL, CF_CHART},                                                  \
    {"flamechart", no_argument, NULL, CF_CHART},                                             \
    {"icicle", no_argument, NULL, CF_ICICLE},                                                \
    {"inverted", no_argument, NULL, CF_ICICLE},                                              \
    {"reverse", no_argument, NULL, CF_REVERSE},                                              \
    {"sort", required_argument, NULL, CF_SORT},                                              \
    {"fold-recursion", no_argument, NULL, CF_FOLD},                                          \
    {"focus", required_argument, NULL, CF_FOCUS},                                            \
    {"width", required_argument, NULL, CF_WIDTH},                                            \
    {"height", required_argument, NULL, CF_HEIGHT},                                          \
    {"fontsize", required_argument, NULL, CF_FONTSIZE},                                      \
    {"minwidth", required_argument, NULL, CF_MINWIDTH},                                      \
    {"max-frames", required_argument, NULL, CF_MAXFRAMES},                                   \
    {"colors", required_argument, NULL, CF_COLORS},                                          \
    {"app-package", required_argument, NULL, CF_APP},                                        \
    {"title", required_argument, NULL, CF_TITLE},                                            \
    {"subtitle", required_argument, NULL, CF_SUBTITLE},                                      \
    {"countname", required_argument, NULL, CF_COUNTNAME},                                    \
    {"nametype", required_argument, NULL, CF_NAMETYPE},                                      \
    {"truncate", required_argument, NULL, CF_TRUNCATE},                                      \
    {"script", required_argument, NULL, CF_SCRIPT}
#define CLI_FLAME_DIFF_LONGOPTS                                                              \
    {"diff-widths", required_argument, NULL, CF_DWIDTHS},                                    \
    {"diff-color", required_argument, NULL, CF_DCOLOR},                                      \
    {"normalize", no_argument, NULL, CF_NORMALIZE},                                          \
    {"diff-min", required_argument, NULL, CF_DMIN}

#define CLI_FLAME_NONE (-1)
void cli_flame_opts_init(cli_flame_opts *o);
/* Handles one option (CF_*): 1 handled, 0 not one of them, -1 after an error message. */
int cli_flame_opt(cli_flame_opts *o, int c, const char *arg);
/* Parses "12", "12.5" or "12.345" into thousandths (max 3 decimals); -1 when invalid. */
int64_t cli_flame_milli(const char *s);

/* Adds one trace of the database at dbpath (o->trace, 0 = newest with data) to side of f;
 * label (may be NULL) names the input in messages. Sets the weight unit in o->svg.
 * Returns 0 or an exit code after printing. */
int cli_flame_load_db(tt_flame *f, const char *dbpath, const char *label, int64_t trace,
                      cli_flame_opts *o, int side, cli_ctx *ctx);
/* Adds the sampled stacks of the raw inputs files[0..n) (perf script, simpleperf, btrace,
 * folded, JSON-lines samples), loaded into memory as export loads them (one profile, each
 * input's processes its own), to f; event: the perf event to keep (NULL: the first).
 * Returns 0 or an exit code after printing. */
int cli_flame_load_raw(tt_flame *f, char **files, size_t n, const char *label,
                       const char *event, cli_flame_opts *o, cli_ctx *ctx);
/* Lays out f and writes it (SVG or TSV) to o->output (FILE.tmp-<pid>, renamed) or stdout. */
int cli_flame_render(tt_flame *f, cli_flame_opts *o);
/* The same into a buffer (the HTML report): SVG only. */
int cli_flame_render_buf(tt_buf *b, tt_flame *f, cli_flame_opts *o);

/* Writes b to path atomically (path.tmp-<pid>, then rename) or to stdout when path is NULL. */
int cli_flame_write_file(const char *path, const tt_buf *b);

#endif
