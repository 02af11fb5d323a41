/* The binary part of an ART method trace (spec/art-trace.md 2.3, 2.4, 3.1): the binary
 * header, the records with their clock repair, and the streaming format's packets. */
#include "art_parse_int.h"

#include <stdio.h>
#include <string.h>

int tt_art__parse_bin_header(art_parse *s, size_t at, bin_hdr *h)
{
    tt_rd r;
    uint32_t magic;
    uint16_t v, off, rs = 0;
    uint64_t start;
    const unsigned char *q;
    size_t left; /* the rest of the file, or more than the largest data offset */
    int rc = tt_art__win_need(s, at, 16 + 65536, &q, &left);
    if (rc)
        return rc;
    tt_rd_init(&r, q, left);
    if (tt_rd_u32le(&r, &magic) || tt_rd_u16le(&r, &v) || tt_rd_u16le(&r, &off) ||
        tt_rd_u64le(&r, &start))
        return tt_error_set(s->err, TT_EFORMAT, s->file, TT_LOC_OFFSET, at,
                            "binary header needs 16 bytes, found %zu", left);
    if (magic != ART_MAGIC)
        return tt_error_set(s->err, TT_EFORMAT, s->file, TT_LOC_OFFSET, at,
                            "expected magic 0x574f4c53 (\"SLOW\"), found 0x%08x", magic);
    h->raw_version = v;
    h->version = v & 0x0F;
    if (h->version < 1 || h->version > 3 || (v > 3 && (v & 0xF0) != 0xF0))
        return tt_error_set(s->err, TT_EUNSUPPORTED, s->file, TT_LOC_OFFSET, at + 4,
                            "unsupported binary version 0x%x", v);
    int streaming = (v & 0xF0) == 0xF0;
    if (off < 16 || ((h->version >= 3 || streaming) && off < 18) || off > left)
        return tt_error_set(s->err, TT_EFORMAT, s->file, TT_LOC_OFFSET, at + 6,
                            "offset to data %u out of range (16..%zu%s)", off, left,
                            h->version >= 3 ? ", at least 18 for version 3" : "");
    if (h->version >= 3 || streaming) {
        if (tt_rd_u16le(&r, &rs))
            return TT_EFORMAT;
    }
    h->data_off = off;
    h->start_us = start;
    h->rec_size = h->version == 1 ? 9 : h->version == 2 && !streaming ? 10 : rs;
    if (streaming && h->version == 2 && rs == 0)
        h->rec_size = 10;
    /* the smallest record: thread id, method value and one clock (2.3) */
    unsigned min = h->version == 1 ? 9u : 10u;
    if (h->rec_size < min)
        return tt_error_set(s->err, TT_EFORMAT, s->file, TT_LOC_OFFSET, at + 16,
                            "record size %u smaller than the %u bytes of a version %u record",
                            h->rec_size, min, h->version);
    return 0;
}

/* Bytes a record needs for the clock (2.3). */
unsigned tt_art__rec_need(int version, int clock)
{
    return (version == 1 ? 1u : 2u) + 4u + (clock == TT_ART_CLOCK_DUAL ? 8u : 4u);
}

/* Clamps v, the thread's repaired clock value, to its previous one (3.1). */
static int64_t forward(art_parse *s, int64_t *last, int64_t v, uint64_t off)
{
    if (*last != TT_ART_NONE && v < *last) {
        tt_art__warn(s, "art_time_backwards", TT_SEV_WARN, off, "time went backwards by %lld us",
                     (long long)(*last - v));
        v = *last;
    }
    *last = v;
    return v;
}

/* The value with the low 32 bits raw that is closest to ref (ties to the later one). */
static int64_t nearest_epoch(int64_t ref, uint32_t raw)
{
    int64_t v = (ref & ~(int64_t)0xFFFFFFFF) | raw;
    if (ref - v > ((int64_t)1 << 31))
        v += (int64_t)1 << 32;
    else if (v - ref > ((int64_t)1 << 31) && v >= ((int64_t)1 << 32))
        v -= (int64_t)1 << 32; /* a small step back just after a wrap */
    return v;
}

/* Wrap repair of a thread-CPU value (3.1): raw is the u32 us; the clock is the thread's own,
 * so its epoch follows the thread's previous value. */
