/* Input detection by content, never by file name (cli.md "Inputs"): magic numbers, the
 * first meaningful lines, JSON keys. Looks only at the bytes it is given (a 64 KiB peek). */
#include "tt.h"

#include <string.h>

#include "tt_int.h"
#include "tt_kscrash.h"

static const char *const names[TT_KIND__COUNT] = {
    "unknown", "beat", "mapping", "ignore_mapping", "proguard", "report", "database", "frames",
    "startup", "launches", "samples", "btrace_mapping", "kscrash",
};

const char *tt_kind_name(tt_kind k)
{
    return (unsigned)k < TT_KIND__COUNT ? names[k] : "unknown";
}

int tt_kind_parse(const char *name)
{
    for (int i = 1; i < TT_KIND__COUNT; i++)
        if (!strcmp(name, names[i]))
            return i;
    return -1;
}

/* Next line of p[*i..n), trimmed; 0 at the end. A line cut by the end of the peek counts
 * only when it is the whole peek. */
static int next_line(const char *p, size_t n, size_t *i, const char **l, size_t *ll)
{
    while (*i < n) {
        size_t s = *i, e = s;
        while (e < n && p[e] != '\n')
            e++;
        if (e == n && s > 0 && n >= 4096)
            return 0;
        *i = e + 1;
        *l = p + s;
        *ll = e - s;
        tt__trim(l, ll);
        if (*ll)
            return 1;
    }
    return 0;
}

/* Text method-beat buffer: the first meaningful lines are all 64-bit integers (3.3). */
static int looks_beat_text(const char *p, size_t n)
{
    size_t i = 0, good = 0;
    const char *l;
    size_t ll;
    while (good < 8 && next_line(p, n, &i, &l, &ll)) {
        if (l[0] == '#')
            continue;
        uint64_t w;
        if (tt_beat_parse_word(l, ll, &w))
            return 0;
        good++;
    }
    return good > 0;
}

/* ProGuard/R8: the first meaningful line is a class line "a.b.C -> x.y:". */
static int looks_proguard(const char *p, size_t n)
{
    size_t i = 0;
    const char *l;
    size_t ll;
    while (next_line(p, n, &i, &l, &ll)) {
        if (l[0] == '#')
            continue;
        const char *arrow = tt__memmem(l, ll, " -> ", 4);
        return arrow && l[ll - 1] == ':' && !memchr(l, '(', ll) && !memchr(l, ' ', (size_t)(arrow - l));
    }
    return 0;
}

/* tracetool's JSON-lines samples (samples.md 2.4): a meta/thread/module line or a sample
 * with a "frames" array on the first line. */
static int looks_samples_jsonl(const char *p, size_t n)
{
    const char *nl = memchr(p, '\n', n);
    size_t ln = nl ? (size_t)(nl - p) : n;
    return tt__memmem(p, ln, "\"tracetool-samples\"", 19) ||
           tt__memmem(p, ln, "\"frames\":[", 10) || tt__memmem(p, ln, "\"frames\": [", 11) ||
           tt__memmem(p, ln, "\"kind\":\"meta\"", 13) ||
           tt__memmem(p, ln, "\"kind\":\"thread\"", 15) ||
           tt__memmem(p, ln, "\"kind\":\"module\"", 15);
}

int tt__looks_launches(const char *p, size_t n)
{
    static const char *const marks[] = {"Displayed ", "Fully drawn ", "Starting: Intent",
                                        "TotalTime:", "LaunchState:", "Status: "};
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
        if (tt__memmem(p, n, marks[i], strlen(marks[i])))
            return 1;
    return 0;
}

tt_kind tt_detect(const unsigned char *up, size_t n)
{
    const char *p = (const char *)up;
    if (n >= 16 && !memcmp(p, "SQLite format 3", 16))
        return TT_KIND_DATABASE;
    int sk = tt_samples_detect(up, n);
    if (sk == TT_SKIND_BTRACE)
        return TT_KIND_SAMPLES;
    if (sk == TT_SKIND_BTRACE_MAPPING)
        return TT_KIND_BTRACE_MAPPING;
    size_t skip = n >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3) ? 3 : 0;
    for (size_t i = 0; i < n && i < 4096; i++) { /* binary: method-beat.md 3.4 */
        unsigned char c = up[i];
        if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
            return TT_KIND_BEAT; /* binary: raw little-endian records (3.4) */
    }
    p += skip;
    n -= skip;
    if (tt_mapping_looks_ignore(p, n))
        return TT_KIND_IGNORE;
    if (tt_mapping_looks_like(p, n))
        return TT_KIND_MAPPING;
    size_t k = 0;
    while (k < n && (p[k] == ' ' || p[k] == '\t' || p[k] == '\r' || p[k] == '\n'))
        k++;
    if (k < n && (p[k] == '{' || p[k] == '[')) {
        if (tt_ks_detect((const unsigned char *)p + k, n - k))
            return TT_KIND_KSCRASH; /* ios.md 2.1 */
        /* Matrix reports carry a "tag" key with a Trace_* value */
        if (tt__memmem(p, n, "\"tag\"", 5) && tt__memmem(p, n, "Trace_", 6))
            return TT_KIND_REPORT;
        if (p[k] == '{' && looks_samples_jsonl(p + k, n - k))
            return TT_KIND_SAMPLES;
        if (tt_frames_detect(p, n) == TT_FIN_JSONL)
            return TT_KIND_FRAMES;
        if (p[k] == '{' && tt__memmem(p + k, n - k, "\"kind\"", 6))
            return TT_KIND_STARTUP; /* startup.md 4.2 events carry "kind" */
        return TT_KIND_UNKNOWN;
    }
    if (tt__memmem(p, n, "tag[", 4) && tt__memmem(p, n, "content[{", 9))
        return TT_KIND_REPORT;
    if (tt_frames_detect(p, n) == TT_FIN_FRAMESTATS)
        return TT_KIND_FRAMES;
    if (tt__looks_launches(p, n))
        return TT_KIND_LAUNCHES;
    if (sk == TT_SKIND_PERF || sk == TT_SKIND_FOLDED)
        return TT_KIND_SAMPLES;
    if (looks_beat_text(p, n))
        return TT_KIND_BEAT;
    if (looks_proguard(p, n))
        return TT_KIND_PROGUARD;
    return TT_KIND_UNKNOWN;
}
