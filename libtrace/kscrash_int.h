/* Internal to the KSCrash reader: import_kscrash.c, kscrash_scan.c, kscrash_json.c,
 * kscrash_values.c and the report builder (kscrash_build_int.h), spec/ios.md. */
#ifndef KSCRASH_INT_H
#define KSCRASH_INT_H

#include <jansson.h>

#include "tt_kscrash.h"

/* A string in the report text: offset and length from the report's first byte; set: the
 * key was a string; esc: it holds simple escapes (\" \\ \/ \b \f \n \r \t). */
typedef struct tt_ks_span {
    uint32_t off, len;
    uint8_t set, esc;
} tt_ks_span;

/* One binary image read by the fast path (kscrash_scan.c); has_*: the field was usable. */
typedef struct tt_ks_fimg {
    uint64_t addr, size, vmaddr;
    int64_t cpu_type, cpu_subtype;
    uint8_t has_addr, has_size, has_vmaddr, has_cpu_type, has_cpu_subtype;
    tt_ks_span path, uuid, ci[4];
} tt_ks_fimg;

/* One JSON value of a report read by the whole-report fast path (tt_ks__scan_report): the
 * tree lives in one array, node 0 is the report object. type: a jansson json_type. */
typedef struct tt_ks_jn {
    uint8_t type, esc;         /* esc: a string holding simple escapes */
    uint32_t key_off, key_len; /* an object member's key (never escaped) */
    uint32_t off, len;         /* a string's contents */
    uint32_t first, next;      /* first child, next sibling; 0: none (node 0 is the root) */
    uint32_t n;                /* a container's number of children */
    union {
        int64_t i;             /* JSON_INTEGER (2.2: values >= 2^63 as their bit pattern) */
        double d;              /* JSON_REAL */
    } v;
} tt_ks_jn;

struct tt_ks_reader {
    tt_input *in;
    tt_stats *stats;
    tt_ks_opts opts;
    const char *file;
    char *text;          /* input window: text[pos..len) not yet consumed */
    size_t len, pos, cap;
    int eof, started;
    uint64_t line;       /* line of text[pos] */
    int in_array;        /* inside a top-level array */
    uint64_t array_line;
    int rewritten;       /* 2.2 applied to the current report */
    int big_by_value;    /* it has duplicate keys: big holds the rewritten values, sorted */
    tt_vec big;          /* int64 values produced by the rewrite */
    tt_vec bigp;         /* the json_t integers produced by the rewrite, sorted */
    json_t *value;       /* current report value */
    uint64_t value_line;
    uint64_t count;
    /* current report */
    tt_arena *arena;
    tt_ks_report rep;
    tt_vec images, threads, frames, syms, nodes;
    /* fast path (opts.no_image_json): binary_images of the current report, read from
     * fast_text (the report's text, valid until the next value is read) */
    tt_vec fimgs;
    int fast;
    const char *fast_text;
    /* whole-report fast path: the report as a tree (tt_ks_jn) and no jansson value */
    tt_vec jnodes;
    int tree;
    tt_buf scratch;      /* the report's text with binary_images emptied, for jansson */
    char warn[TT_ERRMSG_MAX];
    char bad_json[TT_ERRMSG_MAX]; /* the current value is not JSON and skipped (I8) */
    const void *pending; /* a recrash report whose embedded original was returned first */
    int nested;          /* the report being built is such an embedded original */
};

/* 2.2 rewrite; values (may be NULL) collects the negative values written (int64_t), ords
 * (may be NULL) their positions among the text's integer tokens (uint64_t, ascending). */
int tt_ks__rewrite(char **out, size_t *out_n, const char *p, size_t n, uint64_t *rewritten,
                   uint64_t *overflow, tt_vec *values, tt_vec *ords);
/* An address field: integer (bit pattern), "0x..." or decimal string; 1 when read. */
int tt_ks__u64(const json_t *v, uint64_t *out);
/* The text rules of tt_ks__u64 ("0x..." or decimal); *out is written only on success. */
int tt_ks__u64_str(const char *s, uint64_t *out);
/* Reads the top-level "binary_images" array of the report object starting at p[0] (the
 * text may go on after it) into imgs (tt_ks_fimg): 1 with the array's extent [*vs, *ve)
 * and the object's end *end, 0 when the report is outside the accepted subset or not
 * complete in p[0..n) (then jansson reads all of it), or TT_ENOMEM. */
int tt_ks__scan_images(tt_vec *imgs, size_t *vs, size_t *ve, size_t *end, const char *p,
                       size_t n);
/* The whole report object starting at p[0] (the text may go on after it) into nodes
 * (tt_ks_jn; its "binary_images" array left empty) and imgs (tt_ks_fimg): 1 with the
 * object's end *end and *big = the number of unsigned integers >= 2^63 (2.2), 0 when the
 * report is outside the accepted subset (jansson reads it), or TT_ENOMEM. The subset
 * adds to tt_ks__scan_images's: any nesting up to a depth limit, reals (strtod, in range),
 * integers of 19 or 20 digits below 2^64. */
int tt_ks__scan_report(tt_vec *nodes, tt_vec *imgs, uint64_t *big, size_t *end, const char *p,
                       size_t n);
/* Whether the integer v of the current report was produced by the rewrite (an unsigned
 * value >= 2^63 in the input): by position, not by value. */
int tt_ks__is_big(const tt_ks_reader *r, const json_t *v);
/* The object under "recrash_report" of the report object o, or NULL. */
const void *tt_ks__recrash(tt_ks_reader *r, const void *o);
/* report.id of the report object o (in the current report's arena), or NULL. */
const char *tt_ks__report_id(tt_ks_reader *r, const void *o);
/* Fills *rep from the report object o (a json_t, or with r->tree the tt_ks_jn root): 0, TT_ENOMEM, or TT_EFORMAT with r->warn set. */
int tt_ks__build(tt_ks_reader *r, tt_ks_report *rep, const void *o, uint64_t line,
                 uint64_t index);

#endif
