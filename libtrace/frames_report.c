/* Matrix Trace_FPS reports as frame statistics (frames.md 7.1): per-report fields from a
 * decoded report (import_report.c), per-scene and all-scene aggregates, one series point
 * per report. */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

#include "tt_int.h"

void tt_fps_report_from_report(tt_fps_report *out, const tt_report *rep)
{
    const tt_report_fps *p = &rep->fps;
    memset(out, 0, sizeof *out);
    out->scene = rep->scene ? rep->scene : "";
    out->generation = p->gen == TT_FPS_GEN_C   ? TT_FGEN_C
                      : p->gen == TT_FPS_GEN_A ? TT_FGEN_A2
                                               : TT_FGEN_AB;
    out->fps = p->fps;
    /* every counted frame increments exactly one level in every generation */
    for (int l = 0; l < TT_DROP_LEVELS; l++) {
        out->level_count[l] = p->drop_level[l];
        out->level_sum[l] = p->drop_sum[l];
        out->frames = tt__sat_add(out->frames, p->drop_level[l]);
    }
    out->drop_task_frame_sum = p->drop_task_frame_sum;
    out->has_time = rep->have_time;
    out->time_unix_ms = rep->time_ms;
    /* TT_FPS_DUR_* and TT_FM_* share the order UNKNOWN_DELAY ... GPU */
    for (int i = 0; i < TT_FPS_DURS && i <= TT_FM_GPU; i++) {
        if (p->have_dur[i]) {
            out->fm_avg[i] = p->dur_ns[i];
            out->fm_mask |= 1u << i;
        }
    }
    out->has_c_fields = p->gen == TT_FPS_GEN_C;
    out->drop_count = (int32_t)p->drop_count;
    out->refresh_rate = (int32_t)p->refresh_rate;
    out->line = rep->line;
}

/* Accumulators of one row: frames and estimated time of reports with fps > 0, and per
 * duration the frames-weighted sum and its weight. */
typedef struct acc {
    double frames, time;
    double fm_sum[TT_FM_GPU + 1], fm_weight[TT_FM_GPU + 1];
} acc;

static void report_acc(tt_frame_stats *st, acc *a, const tt_fps_report *r)
{
    st->reports++;
    st->frames = tt__sat_add(st->frames, r->frames);
    for (int l = 0; l < TT_DROP_LEVELS; l++) {
        st->level_count[l] = tt__sat_add(st->level_count[l], r->level_count[l]);
        st->level_sum[l] = tt__sat_add(st->level_sum[l], r->level_sum[l]);
        st->dropped_sum = tt__sat_add(st->dropped_sum, r->level_sum[l]);
    }
    /* fps = sum frames / sum (frames_r / fps_r): a frames-weighted harmonic mean; fps 0
     * (generation b below API 26) carries no time and is counted apart */
    if (r->fps > 0 && r->frames > 0) {
        a->frames += (double)r->frames;
        a->time += (double)r->frames / r->fps;
    } else if (!(r->fps > 0)) {
        st->fps_zero_reports++;
    }
    for (int i = 0; i <= TT_FM_GPU; i++) {
        if (r->fm_mask & (1u << i)) {
            a->fm_sum[i] += (double)r->fm_avg[i] * (double)r->frames;
            a->fm_weight[i] += (double)r->frames;
        }
    }
}

static void report_close(tt_frame_stats *st, const acc *a)
{
    st->has_fps = a->time > 0;
    st->fps = st->has_fps ? a->frames / a->time : 0;
    for (int i = 0; i <= TT_FM_GPU; i++) {
        if (a->fm_weight[i] > 0) {
            st->fm_avg[i] = (int64_t)(a->fm_sum[i] / a->fm_weight[i]);
            st->fm_mask |= 1u << i;
        }
    }
}

/* Report order (frames.md 7.1, tracetool-frames(1)): by time, reports without one last,
 * then by scene and by every other field the output shows, so that neither the series nor
 * the floating-point sums depend on the input order. */
static int cmp_num(double x, double y) { return (x > y) - (x < y); }

