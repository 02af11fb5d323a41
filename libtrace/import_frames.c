/* Frame inputs: per-frame JSON lines (frames.md 7.2), `dumpsys gfxinfo framestats` dumps
 * (7.3); detection by content (Matrix reports are read by import_report.c). */
#include "tt.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "json_int.h"
#include "tt_int.h"

#define PEEK_MAX (64 * 1024)
#define FS_MAX_COLS 256
#define FM_LIMIT (INT64_MAX / 2) /* Long.MAX_VALUE / 2: Matrix's outlier bound */

static const char *const fm_names[TT_FM_COUNT] = {
    "UNKNOWN_DELAY_DURATION", "INPUT_HANDLING_DURATION", "ANIMATION_DURATION",
    "LAYOUT_MEASURE_DURATION", "DRAW_DURATION", "SYNC_DURATION", "COMMAND_ISSUE_DURATION",
    "SWAP_BUFFERS_DURATION", "TOTAL_DURATION", "GPU_DURATION", "DEADLINE", "FIRST_DRAW_FRAME",
    "INTENDED_VSYNC_TIMESTAMP", "VSYNC_TIMESTAMP"};

const char *tt_fm_name(int fm) { return fm >= 0 && fm < TT_FM_COUNT ? fm_names[fm] : "?"; }

const char *tt_frames_kind_name(int kind)
{
    switch (kind) {
    case TT_FIN_JSONL: return "frames-jsonl";
    case TT_FIN_FRAMESTATS: return "framestats";
    case TT_FIN_REPORT: return "matrix-report";
    default: return "unknown";
    }
}

/* ---- detection ---- */

static int has(const char *p, size_t n, const char *s)
{
    return tt__memmem(p, n, s, strlen(s)) != NULL;
}

/* A line with a key only a frame record has. */
static int frame_line(const char *l, size_t ln)
{
    return has(l, ln, "\"start_ns\"") || has(l, ln, "\"end_ns\"") ||
           has(l, ln, "\"intended_vsync_ns\"") || has(l, ln, "\"frame_metrics\"");
}

/* Lines after a first record without frame keys that may show the file is frame records. */
#define NEXT_LINES 16

int tt_frames_detect(const char *p, size_t n)
{
    if (has(p, n, "---PROFILEDATA---") || has(p, n, "Graphics info for pid") ||
        has(p, n, "Applications Graphics Acceleration Info"))
        return TT_FIN_FRAMESTATS;
    size_t i = 0;
    if (n >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3))
        i = 3;
    while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n'))
        i++;
    if (i == n)
        return TT_FIN_UNKNOWN;
    if (p[i] == '[')
        return TT_FIN_REPORT;
    if (p[i] != '{') /* logcat: Matrix report lines, maybe after much else */
        return has(p, n, "tag[") || tt__looks_logcat(p + i, n - i) ? TT_FIN_REPORT
                                                                   : TT_FIN_UNKNOWN;
    /* A frame record has start_ns or ts_ns (a pause) in its first line, or another key only
     * a frame record has (a first record that lacks start_ns is then an error naming its
     * line, 7.2); a report has Matrix keys and is often pretty-printed over many lines. A
     * line with "kind" is another stream's (startup events may time with ts_ns). */
    const char *nl = memchr(p + i, '\n', n - i);
    size_t ln = nl ? (size_t)(nl - (p + i)) : n - i;
    const char *l = p + i;
    if (frame_line(l, ln) || (has(l, ln, "\"ts_ns\"") && !has(l, ln, "\"kind\"")))
        return TT_FIN_JSONL;
    /* A first record with none of them ({"scene":"a"}) is still a frame record when it is a
     * whole object on one line without Matrix's "tag" and the next records are frames. */
    size_t e = ln;
    while (e > 0 && (l[e - 1] == ' ' || l[e - 1] == '\t' || l[e - 1] == '\r'))
        e--;
    if (!nl || e == 0 || l[e - 1] != '}' || has(l, ln, "\"tag\"") || has(l, ln, "\"kind\""))
        return TT_FIN_REPORT;
    for (int k = 0; k < NEXT_LINES && nl; k++) {
        l = nl + 1;
        nl = memchr(l, '\n', (size_t)(p + n - l));
        ln = nl ? (size_t)(nl - l) : (size_t)(p + n - l);
        if (frame_line(l, ln))
            return has(l, ln, "\"tag\"") || has(l, ln, "\"kind\"") ? TT_FIN_REPORT
                                                                   : TT_FIN_JSONL;
    }
    return TT_FIN_REPORT;
}

