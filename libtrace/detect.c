/* Input detection by content, never by file name (cli.md "Inputs"): magic numbers, the
 * first meaningful lines, JSON keys. Looks only at the bytes it is given (a 64 KiB peek). */
#include "tt.h"

#include <stdio.h>
#include <string.h>

#include "perf_text_int.h"
#include "tt_art.h"
#include "tt_int.h"
#include "tt_kscrash.h"

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

/* ProGuard/R8: the first meaningful line is a class line "a.b.C -> x.y:". */
static int looks_proguard(const char *p, size_t n)
{
    size_t i = 0;
    const char *l;
    size_t ll;
    while (next_line(p, n, &i, &l, &ll)) {
        if (l[0] == '#')
            continue;
        return tt__proguard_class_line(l, ll);
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

/* ---- known file formats that are not traces (magic numbers) ---- */

static uint16_t rd16(const unsigned char *p, int be)
{
    return be ? (uint16_t)(p[0] << 8 | p[1]) : tt__le16(p);
}

static uint32_t rd32(const unsigned char *p, int be)
{
    return be ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]
              : tt__le32(p);
}

/* ELF: the file type, and for a shared object whether it asks for an interpreter (a PIE
 * executable such as /bin/ls does, a library does not). Program headers beyond the peek
 * leave "ELF shared object". */
static const char *elf_what(const unsigned char *p, size_t n)
{
    if (n < 52 || (p[4] != 1 && p[4] != 2) || (p[5] != 1 && p[5] != 2))
        return "ELF file";
    int is64 = p[4] == 2, be = p[5] == 2;
    switch (rd16(p + 16, be)) {
    case 1: return "ELF relocatable object";
    case 2: return "ELF executable";
    case 4: return "ELF core dump";
    case 3: break;
    default: return "ELF file";
    }
    if (is64 && n < 64)
        return "ELF shared object";
    uint64_t phoff = is64 ? (uint64_t)rd32(p + 32 + (be ? 4 : 0), be) |
                                (uint64_t)rd32(p + 32 + (be ? 0 : 4), be) << 32
                          : rd32(p + 28, be);
    size_t phentsize = rd16(p + (is64 ? 54 : 42), be), phnum = rd16(p + (is64 ? 56 : 44), be);
    if (phentsize < 4)
        return "ELF shared object";
    for (size_t i = 0; i < phnum; i++) {
        uint64_t at = phoff + (uint64_t)i * phentsize;
        if (at > n || n - at < 4)
            break;
        if (rd32(p + at, be) == 3) /* PT_INTERP */
            return "ELF executable";
    }
    return "ELF shared object";
}

static int has_at(const unsigned char *p, size_t n, size_t off, const char *m, size_t mn)
{
    return n >= off + mn && !memcmp(p + off, m, mn);
}

static const char *zip_what(const unsigned char *p, size_t n)
{
    const char *s = (const char *)p;
    if (tt__memmem(s, n, "AndroidManifest.xml", 19) || tt__memmem(s, n, "classes.dex", 11))
        return "Android package (APK, a zip archive)";
    if (tt__memmem(s, n, "META-INF/MANIFEST.MF", 20))
        return "Java archive (JAR, a zip archive)";
    return "zip archive";
}

const char *tt_detect_foreign(const unsigned char *p, size_t n)
{
    static const struct {
        size_t off, len;
        const char *magic, *what;
    } magics[] = {
        {0, 8, "\x89PNG\r\n\x1a\n", "PNG image"},
        {0, 6, "GIF87a", "GIF image"},
        {0, 6, "GIF89a", "GIF image"},
        {0, 5, "%PDF-", "PDF document"},
        {0, 4, "\xfe\xed\xfa\xce", "Mach-O binary"},
        {0, 4, "\xfe\xed\xfa\xcf", "Mach-O binary"},
        {0, 4, "\xce\xfa\xed\xfe", "Mach-O binary"},
        {0, 4, "\xcf\xfa\xed\xfe", "Mach-O binary"},
        {0, 4, "\xca\xfe\xba\xbf", "Mach-O universal binary"},
        {0, 4, "dex\n", "Android DEX file"},
        {0, 6, "7z\xbc\xaf\x27\x1c", "7-Zip archive"},
        {0, 6, "\xfd" "7zXZ\0", "xz-compressed data"},
        {0, 4, "\x28\xb5\x2f\xfd", "zstd-compressed data"},
        {0, 3, "\x1f\x8b\x08", "gzip-compressed data (compressed twice)"},
        {0, 4, "OggS", "Ogg media"},
        {0, 4, "fLaC", "FLAC audio"},
        {0, 4, "\x1a\x45\xdf\xa3", "Matroska/WebM media"},
        {0, 18, "JAVA PROFILE 1.0.", "Java heap dump (HPROF)"},
        {0, 4, "\0asm", "WebAssembly module"},
        {4, 4, "ftyp", "MP4/QuickTime media"},
        {257, 5, "ustar", "tar archive"},
        {0, 30, "** This file contains an SQLite", "SQLite 2 database"},
        {0, 8, "PERFILE2", "a Linux perf recording (perf.data): turn it into text with perf "
                           "script, which tracetool samples reads"},
        {0, 8, "PERFFILE", "a Linux perf recording (perf.data): turn it into text with perf "
                           "script, which tracetool samples reads"},
    };
    if (n >= 4 && !memcmp(p, "\x7f" "ELF", 4))
        return elf_what(p, n);
    if (n >= 4 && p[0] == 'P' && p[1] == 'K' &&
        ((p[2] == 3 && p[3] == 4) || (p[2] == 5 && p[3] == 6) || (p[2] == 7 && p[3] == 8)))
        return zip_what(p, n);
    if (n >= 8 && !memcmp(p, "\xca\xfe\xba\xbe", 4)) /* fat Mach-O counts a few archs */
        return rd32(p + 4, 1) < 45 ? "Mach-O universal binary" : "Java class file";
    if (n >= 16 && !memcmp(p, "SQLite format 3", 16) &&
        (n < 72 || memcmp(p + 68, "TTDB", 4)) && /* tracetool's application_id */
        !tt_btrace_ios_detect(p, n))
        return "SQLite database not written by tracetool";
    for (size_t i = 0; i < sizeof magics / sizeof magics[0]; i++)
        if (has_at(p, n, magics[i].off, magics[i].magic, magics[i].len))
            return magics[i].what;
    /* short magics only with the structure that follows them */
    if (n >= 4 && p[0] == 0xff && p[1] == 0xd8 && p[2] == 0xff &&
        (p[3] == 0xdb || p[3] == 0xee || p[3] == 0xfe || (p[3] >= 0xc0 && p[3] <= 0xef)))
        return "JPEG image";
    if (n >= 12 && !memcmp(p, "RIFF", 4))
        return !memcmp(p + 8, "WEBP", 4) ? "WebP image" : "RIFF media (WAV, AVI)";
    if (n >= 10 && !memcmp(p, "BZh", 3) && p[3] >= '1' && p[3] <= '9' &&
        !memcmp(p + 4, "1AY&SY", 6))
        return "bzip2-compressed data";
    if (n >= 0x40 && p[0] == 'M' && p[1] == 'Z') {
        uint32_t pe = tt__le32(p + 0x3c);
        if (pe <= n - 4 && !memcmp(p + pe, "PE\0\0", 4))
            return "Windows executable (PE)";
    }
    if (n >= 6 && ((p[0] == 0xff && p[1] == 0xfe && p[3] == 0 && p[5] == 0 && p[2] >= 0x20 &&
                    p[4] >= 0x09) ||
                   (p[0] == 0xfe && p[1] == 0xff && p[2] == 0 && p[4] == 0 && p[3] >= 0x20 &&
                    p[5] >= 0x09)))
        return "UTF-16 text (tracetool reads UTF-8)";
    if (n >= 3 && p[0] == 'I' && p[1] == 'D' && p[2] == '3' && n >= 10 && p[3] >= 2 && p[3] <= 4)
        return "MP3 audio";
    return NULL;
}

/* A line of p[0..n) starting with the literal s */
#define HAS_LINE(p, n, s)                                                                     \
    (((n) >= sizeof s - 1 && !memcmp(p, s, sizeof s - 1)) || tt__memmem(p, n, "\n" s, sizeof s))

enum { IPS_BUG_TYPE = 1, IPS_OS_VERSION = 2, IPS_REPORT = 4, IPS_CRASH = 8 };

/* The top-level keys (IPS_* bits) of the JSON object at p[0] == '{' when it closes on its
 * line; -1 when it does not (a pretty-printed or cut document, or a newline in a string).
 * Linear in the line's length, and reads no further than p[n - 1]; *end is the index after
 * the closing brace. */
static int top_keys_of_line(const char *p, size_t n, size_t *end)
{
    static const struct { const char *k; size_t len; int bit; } want[] = {
        {"bug_type", 8, IPS_BUG_TYPE}, {"os_version", 10, IPS_OS_VERSION},
        {"report", 6, IPS_REPORT}, {"crash", 5, IPS_CRASH},
    };
    int keys = 0, key_next = 0;
    size_t depth = 0;
    for (size_t i = 0; i < n && p[i] != '\n'; i++) {
        char c = p[i];
        if (c == '"') {
            size_t s = ++i;
            while (i < n && p[i] != '"' && p[i] != '\n' &&
                   !(p[i] == '\\' && i + 1 < n && p[i + 1] == '\n'))
                i += p[i] == '\\' ? 2 : 1;
            if (i >= n || p[i] != '"')
                return -1;
            if (depth == 1 && key_next)
                for (size_t w = 0; w < sizeof want / sizeof want[0]; w++)
                    if (i - s == want[w].len && !memcmp(p + s, want[w].k, want[w].len))
                        keys |= want[w].bit;
            key_next = 0;
        } else if (c == '{' || c == '[') {
            depth++;
            key_next = depth == 1;
        } else if (c == '}' || c == ']') {
            if (depth == 0)
                return -1;
            if (--depth == 0) {
                *end = i + 1;
                return keys;
            }
        } else if (c == ',' && depth == 1) {
            key_next = 1;
        }
    }
    return -1;
}

/* An .ips: a one-line JSON header object whose top-level keys hold bug_type and os_version
 * (not a one-line KSCrash report, whose top-level keys are report and crash, even when a
 * "bug_type" appears inside it), followed by the report (a second JSON document, or before
 * iOS 15 the text report). */
static int ips_header(const char *p, size_t n)
{
    size_t end = 0;
    int keys = top_keys_of_line(p, n, &end);
    if (keys < 0 || (keys & (IPS_BUG_TYPE | IPS_OS_VERSION)) != (IPS_BUG_TYPE | IPS_OS_VERSION) ||
        (keys & (IPS_REPORT | IPS_CRASH)) == (IPS_REPORT | IPS_CRASH))
        return 0;
    while (end < n && (p[end] == ' ' || p[end] == '\t' || p[end] == '\r' || p[end] == '\n'))
        end++;
    return end < n;
}

const char *tt_detect_apple_crash(const unsigned char *up, size_t n)
{
    const char *p = (const char *)up;
    size_t k = n >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3) ? 3 : 0;
    while (k < n && (p[k] == ' ' || p[k] == '\t' || p[k] == '\r' || p[k] == '\n'))
        k++;
    p += k;
    n -= k;
    if (n && p[0] == '{') { /* .ips: a one-line JSON header, then the body (or, before iOS
                             * 15, the text report) */
        return ips_header(p, n) ? "an Apple crash report (.ips)" : NULL;
    }
    if (HAS_LINE(p, n, "Incident Identifier:") ||
        (HAS_LINE(p, n, "Exception Type:") &&
         (HAS_LINE(p, n, "Binary Images:") || HAS_LINE(p, n, "Code Type:"))))
        return "an Apple crash report (.crash)";
    return NULL;
}

