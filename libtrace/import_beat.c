/* Method-beat buffer files: binary little-endian int64 or text, detected by content
 * (method-beat.md section 3). Streaming: records are handed out in blocks. */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

#include "tt_int.h"

struct tt_beat_reader {
    tt_input *in;
    int fmt;
    uint64_t count, backwards;
    int64_t last_t;
    int have_last;
    int bom_checked;
    int check_later; /* auto-detected, only zero bytes seen: check the first records */
    uint64_t ring_next; /* rotation (3.4): slots ring_next..end first, then the head */
    int phase;          /* rotation: 0 head not read yet, 1 the rest, 2 the head */
    tt_vec head;        /* rotation: slots 0..ring_next-1 */
    size_t head_pos;
};

int tt_beat_reader_format(const tt_beat_reader *r) { return r->fmt; }
uint64_t tt_beat_reader_backwards(const tt_beat_reader *r) { return r->backwards; }
uint64_t tt_beat_reader_count(const tt_beat_reader *r) { return r->count; }

/* ---- plausibility (tt.h: thresholds) ---- */
int tt_beat_plausible(const uint64_t *w, size_t n, const tt_mapping *m, char *why, size_t cap)
{
    size_t nz = 0, bad_id = 0, far = 0, back = 0, unmapped = 0, entries = 0, dispatch = 0;
    int64_t last = 0;
    int use_map = m && tt_mapping_count(m) > 0;
    for (size_t i = 0; i < n; i++) {
        if (!w[i])
            continue;
        uint32_t id = tt_beat_id(w[i]);
        int64_t t = tt_beat_time(w[i]);
        bad_id += id == 0 || id == TT_BEAT_ID_MAX;
        entries += tt_beat_is_entry(w[i]);
        dispatch += id == TT_BEAT_DISPATCH;
        far += t >= (int64_t)1 << 36;
        back += nz > 0 && t < last;
        unmapped += use_map && id != TT_BEAT_DISPATCH && !tt_mapping_get(m, id);
        last = t;
        nz++;
    }
    size_t allow = nz / 16;
    if (nz == 0)
        snprintf(why, cap, "binary data of zero bytes only, no method-beat record");
    else if (bad_id > allow)
        snprintf(why, cap, "binary data, not method-beat records: %zu of %zu words have method "
                 "id 0 or 0xFFFFF", bad_id, nz);
    else if (far > allow)
        snprintf(why, cap, "binary data, not method-beat records: %zu of %zu words have a time "
                 "of 2^36 ms or more", far, nz);
    else if (back > allow + 1)
        snprintf(why, cap, "binary data, not method-beat records: the time goes backwards at "
                 "%zu of %zu words", back, nz);
    else if (nz >= 64 && entries == 0)
        snprintf(why, cap, "binary data, not method-beat records: all %zu words are method exits",
                 nz);
    else if (nz >= 64 && entries == nz && (back || !dispatch))
        /* a slice stuck deep in calls (an ANR, 2.3) is all entries: each nested in the one
         * before, so never older than it, under a dispatch entry */
        snprintf(why, cap, "binary data, not method-beat records: all %zu words are method "
                 "entries, %s", nz, back ? "with times going backwards"
                                         : "with no dispatch entry (id 1048574)");
    else if (unmapped > nz / 2)
        snprintf(why, cap, "%zu of %zu records have method ids missing from the mapping",
                 unmapped, nz);
    else
        return 1;
    return 0;
}

int tt_beat_plausible_bytes(const unsigned char *p, size_t n, const tt_mapping *m, char *why,
                            size_t cap)
{
    static const size_t max_words = TT_DETECT_PEEK / 8;
    uint64_t w[TT_DETECT_PEEK / 8]; /* the whole peek: the backwards count needs neighbours */
    size_t nw = n / 8 < max_words ? n / 8 : max_words;
    int any = 0;
    for (size_t i = 0; i < nw; i++)
        any |= (w[i] = tt__le64(p + i * 8)) != 0;
    if (tt_beat_plausible(w, nw, m, why, cap))
        return 1;
    /* a whole file (shorter than the peek) of no non-zero word but non-zero bytes in a
     * trailing partial word is a cut buffer: the reader's "incomplete record" (3.2) says so,
     * not "zero bytes only" */
    int tail = 0;
    for (size_t i = n - n % 8; n < TT_DETECT_PEEK && i < n; i++)
        tail |= p[i];
    return !any && tail;
}

/* Binary auto-detected buffers must be plausible records and no known file format. Zero bytes
 * only are zero slots (2.1): a ring dump that recorded nothing, or whose records start later;
 * the first non-zero records are checked when they are read. */
