/* Address tokens: raw hex addresses, "module+0xOFF" / "module!0xOFF", perf script frame
 * and MMAP lines (spec/symbolication.md 7.1, 7.2, 7.4). */
#include "tsym_int.h"

#include <string.h>

static int is_blank(char c) { return c == ' ' || c == '\t'; }

int tsym_addr_parse(uint64_t *out, const char *s, size_t n)
{
    if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        s += 2;
        n -= 2;
    }
    if (n == 0 || tt_hex_run(out, s, n) != n)
        return TT_EFORMAT;
    return 0;
}

static int token_char(char c)
{
    return !is_blank(c) && c != '(' && c != ')' && c != '[' && c != ']' && c != '"' &&
           c != '\'' && c != ',' && c != '\r';
}

int tsym_modoff_next(tsym_modoff *out, const char *line, size_t n, size_t *pos)
{
    for (size_t i = *pos; i + 3 < n; i++) {
        if ((line[i] != '+' && line[i] != '!') || line[i + 1] != '0' ||
            (line[i + 2] != 'x' && line[i + 2] != 'X'))
            continue;
        uint64_t v;
        size_t h = tt_hex_run(&v, line + i + 3, n - i - 3);
        size_t e = i + 3 + h;
        if (h == 0 || (e < n && token_char(line[e]) && line[e] != ':')) {
            continue;
        }
        size_t s = i;
        while (s > 0 && token_char(line[s - 1]))
            s--;
        if (s == i)
            continue;
        int has_letter = 0;
        for (size_t k = s; k < i; k++)
            if (line[k] == '.' || line[k] == '/' || line[k] == '_' ||
                (line[k] >= 'a' && line[k] <= 'z') || (line[k] >= 'A' && line[k] <= 'Z'))
                has_letter = 1;
        if (!has_letter)
            continue;
        out->module = line + s;
        out->module_len = i - s;
        out->offset = v;
        out->start = s;
        out->end = e;
        *pos = e;
        return 0;
    }
    *pos = n;
    return TT_ENOTFOUND;
}

/* The token ending at *end (blanks before end skipped): its start in *start, its length;
 * 0 when there is none. */
static size_t token_before(const char *line, size_t *end, size_t *start)
{
    size_t e = *end;
    while (e > 0 && is_blank(line[e - 1]))
        e--;
    size_t b = e;
    while (b > 0 && !is_blank(line[b - 1]))
        b--;
    *start = b;
    *end = b;
    return e - b;
}

/* t[0..n) is DIGITS, or (pid_tid) DIGITS/DIGITS too */
static int decimal_tok(const char *t, size_t n, int pid_tid)
{
    size_t d = 0, slash = 0;
    for (size_t k = 0; k < n; k++) {
        if (t[k] >= '0' && t[k] <= '9')
            d++;
        else if (t[k] == '/' && pid_tid && !slash && d && k + 1 < n)
            slash = 1;
        else
            return 0;
    }
    return d > 0;
}

/* perf's time field "<sec>.<frac>:" (perf script prints it with its colon attached) */
static int time_tok(const char *t, size_t n)
{
    size_t k = 0, d1, d2;
    for (d1 = 0; k < n && t[k] >= '0' && t[k] <= '9'; k++)
        d1++;
    if (!d1 || k >= n || t[k++] != '.')
        return 0;
    for (d2 = 0; k < n && t[k] >= '0' && t[k] <= '9'; k++)
        d2++;
    return d2 && k + 1 == n && t[k] == ':';
}

/* What perf script writes left of the frame of a sample without call graphs: "comm pid
 * [cpu] time: period event: ip sym (dso)", each field optional (-F). The fields just left
 * of at: "<event>:" then a period, then the time "<sec>.<frac>:"; without a time, the event
 * after numbers one of which is a pid or pid/tid (with [cpu] and perf's one-letter misc
 * flag among them). Other text with ": <hex> ... (...)" (a logcat tombstone line "F DEBUG   :
 * tagged_addr_ctrl: 0000000000000001 (PR_TAGGED_ADDR_ENABLE)") does not fit. */
static int perf_fields_before(const char *line, size_t at)
{
    size_t end = at, s, n = token_before(line, &end, &s);
    if (!n)
        return 0;
    if (time_tok(line + s, n))
        return 1;
    if (n < 2 || line[s + n - 1] != ':') /* the event, with its colon */
        return 0;
    int pid = 0;
    while ((n = token_before(line, &end, &s))) {
        const char *t = line + s;
        if (time_tok(t, n))
            return 1;
        if (decimal_tok(t, n, 1))
            pid = 1;
        else if (!(n == 1 && t[0] >= 'A' && t[0] <= 'Z') && /* misc: K, U, H, G */
                 !(n > 2 && t[0] == '[' && t[n - 1] == ']' && decimal_tok(t + 1, n - 2, 0)))
            break;
    }
    return pid;
}

/* perf script without call graphs puts the sample's one frame on its header line, after
 * the event: "comm pid time: period event: ip sym (dso)". The offset of ip: after the last
 * ": " when its next token is hex followed by a blank and perf's fields are left of it
 * (perf_fields_before); 0: none. */
static size_t header_frame_at(const char *line, size_t n)
{
    size_t at = 0;
    for (size_t i = 1; i + 1 < n; i++) {
        if (line[i - 1] != ':' || !is_blank(line[i]))
            continue;
        size_t p = i;
        while (p < n && is_blank(line[p]))
            p++;
        uint64_t a;
        size_t h = tt_hex_run(&a, line + p, n - p);
        at = h && p + h < n && is_blank(line[p + h]) ? p : 0; /* the last ": " decides */
    }
    return at && perf_fields_before(line, at) ? at : 0;
}

int tsym_perf_frame_parse(tsym_perf_frame *out, const char *line, size_t n)
{
    memset(out, 0, sizeof *out);
    size_t i = 0;
    while (i < n && is_blank(line[i]))
        i++;
    out->indent = i;
    /* a header first: a right-aligned comm may be hex ("    dead 4411 1.0: 1 cycles: ...") */
    size_t at = header_frame_at(line, n);
    if (at) {
        i = at;
        out->header = 1;
    } else if (i == 0) {
        return TT_ENOTFOUND;
    }
    size_t h = tt_hex_run(&out->addr, line + i, n - i);
    if (h == 0 || i + h >= n || !is_blank(line[i + h]))
        return TT_ENOTFOUND;
    i += h;
    size_t end = n;
    while (end > i && (is_blank(line[end - 1]) || line[end - 1] == '\r'))
        end--;
    if (end <= i || line[end - 1] != ')')
        return TT_ENOTFOUND;
    size_t k = end - 1;
    int depth = 0;
    while (k > i) {
        if (line[k] == ')')
            depth++;
        else if (line[k] == '(' && --depth == 0)
            break;
        k--;
    }
    if (depth != 0 || k <= i || !is_blank(line[k - 1]))
        return TT_ENOTFOUND;
    out->dso = line + k + 1;
    out->dso_len = end - k - 2;
    if (out->dso_len > 10 && !memcmp(out->dso + out->dso_len - 10, " (deleted)", 10)) {
        out->dso_len -= 10; /* a file deleted while perf recorded: its path is the module */
        out->deleted = 1;
    }
    size_t ss = i, se = k;
    while (ss < se && is_blank(line[ss]))
        ss++;
    while (se > ss && is_blank(line[se - 1]))
        se--;
    out->symbol = line + ss;
    out->symbol_len = se - ss;
    return 0;
}