#undef HAS_LINE

/* Text that is known not to be a trace input of analyze. */
static const char *text_what(const char *p, size_t n)
{
    if (tt__memmem(p, n, "*** *** *** *** *** ***", 23) && tt__memmem(p, n, "backtrace:", 10))
        return "Android tombstone (read it with tracetool symbolicate)";
    if (tt__simpleperf_report_sample(p, n))
        return TT__SIMPLEPERF_REPORT_SAMPLE_MSG;
    return tt_samples_text_what((const unsigned char *)p, n);
}

/* Text method-beat buffer: the first meaningful lines are all 64-bit integers (3.3) and the
 * words they hold are plausible records. */
static int beat_text(const char *p, size_t n, char *why, size_t cap)
{
    enum { MAXW = 1024 };
    uint64_t w[MAXW];
    size_t i = 0, k = 0;
    const char *l;
    size_t ll;
    while (k < MAXW && next_line(p, n, &i, &l, &ll)) {
        if (l[0] == '#')
            continue;
        if (tt_beat_parse_word(l, ll, &w[k])) {
            if (k < 8)
                return 0;
            break; /* the reader reports it with its line number */
        }
        k++;
    }
    return k > 0 && tt_beat_plausible(w, k, NULL, why, cap);
}

static int is_binary(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n && i < 4096; i++) { /* method-beat.md 3.4 */
        unsigned char c = p[i];
        if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
            return 1;
    }
    return 0;
}