static int check_binary(tt_beat_reader *r, tt_input *in, tt_error *err)
{
    tt_detection d;
    int rc = tt_input_detect(&d, in, err);
    if (rc)
        return rc;
    if (d.kind == TT_KIND_BEAT)
        return 0;
    if (d.kind == TT_KIND_UNKNOWN && d.zeros) {
        r->check_later = 1;
        return 0;
    }
    if (!d.what[0]) /* another binary kind (btrace, a database): not a method-beat buffer */
        snprintf(d.what, sizeof d.what, "%s input, not a method-beat buffer",
                 tt_kind_name(d.kind));
    return tt_error_set(err, TT_EFORMAT, tt_input_name(in), 0, 0, "not a trace: %s%s", d.what,
                        d.foreign ? "" : " (--buffer-format bin reads it anyway)");
}

int tt_beat_reader_new(tt_beat_reader **out, tt_input *in, int fmt, tt_error *err)
{
    tt_beat_reader *r = calloc(1, sizeof *r);
    if (!r)
        return tt_error_set(err, TT_ENOMEM, tt_input_name(in), 0, 0, "out of memory");
    r->in = in;
    r->fmt = fmt;
    tt_vec_init(&r->head, sizeof(uint64_t));
    if (fmt == TT_BEAT_FMT_AUTO || fmt == TT_BEAT_FMT_AUTO_ANY) {
        const unsigned char *p;
        size_t n;
        int rc = tt_input_peek(in, &p, &n, 4096, err);
        if (rc) {
            free(r);
            return rc;
        }
        fmt = TT_BEAT_FMT_TEXT;
        for (size_t i = 0; i < n; i++) {
            if (p[i] < 0x20 && p[i] != '\t' && p[i] != '\n' && p[i] != '\r') {
                fmt = TT_BEAT_FMT_BIN;
                break;
            }
        }
        if (n == 0)
            fmt = TT_BEAT_FMT_BIN;
        else if (fmt == TT_BEAT_FMT_BIN && r->fmt != TT_BEAT_FMT_AUTO_ANY &&
                 (rc = check_binary(r, in, err))) {
            free(r);
            return rc;
        }
    }
    r->fmt = fmt;
    *out = r;
    return 0;
}

void tt_beat_reader_free(tt_beat_reader *r)
{
    if (!r)
        return;
    tt_vec_free(&r->head);
    free(r);
}

void tt_beat_reader_set_ring_next(tt_beat_reader *r, uint64_t k)
{
    r->ring_next = k;
}

static void note_time(tt_beat_reader *r, uint64_t w)
{
    if (w == 0)
        return;
    int64_t t = tt_beat_time(w);
    if (r->have_last && t < r->last_t)
        r->backwards++;
    r->last_t = t;
    r->have_last = 1;
}

int tt_beat_parse_word(const char *s, size_t n, uint64_t *out)
{
    if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        if (n == 2 || n > 18)
            return n == 2 ? -1 : -2;
        uint64_t v = 0;
        for (size_t i = 2; i < n; i++) {
            char c = s[i];
            unsigned d;
            if (c >= '0' && c <= '9')
                d = (unsigned)(c - '0');
            else if (c >= 'a' && c <= 'f')
                d = (unsigned)(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F')
                d = (unsigned)(c - 'A' + 10);
            else
                return -1;
            v = (v << 4) | d;
        }
        *out = v;
        return 0;
    }
    if (n >= 1 && s[0] == '-') {
        int64_t v;
        int rc = tt__parse_i64(s, n, &v);
        if (rc)
            return rc;
        *out = (uint64_t)v;
        return 0;
    }
    return tt__parse_u64(s, n, out);
}

static int next_text(tt_beat_reader *r, uint64_t *recs, size_t cap, size_t *n, tt_error *err)
{
    size_t k = 0;
    while (k < cap) {
        const char *line;
        size_t len;
        uint64_t lineno;
        int rc = tt_input_line(r->in, &line, &len, &lineno, err);
        if (rc == TT_DONE)
            break;
        if (rc)
            return rc;
        if (lineno == 1 && len >= 3 && !memcmp(line, "\xEF\xBB\xBF", 3)) {
            line += 3;
            len -= 3;
        }
        tt__trim(&line, &len);
        if (len == 0 || line[0] == '#')
            continue;
        uint64_t w;
        rc = tt_beat_parse_word(line, len, &w);
        if (rc) {
            char snip[200];
            tt__snippet(snip, sizeof snip, line, len);
            if (rc == -2)
                return tt_error_set(err, TT_EFORMAT, tt_input_name(r->in), TT_LOC_LINE, lineno,
                                    "value out of range for a 64-bit record, got \"%s\"", snip);
            return tt_error_set(err, TT_EFORMAT, tt_input_name(r->in), TT_LOC_LINE, lineno,
                                "expected a decimal or 0x-hex 64-bit integer, got \"%s\"",
                                snip);
        }
        recs[k++] = w;
    }
    r->count += k;
    *n = k;
    return k ? 0 : TT_DONE;
}