/* ---- reader ---- */

/* framestats columns tracetool reads, located by header name */
enum { C_FLAGS = 0, C_IV, C_VSYNC, C_HIS, C_AS, C_PTS, C_DS, C_DEADLINE, C_INTERVAL, C_SQ,
       C_SS, C_IDCS, C_SB, C_FC, C_SBC, C_GPU, C_VSYNC_ID, C_NCOLS };
static const char *const col_names[C_NCOLS] = {
    "Flags", "IntendedVsync", "Vsync", "HandleInputStart", "AnimationStart",
    "PerformTraversalsStart", "DrawStart", "FrameDeadline", "FrameInterval", "SyncQueued",
    "SyncStart", "IssueDrawCommandsStart", "SwapBuffers", "FrameCompleted",
    "SwapBuffersCompleted", "GpuCompleted", "FrameTimelineVsyncId"};

/* The keys a record may have; each line is scanned by tt_jscan (the fast path) or, when the
 * scanner declines, parsed by jansson; both fill the same view. */
enum { K_TYPE, K_SCENE, K_START, K_END, K_IV, K_VSYNC_NS, K_INPUT, K_ANIM, K_TRAV, K_VSYNC,
       K_HZ, K_INTERVAL, K_FM, K_TS, K_COUNT };
static const char *const jkeys[K_COUNT] = {
    "type", "scene", "start_ns", "end_ns", "intended_vsync_ns", "vsync_ns", "input_ns",
    "animation_ns", "traversal_ns", "vsync", "refresh_hz", "frame_interval_ns",
    "frame_metrics", "ts_ns"};

struct tt_frames_reader {
    tt_input *in;
    int kind;
    /* framestats state */
    int in_block, have_header, blocks;
    int ncols;
    int col[C_NCOLS];       /* index in the header or -1 */
    int64_t vals[FS_MAX_COLS];
    tt_buf header;          /* the header line, for messages */
    uint32_t name_at[FS_MAX_COLS], name_len[FS_MAX_COLS];
    tt_buf window_scene;    /* last "Window:" value */
    tt_buf vri_scene;       /* last ViewRootImpl package/activity */
    int have_window, have_vri;
    uint64_t vri_window;    /* last ViewRootImpl hash: the window (7.3) */
    /* JSON lines */
    json_t *cur;            /* the object of the current record (holds the scene string) */
    tt_jscan_spec jspec;    /* the fast path's keys, with their lengths */
    uint8_t klen[K_COUNT], slen[TT_FM_COUNT];
};

int tt_frames_reader_new(tt_frames_reader **out, tt_input *in, int kind, tt_error *err)
{
    const char *name = tt_input_name(in);
    if (kind == TT_FIN_UNKNOWN) {
        const unsigned char *p;
        size_t n;
        int rc = tt_input_peek(in, &p, &n, PEEK_MAX, err);
        if (rc)
            return rc;
        kind = tt_frames_detect((const char *)p, n);
        if (kind == TT_FIN_UNKNOWN)
            return tt_error_set(err, TT_EFORMAT, name, 0, 0,
                                n ? "not a frames input: expected per-frame JSON lines, a "
                                    "framestats dump or a Matrix FPS report"
                                  : "empty input");
    }
    if (kind == TT_FIN_REPORT)
        return tt_error_set(err, TT_EUNSUPPORTED, name, 0, 0,
                            "a Matrix report: read it with the report reader");
    tt_frames_reader *r = calloc(1, sizeof *r);
    if (!r)
        return tt_error_set(err, TT_ENOMEM, name, 0, 0, "out of memory");
    r->in = in;
    r->kind = kind;
    for (int k = 0; k < K_COUNT; k++)
        r->klen[k] = (uint8_t)strlen(jkeys[k]);
    for (int k = 0; k < TT_FM_COUNT; k++)
        r->slen[k] = (uint8_t)strlen(fm_names[k]);
    r->jspec = (tt_jscan_spec){jkeys, K_COUNT, K_FM, fm_names, TT_FM_COUNT, r->klen, r->slen};
    *out = r;
    return 0;
}

void tt_frames_reader_free(tt_frames_reader *r)
{
    if (!r)
        return;
    json_decref(r->cur);
    tt_buf_free(&r->window_scene);
    tt_buf_free(&r->header);
    tt_buf_free(&r->vri_scene);
    free(r);
}

