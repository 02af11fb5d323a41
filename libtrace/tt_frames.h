/* Frames and FPS (spec/frames.md). Part of the public API; included by tt.h. */
#ifndef TT_FRAMES_H
#define TT_FRAMES_H

#include "tt_beat.h"

/* ---- frames and FPS (frames.c, import_frames.c; spec/frames.md) ---- */

/* The drop level (TT_DROP_*, frames.md section 2) of d dropped frames with thresholds
 * t[4] (3, 9, 24, 42 by default). */
int tt_level_of(int64_t d, const int32_t t[4]);

/* FrameMetrics values by Android constant name (7.2); the first nine are the durations
 * Matrix checks, TOTAL included. */
enum { TT_FM_UNKNOWN_DELAY = 0, TT_FM_INPUT_HANDLING, TT_FM_ANIMATION, TT_FM_LAYOUT_MEASURE,
       TT_FM_DRAW, TT_FM_SYNC, TT_FM_COMMAND_ISSUE, TT_FM_SWAP_BUFFERS, TT_FM_TOTAL,
       TT_FM_GPU, TT_FM_DEADLINE, TT_FM_FIRST_DRAW_FRAME, TT_FM_INTENDED_VSYNC, TT_FM_VSYNC,
       TT_FM_COUNT };
/* The durations come first: TT_FM_UNKNOWN_DELAY ... TT_FM_DEADLINE (a frame's phase
 * durations as ui_frame's args keep them, storage.md 3.5). */
#define TT_FM_DURATIONS (TT_FM_DEADLINE + 1)
/* "UNKNOWN_DELAY_DURATION", ... "VSYNC_TIMESTAMP". */
const char *tt_fm_name(int fm);

/* Input kinds of `frames` (detected by content). */
enum { TT_FIN_UNKNOWN = 0, TT_FIN_JSONL, TT_FIN_FRAMESTATS, TT_FIN_REPORT };
/* Kind of an input from its first bytes (up to 64 KiB). */
int tt_frames_detect(const char *p, size_t n);
const char *tt_frames_kind_name(int kind);

enum { TT_FREC_FRAME = 0, TT_FREC_PAUSE = 1 };
#define TT_REFRESH_HZ_MIN 0.01 /* accepted refresh rates (refresh_hz, --refresh-hz) */
#define TT_REFRESH_HZ_MAX 100000.0
enum { TT_FSRC_JSONL = 0, TT_FSRC_FRAMESTATS = 1 };
enum { TT_FSKIP_NONE = 0, TT_FSKIP_FLAGS, TT_FSKIP_INVALID, TT_FSKIP_OUTLIER };

/* One per-frame input record (7.2) or framestats row (7.3). */
typedef struct tt_frame_rec {
    int type;               /* TT_FREC_* */
    int source;             /* TT_FSRC_* */
    int skip;               /* TT_FSKIP_*: counted, not analysed */
    int vsync;              /* 1: a real frame; 0: a plain Looper message */
    const char *scene;      /* borrowed until the next record; not NUL-terminated */
    size_t scene_len;
    int64_t start_ns, end_ns, iv_ns;
    int64_t vsync_ns;       /* valid when has_vsync_ns */
    int has_vsync_ns;
    int64_t interval_ns;    /* refresh period when known (> 0), else 0 */
    double refresh_hz;      /* refresh rate when known (> 0), else 0 */
    int64_t ui_ns;          /* UI-thread duration (6.1, jank basis ui); -1 unknown */
    int64_t fm[TT_FM_COUNT];
    uint32_t fm_mask;       /* bit i: fm[i] given */
    int64_t ts_ns;          /* pause records */
    int has_vsync_id;
    int64_t vsync_id;       /* framestats FrameTimelineVsyncId (Android 12+) */
    uint64_t line;          /* 1-based input line */
    uint64_t window_id;     /* framestats: the window's ViewRootImpl hash (older releases,
                             * where windows of one activity share its scene); 0 when the
                             * scene names the window ("Window:" lines) or for records */
} tt_frame_rec;

typedef struct tt_frames_reader tt_frames_reader;
/* Streaming reader of JSON lines or a framestats dump over in (borrowed). kind is a
 * TT_FIN_* or TT_FIN_UNKNOWN to detect; Matrix reports are refused (TT_EUNSUPPORTED).
 * Owned by the caller, free with tt_frames_reader_free. */
int tt_frames_reader_new(tt_frames_reader **out, tt_input *in, int kind, tt_error *err);
void tt_frames_reader_free(tt_frames_reader *r);
int tt_frames_reader_kind(const tt_frames_reader *r);
/* Next record (skipped rows included, marked in rec->skip); TT_DONE at the end. */
int tt_frames_reader_next(tt_frames_reader *r, tt_frame_rec *rec, tt_error *err);

