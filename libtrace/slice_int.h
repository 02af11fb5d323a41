/* Slice reconstruction internals shared by slice.c (the build, spec/samples.md 5) and
 * slice_top.c (the longest slices of a thread, built in two halves on two threads). */
#ifndef TT_SLICE_INT_H
#define TT_SLICE_INT_H

#include "tt_int.h"

enum { TT__IT_FIRST = 0, TT__IT_LAST, TT__IT_BEGIN, TT__IT_END };

/* One item of a thread (5.1): a run's first or last sample, or an interval's begin or end. */
typedef struct tt__sitem {
    int64_t t, cpu;
    int64_t block; /* blocking duration carried by an end item */
    uint64_t msg_id;
    uint32_t callsite, seq, ctr, count, run; /* ctr: counters index, TT_NONE when none */
    uint32_t waker_utid, waker_seq;
    uint8_t kind, type, end_flag;
} tt__sitem;

/* A slice on the open stack. borrowed: a frame of the item before the segment (second half
 * of a split build), opened by the first half; its close is recorded in tt__sinh. */
typedef struct tt__sopen {
    uint32_t slice, first, callsite;
    int64_t cpu_begin; /* CPU clock at the begin per policy, -1 unknown */
    const tt__ctr_packed *ctr_begin;
    int64_t child_dur, child_tdur;
    int child_tdur_unknown;
    int borrowed;
} tt__sopen;

/* What the slices closed at one item share (5.5, 5.6). */
typedef struct tt__send {
    int64_t end, gap_after, cpu_end, cum_block;
    uint64_t cum_count;
    const tt__ctr_packed *ctr;
} tt__send;

/* How the second half of a split build closed a slice the first half opened (by depth). */
typedef struct tt__sinh {
    tt__send at;
    int64_t child_dur, child_tdur; /* the children closed in the second half */
    int child_tdur_unknown, final;
} tt__sinh;

/* One build over items it[begin, end) of an array of m items. A first half (end < m) stops
 * at the boundary: it closes what the item at end does not share and leaves the rest open. A
 * second half (begin > 0) starts with the stack of item begin - 1 open (borrowed). */
typedef struct tt__sbuild {
    tt_profile *p;
    const tt_slice_opts *o;
    const tt__sitem *it;
    size_t m, begin, end;
    int64_t max_gap;
    int64_t *cum_block; /* prefix sums, index i+1 = through item i */
    uint64_t *cum_count;
    tt_vec *out;
    tt_slice_info *info;
    uint32_t *open_frames; /* per frame: open occurrences (recursion flag) */
    tt__sinh *inh;         /* second half: TT_MAX_STACK_DEPTH + 1 records, by depth */
} tt__sbuild;

/* Items of samples o[0, n) of one thread (5.1) appended to items after `front` reserved
 * slots, with room for one more; runs are numbered from run_base. *sorted: whether they are
 * in (t, seq) order (the caller sorts them otherwise). */
int tt__slice_items(tt_vec *items, const tt_profile *p, const uint32_t *o, size_t n,
                    int64_t max_gap, uint32_t run_base, size_t front, int *sorted);
/* (t, seq, begin before end) order of two items, as qsort wants. */
int tt__slice_item_cmp(const void *a, const void *b);
/* Fills c->cum_block and c->cum_count (room for c->m + 1) from c->it. */
void tt__slice_cum(tt__sbuild *c);
/* Loop frame flags by frame id (5.3 rule 1) for the frames of the stacks of samples o[0, n)
 * and of gap_cs (TT_NONE: none), 0 for the other frames: worked out in time proportional to
 * the callsites of those stacks, not to the profile. *out is the profile's, valid until the
 * next call. */
int tt__slice_loop_flags(const uint8_t **out, tt_profile *p, const tt_slice_opts *opt,
                         const uint32_t *o, size_t n, uint32_t gap_cs);
/* The build (5.2-5.6) over c's segment; open is the stack buffer, left holding what a first
 * half leaves open; path has TT_MAX_STACK_DEPTH + 1 entries. */
int tt__slice_diff(tt__sbuild *c, const uint8_t *is_loop, uint32_t gap_cs, uint32_t *path,
                   tt_vec *open);
/* Completes slice s closed at `at` (5.5, 5.6), as the build does: os holds its begin and the
 * sums over its children; block and count: the blocking time and the samples of its items. */
void tt__slice_finish(const tt__sbuild *c, tt_slice *s, const tt__sopen *os,
                      const tt__send *at, int64_t block, uint64_t count, int final);

#endif
