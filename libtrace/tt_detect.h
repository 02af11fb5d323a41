/* Input kinds, detected by content (cli.md "Inputs"; detect.c). Part of the public API;
 * included by tt.h. */
#ifndef TT_DETECT_H
#define TT_DETECT_H

#include "tt_base.h"

/* ---- input kinds, detected by content (cli.md "Inputs"; detect.c) ---- */
typedef enum tt_kind {
    TT_KIND_UNKNOWN = 0,
    TT_KIND_BEAT,          /* method-beat buffer, binary or text (method-beat.md 3) */
    TT_KIND_MAPPING,       /* methodMapping.txt (4.1) */
    TT_KIND_IGNORE,        /* ignoreMethodMapping.txt (4.3) */
    TT_KIND_PROGUARD,      /* ProGuard/R8 mapping.txt (4.6) */
    TT_KIND_REPORT,        /* Matrix issue reports in any container (7.1) */
    TT_KIND_DATABASE,      /* an SQLite file */
    TT_KIND_FRAMES,        /* per-frame JSON lines or dumpsys gfxinfo framestats (frames.md 7) */
    TT_KIND_STARTUP,       /* JSON-lines startup event stream (startup.md 4.2) */
    TT_KIND_LAUNCHES,      /* logcat Displayed/Fully drawn lines, am start -W output (4.3, 4.4) */
    TT_KIND_SAMPLES,       /* btrace sampling, perf script, folded, JSON-lines samples (samples.md 2) */
    TT_KIND_BTRACE_MAPPING, /* btrace sampling-mapping: read with its sampling file */
    TT_KIND_KSCRASH,       /* KSCrash / Matrix iOS JSON reports (ios.md 2.1; tt_kscrash.h) */
    TT_KIND_ART,           /* ART method trace .trace, legacy or streaming (art-trace.md 2.1) */
    TT_KIND__COUNT
} tt_kind;
/* Kind of an input from its first (decompressed) bytes, up to 64 KiB from tt_input_peek.
 * Every kind needs positive evidence: binary data is a method-beat buffer only when its
 * words are plausible records (tt_beat_plausible), text only when its lines have the
 * kind's shape; anything else is TT_KIND_UNKNOWN. */
tt_kind tt_detect(const unsigned char *p, size_t n);
#define TT_DETECT_PEEK 65536 /* bytes detection looks at */
typedef struct tt_detection {
    tt_kind kind;
    /* when kind is TT_KIND_UNKNOWN: what the input is instead ("ELF executable", "binary data,
     * not method-beat records: ..."), or "" when nothing is known */
    char what[200];
    int foreign; /* what names a known file format that is not a trace (magic number) */
    int elf;     /* an ELF file: possibly symbols */
    int sqlite;  /* an SQLite 3 file, tracetool's (kind TT_KIND_DATABASE) or not */
    int zeros;   /* kind TT_KIND_UNKNOWN: every byte looked at is zero (possibly a ring dump
                  * that recorded nothing, method-beat.md 2.1; a beat context reads it) */
    int btrace;  /* kind TT_KIND_SAMPLES: a btrace sampling file (samples.md 2.1), which takes
                  * a sampling-mapping given beside it (tt_btrace_pair) */
    int logcat;  /* kind TT_KIND_UNKNOWN: a logcat capture whose head holds no evidence of a
                  * kind; tt_input_detect_deep reads on */
} tt_detection;
void tt_detect_full(tt_detection *d, const unsigned char *p, size_t n);
/* Peeks TT_DETECT_PEEK bytes of in (nothing is consumed) and detects them; a gzip-compressed
 * input's foreign format is described as such ("tar archive, gzip-compressed"). */
int tt_input_detect(tt_detection *d, tt_input *in, tt_error *err);
/* After tt_input_detect found no kind but a logcat head (d->logcat): reads on to the end
 * (consuming the input; a content hash begun before still covers it all) for a Matrix
 * report line or a Displayed / Fully drawn line, and sets d->kind to TT_KIND_REPORT (one
 * report line decides, as in a head) or TT_KIND_LAUNCHES; with neither, d->what says so
 * (detect_deep.c). */
int tt_input_detect_deep(tt_detection *d, tt_input *in, tt_error *err);
/* The known file format (magic number) of p that is not a trace, e.g. "PNG image", "ELF
 * executable", "SQLite database not written by tracetool"; NULL when none. Static text. */
const char *tt_detect_foreign(const unsigned char *p, size_t n);
/* Apple's own crash reports, which tracetool does not read (spec/ios.md 2.1): "an Apple
 * crash report (.ips)" for a first line that is a JSON object with "bug_type" and
 * "os_version", "an Apple crash report (.crash)" for text with an "Incident Identifier:"
 * line, or "Exception Type:" with "Binary Images:" or "Code Type:"; NULL otherwise. Static
 * text. */
const char *tt_detect_apple_crash(const unsigned char *p, size_t n);
/* Stable lowercase name ("beat", "mapping", ...); tt_kind_parse returns -1 if unknown (kind.c). */
const char *tt_kind_name(tt_kind k);
int tt_kind_parse(const char *name);

#endif