static int64_t unwrap(art_parse *s, int64_t *last, uint32_t raw, uint64_t off)
{
    if (*last == TT_ART_NONE)
        return *last = raw;
    int64_t v = nearest_epoch(*last, raw);
    if (v > *last && (v >> 32) > (*last >> 32))
        tt_art__warn(s, "art_time_wrapped", TT_SEV_INFO, off, "clock wrapped after 2^32 us");
    return forward(s, last, v, off);
}

/* Wrap repair of a wall value: one clock for all threads (3.1), so the epoch is the one that
 * puts the value closest to the latest wall time of any thread (records of different threads
 * are not in time order, 2.4, but never 2^31 us apart); a thread that starts or wakes up
 * after a wrap gets the wrap. Then, per thread, no step back. */
static int64_t unwrap_wall(art_parse *s, int64_t *last, uint32_t raw, uint64_t off)
{
    int64_t v = raw;
    if (s->wall_latest != TT_ART_NONE) {
        v = nearest_epoch(s->wall_latest, raw);
        if ((v >> 32) > (s->wall_latest >> 32))
            tt_art__warn(s, "art_time_wrapped", TT_SEV_INFO, off, "clock wrapped after 2^32 us");
    }
    v = forward(s, last, v, off);
    if (s->wall_latest == TT_ART_NONE || v > s->wall_latest)
        s->wall_latest = v;
    return v;
}

/* Decodes one record (q, at file offset off); pass 1 only counts threads. */
static int record(art_parse *s, const unsigned char *q, size_t off, uint64_t recno, int pass)
{
    tt_art *a = s->a;
    uint32_t tid = a->version == 1 ? q[0] : tt__le16(q);
    q += a->version == 1 ? 1 : 2;
    uint32_t val = tt__le32(q);
    int action = (int)(val & 3);
    uint32_t idx;
    if (action == 3) {
        if (pass == 2)
            tt_art__warn(s, "art_bad_action", TT_SEV_DATA_LOSS, off,
                         "record %llu: action 3 is not enter/exit/unroll",
                         (unsigned long long)recno);
        return 0;
    }
    if (tt_art__thread_get(s, tid, &idx))
        return TT_ENOMEM;
    if (pass == 1) {
        TT_VEC_AT(&s->threads, tt_art_thread, idx).nev++;
        a->records++;
        return 0;
    }
    uint32_t mid = val & ~3u, mi;
    if (!tt__map_get(&s->mids, mid, &mi)) {
        char nm[48];
        snprintf(nm, sizeof nm, "<unknown method 0x%x>", mid);
        tt_art_method m = {0};
        m.id = mid;
        m.cls = "";
        m.sig = "";
        m.src = "";
        m.unknown = 1;
        if (!(m.name = tt_art__dup(s, nm, strlen(nm))) || tt_art__method_add(s, &m, off))
            return TT_ENOMEM;
        tt__map_get(&s->mids, mid, &mi);
        a->methods = s->methods.data;
    }
    if (TT_VEC_AT(&s->methods, tt_art_method, mi).unknown)
        tt_art__warn(s, "art_unknown_method", TT_SEV_WARN, off,
                     "record %llu: unknown method id 0x%x", (unsigned long long)recno, mid);
    tt_art_thread *t = &a->threads[idx];
    tt_art_event ev1, *e = s->o && s->o->event ? &ev1 : &t->ev[t->nev++];
    e->ma = mi | (uint32_t)action << 24;
    e->rec = (uint32_t)recno;
    uint32_t c1 = tt__le32(q + 4);
    e->wall_us = e->cpu_us = TT_ART_NONE;
    if (a->clock == TT_ART_CLOCK_WALL) {
        e->wall_us = unwrap_wall(s, &t->last_wall, c1, off);
    } else {
        e->cpu_us = unwrap(s, &t->last_cpu, c1, off);
        if (a->clock == TT_ART_CLOCK_DUAL)
            e->wall_us = unwrap_wall(s, &t->last_wall, tt__le32(q + 8), off);
    }
    if (e == &ev1) { /* streaming (4): the record goes to the caller's stacks */
        a->methods = s->methods.data;
        a->nmethods = s->methods.len;
        int rc = s->o->event(s->o->event_ud, a, idx, e);
        if (rc)
            return tt_error_set(s->err, rc, s->file, TT_LOC_OFFSET, off,
                                "record %llu: %s", (unsigned long long)recno,
                                rc == TT_ENOMEM ? "out of memory" : tt_strerror(rc));
    }
    return 0;
}