int tt_frames_reader_kind(const tt_frames_reader *r) { return r->kind; }

static void rec_init(tt_frame_rec *rec, int source, uint64_t line)
{
    memset(rec, 0, sizeof *rec);
    rec->source = source;
    rec->vsync = 1;
    rec->ui_ns = -1;
    rec->scene = "";
    rec->line = line;
}

/* ---- JSON lines (7.2) ---- */


typedef struct jview {
    tt_jval v[K_COUNT];
    tt_jval fm[TT_FM_COUNT];
} jview;

static void jval_of(tt_jval *v, const json_t *j)
{
    memset(v, 0, sizeof *v);
    if (!j)
        return;
    switch (json_typeof(j)) {
    case JSON_OBJECT: v->type = TT_JV_OBJ; break;
    case JSON_ARRAY: v->type = TT_JV_ARR; break;
    case JSON_STRING:
        v->type = TT_JV_STR;
        v->s = json_string_value(j);
        v->n = json_string_length(j);
        break;
    case JSON_INTEGER:
        v->type = TT_JV_INT;
        v->i = (int64_t)json_integer_value(j);
        v->d = (double)v->i;
        break;
    case JSON_REAL:
        v->type = TT_JV_REAL;
        v->d = json_real_value(j);
        break;
    case JSON_TRUE: v->type = TT_JV_TRUE; break;
    case JSON_FALSE: v->type = TT_JV_FALSE; break;
    default: v->type = TT_JV_NULL;
    }
}

static void jview_of(jview *w, const json_t *o)
{
    for (int k = 0; k < K_COUNT; k++)
        jval_of(&w->v[k], json_object_get(o, jkeys[k]));
    const json_t *fm = json_object_get(o, "frame_metrics");
    for (int i = 0; i < TT_FM_COUNT; i++)
        jval_of(&w->fm[i], json_is_object(fm) ? json_object_get(fm, fm_names[i]) : NULL);
}

static const char *jtype(const tt_jval *v)
{
    switch (v->type) {
    case TT_JV_OBJ: return "an object";
    case TT_JV_ARR: return "an array";
    case TT_JV_STR: return "a string";
    case TT_JV_INT: return "an integer";
    case TT_JV_REAL: return "a non-integer number";
    case TT_JV_TRUE:
    case TT_JV_FALSE: return "a boolean";
    default: return "null";
    }
}

/* Reads an optional non-negative integer field; *present tells whether it was there. */
static int get_time(const tt_jval *j, const char *key, int64_t *v, int *present,
                    const char *file, uint64_t line, tt_error *err)
{
    *present = j->type != TT_JV_ABSENT;
    if (!*present)
        return 0;
    if (j->type != TT_JV_INT)
        return tt_error_set(err, TT_EFORMAT, file, TT_LOC_LINE, line,
                            "field \"%s\": expected an integer, found %s", key, jtype(j));
    *v = j->i;
    if (*v < 0)
        return tt_error_set(err, TT_EFORMAT, file, TT_LOC_LINE, line,
                            "field \"%s\": expected a non-negative time, found %lld", key,
                            (long long)*v);
    return 0;
}

static int read_metrics(tt_frame_rec *rec, const jview *w, const char *file, uint64_t line,
                        tt_error *err)
{
    if (w->v[K_FM].type != TT_JV_OBJ)
        return tt_error_set(err, TT_EFORMAT, file, TT_LOC_LINE, line,
                            "field \"frame_metrics\": expected an object, found %s",
                            jtype(&w->v[K_FM]));
    for (int i = 0; i < TT_FM_COUNT; i++) {
        const tt_jval *j = &w->fm[i];
        if (j->type == TT_JV_ABSENT)
            continue;
        if (j->type != TT_JV_INT)
            return tt_error_set(err, TT_EFORMAT, file, TT_LOC_LINE, line,
                                "field \"frame_metrics.%s\": expected an integer, found %s",
                                fm_names[i], jtype(j));
        int64_t v = j->i;
        /* Matrix drops frames with such values (vendor outliers), frames.md 3.4 step 1 */
        if (v < 0 || v >= FM_LIMIT)
            rec->skip = TT_FSKIP_OUTLIER;
        rec->fm[i] = v;
        rec->fm_mask |= 1u << i;
    }
    return 0;
}

