/* Sampled-stack input kinds by content (spec/samples.md section 2): btrace, perf script,
 * folded stacks, JSON-lines samples, btrace iOS databases. */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

#include "tt_int.h"

const char *tt_samples_kind_name(int kind)
{
    switch (kind) {
    case TT_SKIND_BTRACE: return "btrace";
    case TT_SKIND_BTRACE_MAPPING: return "btrace-mapping";
    case TT_SKIND_PERF: return "perf";
    case TT_SKIND_FOLDED: return "folded";
    case TT_SKIND_JSONL: return "samples-jsonl";
    case TT_SKIND_BEAT: return "beat";
    case TT_SKIND_DATABASE: return "database";
    case TT_SKIND_BTRACE_IOS: return "btrace-ios";
    default: return "unknown";
    }
}

static int is_int_token(const char *s, size_t n)
{
    if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        s += 2, n -= 2;
    else if (n && s[0] == '-')
        s++, n--;
    if (!n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || ((s[i] | 0x20) >= 'a' && (s[i] | 0x20) <= 'f')))
            return 0;
    return 1;
}

/* The meaningful line after p[e] (a '\n' or the end), for perf's two-line shapes. */
static const char *line_after(const unsigned char *p, size_t n, size_t e, size_t *ln)
{
    for (size_t i = e + 1; i < n;) {
        size_t j = i;
        while (j < n && p[j] != '\n')
            j++;
        const char *s = (const char *)p + i;
        size_t k = j - i, t = 0;
        while (t < k && (s[t] == ' ' || s[t] == '\t' || s[t] == '\r'))
            t++;
        if (t < k && (j < n || n < 4096)) {
            *ln = k;
            return s;
        }
        if (t < k)
            return NULL;
        i = j + 1;
    }
    return NULL;
}

int tt_btrace_ios_detect(const unsigned char *p, size_t n)
{
    /* the schema (sqlite_master) is on the first pages: its CREATE TABLE texts */
    return n >= 100 && !memcmp(p, "SQLite format 3", 16) && memcmp(p + 68, "TTDB", 4) &&
           tt__memmem((const char *)p, n, "BTraceModel", 11) && tt__memmem((const char *)p, n, "CallStackTableModel", 19);
}

static int text_kind(const unsigned char *p, size_t n);

int tt_samples_detect(const unsigned char *p, size_t n)
{
    if (tt_btrace_ios_detect(p, n))
        return TT_SKIND_BTRACE_IOS;
    if (n >= 16 && !memcmp(p, "SQLite format 3", 16)) /* a database written by analyze */
        return TT_SKIND_DATABASE;
    if (n >= 4 && p[0] == 4 && p[1] == 3 && p[2] == 2 && p[3] == 1)
        return TT_SKIND_BTRACE;
    if (n >= 12 && !memcmp(p, "\0\0\0\0\0\0\0\0\1\0\0\0", 12))
        return TT_SKIND_BTRACE_MAPPING;
    size_t ctl = 0, head = n < 4096 ? n : 4096;
    for (size_t i = 0; i < head; i++)
        if (p[i] < 0x20 && p[i] != '\t' && p[i] != '\n' && p[i] != '\r')
            ctl++;
    int bin = ctl ? (n % 8 == 0 ? TT_SKIND_BEAT : TT_SKIND_UNKNOWN) : TT_SKIND_UNKNOWN;
    if (ctl && memchr(p, 0, head))
        return bin;
    /* a control byte without a NUL (a thread name holding \x01, colour escapes) leaves a
     * text a text when a text kind claims it */
    int k = text_kind(p, n);
    return k == TT_SKIND_UNKNOWN ? bin : k;
}

/* The text kinds: the first non-blank, non-comment line decides. A logcat capture is none
 * of them, though its threadtime lines ("11-27 01:00:00.000  1234  1250 I tag: ...") can
 * pass for perf sample headers. */
static int text_kind(const unsigned char *p, size_t n)
{
    if (tt__looks_logcat((const char *)p, n))
        return TT_SKIND_UNKNOWN;
    size_t off;
    if (tt__perf_skip_warnings((const char *)p, n, &off))
        return TT_SKIND_PERF; /* perf's stderr first (perf script >f 2>&1) */
    size_t i = 0;
    while (i < n) {
        size_t e = i;
        while (e < n && p[e] != '\n')
            e++;
        const char *s = (const char *)p + i;
        size_t ln = e - i;
        tt__trim(&s, &ln);
        if (ln && s[0] != '#') {
            if (s[0] == '{')
                return TT_SKIND_JSONL;
            size_t nn = 0;
            const char *raw = (const char *)p + i, *nx = line_after(p, n, e, &nn);
            if (tt__perf_detect(raw, e - i, nx, nn))
                return TT_SKIND_PERF;
            if (is_int_token(s, ln))
                return TT_SKIND_BEAT;
            size_t b = ln;
            while (b > 0 && s[b - 1] != ' ' && s[b - 1] != '\t')
                b--;
            if (b > 0 && b < ln && s[b] >= '0' && s[b] <= '9')
                return TT_SKIND_FOLDED; /* a count after a blank or a tab (flamegraph.pl) */
            if (e >= n && n >= 4096)
                return TT_SKIND_UNKNOWN;
            return TT_SKIND_UNKNOWN;
        }
        i = e + 1;
    }
    return TT_SKIND_UNKNOWN;
}

/* Every meaningful line of p[0..n) is a comment ('#'). */
static int only_comments(const char *p, size_t n)
{
    for (const char *e = p + n; p < e;) {
        const char *nl = memchr(p, '\n', (size_t)(e - p)), *s = p;
        size_t ln = (size_t)((nl ? nl : e) - p);
        tt__trim(&s, &ln);
        if (ln && s[0] != '#')
            return 0;
        p = nl ? nl + 1 : e;
    }
    return 1;
}

const char *tt_samples_text_what(const unsigned char *up, size_t n)
{
    const char *p = (const char *)up;
    if (tt__memmem(p, n, "# Samples: ", 11) && tt__memmem(p, n, " of event '", 11))
        return "perf report output (overhead tables, not samples): give tracetool the "
               "samples perf script writes (perf script -i perf.data > perf.txt)";
    if ((tt__memmem(p, n, "# perf version :", 16) || tt__memmem(p, n, "# cmdline :", 11)) &&
        only_comments(p, n))
        return "perf script output without samples (only the recording's --header "
               "comments): the recording holds no sample (record again, perf record -g -- "
               "PROGRAM, then perf script)";
    return NULL;
}

/* ---- method-beat call trees as fixed slices ---- */

