/* Flame graphs and the HTML report (spec/visual.md). Part of the public API; included
 * by tt.h. */
#ifndef TT_FLAME_H
#define TT_FLAME_H

#include "tt_samples.h"

/* ---- flame graphs (flame.c, palette.c, svg.c, export_svg.c; spec/visual.md) ---- */
/* Frame categories (visual.md 4.1). */
enum { TT_FCAT_SYNTHETIC = 0, TT_FCAT_ELIDED, TT_FCAT_KERNEL, TT_FCAT_JS, TT_FCAT_JAVA_PLATFORM,
       TT_FCAT_JAVA_APP, TT_FCAT_CPP, TT_FCAT_NATIVE, TT_FCAT_COUNT };
const char *tt_flame_cat_name(int cat);
/* The category of a frame: kind TT_FRAME_*, its name and module (may be NULL); app package
 * prefixes (n may be 0) make other Java frames platform code. */
int tt_flame_category(int kind, const char *name, const char *module,
                      const char *const *app, size_t napp);

/* A weighted tree (visual.md 2): node 0 is the root "all"; a node's parent has a smaller id.
 * Side 0 is "new" (total/self), side 1 "base" (total_b/self_b) of a differential graph. */
typedef struct tt_flame_node {
    uint32_t name, parent, child, next; /* child/next: first child, next sibling; TT_NONE */
    uint32_t depth;
    int64_t total, self, total_b, self_b;
    int64_t reported;                   /* a tree source's own total (-1: none) */
    int64_t matrix_depth;               /* Matrix depth when it skips levels (-1: none) */
    int64_t x0;                         /* flame chart: position in units (-1: graph) */
} tt_flame_node;
typedef struct tt_flame tt_flame;
/* Owned by the caller, free with tt_flame_free. */
int tt_flame_new(tt_flame **out);
void tt_flame_free(tt_flame *f);
/* Interns a display name (copied) with its category (the first category given wins) and
 * colour module (may be NULL). */
int tt_flame_intern(tt_flame *f, uint32_t *id, const char *name, int cat, const char *module);
const char *tt_flame_name(const tt_flame *f, uint32_t id, size_t *len);
int tt_flame_name_cat(const tt_flame *f, uint32_t id);
const char *tt_flame_name_module(const tt_flame *f, uint32_t id);
/* A flame chart node (visual.md 3.1): never merged, at x0 (units from the chart start) with
 * width total and self weight self. */
int tt_flame_chart_node(tt_flame *f, uint32_t *out, uint32_t parent, uint32_t name,
                        int64_t x0, int64_t total, int64_t self);
/* The child of parent named name, created when missing (siblings merge by display name). */
int tt_flame_child(tt_flame *f, uint32_t *out, uint32_t parent, uint32_t name);
size_t tt_flame_nnodes(const tt_flame *f);
tt_flame_node *tt_flame_node_at(tt_flame *f, uint32_t id);

/* Stack transformations applied before merging (visual.md 2). */
typedef struct tt_flame_xform {
    int reverse;             /* leaf first */
    int fold_recursion;      /* A;A;A -> A */
    const void *focus;       /* a compiled regex_t, or NULL */
    size_t keep_roots;       /* leading frames kept above a focus cut (thread roots) */
    int norm_roots;          /* tt_flame_add_profile: thread roots with digit runs as '#' */
    int windowed;            /* only the time in [win_from, win_to] (ns, the startup window) */
    int64_t win_from, win_to;
} tt_flame_xform;
/* Adds weight w to the self of the path names[0..n) (root first) below the root, on side
 * (0 new, 1 base), after the transformations of x (may be NULL). A focus without a match
 * drops the stack (returns 0). names is modified. */
int tt_flame_add_stack(tt_flame *f, uint32_t *names, size_t n, int64_t w, int side,
                       const tt_flame_xform *x);
/* Totals from selves, children before parents: total = max(reported, self + sum of
 * children); returns the number of nodes whose children exceeded their reported total. */
size_t tt_flame_finish(tt_flame *f);
/* Rescales the base selves to the new total by largest-remainder apportionment (visual.md
 * 5.1); call tt_flame_finish afterwards. */
int tt_flame_normalize(tt_flame *f);