static int jsonl_fields(tt_frame_rec *rec, const jview *w, const char *file, uint64_t line,
                        tt_error *err)
{
    int p_start, p_end, p_iv, p_vs, p, rc;
    const tt_jval *j = &w->v[K_SCENE];
    if (j->type != TT_JV_ABSENT) {
        if (j->type != TT_JV_STR)
            return tt_error_set(err, TT_EFORMAT, file, TT_LOC_LINE, line,
                                "field \"scene\": expected a string, found %s", jtype(j));
        rec->scene = j->s;
        rec->scene_len = j->n;
    }
    if ((rc = get_time(&w->v[K_START], "start_ns", &rec->start_ns, &p_start, file, line, err)) ||
        (rc = get_time(&w->v[K_END], "end_ns", &rec->end_ns, &p_end, file, line, err)) ||
        (rc = get_time(&w->v[K_IV], "intended_vsync_ns", &rec->iv_ns, &p_iv, file, line, err)) ||
        (rc = get_time(&w->v[K_VSYNC_NS], "vsync_ns", &rec->vsync_ns, &p_vs, file, line, err)))
        return rc;
    for (int k = K_INPUT; k <= K_TRAV; k++) {
        int64_t v;
        if ((rc = get_time(&w->v[k], jkeys[k], &v, &p, file, line, err)))
            return rc;
    }
    if (!p_start || !p_end)
        return tt_error_set(err, TT_EFORMAT, file, TT_LOC_LINE, line,
                            "frame record without \"%s\"", p_start ? "end_ns" : "start_ns");
    if (rec->end_ns < rec->start_ns)
        return tt_error_set(err, TT_EFORMAT, file, TT_LOC_LINE, line,
                            "end_ns %lld is before start_ns %lld", (long long)rec->end_ns,
                            (long long)rec->start_ns);
    if (!p_iv)
        rec->iv_ns = rec->start_ns;
    rec->has_vsync_ns = p_vs;
    j = &w->v[K_VSYNC];
    if (j->type != TT_JV_ABSENT) {
        if (j->type != TT_JV_TRUE && j->type != TT_JV_FALSE)
            return tt_error_set(err, TT_EFORMAT, file, TT_LOC_LINE, line,
                                "field \"vsync\": expected a boolean, found %s", jtype(j));
        rec->vsync = j->type == TT_JV_TRUE;
    }
    j = &w->v[K_HZ];
    if (j->type != TT_JV_ABSENT) {
        if ((j->type != TT_JV_INT && j->type != TT_JV_REAL) || !(j->d >= TT_REFRESH_HZ_MIN) ||
            !(j->d <= TT_REFRESH_HZ_MAX))
            return tt_error_set(err, TT_EFORMAT, file, TT_LOC_LINE, line,
                                "field \"refresh_hz\": expected a number from %g to %g",
                                TT_REFRESH_HZ_MIN, TT_REFRESH_HZ_MAX);
        rec->refresh_hz = j->d;
    }
    j = &w->v[K_INTERVAL];
    if (j->type != TT_JV_ABSENT) {
        if (j->type != TT_JV_INT || j->i <= 0)
            return tt_error_set(err, TT_EFORMAT, file, TT_LOC_LINE, line,
                                "field \"frame_interval_ns\": expected a positive integer");
        rec->interval_ns = j->i;
    }
    if (w->v[K_FM].type != TT_JV_ABSENT && (rc = read_metrics(rec, w, file, line, err)))
        return rc;
    if (rec->skip == TT_FSKIP_OUTLIER)
        return 0;
    if (rec->fm_mask & (1u << TT_FM_INTENDED_VSYNC))
        rec->iv_ns = rec->fm[TT_FM_INTENDED_VSYNC];
    if (rec->fm_mask & (1u << TT_FM_VSYNC)) {
        rec->vsync_ns = rec->fm[TT_FM_VSYNC];
        rec->has_vsync_ns = 1;
    }
    if (!(rec->fm_mask & (1u << TT_FM_TOTAL)) && rec->end_ns < rec->iv_ns)
        return tt_error_set(err, TT_EFORMAT, file, TT_LOC_LINE, line,
                            "end_ns %lld is before the intended vsync %lld",
                            (long long)rec->end_ns, (long long)rec->iv_ns);
    uint32_t ui = (1u << 6) - 1; /* the six UI-thread durations (frames.md 4) */
    if ((rec->fm_mask & ui) == ui) {
        int64_t s = 0; /* each value is in [0, 2^62): saturate the sum */
        for (int i = 0; i < 6; i++)
            s = s > INT64_MAX - rec->fm[i] ? INT64_MAX : s + rec->fm[i];
        rec->ui_ns = s;
    }
    return 0;
}