/* The first non-zero records after leading zero slots (check_binary): plausible records. */
static int check_late(tt_beat_reader *r, const uint64_t *recs, size_t k, uint64_t off,
                      tt_error *err)
{
    size_t i = 0;
    while (i < k && !recs[i])
        i++;
    if (i == k)
        return 0;
    r->check_later = 0;
    size_t nw = k - i < TT_DETECT_PEEK / 8 ? k - i : TT_DETECT_PEEK / 8;
    char why[200];
    if (tt_beat_plausible(recs + i, nw, NULL, why, sizeof why))
        return 0;
    return tt_error_set(err, TT_EFORMAT, tt_input_name(r->in), TT_LOC_OFFSET, off + i * 8,
                        "not a trace: %s, after %llu zero bytes (--buffer-format bin reads "
                        "it anyway)", why, (unsigned long long)(off + i * 8));
}

/* Reads the little-endian words straight into recs and decodes them in place (each word's
 * bytes are read before its slot is written), so the records are copied only once. */
static int next_bin(tt_beat_reader *r, uint64_t *recs, size_t cap, size_t *n, tt_error *err)
{
    size_t want = cap > SIZE_MAX / 8 ? SIZE_MAX / 8 : cap;
    uint64_t off = tt_input_offset(r->in);
    unsigned char *bytes = (unsigned char *)recs;
    size_t got = 0;
    while (got < want * 8) {
        size_t k;
        int rc = tt_input_read(r->in, bytes + got, want * 8 - got, &k, err);
        if (rc)
            return rc;
        if (k == 0)
            break;
        got += k;
    }
    size_t k = got / 8;
    if (got % 8) {
        /* find the total length for the message */
        uint64_t total = off + got;
        unsigned char tmp[4096];
        size_t more;
        do {
            int rc = tt_input_read(r->in, tmp, sizeof tmp, &more, err);
            if (rc)
                return rc;
            total += more;
        } while (more);
        return tt_error_set(err, TT_EFORMAT, tt_input_name(r->in), TT_LOC_OFFSET,
                            off + k * 8,
                            "incomplete record: file length %llu is not a multiple of 8",
                            (unsigned long long)total);
    }
    for (size_t i = 0; i < k; i++) {
        unsigned char b[8];
        memcpy(b, bytes + i * 8, 8);
        uint64_t w = (uint64_t)b[0] | (uint64_t)b[1] << 8 | (uint64_t)b[2] << 16 |
                     (uint64_t)b[3] << 24 | (uint64_t)b[4] << 32 | (uint64_t)b[5] << 40 |
                     (uint64_t)b[6] << 48 | (uint64_t)b[7] << 56;
        recs[i] = w;
    }
    int rc = r->check_later ? check_late(r, recs, k, off, err) : 0;
    if (rc)
        return rc;
    r->count += k;
    *n = k;
    return k ? 0 : TT_DONE;
}

static int next_raw(tt_beat_reader *r, uint64_t *recs, size_t cap, size_t *n, tt_error *err)
{
    return r->fmt == TT_BEAT_FMT_TEXT ? next_text(r, recs, cap, n, err)
                                      : next_bin(r, recs, cap, n, err);
}

/* A rotated ring dump (3.4): the first ring_next records are held back and handed out after
 * the rest of the file. */
static int next_rotated(tt_beat_reader *r, uint64_t *recs, size_t cap, size_t *n,
                        tt_error *err)
{
    int rc;
    if (r->phase == 0) {
        while (r->head.len < r->ring_next) {
            uint64_t left = r->ring_next - r->head.len;
            rc = next_raw(r, recs, left < cap ? (size_t)left : cap, n, err);
            if (rc == TT_DONE)
                break;
            if (rc)
                return rc;
            if (tt_vec_reserve(&r->head, r->head.len + *n))
                return tt_error_set(err, TT_ENOMEM, tt_input_name(r->in), 0, 0,
                                    "out of memory");
            memcpy((uint64_t *)r->head.data + r->head.len, recs, *n * sizeof *recs);
            r->head.len += *n;
        }
        *n = 0;
        r->phase = 1;
    }
    if (r->phase == 1) {
        rc = next_raw(r, recs, cap, n, err);
        if (rc != TT_DONE)
            return rc;
        r->phase = 2;
    }
    size_t k = r->head.len - r->head_pos < cap ? r->head.len - r->head_pos : cap;
    if (k == 0) /* also an empty file: no head was ever allocated */
        return TT_DONE;
    memcpy(recs, (const uint64_t *)r->head.data + r->head_pos, k * sizeof *recs);
    r->head_pos += k;
    *n = k;
    return 0;
}

int tt_beat_reader_next(tt_beat_reader *r, uint64_t *recs, size_t cap, size_t *n,
                        tt_error *err)
{
    *n = 0;
    if (cap == 0)
        return 0;
    int rc = r->ring_next ? next_rotated(r, recs, cap, n, err) : next_raw(r, recs, cap, n, err);
    for (size_t i = 0; i < *n && !rc; i++) /* in the order handed out */
        note_time(r, recs[i]);
    return rc;
}