/* Layout (visual.md 3). */
enum { TT_FLAME_WIDTH_NEW = 0, TT_FLAME_WIDTH_BASE, TT_FLAME_WIDTH_SUM };
typedef struct tt_flame_layout_opts {
    int sort_weight;         /* siblings by total descending instead of by name */
    int width;               /* image width in px (minwidth in px uses width - 20) */
    int64_t minwidth_milli;  /* minimum width, thousandths of a px or (pct) of a percent */
    int minwidth_pct;
    size_t max_frames;       /* 0 = no budget */
    int widths;              /* TT_FLAME_WIDTH_* */
} tt_flame_layout_opts;
typedef struct tt_flame_frame {
    uint32_t node;           /* TT_NONE for an elided aggregate */
    uint32_t depth, parent_frame;
    int64_t x, w;            /* weight units */
    int64_t elided_n, elided_w; /* pruned children of this frame (count, weight) */
    uint32_t top[3];         /* elided aggregate: its three largest nodes (TT_NONE) */
} tt_flame_frame;
typedef struct tt_flame_layout {
    tt_flame_frame *frames;
    size_t n, nodes;         /* drawn frames; nodes with a non-zero width */
    int64_t total, threshold;
    uint32_t max_depth;
} tt_flame_layout;
/* Owned by the caller, free with tt_flame_layout_free. */
int tt_flame_layout_build(tt_flame_layout *out, tt_flame *f, const tt_flame_layout_opts *o);
void tt_flame_layout_free(tt_flame_layout *l);
/* Width units of node under mode (TT_FLAME_WIDTH_*). */
int64_t tt_flame_width_of(const tt_flame_node *n, int mode);
/* round_half_up(a * b / c) in 128-bit arithmetic (c > 0, a, b >= 0). */
int64_t tt_muldiv(int64_t a, int64_t b, int64_t c);

/* Colours (palette.c, visual.md 4, 5.2) as 0xRRGGBB. */
enum { TT_COLORS_LANG = 0, TT_COLORS_MODULE, TT_COLORS_PACKAGE, TT_COLORS_HOT, TT_COLORS_MONO };
/* FNV-1a, 64 bits (hash.c). */
uint64_t tt_fnv1a64(const char *s, size_t n);
uint32_t tt_flame_color(int scheme, int cat, const char *name, size_t len, const char *module);
/* The colour key of the module and package schemes (visual.md 4.2): *n bytes at the result
 * (borrowed from name or module). */
const char *tt_flame_color_key(int scheme, int cat, const char *name, size_t len,
                               const char *module, size_t *n);
/* Differential colour: delta against the scale max m (>= 1); dead = below --diff-min. */
uint32_t tt_flame_diff_color(int64_t delta, int64_t m, int dead);
/* WCAG 2.1 contrast ratio of rgb against black, times 100. */
int tt_contrast_black_x100(uint32_t rgb);

/* Text (svg.c, visual.md 6): escaping with UTF-8 repair, cells, fitting. */
/* Appends s[0..n) as XML text (attr: also '"'), invalid or forbidden code points as U+FFFD,
 * tab/CR/LF as blanks. */
int tt_svg_escape(tt_buf *b, const char *s, size_t n, int attr);
/* Display cells of s[0..n) (East Asian wide code points count two). */
size_t tt_svg_cells(const char *s, size_t n);
/* The text fitting cells cells (visual.md 6.1), appended escaped to b; 0 when nothing fits
 * (under 3 cells). truncate_left: ".." first. */
int tt_svg_fit(tt_buf *b, const char *name, size_t n, size_t cells, int truncate_left);

/* SVG writer (export_svg.c, visual.md 7). */
typedef struct tt_svg_opts {
    int width, row_height, font_size;
    int icicle, chart, diff;
    int colors;              /* TT_COLORS_* */
    int truncate_left;
    int script;              /* embed the script and buttons */
    int inline_html;         /* inside the HTML report: no XML declaration, no onload */
    int weight_ns;           /* weights are ns: printed as ms */
    int diff_total;          /* colour by total delta instead of self */
    int64_t diff_min_milli;  /* thousandths of a percent of T */
    int widths;              /* TT_FLAME_WIDTH_* */
    const char *title, *subtitle, *countname, *nametype, *id_prefix;
} tt_svg_opts;
void tt_svg_opts_init(tt_svg_opts *o);
/* Writes the laid out tree as SVG into b (visual.md 7). */
int tt_svg_write(tt_buf *b, tt_flame *f, const tt_flame_layout *l, const tt_svg_opts *o);
/* The layout as TSV rows (visual.md 3.4). */
int tt_flame_write_tsv(tt_buf *b, tt_flame *f, const tt_flame_layout *l);
/* The embedded script and style sheet (libtrace/assets/). */
const char *tt_flame_script(void);
const char *tt_flame_style(void);