/* The view of one line: the fast scanner, else jansson (which owns the strings until the
 * next line). */
static int jsonl_view(tt_frames_reader *r, jview *w, const char *l, size_t n, const char *file,
                      uint64_t line, tt_error *err)
{
    if (tt_jscan(&r->jspec, l, n, w->v, w->fm))
        return 0;
    json_error_t je;
    json_decref(r->cur);
    uint64_t nul;
    r->cur = tt__json_loadb(l, n, 0, &nul, &je);
    if (!r->cur)
        return tt_error_set(err, TT_EFORMAT, file, TT_LOC_LINE, line, "malformed JSON: %s",
                            je.text);
    if (!json_is_object(r->cur)) {
        tt_jval t;
        jval_of(&t, r->cur);
        return tt_error_set(err, TT_EFORMAT, file, TT_LOC_LINE, line,
                            "expected a JSON object, found %s", jtype(&t));
    }
    jview_of(w, r->cur);
    return 0;
}

static int jsonl_next(tt_frames_reader *r, tt_frame_rec *rec, tt_error *err)
{
    const char *file = tt_input_name(r->in);
    jview view, *w = &view;
    for (;;) {
        const char *l;
        size_t n;
        uint64_t line;
        int rc = tt_input_line(r->in, &l, &n, &line, err);
        if (rc)
            return rc;
        tt__trim(&l, &n);
        if (n == 0)
            continue;
        if (line == 1 && n >= 3 && !memcmp(l, "\xEF\xBB\xBF", 3)) {
            l += 3;
            n -= 3;
        }
        if ((rc = jsonl_view(r, w, l, n, file, line, err)))
            return rc;
        rec_init(rec, TT_FSRC_JSONL, line);
        const tt_jval *t = &w->v[K_TYPE];
        if (t->type != TT_JV_ABSENT && t->type != TT_JV_STR)
            return tt_error_set(err, TT_EFORMAT, file, TT_LOC_LINE, line,
                                "field \"type\": expected a string, found %s", jtype(t));
        const char *ts = t->type ? t->s : "frame";
        size_t tn = t->type ? t->n : 5;
        if (tn == 5 && !memcmp(ts, "pause", 5)) {
            int p;
            rec->type = TT_FREC_PAUSE;
            if ((rc = get_time(&w->v[K_TS], "ts_ns", &rec->ts_ns, &p, file, line, err)))
                return rc;
            if (!p)
                return tt_error_set(err, TT_EFORMAT, file, TT_LOC_LINE, line,
                                    "pause record without \"ts_ns\"");
            return 0;
        }
        if (tn != 5 || memcmp(ts, "frame", 5)) {
            char sn[64];
            tt__snippet(sn, sizeof sn, ts, tn);
            return tt_error_set(err, TT_EFORMAT, file, TT_LOC_LINE, line,
                                "unknown record type \"%s\" (expected \"frame\" or \"pause\")",
                                sn);
        }
        return jsonl_fields(rec, w, file, line, err);
    }
}

/* ---- framestats (7.3) ---- */

static int starts(const char *l, size_t n, const char *p)
{
    size_t k = strlen(p);
    return n >= k && !memcmp(l, p, k);
}

static int set_scene(tt_buf *b, const char *s, size_t n)
{
    tt__trim(&s, &n);
    b->len = 0;
    return tt_buf_put(b, s, n);
}

/* Window lines outside PROFILEDATA blocks name the scene. */
static int fs_scene_line(tt_frames_reader *r, const char *l, size_t n)
{
    if (starts(l, n, "Window:")) {
        r->have_window = 1;
        return set_scene(&r->window_scene, l + 7, n - 7);
    }
    const char *v = tt__memmem(l, n, "/android.view.ViewRootImpl@", 27);
    if (v && tt__memmem(l, n, "(visibility=", 12)) {
        r->have_vri = 1;
        /* the window: its ViewRootImpl@<hex> (two windows of one activity share the scene) */
        uint64_t h = 0;
        const char *x = v + 27, *e = l + n;
        for (int k = 0; x < e && isxdigit((unsigned char)*x) && k < 16; x++, k++)
            h = h << 4 | (uint64_t)(isdigit((unsigned char)*x) ? *x - '0'
                                                               : (tolower((unsigned char)*x) - 'a' + 10));
        r->vri_window = h;
        return set_scene(&r->vri_scene, l, (size_t)(v - l));
    }
    return 0;
}

