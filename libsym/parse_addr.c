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

/* perf script without call graphs puts the sample's one frame on its header line, after
 * the event: "comm pid time: period event: ip sym (dso)". The offset of ip: after the last
 * ": " when its next token is hex followed by a blank, with a number among the tokens before it
 * (a pid, tid, time or period: "I/tag: abc def (x)" in a log is no sample); 0: none. */
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
    for (size_t i = 0; i < at; i++) { /* a token of digits (and '.', '/', ':') before it */
        if (i && !is_blank(line[i - 1]))
            continue;
        size_t k = i, digits = 0;
        for (; k < at && !is_blank(line[k]); k++) {
            char c = line[k];
            if (c >= '0' && c <= '9')
                digits++;
            else if (c != '.' && c != '/' && c != ':')
                break;
        }
        if (digits && (k == at || is_blank(line[k])))
            return at;
    }
    return 0;
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
