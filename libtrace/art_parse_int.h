/* The ART method trace reader's state, shared by import_art.c (detection and the parse
 * driver), art_window.c (input window, messages), art_header.c (text header: threads,
 * methods, keys) and art_records.c (binary header, records, packets), spec/art-trace.md 2-4. */
#ifndef TT_ART_PARSE_INT_H
#define TT_ART_PARSE_INT_H

#include "tt_art.h"
#include "tt_int.h"

#define ART_MAGIC 0x574F4C53u

typedef struct art_parse {
    tt_art *a;
    const unsigned char *p; /* memory input: the whole file */
    size_t n;
    /* input read in chunks (in != NULL): the window holds file bytes [wbase, wbase + wlen) */
    tt_input *in;
    const tt_art_src *src;
    unsigned char *buf;
    size_t cap, wbase, wlen, chunk;
    int eof;
    const char *file;
    tt_stats *stats;
    tt_error *err;
    tt__map mids;         /* method id -> index */
    tt_vec methods, threads, kv;
    uint32_t *tmap;       /* thread id -> 1 + index, 65536 entries */
    int hdr_version;      /* from the text header, 0 when none */
    const char *clock_key;
    uint64_t clock_off; /* file offset of the clock= header line */
    const tt_art_opts *o;
    uint64_t recs;      /* pass 1: whole records of the data section */
    size_t data_end;    /* pass 1: where the data section ends (the file's end) */
    int64_t wall_latest; /* pass 2: the latest wall time of any thread, after wrap repair */
} art_parse;

/* ---- input window and messages (art_window.c) ---- */

/* Counts the warning name into s->stats with the message at file offset off. */
void tt_art__warn(art_parse *s, const char *name, int sev, uint64_t off, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
/* Sets the out-of-memory error; returns TT_ENOMEM. */
int tt_art__nomem(art_parse *s);
/* The bytes of the file from offset at: *q and *avail (at least want unless the file ends
 * first; 0 at the end). Offsets only move forward, except by tt_art__win_rewind. */
int tt_art__win_need(art_parse *s, size_t at, size_t want, const unsigned char **q, size_t *avail);
/* Starts reading the file again from offset 0 (the second pass). */
int tt_art__win_rewind(art_parse *s);
/* Closes a chunked input. */
void tt_art__src_close(art_parse *s);
/* p[0..n) copied into the trace's arena; NULL when out of memory. */
char *tt_art__dup(art_parse *s, const char *p, size_t n);

/* ---- text header, threads and methods (art_header.c) ---- */

/* Thread index for a record's id, created on first use. */
int tt_art__thread_get(art_parse *s, uint32_t id, uint32_t *idx);
/* Names thread id (the records' key); listed: the id the thread list gave (wider than id
 * when the list holds the whole tid). */
int tt_art__thread_name(art_parse *s, uint32_t id, uint32_t listed, const char *name, size_t n,
                        uint64_t off);
/* Adds m (names copied); a later definition of an id replaces the earlier one. */
int tt_art__method_add(art_parse *s, tt_art_method *m, uint64_t off);
/* One *methods line (2.2). */
int tt_art__method_line(art_parse *s, const char *l, size_t n, uint64_t off);
/* Parses a text header (legacy file or streaming summary) from p[0..n) at file offset base;
 * *used gets the bytes up to and including the "*end" line (n when there is none). */
int tt_art__parse_header(art_parse *s, const unsigned char *p, size_t n, uint64_t base,
                         size_t *used, int need_end);

/* ---- binary data (art_records.c) ---- */


typedef struct bin_hdr {
    unsigned version, raw_version, data_off, rec_size;
    uint64_t start_us;
} bin_hdr;

/* The binary header at file offset at (2.3). */
int tt_art__parse_bin_header(art_parse *s, size_t at, bin_hdr *h);
/* Bytes a record needs for the clock (2.3). */
unsigned tt_art__rec_need(int version, int clock);
/* Walks the data section from `at`; streaming files interleave packets (2.4). Pass 1 collects
 * packets and counts records per thread, pass 2 decodes the records. */
int tt_art__walk(art_parse *s, size_t at, int streaming, int pass);

#endif