static int fs_header(tt_frames_reader *r, const char *l, size_t n, const char *file,
                     uint64_t line, tt_error *err)
{
    char sn[64];
    if (!starts(l, n, "Flags")) {
        tt__snippet(sn, sizeof sn, l, n);
        return tt_error_set(err, TT_EFORMAT, file, TT_LOC_LINE, line,
                            "expected a framestats header starting with \"Flags,\", found "
                            "\"%s\"",
                            sn);
    }
    for (int c = 0; c < C_NCOLS; c++)
        r->col[c] = -1;
    r->header.len = 0;
    if (tt_buf_put(&r->header, l, n))
        return tt_error_set(err, TT_ENOMEM, file, 0, 0, "out of memory");
    int k = 0;
    size_t i = 0;
    while (i <= n) {
        size_t j = i;
        while (j < n && l[j] != ',')
            j++;
        const char *f = l + i;
        size_t fl = j - i;
        tt__trim(&f, &fl);
        if (j == n && fl == 0 && k > 0)
            break; /* trailing comma */
        if (k == FS_MAX_COLS)
            return tt_error_set(err, TT_EFORMAT, file, TT_LOC_LINE, line,
                                "framestats header has more than %d columns", FS_MAX_COLS);
        for (int c = 0; c < C_NCOLS; c++)
            if (r->col[c] < 0 && fl == strlen(col_names[c]) && !memcmp(f, col_names[c], fl))
                r->col[c] = k;
        r->name_at[k] = (uint32_t)(f - l);
        r->name_len[k] = (uint32_t)fl;
        k++;
        i = j + 1;
    }
    static const int need[] = {C_FLAGS, C_IV, C_FC};
    for (int q = 0; q < 3; q++)
        if (r->col[need[q]] < 0)
            return tt_error_set(err, TT_EFORMAT, file, TT_LOC_LINE, line,
                                "framestats header has no %s column", col_names[need[q]]);
    r->ncols = k;
    r->have_header = 1;
    return 0;
}

static int fs_row_values(tt_frames_reader *r, const char *l, size_t n, const char *file,
                         uint64_t line, tt_error *err)
{
    int k = 0;
    size_t i = 0;
    while (i <= n) {
        size_t j = i;
        while (j < n && l[j] != ',')
            j++;
        const char *f = l + i;
        size_t fl = j - i;
        tt__trim(&f, &fl);
        if (j == n && fl == 0 && k > 0)
            break;
        if (k < r->ncols && tt__parse_i64(f, fl, &r->vals[k])) {
            char sn[64], cn[64];
            tt__snippet(sn, sizeof sn, f, fl);
            tt__snippet(cn, sizeof cn, r->header.data + r->name_at[k], r->name_len[k]);
            return tt_error_set(err, TT_EFORMAT, file, TT_LOC_LINE, line,
                                "column %d (%s): expected a 64-bit integer, found \"%s\"",
                                k + 1, cn, sn);
        }
        k++;
        i = j + 1;
    }
    if (k != r->ncols)
        return tt_error_set(err, TT_EFORMAT, file, TT_LOC_LINE, line,
                            "framestats row has %d fields, the header has %d", k, r->ncols);
    return 0;
}

static int64_t col(const tt_frames_reader *r, int c) { return r->vals[r->col[c]]; }
static int has_col(const tt_frames_reader *r, int c) { return r->col[c] >= 0; }

/* a - b without overflow; 0 when the difference does not fit (garbage columns). */
static int diff_ok(int64_t a, int64_t b, int64_t *out) { return !tt_sub_i64(out, a, b); }

