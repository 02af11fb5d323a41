/* Diff thresholds, CI gates and name matching (diff.c; tracetool-diff(1)). Part of the
 * public API; included by tt.h. */
#ifndef TT_DIFF_H
#define TT_DIFF_H

#include "tt_base.h"

/* ---- diff thresholds, CI gates and name matching (diff.c; tracetool-diff(1)) ---- */
#define TT_GATES_MAX 32
typedef struct tt_gate {
    const char *metric; /* canonical metric name (static string of tt_diff_metric_names) */
    int dir;            /* +1: an increase is a regression; -1: a decrease is */
    int is_pct;         /* value is a percentage of the base value; else absolute */
    double value;       /* >= 0 */
} tt_gate;
/* The metric names --fail-on accepts, NULL-terminated (aliases "fps", "jank" excluded). */
const char *const *tt_diff_metric_names(void);
/* The natural regression direction of a canonical metric (+1 or -1); 0 if unknown. */
int tt_diff_metric_dir(const char *metric);
/* A percentage: "25%", "25" or "2.5"; 0 <= value <= 1e6. */
int tt_diff_parse_pct(double *out, const char *s, tt_error *err);
/* A --fail-on list "METRIC=[+|-]NUMBER[%|ms][,...]" (at most cap distinct items; an item
 * identical to an earlier one is kept once). Without a sign the metric's natural direction
 * applies; aliases are replaced by canonical names. */
int tt_diff_parse_gates(tt_gate *out, size_t cap, size_t *n, const char *s, tt_error *err);
/* Appends g to gates[0..*n) unless an identical gate (metric, direction, unit, value) is
 * there already; TT_ELIMIT when cap gates are there. */
int tt_gate_add(tt_gate *gates, size_t cap, size_t *n, const tt_gate *g);
/* 1 when base -> new regresses beyond g: dir * (new - base) > value, or, for a percentage,
 * > value % of |base| (never when base is 0: a relative change from nothing is undefined).
 * *amount (may be NULL) receives dir * (new - base). */
int tt_gate_trips(const tt_gate *g, double base, double new_value, double *amount);
/* Writes g as "metric=+10%" into out (cap bytes); the text of a gate that
 * tt_diff_parse_gates produced parses back to the same gate (shortest exact decimal). */
void tt_gate_format(char *out, size_t cap, const tt_gate *g);
/* analyze --fail-on: a condition WHAT[@MS][:N] on the traces a run imported. WHAT is
 * "issue" (any kind), an issue kind (the values of issue.kind) or "data-loss" (stats of
 * severity data_loss or error; no @MS); @MS counts issues costing at least MS ms; :N trips
 * at N (>= 1, default 1). */
enum { TT_COND_ISSUE, TT_COND_LOST };
typedef struct tt_issue_cond {
    int what;            /* TT_COND_* */
    const char *kind;    /* static issue kind, NULL = any */
    int64_t min_cost_ms; /* INT64_MIN: any cost */
    int64_t min_count;
} tt_issue_cond;
int tt_issue_cond_parse(tt_issue_cond *c, const char *s, tt_error *err);
/* The issue kinds, NULL-terminated. */
extern const char *const tt_issue_kinds[];

/* Cross-build matching (storage.md 8): TT_NAME_UNRESOLVED for "<unknown id N>",
 * "unresolved:..." keys, raw addresses and "??"; TT_NAME_OBFUSCATED when both the class
 * and the method segment of a Java key are one or two lowercase letters ("a.b.c(int)"). */
enum { TT_NAME_OK = 0, TT_NAME_UNRESOLVED = 1, TT_NAME_OBFUSCATED = 2 };
int tt_name_classify(const char *name);

#endif
