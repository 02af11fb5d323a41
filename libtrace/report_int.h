/* The Matrix issue report reader's state, shared by import_report.c (containers, the reader)
 * and report_fields.c (the fields of one report), method-beat.md section 7. */
#ifndef TT_REPORT_INT_H
#define TT_REPORT_INT_H

#include <jansson.h>

#include "tt.h"
#include "tt_int.h"

struct tt_report_reader {
    tt_input *in;
    tt_stats *stats;
    const char *file;
    int container, done;
    int no_json; /* tt_report_reader_set_json(r, 0) */
    /* JSON containers: chunked scanning */
    unsigned char *chunk;
    size_t cpos, clen;
    int eof;
    uint64_t line;      /* line of chunk[cpos] */
    uint64_t col;       /* characters of that line before chunk[cpos] */
    int in_array, expect; /* expect: 0 after '[', 1 after an element, 2 after ',' */
    uint64_t array_line;
    tt_buf obj;
    tt_buf fix; /* a copy of obj being repaired (import_report.c, retry) */
    /* the current report */
    json_t *root;
    char *dump;
    tt_mitem *items;
    tt_arena *arena;
    tt_report rep;
    uint64_t count, skipped, lines_skipped;
    uint64_t lines_cut; /* log lines whose content[...] is cut or not JSON (counted) */
};

/* Fills r->rep from the report object o: 0 usable, 1 skipped (counted), < 0 an error. */
int tt_report__fill(tt_report_reader *r, json_t *o, tt_error *err);

/* v as JSON text into w: key order kept, reals in the shortest round-trip form of 7.6. */
void tt_report__json_write(tt_jsonw *w, const json_t *v);

#endif
