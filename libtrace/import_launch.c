/* System-measured launches: logcat `Displayed` / `Fully drawn` lines with any prefix
 * (startup.md 4.3) and `adb shell am start -W` blocks (4.4), mixed in one text input. */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

#include "tt_int.h"

typedef struct am_state {
    int open, complete;
    tt_su_launch cur;
} am_state;

static const char *intern_str(tt_startup *s, const char *p, size_t n)
{
    uint32_t id = tt_startup__intern(s, p, n);
    return id == TT__SU_NONE ? NULL : tt_startup__str(s, id);
}

static int push_launch(tt_startup *s, const tt_su_launch *l, tt_error *err)
{
    if (!tt_vec_push(&s->launches, l))
        return tt_error_set(err, TT_ENOMEM, l->file, 0, 0, "out of memory");
    return 0;
}

/* ---- durations (TimeUtils.formatDuration) ---- */
int tt_su_parse_duration(const char *s, size_t n, int64_t *ms, size_t *used)
{
    static const struct {
        const char *u;
        int64_t f;
    } units[] = {{"d", 86400000}, {"h", 3600000}, {"ms", 1}, {"m", 60000}, {"s", 1000}};
    static const int rank[] = {0, 1, 4, 2, 3}; /* required order d h m s ms */
    size_t i = 0;
    int neg = 0;
    if (i < n && (s[i] == '+' || s[i] == '-'))
        neg = s[i++] == '-';
    if (i < n && s[i] == '0' && (i + 1 == n || !(s[i + 1] >= '0' && s[i + 1] <= '9')) &&
        !(i + 1 < n && (s[i + 1] == 'd' || s[i + 1] == 'h' || s[i + 1] == 'm' ||
                        s[i + 1] == 's'))) {
        *ms = 0;
        *used = i + 1;
        return 0;
    }
    int64_t total = 0;
    int last = -1, parts = 0;
    while (i < n && s[i] >= '0' && s[i] <= '9') {
        int64_t v = 0;
        size_t j = i;
        while (j < n && s[j] >= '0' && s[j] <= '9') {
            if (v > (INT64_MAX - 9) / 10)
                return TT_EFORMAT;
            v = v * 10 + (s[j++] - '0');
        }
        int u = -1;
        for (int k = 0; k < 5 && u < 0; k++) {
            size_t ul = strlen(units[k].u);
            if (j + ul <= n && !memcmp(s + j, units[k].u, ul))
                u = k;
        }
        if (u < 0 || rank[u] <= last)
            return TT_EFORMAT;
        if (v > INT64_MAX / units[u].f / 2 || total > INT64_MAX / 2)
            return TT_EFORMAT;
        total += v * units[u].f;
        last = rank[u];
        i = j + strlen(units[u].u);
        parts++;
    }
    if (!parts)
        return TT_EFORMAT;
    *ms = neg ? -total : total;
    *used = i;
    return 0;
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* "MM-DD HH:MM:SS.mmm" anywhere in p[0..n), with the year before it when there is one
 * ("YYYY-MM-DD HH:MM:SS.mmm", logcat -v year); dst holds 24 bytes. */
static void find_log_time(char *dst, const char *p, size_t n)
{
    static const char pat[] = "dd-dd dd:dd:dd.ddd";
    size_t pl = sizeof pat - 1;
    dst[0] = 0;
    for (size_t i = 0; i + pl <= n; i++) {
        size_t j = 0;
        for (; j < pl; j++)
            if (pat[j] == 'd' ? !is_digit(p[i + j]) : p[i + j] != pat[j])
                break;
        if (j == pl) {
            size_t y = i >= 5 && is_digit(p[i - 5]) && is_digit(p[i - 4]) &&
                       is_digit(p[i - 3]) && is_digit(p[i - 2]) && p[i - 1] == '-' &&
                       !(i >= 6 && is_digit(p[i - 6])) ? 5 : 0;
            memcpy(dst, p + i - y, pl + y);
            dst[pl + y] = 0;
            return;
        }
    }
}

/* Parses "<component>[ for user <n>]: <dur>[ (total <dur>)]" at p. 0 on success. */
static int parse_displayed(const char *p, size_t n, size_t *comp_len, int64_t *first,
                           int64_t *total, int *has_total)
{
    size_t i = 0;
    while (i < n && p[i] != ':' && p[i] != ' ' && p[i] != '\t')
        i++;
    if (i == 0 || !memchr(p, '/', i))
        return TT_EFORMAT;
    *comp_len = i;
    if (i + 10 <= n && !memcmp(p + i, " for user ", 10)) {
        i += 10;
        size_t j = i;
        while (j < n && is_digit(p[j]))
            j++;
        if (j == i)
            return TT_EFORMAT;
        i = j;
    }
    if (i + 2 > n || p[i] != ':' || p[i + 1] != ' ')
        return TT_EFORMAT;
    i += 2;
    size_t used;
    if (tt_su_parse_duration(p + i, n - i, first, &used))
        return TT_EFORMAT;
    i += used;
    *has_total = 0;
    if (i + 8 <= n && !memcmp(p + i, " (total ", 8)) {
        i += 8;
        if (tt_su_parse_duration(p + i, n - i, total, &used) || i + used >= n ||
            p[i + used] != ')')
            return TT_EFORMAT;
        *has_total = 1;
    }
    return 0;
}

/* Slot holding 1 + the index of the latest logcat launch of component id (grown on
 * demand), or NULL on out of memory. */
static size_t *last_slot(tt_startup *s, uint32_t id)
{
    while (s->last_logcat.len <= id)
        if (!tt_vec_push(&s->last_logcat, NULL))
            return NULL;
    return &TT_VEC_AT(&s->last_logcat, size_t, id);
}

int tt__logcat_long_header(const char *l, size_t n)
{
    static const char pat[] = "dd-dd dd:dd:dd.ddd";
    size_t pl = sizeof pat - 1, i = 1;
    while (i < n && l[i] == ' ')
        i++;
    if (n < 2 || l[0] != '[' || i == 1)
        return 0;
    if (i + 5 <= n && is_digit(l[i]) && is_digit(l[i + 1]) && is_digit(l[i + 2]) &&
        is_digit(l[i + 3]) && l[i + 4] == '-')
        i += 5; /* -v year */
    if (i + pl > n)
        return 0;
    for (size_t j = 0; j < pl; j++)
        if (pat[j] == 'd' ? !is_digit(l[i + j]) : l[i + j] != pat[j])
            return 0;
    return 1;
}

/* 1 when l[0..n) is a logcat line: "--------- beginning of ...", a threadtime / time line
 * ("MM-DD HH:MM:SS.mmm ...", optionally after the year) or a brief one ("I/Tag( 611): ..."),
 * after any color escape sequence. */
static int logcat_line_shape(const char *l, size_t n)
{
    while (n >= 2 && l[0] == '\x1b' && l[1] == '[') {
        size_t k = 2;
        while (k < n && l[k] != 'm')
            k++;
        if (k == n)
            return 0;
        l += k + 1;
        n -= k + 1;
    }
    if (n >= 10 && !memcmp(l, "--------- ", 10))
        return 1;
    static const char pat[] = "dd-dd dd:dd:dd.ddd ";
    size_t pl = sizeof pat - 1;
    if (n >= 5 && is_digit(l[0]) && is_digit(l[1]) && is_digit(l[2]) && is_digit(l[3]) &&
        l[4] == '-')
        l += 5, n -= 5; /* -v year */
    if (n >= pl) {
        size_t j = 0;
        while (j < pl && (pat[j] == 'd' ? is_digit(l[j]) : l[j] == pat[j]))
            j++;
        if (j == pl)
            return 1;
    }
    if (n >= 4 && strchr("VDIWEFA", l[0]) && l[1] == '/') {
        const char *o = memchr(l, '(', n), *c = memchr(l, ':', n);
        return o && c && o < c && c[-1] == ')';
    }
    return 0;
}

/* A logcat capture (adb logcat, any of the formats above): at least three quarters of the
 * first 16 complete lines have a logcat shape. Whether it holds launches or Matrix reports
 * is the readers' decision: `adb logcat -d` starts with far more than a detection window of
 * other lines. */
int tt__looks_logcat(const char *p, size_t n)
{
    size_t i = 0, k = 0, m = 0;
    int entry = 0; /* inside a -v long entry: its message lines have the header's shape */
    while (i < n && k < 16) {
        const char *e = memchr(p + i, '\n', n - i);
        if (!e && i > 0)
            break; /* a line cut by the end of the head */
        size_t ln = e ? (size_t)(e - (p + i)) : n - i;
        const char *l = p + i;
        i += ln + 1;
        tt__trim(&l, &ln);
        if (!ln) {
            entry = 0;
            continue;
        }
        k++;
        if (tt__logcat_long_header(l, ln))
            entry = 1;
        m += (size_t)(entry || logcat_line_shape(l, ln));
    }
    return k > 0 && m * 4 >= k * 3;
}

/* Detection (cli.md "Inputs"): some line is a parsable Displayed / Fully drawn line, or starts
 * with an `am start -W` key that only that output has. A text that merely mentions the words
 * (a README) is not a capture. */
int tt__looks_launches(const char *p, size_t n)
{
    static const char *const am[] = {"Starting: Intent", "LaunchState:", "TotalTime:",
                                     "WaitTime:", "ThisTime:"};
    static const char *const marks[] = {"Displayed ", "Fully drawn "};
    /* each mark's first occurrence at or after the line being read, found by one search of
     * the rest of the text rather than one per line (left: one may be) */
    const char *next[2] = {NULL, NULL};
    int left[2] = {1, 1};
    size_t i = 0;
    while (i < n) {
        const char *e = memchr(p + i, '\n', n - i);
        size_t ln = e ? (size_t)(e - (p + i)) : n - i;
        const char *l = p + i, *raw = p + i;
        i += ln + 1;
        tt__trim(&l, &ln);
        for (size_t k = 0; k < sizeof am / sizeof am[0]; k++)
            if (ln >= strlen(am[k]) && !memcmp(l, am[k], strlen(am[k])))
                return 1;
        for (size_t k = 0; k < 2; k++) {
            size_t ml = strlen(marks[k]);
            if (left[k] && (!next[k] || next[k] < raw)) {
                next[k] = tt__memmem(raw, n - (size_t)(raw - p), marks[k], ml);
                left[k] = next[k] != NULL;
            }
            /* the line's first occurrence, if it lies inside the trimmed line */
            const char *q = next[k] && next[k] >= l && next[k] + ml <= l + ln ? next[k] : NULL;
            size_t clen;
            int64_t first, total;
            int has_total;
            if (q && !parse_displayed(q + ml, ln - (size_t)(q + ml - l), &clen, &first, &total,
                                      &has_total))
                return 1;
        }
    }
    return 0;
}

/* hdr: the time of the -v long header the line follows ("" none). */
static int logcat_line(tt_startup *s, const char *p, size_t n, const char *hdr, const char *file,
                       uint64_t line, tt_error *err)
{
    const char *d = tt__memmem(p, n, "Displayed ", 10);
    const char *f = tt__memmem(p, n, "Fully drawn ", 12);
    if (!d && !f) {
        tt_stats_add(s->stats, "startup_lines_skipped", file, TT_SEV_INFO, 1, NULL);
        return 0;
    }
    int fully = !d || (f && f < d);
    const char *q = fully ? f + 12 : d + 10;
    size_t qn = n - (size_t)(q - p), clen;
    int64_t first, total = 0;
    int has_total;
    if (parse_displayed(q, qn, &clen, &first, &total, &has_total)) {
        char ex[200], snip[64];
        tt__snippet(snip, sizeof snip, q - (fully ? 12 : 10), qn + (fully ? 12 : 10));
        snprintf(ex, sizeof ex, "%s:%llu: unparsable \"%s\" line skipped", file,
                 (unsigned long long)line, snip);
        tt_stats_add(s->stats, "logcat_malformed", file, TT_SEV_WARN, 1, ex);
        return 0;
    }
    uint32_t cid = tt_startup__intern(s, q, clen);
    size_t *slot = cid == TT__SU_NONE ? NULL : last_slot(s, cid);
    if (!slot)
        return tt_error_set(err, TT_ENOMEM, file, 0, 0, "out of memory");
    const char *comp = tt_startup__str(s, cid);
    if (fully && *slot) {
        /* attached to the latest Displayed line of the same component; TTFD is the first
         * reportFullyDrawn (startup.md 2, 5.2): a later line does not replace it */
        tt_su_launch *dl = &TT_VEC_AT(&s->launches, tt_su_launch, *slot - 1);
        if (dl->has_fully_drawn) {
            char ex[200];
            snprintf(ex, sizeof ex,
                     "%s:%llu: Fully drawn %s +%lldms ignored: the launch's first Fully drawn "
                     "(+%lldms) is its TTFD",
                     file, (unsigned long long)line, comp, (long long)first,
                     (long long)dl->fully_drawn_ms);
            tt_stats_add(s->stats, "fully_drawn_repeated", file, TT_SEV_WARN, 1, ex);
            return 0;
        }
        dl->has_fully_drawn = 1;
        dl->fully_drawn_ms = first;
        return 0;
    }
    tt_su_launch l = {0};
    l.source = "logcat";
    l.file = file;
    l.line = line;
    l.component = comp;
    find_log_time(l.log_time, p, (size_t)(q - p));
    if (!l.log_time[0])
        memcpy(l.log_time, hdr, sizeof l.log_time);
    if (fully) {
        char ex[200];
        snprintf(ex, sizeof ex, "%s:%llu: Fully drawn %s without an earlier Displayed line",
                 file, (unsigned long long)line, comp);
        tt_stats_add(s->stats, "fully_drawn_unmatched", file, TT_SEV_WARN, 1, ex);
        l.has_fully_drawn = 1;
        l.fully_drawn_ms = first;
    } else {
        l.has_total = 1;
        l.total_ms = has_total ? total : first;
        l.has_this = 1; /* the first duration, also the total without "(total ...)" */
        l.this_ms = first;
    }
    *slot = s->launches.len + 1;
    return push_launch(s, &l, err);
}

/* ---- am start -W ---- */
static int am_end(tt_startup *s, am_state *st, tt_error *err)
{
    if (!st->open)
        return 0;
    st->open = 0;
    if (!st->complete) {
        char ex[200];
        snprintf(ex, sizeof ex, "%s:%llu: am start block without \"Complete\" kept",
                 st->cur.file, (unsigned long long)st->cur.line);
        tt_stats_add(s->stats, "am_block_incomplete", st->cur.file, TT_SEV_WARN, 1, ex);
        st->cur.incomplete = 1;
    }
    return push_launch(s, &st->cur, err);
}

static int am_begin(tt_startup *s, am_state *st, const char *file, uint64_t line, tt_error *err)
{
    int rc = am_end(s, st, err);
    memset(&st->cur, 0, sizeof st->cur);
    st->cur.source = "am";
    st->cur.file = file;
    st->cur.line = line;
    st->cur.component = "";
    st->open = 1;
    st->complete = 0;
    return rc;
}

static const char *const am_keys[] = {"Starting:", "Status:", "LaunchState:", "Activity:",
                                      "ThisTime:", "TotalTime:", "WaitTime:", NULL};

static int am_int(const char *v, size_t vn, int64_t *out, const char *key, const char *file,
                  uint64_t line, tt_error *err)
{
    if (tt__parse_i64(v, vn, out)) {
        char snip[64];
        tt__snippet(snip, sizeof snip, v, vn);
        return tt_error_set(err, TT_EFORMAT, file, TT_LOC_LINE, line,
                            "%s expected an integer, got \"%s\"", key, snip);
    }
    return 0;
}

/* Returns 1 when the line was an am line, 0 otherwise, < 0 on error. */
static int am_line(tt_startup *s, am_state *st, const char *p, size_t n, const char *file,
                   uint64_t line, tt_error *err)
{
    int rc;
    if (n == 8 && !memcmp(p, "Complete", 8)) {
        if (!st->open)
            return 1;
        st->complete = 1;
        return (rc = am_end(s, st, err)) ? rc : 1;
    }
    if (n >= 29 && !memcmp(p, "Warning: Activity not started", 29)) {
        if (!st->open && (rc = am_begin(s, st, file, line, err)))
            return rc;
        st->cur.not_launched = 1;
        return 1;
    }
    /* am gave up ("Error: Activity not started, unable to resolve Intent ...", "Error:
     * Activity class {...} does not exist."): no launch, and the block ends here (am prints
     * no Status or Complete after it), so it is not a block cut short (startup.md 4.4) */
    if ((n >= 27 && !memcmp(p, "Error: Activity not started", 27)) ||
        (n >= 21 && !memcmp(p, "Error: Activity class", 21))) {
        if (!st->open && (rc = am_begin(s, st, file, line, err)))
            return rc;
        st->cur.not_launched = 1;
        st->complete = 1;
        return (rc = am_end(s, st, err)) ? rc : 1;
    }
    int k = -1;
    for (int i = 0; am_keys[i] && k < 0; i++)
        if (n >= strlen(am_keys[i]) && !memcmp(p, am_keys[i], strlen(am_keys[i])))
            k = i;
    if (k < 0)
        return 0;
    const char *v = p + strlen(am_keys[k]);
    size_t vn = n - strlen(am_keys[k]);
    tt__trim(&v, &vn);
    while (vn && v[0] == ' ')
        v++, vn--;
    /* a block starts at Starting:, or at a Status: after a Complete (the block ended) */
    if ((k == 0 || !st->open || (k == 1 && st->cur.status)) &&
        (rc = am_begin(s, st, file, line, err)))
        return rc;
    tt_su_launch *l = &st->cur;
    switch (k) {
    case 0: {
        const char *c = tt__memmem(v, vn, "cmp=", 4);
        if (c) {
            size_t cl = 0, off = (size_t)(c - v) + 4;
            while (off + cl < vn && v[off + cl] != ' ' && v[off + cl] != '}')
                cl++;
            if (cl && !(l->component = intern_str(s, v + off, cl)))
                return tt_error_set(err, TT_ENOMEM, file, 0, 0, "out of memory");
        }
        break;
    }
    case 1:
        if (!(l->status = intern_str(s, v, vn)))
            return tt_error_set(err, TT_ENOMEM, file, 0, 0, "out of memory");
        break;
    case 2:
        if (!(l->launch_state = intern_str(s, v, vn)))
            return tt_error_set(err, TT_ENOMEM, file, 0, 0, "out of memory");
        break;
    case 3:
        if (!(l->component = intern_str(s, v, vn)))
            return tt_error_set(err, TT_ENOMEM, file, 0, 0, "out of memory");
        break;
    case 4:
        l->has_this = 1;
        return (rc = am_int(v, vn, &l->this_ms, "ThisTime:", file, line, err)) ? rc : 1;
    case 5:
        l->has_total = 1;
        return (rc = am_int(v, vn, &l->total_ms, "TotalTime:", file, line, err)) ? rc : 1;
    case 6:
        l->has_wait = 1;
        return (rc = am_int(v, vn, &l->wait_ms, "WaitTime:", file, line, err)) ? rc : 1;
    }
    return 1;
}

int tt_startup_read_launches(tt_startup *s, tt_input *in, tt_error *err)
{
    const char *file = intern_str(s, tt_input_name(in), strlen(tt_input_name(in)));
    if (!file)
        return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    am_state st = {0};
    const char *line;
    size_t len, before = s->launches.len;
    uint64_t lineno;
    int rc;
    /* logcat -v long: "[ MM-DD HH:MM:SS.mmm  pid:  tid P/tag ]", the message lines, a blank
     * line; the message takes the header's time */
    char hdr[sizeof ((tt_su_launch *)0)->log_time] = "";
    while ((rc = tt_input_line(in, &line, &len, &lineno, err)) == 0) {
        const char *p = line;
        size_t n = len;
        tt__trim(&p, &n);
        while (n && p[0] == ' ')
            p++, n--;
        if (n == 0) {
            hdr[0] = 0;
            continue;
        }
        if (tt__logcat_long_header(p, n)) {
            find_log_time(hdr, p, n);
            continue;
        }
        int r = am_line(s, &st, p, n, file, lineno, err);
        if (r < 0)
            return r;
        if (r == 0 && (r = logcat_line(s, p, n, hdr, file, lineno, err)))
            return r;
    }
    if (rc != TT_DONE)
        return rc;
    if ((rc = am_end(s, &st, err)))
        return rc;
    if (s->launches.len == before)
        return tt_error_set(err, TT_ENOTFOUND, file, TT_LOC_NONE, 0,
                            "no Displayed, Fully drawn or am start -W lines found");
    return 0;
}