static tt_kind classify_text(tt_detection *d, const char *p, size_t n, int sk);

static int all_zero(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i])
            return 0;
    return n > 0;
}

/* Everything that is not a known foreign format. Text kinds need their own positive
 * evidence; binary data is a beat buffer only when its words are plausible records. */
static tt_kind classify(tt_detection *d, const unsigned char *up, size_t n)
{
    const char *p = (const char *)up;
    if (tt_btrace_ios_detect(up, n))
        return TT_KIND_SAMPLES; /* samples.md 2.1.6 */
    if (n >= 16 && !memcmp(p, "SQLite format 3", 16))
        return TT_KIND_DATABASE;
    /* ART method traces: "*version" + 1-3, or "SLOW" with a streaming version (2.1); format
     * V2, a bare data section and simpleperf files are named instead */
    switch (tt_art_detect(up, n, d->what, sizeof d->what)) {
    case TT_ART_LEGACY:
    case TT_ART_STREAMING: return TT_KIND_ART;
    case TT_ART_V2:
    case TT_ART_UNSUPPORTED:
    case TT_ART_BARE: d->foreign = 1; return TT_KIND_UNKNOWN;
    default:
        /* recordings named by the ART check: simpleperf, Perfetto */
        if ((n >= 10 && !memcmp(p, "SIMPLEPERF", 10)) || tt__looks_perfetto(up, n)) {
            d->foreign = 1;
            return TT_KIND_UNKNOWN;
        }
        d->what[0] = 0;
    }
    int sk = tt_samples_detect(up, n);
    if (sk == TT_SKIND_BTRACE) {
        d->btrace = 1;
        return TT_KIND_SAMPLES;
    }
    if (sk == TT_SKIND_BTRACE_MAPPING)
        return TT_KIND_BTRACE_MAPPING;
    if (is_binary(up, n)) { /* raw little-endian records (3.2) */
        if (tt_beat_plausible_bytes(up, n, NULL, d->what, sizeof d->what))
            return TT_KIND_BEAT;
        /* Text with a stray control byte (logcat -v color's escape sequences, a thread
         * name holding \x01) is still text: without a NUL byte, the text kinds are asked,
         * and the records' verdict stands only when none of them claims it. */
        if (memchr(up, 0, n < 4096 ? n : 4096)) {
            d->zeros = all_zero(up, n < TT_DETECT_PEEK ? n : TT_DETECT_PEEK);
            return TT_KIND_UNKNOWN;
        }
        char why[sizeof d->what];
        memcpy(why, d->what, sizeof why);
        d->what[0] = 0;
        tt_kind k = classify_text(d, p, n, sk);
        if (k == TT_KIND_UNKNOWN && !d->foreign)
            memcpy(d->what, why, sizeof why);
        return k;
    }
    return classify_text(d, p, n, sk);
}