static int cmp_report(const tt_fps_report *x, const tt_fps_report *y)
{
    if (x->has_time != y->has_time)
        return y->has_time - x->has_time;
    if (x->has_time && x->time_unix_ms != y->time_unix_ms)
        return x->time_unix_ms < y->time_unix_ms ? -1 : 1;
    int c = strcmp(x->scene, y->scene);
    if (c)
        return c;
    if ((c = cmp_num((double)x->frames, (double)y->frames)) || (c = cmp_num(x->fps, y->fps)))
        return c;
    for (int l = 0; l < TT_DROP_LEVELS; l++)
        if ((c = cmp_num((double)x->level_count[l], (double)y->level_count[l])) ||
            (c = cmp_num((double)x->level_sum[l], (double)y->level_sum[l])))
            return c;
    if ((c = x->generation - y->generation) ||
        (c = cmp_num((double)x->drop_task_frame_sum, (double)y->drop_task_frame_sum)) ||
        (c = cmp_num((double)x->fm_mask, (double)y->fm_mask)))
        return c;
    for (int i = 0; i <= TT_FM_GPU; i++)
        if ((c = cmp_num((double)x->fm_avg[i], (double)y->fm_avg[i])))
            return c;
    if ((c = x->drop_count - y->drop_count))
        return c;
    return x->refresh_rate - y->refresh_rate;
}

/* qsort has no context argument: each entry carries its report */
typedef struct ordered {
    const tt_fps_report *r;
    size_t i;
} ordered;

static int cmp_ordered(const void *a, const void *b)
{
    const ordered *x = a, *y = b;
    int c = cmp_report(x->r, y->r);
    return c ? c : (x->i > y->i) - (x->i < y->i);
}

int tt_frames__report_stats(tt_frame_stats *stats, size_t ns, tt_frame_stats *all,
                            tt_vec *series, const tt_fps_report *r, const uint32_t *sid,
                            size_t nr)
{
    acc *a = calloc(ns + 1, sizeof *a);
    ordered *idx = malloc((nr ? nr : 1) * sizeof *idx);
    uint32_t *rank = malloc((ns ? ns : 1) * sizeof *rank);
    tt_frame_stats *tmp = malloc((ns ? ns : 1) * sizeof *tmp);
    if (!a || !idx || !rank || !tmp || tt_vec_reserve(series, series->len + nr)) {
        free(a);
        free(idx);
        free(rank);
        free(tmp);
        return TT_ENOMEM;
    }
    for (size_t i = 0; i < nr; i++)
        idx[i] = (ordered){&r[i], i};
    if (nr)
        qsort(idx, nr, sizeof *idx, cmp_ordered);
    /* scenes in the order of their first report in that order */
    for (size_t s = 0; s < ns; s++)
        rank[s] = UINT32_MAX;
    uint32_t next = 0;
    for (size_t k = 0; k < nr; k++) {
        size_t i = idx[k].i;
        if (rank[sid[i]] == UINT32_MAX)
            rank[sid[i]] = next++;
        report_acc(&stats[sid[i]], &a[sid[i]], &r[i]);
        report_acc(all, &a[ns], &r[i]);
        tt_frame_stats *p = tt_vec_push(series, NULL);
        p->scene = r[i].scene;
        p->has_start = r[i].has_time && !tt_ms_to_ns(&p->start_ns, r[i].time_unix_ms);
        if (!p->has_start)
            p->start_ns = 0;
        p->frames = r[i].frames;
        p->has_fps = 1;
        p->fps = r[i].fps;
        for (int l = 0; l < TT_DROP_LEVELS; l++)
            p->dropped_sum = tt__sat_add(p->dropped_sum, r[i].level_sum[l]);
    }
    for (size_t s = 0; s < ns; s++) {
        report_close(&stats[s], &a[s]);
        if (rank[s] == UINT32_MAX) /* a scene without reports (none are interned so) */
            rank[s] = next++;
        tmp[rank[s]] = stats[s];
    }
    if (ns)
        memcpy(stats, tmp, ns * sizeof *tmp);
    report_close(all, &a[ns]);
    free(a);
    free(idx);
    free(rank);
    free(tmp);
    return 0;
}