/* FrameMetrics-equivalent durations from the columns present (frames.md section 4). */
static void fs_metrics(const tt_frames_reader *r, tt_frame_rec *rec)
{
    static const int from[8] = {C_IV, C_HIS, C_AS, C_PTS, C_DS, C_SS, C_IDCS, C_SB};
    static const int to[8] = {C_HIS, C_AS, C_PTS, C_DS, C_SQ, C_IDCS, C_SB, C_FC};
    for (int i = 0; i < 8; i++) {
        int t = to[i];
        if (i == TT_FM_SWAP_BUFFERS && has_col(r, C_SBC) && col(r, C_SBC) > 0)
            t = C_SBC;
        if (has_col(r, from[i]) && has_col(r, t) && diff_ok(col(r, t), col(r, from[i]), &rec->fm[i]))
            rec->fm_mask |= 1u << i;
    }
    rec->fm[TT_FM_TOTAL] = rec->end_ns - rec->iv_ns; /* FrameCompleted >= IntendedVsync > 0 */
    rec->fm_mask |= 1u << TT_FM_TOTAL;
    int64_t dl, a, b;
    if (has_col(r, C_DEADLINE) && diff_ok(col(r, C_DEADLINE), rec->iv_ns, &dl) && dl > 0) {
        rec->fm[TT_FM_DEADLINE] = dl;
        rec->fm_mask |= 1u << TT_FM_DEADLINE;
    }
    if (has_col(r, C_SQ) && has_col(r, C_SS) && has_col(r, C_IDCS) &&
        diff_ok(col(r, C_SQ), rec->iv_ns, &a) && diff_ok(col(r, C_IDCS), col(r, C_SS), &b) &&
        a >= 0 && b >= 0 && a < INT64_MAX / 2 && b < INT64_MAX / 2)
        rec->ui_ns = a + b;
}

static void fs_record(tt_frames_reader *r, tt_frame_rec *rec, uint64_t line)
{
    rec_init(rec, TT_FSRC_FRAMESTATS, line);
    const tt_buf *sc = r->have_window ? &r->window_scene : r->have_vri ? &r->vri_scene : NULL;
    rec->scene = sc && sc->data ? sc->data : "unknown";
    rec->scene_len = sc && sc->data ? sc->len : 7;
    rec->window_id = !r->have_window && r->have_vri ? r->vri_window : 0;
    int64_t iv = col(r, C_IV), fc = col(r, C_FC);
    if (col(r, C_FLAGS) != 0) {
        rec->skip = TT_FSKIP_FLAGS;
        return;
    }
    if (iv <= 0 || fc <= 0 || fc < iv) {
        rec->skip = TT_FSKIP_INVALID;
        return;
    }
    rec->iv_ns = rec->start_ns = iv;
    rec->end_ns = fc;
    if (has_col(r, C_VSYNC)) {
        rec->vsync_ns = col(r, C_VSYNC);
        rec->has_vsync_ns = 1;
    }
    if (has_col(r, C_INTERVAL) && col(r, C_INTERVAL) > 0)
        rec->interval_ns = col(r, C_INTERVAL);
    if (has_col(r, C_VSYNC_ID)) {
        rec->vsync_id = col(r, C_VSYNC_ID);
        rec->has_vsync_id = 1;
    }
    fs_metrics(r, rec);
}

static int framestats_next(tt_frames_reader *r, tt_frame_rec *rec, tt_error *err)
{
    const char *file = tt_input_name(r->in);
    for (;;) {
        const char *l;
        size_t n;
        uint64_t line;
        int rc = tt_input_line(r->in, &l, &n, &line, err);
        if (rc == TT_DONE && r->blocks == 0)
            return tt_error_set(err, TT_EFORMAT, file, 0, 0,
                                "no framestats data; was the `framestats` argument given?");
        if (rc)
            return rc;
        tt__trim(&l, &n);
        if (n == 17 && !memcmp(l, "---PROFILEDATA---", 17)) {
            r->in_block = !r->in_block;
            r->have_header = 0;
            if (r->in_block)
                r->blocks++;
            continue;
        }
        if (!r->in_block) {
            if (fs_scene_line(r, l, n))
                return tt_error_set(err, TT_ENOMEM, file, 0, 0, "out of memory");
            continue;
        }
        if (n == 0)
            continue;
        if (!r->have_header) {
            if ((rc = fs_header(r, l, n, file, line, err)))
                return rc;
            continue;
        }
        if ((rc = fs_row_values(r, l, n, file, line, err)))
            return rc;
        fs_record(r, rec, line);
        return 0;
    }
}

int tt_frames_reader_next(tt_frames_reader *r, tt_frame_rec *rec, tt_error *err)
{
    return r->kind == TT_FIN_JSONL ? jsonl_next(r, rec, err) : framestats_next(r, rec, err);
}