/* The text kinds, each on its own positive evidence. */
static tt_kind classify_text(tt_detection *d, const char *p, size_t n, int sk)
{
    size_t skip = n >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3) ? 3 : 0;
    p += skip;
    n -= skip;
    if (tt_mapping_looks_ignore(p, n))
        return TT_KIND_IGNORE;
    if (tt_mapping_looks_like(p, n))
        return TT_KIND_MAPPING;
    size_t k = 0;
    while (k < n && (p[k] == ' ' || p[k] == '\t' || p[k] == '\r' || p[k] == '\n'))
        k++;
    const char *apple = tt_detect_apple_crash((const unsigned char *)p + k, n - k);
    if (apple) { /* ios.md 2.1: out of scope, and named as such */
        snprintf(d->what, sizeof d->what, "%s, which tracetool does not read (it reads KSCrash "
                 "and Matrix iOS reports)", apple);
        d->foreign = 1;
        return TT_KIND_UNKNOWN;
    }
    if (k < n && (p[k] == '{' || (p[k] == '[' && !tt__logcat_long_header(p + k, n - k)))) {
        if (tt_ks_detect((const unsigned char *)p + k, n - k))
            return TT_KIND_KSCRASH; /* ios.md 2.1 */
        /* Matrix reports carry a "tag" key with a Trace_* value */
        if (tt__memmem(p, n, "\"tag\"", 5) && tt__memmem(p, n, "Trace_", 6))
            return TT_KIND_REPORT;
        if (p[k] == '{' && looks_samples_jsonl(p + k, n - k))
            return TT_KIND_SAMPLES;
        if (tt_frames_detect(p, n) == TT_FIN_JSONL)
            return TT_KIND_FRAMES;
        if (p[k] == '{' && tt__looks_startup_events(p + k, n - k))
            return TT_KIND_STARTUP; /* startup.md 4.2 */
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
    if (beat_text(p, n, d->what, sizeof d->what))
        return TT_KIND_BEAT;
    d->what[0] = 0;
    if (looks_proguard(p, n))
        return TT_KIND_PROGUARD;
    const char *what = text_what(p, n);
    if (what) {
        snprintf(d->what, sizeof d->what, "%s", what);
        d->foreign = 1;
        return TT_KIND_UNKNOWN;
    }
    return TT_KIND_UNKNOWN;
}

void tt_detect_full(tt_detection *d, const unsigned char *up, size_t n)
{
    memset(d, 0, sizeof *d);
    const char *p = (const char *)up;
    const char *what = tt_detect_foreign(up, n);
    d->sqlite = n >= 16 && !memcmp(p, "SQLite format 3", 16);
    if (what) {
        snprintf(d->what, sizeof d->what, "%s", what);
        d->foreign = 1;
        d->elf = n >= 4 && !memcmp(p, "\x7f" "ELF", 4);
        return;
    }
    d->kind = classify(d, up, n);
    d->logcat = d->kind == TT_KIND_UNKNOWN && !d->what[0] && tt__looks_logcat(p, n);
}

tt_kind tt_detect(const unsigned char *p, size_t n)
{
    tt_detection d;
    tt_detect_full(&d, p, n);
    return d.kind;
}