/* Adds the weighted stacks of the profile's threads (eo: weight, thread filter, root kind,
 * slice options) to side of f, through the transformations of x (may be NULL); app (napp)
 * marks app Java packages. */
/* The flame chart of one thread (visual.md 3.1): its slices (rebuilt or instrumented) in
 * time order, x = ts - first ts, w = dur; root_thread adds the thread as the root frame.
 * x (may be NULL): only its window counts (slices clipped to it, x from its start). */
int tt_flame_add_chart(tt_flame *f, tt_profile *p, uint32_t utid, const tt_slice_opts *so,
                       int root_thread, const tt_flame_xform *x, const char *const *app,
                       size_t napp, tt_error *err);
/* A call tree without times as a flame chart (visual.md 3.1, Matrix trees): after
 * tt_flame_finish, every chart node is placed at its parent's left edge plus the totals of
 * the siblings created before it (Matrix line order). */
int tt_flame_chart_pack(tt_flame *f);
int tt_flame_add_profile(tt_flame *f, tt_profile *p, const tt_export_opts *eo,
                         const tt_flame_xform *x, const char *const *app, size_t napp,
                         int side, tt_error *err);

/* ---- the HTML report (html.c, chart.c; spec/visual.md 10) ---- */
/* Charts of a table: BARS (label_col, value_col), LEVELS (value_col .. +4 level counts),
 * WATERFALL (a chart per value of column 0, the startup; column 1 its kind; value_col the
 * start ms, the next the duration ms), HIST (value_col the count, the next the drop level
 * that colours the bar), STRIP (a strip row per value of label_col, rows consecutive: a dot
 * per value_col value whose next column, the reason it is left out, is empty; median and p90
 * marked), SERIES (fps over time: label_col the series, the next column its rank, 0 for the
 * main chart, more for the chart folded into <details>; value_col the window start ms, then
 * its length ms, frames and fps; a series' windows consecutive in time order). */
enum { TT_RCHART_NONE = 0, TT_RCHART_BARS, TT_RCHART_LEVELS, TT_RCHART_WATERFALL,
       TT_RCHART_HIST, TT_RCHART_STRIP, TT_RCHART_SERIES };
#define TT_HREPORT_TABLES 32
typedef struct tt_hreport_table {
    const char *section;     /* summary, inputs, startup, frames, issues, methods */
    const char *caption;
    size_t ncol, nrow;
    const char **cols;
    tt_vec cells;            /* const char * (NULL = empty), nrow * ncol */
    tt_vec nums;             /* double per cell; NAN = text */
    int chart;               /* TT_RCHART_* */
    int label_col, value_col; /* bars: label and value; levels: the first of 5 count columns */
    const char *unit;        /* of the charted value */
    int details;             /* the table folds into <details> */
    const char *color;       /* bars: fill (static string; NULL = #0072B2) */
    int ref_col;             /* bars: 1 + the column whose largest value gets a dashed line
                              * (refresh rate); 0 = none */
} tt_hreport_table;
/* An issue's call tree in the report (visual.md 10.2 item 5): nodes in pre-order. */
typedef struct tt_hreport_node {
    uint32_t depth;          /* 0 = a root */
    const char *name;
    int64_t count, total_dur, self_dur; /* -1 = unknown */
} tt_hreport_node;
typedef struct tt_hreport_tree {
    const char *title;       /* kind, stack key, cost, scene */
    int64_t issue_id;
    tt_vec nodes;            /* tt_hreport_node */
    size_t omitted;          /* nodes beyond the report's cap */
    const char *svg;         /* its icicle (inline SVG, borrowed from the caller) or NULL */
} tt_hreport_tree;
#define TT_HREPORT_TREES 10
#define TT_HREPORT_TREE_NODES 400
typedef struct tt_hreport {
    tt_arena *arena;
    tt_hreport_table tables[TT_HREPORT_TABLES];
    size_t ntables;
    tt_hreport_tree trees[TT_HREPORT_TREES];
    size_t ntrees;
} tt_hreport;
/* Owned by the caller, free with tt_hreport_free. */
int tt_hreport_new(tt_hreport **out);
void tt_hreport_free(tt_hreport *r);
/* A new table (cols copied); *out borrowed until tt_hreport_free. TT_ELIMIT when full. */
int tt_hreport_table_add(tt_hreport *r, tt_hreport_table **out, const char *section,
                        const char *caption, size_t ncol, const char *const *cols);
