/* Checked int64 arithmetic (public, included by tt.h): the one place for overflow tests. */
#ifndef TT_CHECKED_H
#define TT_CHECKED_H

#include <stdint.h>

/* ---- checked int64 arithmetic: the one place for overflow tests ----
 * Each returns 0 and stores the exact result, or returns 1 (out untouched) when the result
 * does not fit in int64_t. Values read from input go through these before they are
 * combined, so untrusted numbers never reach signed overflow. */
#define TT_NS_PER_MS 1000000LL
/* The largest millisecond time whose nanosecond value fits in int64_t (about 292 years):
 * the accepted range of every input time given in ms (--base-ms, base_ms, ts_ms). */
#define TT_MS_MAX (INT64_MAX / TT_NS_PER_MS)

static inline int tt_add_i64(int64_t *out, int64_t a, int64_t b)
{
#if defined(__GNUC__) || defined(__clang__)
    int64_t r;
    if (__builtin_add_overflow(a, b, &r))
        return 1;
    *out = r;
#else
    if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b))
        return 1;
    *out = a + b;
#endif
    return 0;
}

static inline int tt_sub_i64(int64_t *out, int64_t a, int64_t b)
{
#if defined(__GNUC__) || defined(__clang__)
    int64_t r;
    if (__builtin_sub_overflow(a, b, &r))
        return 1;
    *out = r;
#else
    if ((b < 0 && a > INT64_MAX + b) || (b > 0 && a < INT64_MIN + b))
        return 1;
    *out = a - b;
#endif
    return 0;
}

static inline int tt_mul_i64(int64_t *out, int64_t a, int64_t b)
{
#if defined(__GNUC__) || defined(__clang__)
    int64_t r;
    if (__builtin_mul_overflow(a, b, &r))
        return 1;
    *out = r;
#else
    if (a && b &&
        ((a > 0 && b > 0 && a > INT64_MAX / b) || (a > 0 && b < 0 && b < INT64_MIN / a) ||
         (a < 0 && b > 0 && a < INT64_MIN / b) || (a < 0 && b < 0 && a < INT64_MAX / b)))
        return 1;
    *out = a * b;
#endif
    return 0;
}

/* a + b, or INT64_MAX / INT64_MIN when it does not fit: sums of weights and counters over
 * hostile input (a saturated sum means "at least this"). */
static inline int64_t tt_sat_add_i64(int64_t a, int64_t b)
{
    int64_t r;
    if (tt_add_i64(&r, a, b))
        return b > 0 ? INT64_MAX : INT64_MIN;
    return r;
}

/* ms -> ns; 1 when the result does not fit (|ms| > TT_MS_MAX). */
static inline int tt_ms_to_ns(int64_t *ns, int64_t ms) { return tt_mul_i64(ns, ms, TT_NS_PER_MS); }

#endif