/* A Matrix Trace_FPS report (frames.md 7.1), read or replayed. */
enum { TT_FGEN_AB = 0, TT_FGEN_A1, TT_FGEN_A2, TT_FGEN_B, TT_FGEN_C };
typedef struct tt_fps_report {
    const char *scene;      /* borrowed (from the tt_report or the tt_frames) */
    int generation;         /* TT_FGEN_*; a read report is AB, A2 or C */
    double fps;             /* a Java float widened to double */
    int64_t level_count[TT_DROP_LEVELS], level_sum[TT_DROP_LEVELS];
    int64_t frames;         /* sum of level_count */
    int64_t drop_task_frame_sum; /* a2 only */
    int has_time;
    int64_t time_unix_ms;   /* report "time" */
    int64_t fm_avg[TT_FM_GPU + 1]; /* c: average durations, ns */
    uint32_t fm_mask;       /* bit i: fm_avg[i] present */
    int has_c_fields;
    int32_t drop_count, refresh_rate; /* c */
    uint64_t line;          /* input line of the report, or of the frame that emitted it */
} tt_fps_report;
/* Copies the FPS fields of a decoded Trace_FPS report (rep->kind == TT_RKIND_FPS); the
 * scene stays borrowed from rep. */
void tt_fps_report_from_report(tt_fps_report *out, const tt_report *rep);

/* Analysis models (frames.md sections 3 and 6). */
enum { TT_FMODEL_NATIVE = 0, TT_FMODEL_A1, TT_FMODEL_A2, TT_FMODEL_B, TT_FMODEL_C,
       TT_FMODEL_REPORTS };
/* "native", "matrix-a1", ..., "reports". */
const char *tt_fmodel_name(int model);

typedef struct tt_frames_opts {
    int model;              /* TT_FMODEL_*; REPORTS is set by the first added report */
    int scaled;             /* drop levels: 0 matrix, 1 scaled (native only, section 5) */
    int32_t levels[4];      /* thresholds when has_levels, else 3, 9, 24, 42 */
    double refresh_hz;      /* --refresh-hz; 0 = none */
    int64_t slow_ns;        /* when has_slow (0 included: every T > 0), else 16 ms */
    int64_t frozen_ns;      /* when has_frozen (0 included), else 700 ms */
    int has_levels, has_slow, has_frozen; /* 1: the value above is set; 0: its default */
    double jank_multiplier; /* 0 = 2.0 */
    int jank_ui;            /* jank basis: 0 total, 1 UI-thread duration */
    int64_t window_ms;      /* series window; 0 = 1000 */
    int b_frame_metrics;    /* matrix-b: 0 Looper path, 1 FrameMetrics path */
    int b_cap_zero;         /* matrix-b Looper path of v2.0.5-v2.0.8: fps cap 0 */
    int64_t time_slice_ms;  /* matrix replays: report budget; 0 = 10000 */
    int no_series;          /* 1: no time series is built (outputs that print none) */
    int keep_fm;            /* 1: each frame's FrameMetrics durations are kept (analyze) */
} tt_frames_opts;

/* Aggregates of one scene, all scenes ("*") or one series window (6.2, 6.3, 7.1).
 * Fields that a model cannot derive have has_* = 0 (printed as null). */
typedef struct tt_frame_stats {
    const char *scene;      /* borrowed; "*" for all scenes */
    int has_start;
    int64_t start_ns;       /* series: window start (trace clock; reports: time in ns) */
    int64_t frames;
    int has_busy;
    int64_t busy_ns;
    int has_fps;
    double fps;
    int64_t dropped_sum;
    int64_t level_count[TT_DROP_LEVELS], level_sum[TT_DROP_LEVELS];
    int has_flags;          /* jank, slow, frozen known */
    int64_t jank, slow, frozen;
    int has_times;          /* frame_time percentiles known (frames > 0, native) */
    int64_t p50_ns, p90_ns, p95_ns, p99_ns, max_ns, mean_ns;
    int64_t reports, fps_zero_reports; /* reports model */
    int64_t fm_avg[TT_FM_GPU + 1];     /* reports model: generation c averages */
    uint32_t fm_mask;
} tt_frame_stats;

/* One analysed frame of the native model (storage.md table ui_frame). */
typedef struct tt_ui_frame {
    uint32_t scene_id;      /* index into tt_frames_scene_name */
    int64_t ts;             /* intended vsync */
    int64_t dur;            /* T */
    int64_t interval_dur;   /* P */
    int64_t expected_dur;   /* deadline when known, else 0 */
    int64_t busy_dur;
    int64_t dropped;        /* d (60 Hz-equivalent frames in scaled mode) */
    uint8_t level;          /* TT_DROP_* */
    uint8_t is_jank, is_slow, is_frozen;
    uint8_t has_vsync_id;
    int64_t vsync_id;       /* FrameTimelineVsyncId when has_vsync_id */
    uint64_t seq;           /* input order */
    uint64_t window_id;     /* tt_frame_rec.window_id */
    uint8_t framestats;     /* 1: a framestats row (de-duplicated, 7.3) */
    uint32_t fm_id;         /* keep_fm: 1 + its durations' index (tt_frames_frame_fm); 0 none */
} tt_ui_frame;

