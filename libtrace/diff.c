/* tracetool diff support without a database: the threshold and --fail-on parsers, gate
 * evaluation, and the name checks of cross-build matching (storage.md 8; tracetool-diff(1)). */
#include "tt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tt_int.h"

static const struct {
    const char *name;
    int dir;
    const char *unit; /* "ms": an absolute value may name it */
} metrics[] = {
    {"method.self", 1, "ms"},      {"method.total", 1, "ms"},     {"method.calls", 1, "calls"},
    {"issue.new", 1, "issue keys"}, {"issue.count", 1, "issues"}, {"issue.cost", 1, "ms"},
    {"startup.cold", 1, "ms"},     {"startup.warm", 1, "ms"},     {"startup.hot", 1, "ms"},
    {"startup.relaunch", 1, "ms"}, {"startup.unknown", 1, "ms"},  {"startup.segment", 1, "ms"},
    {"scene.fps", -1, "frames per second"}, {"scene.jank", 1, "percentage points"},
    {"scene.p50", 1, "ms"},        {"scene.p90", 1, "ms"},        {"scene.p95", 1, "ms"},
    {"scene.p99", 1, "ms"},        {"scene.frozen", 1, "percentage points"},
    {"scene.high", 1, "percentage points"}, {"sampled.self", 1, "ms"},
    {"sampled.total", 1, "ms"},    {"sampled.samples", 1, "samples"},
};
#define NMETRICS (sizeof metrics / sizeof metrics[0])
static const struct {
    const char *alias, *name;
} aliases[] = {{"fps", "scene.fps"}, {"jank", "scene.jank"}};

const char *const *tt_diff_metric_names(void)
{
    static const char *names[NMETRICS + 1];
    if (!names[0])
        for (size_t i = 0; i < NMETRICS; i++)
            names[i] = metrics[i].name;
    return names;
}

static int metric_index(const char *s, size_t n)
{
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (strlen(aliases[i].alias) == n && !memcmp(aliases[i].alias, s, n)) {
            s = aliases[i].name;
            n = strlen(s);
        }
    for (size_t i = 0; i < NMETRICS; i++)
        if (strlen(metrics[i].name) == n && !memcmp(metrics[i].name, s, n))
            return (int)i;
    return -1;
}

int tt_diff_metric_dir(const char *metric)
{
    int i = metric_index(metric, strlen(metric));
    return i < 0 ? 0 : metrics[i].dir;
}

/* A non-negative decimal "12", "12.5", ".5" of at most 15 characters; 0 on success. */
static int parse_number(const char *s, size_t n, double *out)
{
    size_t digits = 0, dots = 0;
    char tmp[16];
    if (!n || n >= sizeof tmp)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (s[i] >= '0' && s[i] <= '9')
            digits++;
        else if (s[i] == '.' && !dots)
            dots++;
        else
            return -1;
    }
    if (!digits)
        return -1;
    memcpy(tmp, s, n);
    tmp[n] = 0;
    double v = 0, scale = 0;
    for (size_t i = 0; i < n; i++) {
        if (tmp[i] == '.') {
            scale = 1;
            continue;
        }
        v = v * 10 + (tmp[i] - '0');
        if (scale)
            scale *= 10;
    }
    *out = scale ? v / scale : v;
    return 0;
}

int tt_diff_parse_pct(double *out, const char *s, tt_error *err)
{
    size_t n = strlen(s);
    char snip[48];
    tt__snippet(snip, sizeof snip, s, n);
    if (n && s[n - 1] == '%')
        n--;
    if (parse_number(s, n, out) || *out > 1e6)
        return tt_error_set(err, TT_EINVAL, NULL, 0, 0,
                            "expected a percentage such as 10%% or 2.5, got \"%s\"", snip);
    return 0;
}

static int gate_item(tt_gate *g, const char *s, size_t n, int ordinal, tt_error *err)
{
    char snip[48];
    tt__trim(&s, &n);
    tt__snippet(snip, sizeof snip, s, n);
    const char *eq = memchr(s, '=', n);
    if (!eq)
        return tt_error_set(err, TT_EINVAL, NULL, 0, 0,
                            "--fail-on item %d \"%s\": expected METRIC=[+|-]NUMBER[%%|ms]",
                            ordinal, snip);
    const char *name = s;
    size_t nn = (size_t)(eq - s);
    tt__trim(&name, &nn);
    int mi = metric_index(name, nn);
    if (mi < 0)
        return tt_error_set(err, TT_EINVAL, NULL, 0, 0,
                            "--fail-on item %d \"%s\": unknown metric; expected one of "
                            "method.self, method.total, method.calls, issue.new, issue.count, "
                            "issue.cost, startup.cold|warm|hot|relaunch|unknown|segment, "
                            "scene.fps (fps), scene.jank (jank), scene.p50|p90|p95|p99, "
                            "scene.frozen, "
                            "scene.high, sampled.self|total|samples",
                            ordinal, snip);
    const char *v = eq + 1;
    size_t vn = (size_t)(s + n - v);
    tt__trim(&v, &vn);
    g->metric = metrics[mi].name;
    g->dir = metrics[mi].dir;
    g->is_pct = 0;
    if (vn && (v[0] == '+' || v[0] == '-')) {
        g->dir = v[0] == '+' ? 1 : -1;
        v++;
        vn--;
    }
    if (vn && v[vn - 1] == '%') {
        g->is_pct = 1;
        vn--;
    } else if (vn > 2 && !memcmp(v + vn - 2, "ms", 2)) {
        vn -= 2; /* an absolute value may name its unit */
        if (strcmp(metrics[mi].unit, "ms"))
            return tt_error_set(err, TT_EINVAL, NULL, 0, 0,
                                "--fail-on item %d \"%s\": %s is counted in %s, not ms: give "
                                "a plain number%s",
                                ordinal, snip, metrics[mi].name, metrics[mi].unit,
                                strcmp(metrics[mi].name, "issue.new") ? " or a percentage" : "");
    }
    if (parse_number(v, vn, &g->value) || g->value > 1e12)
        return tt_error_set(err, TT_EINVAL, NULL, 0, 0,
                            "--fail-on item %d \"%s\": expected a non-negative number after "
                            "'=' (with an optional sign, then %% or ms)",
                            ordinal, snip);
    /* its base value is always 0 (keys absent from the base), and a percentage of 0 never
     * trips (tt_gate_trips): a gate that could never fail is refused */
    if (g->is_pct && !strcmp(g->metric, "issue.new"))
        return tt_error_set(err, TT_EINVAL, NULL, 0, 0,
                            "--fail-on item %d \"%s\": issue.new counts issue keys absent from "
                            "the base, so its base value is always 0 and a percentage never "
                            "trips; use an absolute count such as issue.new=+0",
                            ordinal, snip);
    return 0;
}