/* Bytes of the packet starting at q (2.4) as far as its header tells; 0 when the left bytes
 * (the rest of the file then) do not hold the header. */
static size_t packet_size(const unsigned char *q, size_t left)
{
    if (left < 7)
        return 0;
    switch (q[2]) {
    case 1: return 5 + (size_t)tt__le16(q + 3);
    case 2: return 7 + (size_t)tt__le16(q + 5);
    case 3: return 7 + (size_t)tt__le32(q + 3);
    default: return 3;
    }
}

/* Walks the data section from `at`; streaming files interleave packets (2.4). Pass 1 collects
 * packets and counts records per thread, pass 2 decodes the records. */
int tt_art__walk(art_parse *s, size_t at, int streaming, int pass)
{
    size_t rs = s->a->record_size;
    uint64_t recno = 0;
    for (;;) {
        const unsigned char *q;
        size_t left;
        int rc = tt_art__win_need(s, at, rs, &q, &left);
        if (rc)
            return rc;
        if (pass == 1) {
            s->recs = recno;
            s->data_end = at + left;
        }
        if (!left)
            break;
        if (streaming && left >= 2 && tt__le16(q) == 0) {
            size_t whole = packet_size(q, left);
            if (whole > left && (rc = tt_art__win_need(s, at, whole, &q, &left)))
                return rc;
            tt_rd r;
            uint8_t code;
            uint16_t len16, tid;
            uint32_t len;
            const unsigned char *b;
            tt_rd_init(&r, q + 2, left - 2);
            int bad = tt_rd_u8(&r, &code);
            if (!bad && code == 1) {
                bad = tt_rd_u16le(&r, &len16) || tt_rd_bytes(&r, &b, len16);
                if (!bad && pass == 1) {
                    size_t ll = len16;
                    while (ll && (b[ll - 1] == '\n' || b[ll - 1] == '\r'))
                        ll--;
                    if (tt_art__method_line(s, (const char *)b, ll, at + 5))
                        return s->err ? s->err->code : TT_EFORMAT;
                }
            } else if (!bad && code == 2) {
                bad = tt_rd_u16le(&r, &tid) || tt_rd_u16le(&r, &len16) ||
                      tt_rd_bytes(&r, &b, len16);
                if (!bad && pass == 1 &&
                    tt_art__thread_name(s, tid, tid, (const char *)b, len16, at + 7))
                    return s->err ? s->err->code : TT_EFORMAT;
            } else if (!bad && code == 3) {
                bad = tt_rd_u32le(&r, &len) || tt_rd_bytes(&r, &b, len);
                if (!bad && pass == 1) {
                    size_t used;
                    s->a->has_summary = 1;
                    if (tt_art__parse_header(s, b, len, at + 7, &used, 0))
                        return s->err ? s->err->code : TT_EFORMAT;
                }
            } else if (!bad) {
                if (pass == 1)
                    tt_art__warn(s, "art_bad_packet", TT_SEV_DATA_LOSS, at,
                                 "unknown packet code %u; the rest of the file is ignored", code);
                return 0;
            }
            if (bad) {
                if (pass == 1)
                    tt_art__warn(s, "art_truncated_record", TT_SEV_DATA_LOSS, at,
                                 "packet cut by the end of the file");
                return 0;
            }
            at += 2 + r.pos;
            continue;
        }
        if (left < rs) {
            if (pass == 1)
                tt_art__warn(s, "art_truncated_record", TT_SEV_DATA_LOSS, at,
                             "trailing partial record of %zu bytes dropped (record size %zu)", left,
                             rs);
            return 0;
        }
        recno++;
        if (recno > 0xFFFFFFFFull)
            return tt_error_set(s->err, TT_ELIMIT, s->file, TT_LOC_OFFSET, at,
                                "more than 2^32 records");
        if (record(s, q, at, recno, pass))
            return s->err ? s->err->code : TT_ENOMEM;
        at += rs;
    }
    return 0;
}