/* The FrameMetrics durations a frame's input gave (record or framestats row), ns. */
typedef struct tt_frame_fm {
    uint32_t mask;          /* bit i < TT_FM_DURATIONS: fm[i] given */
    int64_t fm[TT_FM_DURATIONS];
} tt_frame_fm;

typedef struct tt_frames_skipped {
    int64_t flags, invalid, outliers, non_frame_messages, duplicates, empty_scene;
} tt_frames_skipped;

typedef struct tt_frames tt_frames;
/* Owned by the caller, free with tt_frames_free. opts is copied. */
int tt_frames_new(tt_frames **out, const tt_frames_opts *opts, tt_error *err);
void tt_frames_free(tt_frames *f);
/* Adds one record in input order (native: stored; replays: processed now). file names
 * the input in errors. */
int tt_frames_add(tt_frames *f, const tt_frame_rec *rec, const char *file, tt_error *err);
/* Adds one Matrix FPS report (reports model); the report is copied. TT_EINVAL when
 * frames were added before. */
int tt_frames_add_fps_report(tt_frames *f, const tt_fps_report *r, tt_error *err);
/* Framestats frames kept by earlier analyses (analyze: the earlier inputs of one run), by
 * (scene, window, IntendedVsync): a frame found there is dropped as a duplicate (7.3). */
typedef struct tt_frames_seen tt_frames_seen;
/* Owned by the caller, free with tt_frames_seen_free (accepts NULL); NULL on out of memory. */
tt_frames_seen *tt_frames_seen_new(void);
void tt_frames_seen_free(tt_frames_seen *s);
/* Adds the framestats frames f kept (after tt_frames_finish); 0 or TT_ENOMEM. */
int tt_frames_seen_add(tt_frames_seen *s, const tt_frames *f);
/* f drops framestats frames found in s (borrowed, read only; set before the first add). */
void tt_frames_use_seen(tt_frames *f, const tt_frames_seen *s);
/* Computes every result; call once after the last add. */
int tt_frames_finish(tt_frames *f, tt_error *err);

/* Results, borrowed until tt_frames_free; valid after tt_frames_finish. */
int tt_frames_model(const tt_frames *f);
const tt_frames_opts *tt_frames_options(const tt_frames *f); /* with defaults filled */
size_t tt_frames_scene_count(const tt_frames *f);
const char *tt_frames_scene_name(const tt_frames *f, uint32_t scene_id);
/* Per scene and the all-scene row. Scenes are ordered by their first frame's intended vsync
 * (native) or their first report's time (reports; scenes with only timeless reports last),
 * then by name: the order does not depend on the input order. */
const tt_frame_stats *tt_frames_scene_stats(const tt_frames *f, size_t i);
const tt_frame_stats *tt_frames_all_stats(const tt_frames *f);
/* Series (6.3): "*" windows first, then each scene's windows, by start; reports: one
 * point per report by time (timeless last), then scene and values. */
size_t tt_frames_series_count(const tt_frames *f);
const tt_frame_stats *tt_frames_series_get(const tt_frames *f, size_t i);
/* Native frames sorted by scene and intended vsync. */
size_t tt_frames_frame_count(const tt_frames *f);
const tt_ui_frame *tt_frames_frame_get(const tt_frames *f, size_t i);
/* The durations of fr (keep_fm), NULL when its input gave none. */
const tt_frame_fm *tt_frames_frame_fm(const tt_frames *f, const tt_ui_frame *fr);
const tt_frames_skipped *tt_frames_skipped_get(const tt_frames *f);
/* 1 when the UI jank basis was asked for but some frame lacked it (T was used). */
int tt_frames_jank_fallback(const tt_frames *f);
/* Matrix replays: the reports emitted, in order. */
size_t tt_frames_report_count(const tt_frames *f);
const tt_fps_report *tt_frames_report_get(const tt_frames *f, size_t i);
/* Matrix replays: frames left in unflushed items at the end (never reported), per scene
 * (scene_id) and count; returns the number of entries. */
size_t tt_frames_unflushed_count(const tt_frames *f);
void tt_frames_unflushed_get(const tt_frames *f, size_t i, uint32_t *scene_id, int64_t *frames);
/* Writes a report as Matrix would (key order of its generation, method-beat.md 7.4/7.6). */
void tt_fps_report_write(tt_jsonw *w, const tt_fps_report *r);

#endif
