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
/* Logcat Displayed/Fully drawn lines or `am start -W` output (startup.md 4.3, 4.4). */
int tt__looks_launches(const char *p, size_t n);
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
/* ---- startup (startup.c, import_startup.c, startup_stack.c) ---- */
#define TT__SU_NONE UINT32_MAX

typedef struct tt__su_event {
    int kind;
    int64_t ms;               /* uptime ms (floor of ns) */
    int64_t ns;               /* ordering key */
    uint32_t activity, instance, component; /* interned ids or TT__SU_NONE */
    int32_t scene;
    int launch, focus;
    int64_t base_ms;
    uint64_t line;
} tt__su_event;

struct tt_startup {
    tt_su_opts o;
    tt_stats *stats;
    tt_arena *arena;
    /* interned strings: id -> string, open-addressing hash of ids */
    tt_vec strs;              /* const char * */
    uint32_t *hash;
    size_t hash_cap;
    uint32_t *splash;         /* sorted interned ids of the splash set */
    size_t n_splash;
    tt_vec ev;                /* tt__su_event of the current process */
    tt_vec rows;              /* tt_su_row */
    tt_vec matrix;            /* tt_su_matrix * (arena), emission order */
    tt_vec launches;          /* tt_su_launch */
    tt_vec last_logcat;       /* per interned component id: 1 + index of its latest logcat
                                 launch, 0 none (Fully drawn attachment) */
    tt_vec reports;           /* tt_su_matrix * from reports (arena) */
    uint32_t nproc;
    tt_su_dist am, logcat;
    int finished;
};

/* Matrix's startup state of one process (startup.md 1.3). */
typedef struct tt__su_mx {
    int64_t E, A, base_ms;
    int have_E, app_done, launch;
    int32_t scene;
    int64_t first_screen, cold_cost, last_create, active;
    int splash_seen, warm_pending, discarded;
    struct mx_inst *inst;     /* per interned id: creation time per instance, focus per class */
    tt_su_matrix *last;       /* report emitted by the last event, or NULL */
    int rc;
} tt__su_mx;

int tt_startup__mx_init(tt_startup *s, tt__su_mx *m, int64_t base_ms);
void tt_startup__mx_free(tt__su_mx *m);
int tt_startup__mx_event(tt_startup *s, tt__su_mx *m, const tt__su_event *e);
int tt_startup__is_splash(const tt_startup *s, uint32_t cls);
/* Threshold flags of one row (5.3). */
void tt_startup__row_flags(const tt_startup *s, tt_su_row *r);

/* Interns s[0..n) and returns its id (TT__SU_NONE on out of memory). */
uint32_t tt_startup__intern(tt_startup *s, const char *p, size_t n);
const char *tt_startup__str(const tt_startup *s, uint32_t id);
/* Analyses the events of one process (s->ev, sorted). */
int tt_startup__process(tt_startup *s, const char *file, int has_pid, int64_t pid,
                        tt_error *err);
/* Matrix-compatible lenient stack of the buffer slice from its first record to the last
 * record whose absolute time (t + base_ms) is <= end_ms (startup.md 5.4). Strings are
 * arena-owned. */
int tt_startup__matrix_stack(tt_startup *s, int64_t base_ms, int64_t end_ms, int64_t cost,
                             const char **stack, const char **key, int64_t *stack_cost);
/* Native pairing of the records inside [from_ms, to_ms] (absolute), blame and top self
 * time (5.4, method-beat.md 8.2). *out is arena-owned. */
int tt_startup__native_stack(tt_startup *s, int64_t base_ms, int64_t from_ms, int64_t to_ms,
                             tt_su_native **out);

#endif