/* A new issue tree (title copied); *out borrowed until tt_hreport_free. TT_ELIMIT when
 * full. Nodes beyond TT_HREPORT_TREE_NODES are counted in omitted, not kept. */
int tt_hreport_tree_add(tt_hreport *r, tt_hreport_tree **out, int64_t issue_id,
                        const char *title);
int tt_hreport_node_add(tt_hreport *r, tt_hreport_tree *t, uint32_t depth, const char *name,
                        int64_t count, int64_t total_dur, int64_t self_dur);
/* One row: ncol texts (copied; NULL = empty) and values (NAN = not a number). */
int tt_hreport_row_add(tt_hreport *r, tt_hreport_table *t, const char *const *cells,
                      const double *nums);
typedef struct tt_html_graph {
    const char *title;
    const char *svg;         /* inline SVG (tt_svg_opts.inline_html) */
    int diff;                /* drawn in the Diff section (the differential flame graph) */
} tt_html_graph;
typedef struct tt_html_opts {
    const char *title;       /* document title */
    const char *inputs;      /* input names shown under the title */
    const tt_html_graph *graphs;
    size_t ngraphs;
    int script;              /* the page script (graph interaction, sorting) */
    const char *about;       /* the About section's extra text (options), or NULL */
    int diff;                /* diff mode: the Diff section */
} tt_html_opts;
/* Writes the self-contained HTML document (visual.md 10) into b. */
int tt_html_write(tt_buf *b, const tt_hreport *r, const tt_html_opts *o);
/* Horizontal bar chart (visual.md 10.3) of labels/values (n) into b; unit names values. */
int tt_chart_bars(tt_buf *b, const char *title, const char *const *labels,
                  const double *values, size_t n, const char *unit, const char *color);
/* The same with a colour per bar (colors[i % ncolors]) and, when ref > 0, a dashed line at
 * ref named ref_name (the refresh rate of an FPS chart). */
int tt_chart_bars_ex(tt_buf *b, const char *title, const char *const *labels,
                     const double *values, size_t n, const char *unit,
                     const char *const *colors, size_t ncolors, double ref, const char *ref_name);
/* A startup waterfall (visual.md 10.3): a row per segment from start_ms for dur_ms, dashed
 * lines at the Vitals TTID limit and Matrix's threshold of kind when they fit the axis. */
int tt_chart_waterfall(tt_buf *b, const char *title, const char *const *labels,
                       const double *start_ms, const double *dur_ms, size_t n, const char *kind);
/* 100% stacked drop-level bars: counts[i * 5 + level] for best..frozen. */
int tt_chart_levels(tt_buf *b, const char *title, const char *const *labels,
                    const double *counts, size_t n);
/* A strip chart (visual.md 10.2 item 3): a row per group of consecutive equal labels, a dot
 * per value (NAN: left out), the median and p90 of the row (startup.md 5.5) marked. */
int tt_chart_strip(tt_buf *b, const char *title, const char *const *labels,
                   const double *values, size_t n, const char *unit);
/* fps over time (visual.md 10.3): a polyline per series (consecutive equal labels, windows in
 * time order), broken at windows without frames and where a series' windows do not follow
 * each other; time without any window (compacted gaps) is cut from the axis as a shaded
 * break. windows (NULL: 1 each) is how many stored windows a point stands for (a bucket of
 * the report's table), counted in the tooltips. */
int tt_chart_series(tt_buf *b, const char *title, const char *const *labels,
                    const double *start_ms, const double *dur_ms, const double *frames,
                    const double *fps, const double *windows, size_t n);
/* The axis step of max (1, 2 or 5 x 10^k, max / step <= 6) in units of 10^-3. */
int64_t tt_chart_step_milli(double max);

#endif