int tt_gate_add(tt_gate *gates, size_t cap, size_t *n, const tt_gate *g)
{
    for (size_t i = 0; i < *n; i++)
        if (!strcmp(gates[i].metric, g->metric) && gates[i].dir == g->dir &&
            gates[i].is_pct == g->is_pct && gates[i].value == g->value)
            return 0;
    if (*n >= cap)
        return TT_ELIMIT;
    gates[(*n)++] = *g;
    return 0;
}

int tt_diff_parse_gates(tt_gate *out, size_t cap, size_t *n, const char *s, tt_error *err)
{
    *n = 0;
    size_t len = strlen(s);
    int ordinal = 0;
    for (size_t i = 0; i <= len;) {
        const char *comma = memchr(s + i, ',', len - i);
        size_t end = comma ? (size_t)(comma - s) : len;
        ordinal++;
        tt_gate g;
        int rc = gate_item(&g, s + i, end - i, ordinal, err);
        if (rc)
            return rc;
        if (tt_gate_add(out, cap, n, &g))
            return tt_error_set(err, TT_ELIMIT, NULL, 0, 0, "--fail-on: more than %zu items",
                                cap);
        i = end + 1;
    }
    return 0;
}

int tt_gate_trips(const tt_gate *g, double base, double new_value, double *amount)
{
    double d = g->dir * (new_value - base);
    if (amount)
        *amount = d;
    if (isnan(d))
        return 0;
    if (!g->is_pct)
        return d > g->value;
    if (base == 0)
        return 0;
    return d * 100.0 / fabs(base) > g->value;
}

/* The shortest "%.Nf" text of v (leading "0" dropped when needed to fit) that parse_number
 * reads back as exactly v: every value the parser accepts round-trips, since its input had
 * at most 15 characters and 15 significant digits survive a double. */
static void format_number(char *out, size_t cap, double v)
{
    char num[48];
    for (int prec = 0; prec <= 14; prec++) {
        snprintf(num, sizeof num, "%.*f", prec, v);
        const char *p = num;
        if (strlen(p) > 15 && p[0] == '0' && p[1] == '.')
            p++;
        double back;
        if (parse_number(p, strlen(p), &back) == 0 && back == v) {
            snprintf(out, cap, "%s", p);
            return;
        }
    }
    /* not a parsed value (set by a program): six decimals, trailing zeros trimmed */
    snprintf(num, sizeof num, "%.6f", v);
    char *e = num + strlen(num);
    while (e[-1] == '0')
        *--e = 0;
    if (e[-1] == '.')
        e[-1] = 0;
    snprintf(out, cap, "%s", num);
}

void tt_gate_format(char *out, size_t cap, const tt_gate *g)
{
    char num[48];
    format_number(num, sizeof num, g->value);
    snprintf(out, cap, "%s=%c%s%s", g->metric, g->dir > 0 ? '+' : '-', num,
             g->is_pct ? "%" : "");
}

static int is_short_segment(const char *s, size_t n)
{
    if (!n || n > 2)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] < 'a' || s[i] > 'z') /* R8/ProGuard's short names: a, b, ..., aa, ab */
            return 0;
    return 1;
}

int tt_name_classify(const char *name)
{
    if (!strncmp(name, "<unknown id ", 12) || !strncmp(name, "unresolved:", 11) ||
        !strncmp(name, "0x", 2) || !strncmp(name, "??", 2) || !*name)
        return TT_NAME_UNRESOLVED;
    /* pkg.Class.method(params): look at the last two segments before '(' */
    const char *paren = strchr(name, '(');
    size_t end = paren ? (size_t)(paren - name) : strlen(name);
    size_t dot = end;
    while (dot > 0 && name[dot - 1] != '.')
        dot--;
    if (!dot || !paren)
        return TT_NAME_OK;
    size_t cls = dot - 1;
    while (cls > 0 && name[cls - 1] != '.')
        cls--;
    if (is_short_segment(name + dot, end - dot) && is_short_segment(name + cls, dot - 1 - cls))
        return TT_NAME_OBFUSCATED;
    return TT_NAME_OK;
}
