/* A method-beat call tree as a profile of instrumented slices, for the exporters
 * (spec/method-beat.md section 5, samples.md section 7). */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

#include "tt_int.h"

int tt_profile_from_beat(tt_profile *p, const tt_mitem *items, size_t n, const tt_mapping *m,
                         int name_style, size_t *clamped)
{
    *clamped = 0;
    tt_profile_meta *meta = tt_profile_meta_get(p);
    meta->source_format = "matrix_beat";
    meta->clock = "relative";
    uint32_t utid;
    if (tt_thread_intern(p, &utid, 0, -1, 0, 32))
        return TT_ENOMEM;
    tt_thread_set_name(p, utid, "main", 4, 1);
    tt_thread_set_main(p, utid);
    tt_vec sl, stack;
    tt_vec_init(&sl, sizeof(tt_slice));
    tt_vec_init(&stack, sizeof(uint32_t));
    tt_buf name = {0};
    int rc = 0;
    int64_t cursor = 0; /* next free time at depth 0 */
    /* per open slice: next free child time */
    tt_vec next;
    tt_vec_init(&next, sizeof(int64_t));
    for (size_t i = 0; i < n && !rc; i++) {
        /* pop to the parent: the nearest open slice with a smaller depth (gaps kept) */
        while (stack.len) {
            const tt_slice *top = &TT_VEC_AT(&sl, tt_slice,
                                             TT_VEC_AT(&stack, uint32_t, stack.len - 1));
            if (items[i].depth > (int32_t)top->msg_id) /* msg_id holds the source depth */
                break;
            stack.len--;
            next.len--;
        }
        name.len = 0;
        if (tt_mapping_format_id(&name, m, (uint32_t)items[i].id, name_style) || !name.data) {
            rc = TT_ENOMEM;
            break;
        }
        uint32_t f;
        if ((rc = tt__frame_simple(p, &f, name.data, name.len, TT_FRAME_JAVA, NULL)))
            break;
        tt_slice s;
        memset(&s, 0, sizeof s);
        int64_t dur = (int64_t)items[i].dur * 1000000;
        if (dur < 0)
            dur = 0;
        s.parent = TT_NONE;
        int64_t begin = cursor, limit = INT64_MAX;
        uint32_t parent_cs = TT_NONE;
        if (stack.len) {
            s.parent = TT_VEC_AT(&stack, uint32_t, stack.len - 1);
            const tt_slice *par = &TT_VEC_AT(&sl, tt_slice, s.parent);
            begin = TT_VEC_AT(&next, int64_t, next.len - 1);
            limit = par->ts + par->dur;
            parent_cs = par->callsite;
        }
        if (begin + dur > limit) { /* Matrix rounding can make children outgrow parents */
            dur = limit - begin;
            (*clamped)++;
        }
        s.ts = begin;
        s.dur = dur;
        s.self_dur = dur;
        s.thread_dur = s.self_thread_dur = s.block_dur = s.thread_ts = -1;
        s.gap_before = s.gap_after = -1;
        s.wakeup_utid = TT_NONE;
        s.depth = (uint32_t)stack.len;
        s.frame = f;
        s.msg_id = (uint64_t)(int64_t)items[i].depth;
        s.sample_count = (uint32_t)(items[i].count > 0 ? items[i].count : 0);
        s.type = TT_ST_CPU; /* instrumented: no sample type */
        s.end_kind = TT_ENDK_EXACT;
        uint64_t key = ((uint64_t)parent_cs << 32) | f;
        if (!tt__map_get(&p->csmap, key, &s.callsite)) {
            tt_callsite c = {parent_cs, f, s.depth};
            if (!tt_vec_push(&p->callsites, &c) ||
                tt__map_put(&p->csmap, key, (uint32_t)(p->callsites.len - 1))) {
                rc = TT_ENOMEM;
                break;
            }
            s.callsite = (uint32_t)(p->callsites.len - 1);
        }
        if (s.parent != TT_NONE) {
            tt_slice *par = &TT_VEC_AT(&sl, tt_slice, s.parent);
            par->self_dur -= dur;
            if (par->self_dur < 0)
                par->self_dur = 0;
            TT_VEC_AT(&next, int64_t, next.len - 1) = begin + dur;
        } else {
            cursor = begin + dur;
        }
        uint32_t idx = (uint32_t)sl.len;
        int64_t child0 = begin;
        if (!tt_vec_push(&sl, &s) || !tt_vec_push(&stack, &idx) || !tt_vec_push(&next, &child0))
            rc = TT_ENOMEM;
    }
    for (size_t i = 0; i < sl.len; i++) /* the source depth was only needed while building */
        TT_VEC_AT(&sl, tt_slice, i).msg_id = 0;
    if (!rc)
        rc = tt_profile_set_slices(p, utid, sl.data, sl.len);
    tt_vec_free(&sl);
    tt_vec_free(&stack);
    tt_vec_free(&next);
    tt_buf_free(&name);
    return rc;
}
