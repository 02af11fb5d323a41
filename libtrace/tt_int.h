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

/* ---- Matrix FPS replays (frames_matrix.c, frames.md section 3) ---- */
typedef struct tt_fps_replay tt_fps_replay;
/* o has its defaults filled. Owned by the caller, free with tt_frames__replay_free. */
int tt_frames__replay_new(tt_fps_replay **out, const tt_frames_opts *o);
void tt_frames__replay_free(tt_fps_replay *rp);
/* One record in input order; scene is interned (stable) with its id. */
int tt_frames__replay_add(tt_fps_replay *rp, const tt_frame_rec *rec, uint32_t scene_id,
                          const char *scene, const char *file, tt_error *err);
/* Emitted reports (borrowed). */
const tt_fps_report *tt_frames__replay_reports(const tt_fps_replay *rp, size_t *n);
/* Frames left in unflushed items: fills a vec of tt_frames__unflushed. */
typedef struct tt_frames__unflushed {
    uint32_t scene_id;
    int64_t frames;
} tt_frames__unflushed;
int tt_frames__replay_unflushed(const tt_fps_replay *rp, tt_vec *out);
/* Saturating int64 addition (counters over hostile input). */
static inline int64_t tt__sat_add(int64_t a, int64_t b)
{
    if (b > 0 && a > INT64_MAX - b)
        return INT64_MAX;
    if (b < 0 && a < INT64_MIN - b)
        return INT64_MIN;
    return a + b;
}
/* Reports model (frames_report.c): fills stats[ns] (scene names set) and all from the
 * reports, sid[i] being report i's scene, and appends one series point per report. */
int tt_frames__report_stats(tt_frame_stats *stats, size_t ns, tt_frame_stats *all,
                            tt_vec *series, const tt_fps_report *r, const uint32_t *sid,
                            size_t nr);
/* Levels, shared by the native model and the replays (section 2). */
void tt_frames__level_add(int64_t *count, int64_t *sum, int64_t d, const int32_t t[4]);

#endif
