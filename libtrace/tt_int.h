/* libtrace internal declarations, shared by libtrace's .c files only. */
#ifndef TT_INT_H
#define TT_INT_H

#include "tt.h"

#define TT_UNUSED(x) ((void)(x))

/* Truncates s for messages: copies at most 40 characters, adding "..." when cut. */
void tt__snippet(char *dst, size_t cap, const char *s, size_t n);
/* Strict decimal parsers; 0 on success. */
int tt__parse_u64(const char *s, size_t n, uint64_t *out);
int tt__parse_i64(const char *s, size_t n, int64_t *out);
/* Trim spaces/tabs and a trailing '\r'. */
void tt__trim(const char **s, size_t *n);
/* memmem without _GNU_SOURCE. */
const char *tt__memmem(const char *h, size_t hn, const char *n, size_t nn);

/* ---- rd.c: bounds-checked little-endian cursor over packed binary data (STYLE.md 5) ---- */
typedef struct tt_rd {
    const unsigned char *p;
    size_t n, pos;
} tt_rd;
void tt_rd_init(tt_rd *r, const void *p, size_t n);
size_t tt_rd_left(const tt_rd *r);
/* Each returns 0, or TT_EFORMAT without moving when fewer bytes are left. */
int tt_rd_u8(tt_rd *r, uint8_t *v);
int tt_rd_u16le(tt_rd *r, uint16_t *v);
int tt_rd_u32le(tt_rd *r, uint32_t *v);
int tt_rd_i32le(tt_rd *r, int32_t *v);
int tt_rd_u64le(tt_rd *r, uint64_t *v);
int tt_rd_bytes(tt_rd *r, const unsigned char **p, size_t n);
int tt_rd_skip(tt_rd *r, size_t n);

/* ---- hash.c: open-addressed tables ---- */
/* u64 key -> u32 value (TT_NONE is reserved as "empty"). */
typedef struct tt__map {
    uint64_t *keys;
    uint32_t *vals;
    size_t cap, len;
} tt__map;
int tt__map_get(const tt__map *m, uint64_t key, uint32_t *val); /* 1 found, 0 not */
int tt__map_put(tt__map *m, uint64_t key, uint32_t val);        /* insert or replace */
void tt__map_free(tt__map *m);
/* Table of u32 ids keyed by a caller hash with a caller equality test. */
typedef int (*tt__eq_fn)(const void *ctx, uint32_t id, const void *key);
typedef struct tt__idtab {
    uint32_t *ids;
    uint64_t *hashes;
    size_t cap, len;
} tt__idtab;
uint32_t tt__idtab_find(const tt__idtab *t, uint64_t h, tt__eq_fn eq, const void *ctx,
                        const void *key); /* TT_NONE when absent */
int tt__idtab_add(tt__idtab *t, uint64_t h, uint32_t id);
void tt__idtab_free(tt__idtab *t);
uint64_t tt__hash(const void *p, size_t n, uint64_t seed);
static inline uint64_t tt__mix64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

/* ---- sampled-stack profile internals (callsite.c, profile.c, slice.c, import_*.c) ---- */
struct tt_profile {
    tt_arena *arena;
    int identity;
    tt_profile_meta meta;
    tt_vec frames;     /* tt_stack_frame */
    tt__idtab ftab;
    tt_vec callsites;  /* tt_callsite */
    tt__map csmap;     /* (parent << 32 | frame) -> callsite */
    tt_vec threads;    /* tt_thread */
    tt__idtab ttab;
    tt_vec samples;    /* tt_sample */
    tt_vec counters;   /* tt_counters */
    uint32_t *order;   /* after finish: sample indices grouped by thread, time-sorted */
    size_t *toff;      /* per utid: offset into order; toff[utid + 1] - toff[utid] = count */
    int finished;
    tt_vec *fixed;     /* per utid fixed slices (tt_vec of tt_slice) or NULL */
    size_t nfixed;
    uint8_t *cs_rec;   /* lazily: callsite frame also among its ancestors */
    size_t cs_rec_n;
    tt_buf tmp;
};
/* The previous stack of one thread: consecutive samples share most of their root-side frames,
 * so only the differing tail is looked up (callsite.c). */
typedef struct tt__cscache {
    uint32_t frames[TT_MAX_STACK_DEPTH];
    uint32_t path[TT_MAX_STACK_DEPTH];
    size_t n;
} tt__cscache;
int tt__callsite_intern_cached(tt_profile *p, uint32_t *leaf, const uint32_t *frames, size_t n,
                               tt__cscache *cache);
/* Sanitises s into valid UTF-8 (U+FFFD for bad bytes), appending to b. */
int tt__utf8_sanitize(tt_buf *b, const char *s, size_t n);
/* 1 when the callsite's frame also occurs among its ancestors (lazily computed array). */
const uint8_t *tt__callsite_recursive(tt_profile *p);
/* Interns a frame made only of a name and kind. */
int tt__frame_simple(tt_profile *p, uint32_t *id, const char *name, size_t n, int kind,
                     const char *module);
/* Weight of run j of a thread's runs for folded/speedscope output (7.2): count, period, or
 * the run's wall/CPU span under the mid policy. */
int64_t tt__run_weight(const tt_vec *runs, size_t j, int weight, int64_t max_gap, int64_t pad);
/* Smallest timestamp of the profile (samples or fixed slices); 0 when empty. */
int64_t tt__profile_start(const tt_profile *p);
/* 1 when utid passes the export's thread filter. */
int tt__export_wants(const tt_export_opts *o, uint32_t utid);
/* Streaming JSON output helper of the exporters: flushes w->buf through fn when large. */
int tt__flush(tt_jsonw *w, tt_write_fn fn, void *ctx, int force, tt_error *err);

#endif
