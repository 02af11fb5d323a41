/* tracetool diff, the database side (storage.md 8): both databases attached read-only to one
 * in-memory connection; each section's rows are read per side and paired by canonical name
 * in an interned table (no row id or source id ever crosses databases). */
#include "tdb.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tdb_int.h"

/* The sampled stacks of a side as folded-diff reads them, kept by the sampled section
 * (sampled_rows) so that tdb_diff_folded does not load and weigh every profile again: per
 * callsite of every trace in turn, a few words (the samples themselves are not kept). */
typedef struct kcs {
    uint32_t parent; /* index in kept.cs; UINT32_MAX at a root */
    uint32_t key;    /* id in kept.keys */
    int64_t self_ns;
    int64_t self_samples;
    int timeless;
} kcs;
typedef struct kept {
    tt_intern *keys;
    tt_vec cs, ids; /* kcs; ids: key id per frame of the trace being kept */
    int done;       /* cs holds every trace of the side */
    int off;        /* not kept (out of memory, too many callsites): load again */
} kept;

struct tdb_diff {
    tdb_db db; /* main is ":memory:"; the sides are schemas "b" and "n" */
    kept kept[2];
    int64_t trace[2];
    char *path[2]; /* the side's file: errors name the file that is wrong */
    int wal_tidy[2]; /* the side had no -wal or -shm file and is not immutable */
};

static const char *const schema[2] = {"b", "n"};

/* ---- SQL per side; S is the schema name, ?1 the selected trace (0 = all) ---- */
#define TRACE_OK(col) "(?1 = 0 OR " col " = ?1)"
#define SQL_TRACES(S) "SELECT COUNT(*) FROM " S ".trace WHERE " TRACE_OK("id")
/* the unary + keeps the planner on a plain scan of call_node (no index order, no sort) */
#define ISSUE_TREES(S)                                                                         \
    "+tree_id IN (SELECT id FROM " S ".call_tree WHERE kind = 'issue_stack' AND "             \
    TRACE_OK("trace_id") ")"
/* times in ns (sums of integers, converted to ms once: NS_COLS); the call trees follow
 * (SQL_NODES) */
#define SQL_METHODS(S)                                                                         \
    "SELECT NULL, name, self_dur, CASE WHEN is_recursive = 0 THEN dur ELSE 0 END, "           \
    "1 FROM " S ".slice WHERE category <> 'sampled' AND " TRACE_OK("trace_id")
/* the call nodes of issue trees in id order, a rowid scan: parents precede children (analyze
 * writes each tree's nodes in pre-order, merge keeps the order), so each tree is one walk with
 * a path stack (node_rows); a root is its own parent */
#define SQL_NODES(S)                                                                           \
    "SELECT id, IFNULL(parent_id, id), name, COALESCE(self_dur, 0), COALESCE(total_dur, 0), " \
    "count FROM " S ".call_node WHERE " ISSUE_TREES(S) " ORDER BY id"
/* a Trace_StartUp report is a startup measurement (the startup section), not an issue: the
 * startup issue is the Trace_EvilMethod with detail STARTUP (startup.md 4.1) */
#define SQL_ISSUES(S)                                                                          \
    "SELECT kind, COALESCE(stack_key, CASE WHEN COALESCE(stack_key_raw, '') = '' "            \
    "THEN '(no stack key)' ELSE 'unresolved:' || stack_key_raw END) AS k, COUNT(*), "          \
    "MAX(cost_ms), AVG(cost_ms) FROM " S ".issue WHERE kind <> 'fps' AND "                    \
    "tag <> 'Trace_StartUp' AND " TRACE_OK("trace_id") " GROUP BY kind, k"
/* startups and segments keyed by kind, name and the endpoint events (startup.md 5.2: a ttid
 * from first_method is not one from process_start); the key is "NAME\037FROM\037TO", split by
 * tdb_diff_section, empty endpoints where none were recorded (Matrix reports, launches) */
#define EP_KEY(name, from, to)                                                                 \
    name " || char(31) || COALESCE(" from ", '') || char(31) || COALESCE(" to ", '')"
#define SQL_STARTUP(S)                                                                         \
    "SELECT kind, " EP_KEY("'total'", "start_event", "end_event") ", "                         \
    "AVG(COALESCE(dur, startup_duration_ms * 1000000)) / 1e6, COUNT(*) FROM " S ".startup "    \
    "WHERE " TRACE_OK("trace_id") " GROUP BY 1, 2 "                                           \
    "UNION ALL SELECT st.kind, " EP_KEY("g.name", "g.from_event", "g.to_event") ", "          \
    "AVG(g.dur) / 1e6, COUNT(*) FROM " S ".startup_segment g JOIN " S ".startup st ON "        \
    "st.id = g.startup_id WHERE " TRACE_OK("st.trace_id") " GROUP BY 1, 2"
/* the kind of a launch: its launch state, gated as startup.KIND; none (logcat Displayed, am
 * start -W of Android 9 and earlier) or UNKNOWN (n) is "unknown", gated as startup.unknown */
#define LAUNCH_KIND                                                                            \
    "CASE upper(launch_state) WHEN 'COLD' THEN 'cold' WHEN 'WARM' THEN 'warm' WHEN 'HOT' "    \
    "THEN 'hot' WHEN 'RELAUNCH' THEN 'relaunch' ELSE 'unknown' END"
/* system-measured launches, one row each, a group's rows consecutive: the launches that
 * tracetool startup counts in its statistics (startup.md 5.5: not launched rows, rows without
 * TotalTime and am rows whose status is not ok left out), their statistics computed as
 * startup computes them (launch_rows). lx is the launch table with not_launched (NULL in a
 * schema-3 database, read without migrating). */
#define LX_NOW(S) "WITH lx AS (SELECT * FROM " S ".launch) "
#define LX_OLD(S) "WITH lx AS (SELECT *, NULL AS not_launched FROM " S ".launch) "
#define SQL_LAUNCH(S)                                                                          \
    "SELECT " LAUNCH_KIND " AS k, 'launch:' || component || char(31) || char(31) AS c, "     \
    "total_ms FROM lx WHERE total_ms IS NOT NULL AND COALESCE(not_launched, 0) = 0 AND "      \
    "(source = 'logcat' OR status = 'ok') AND " TRACE_OK("trace_id") " ORDER BY k, c"
#define WAVG(col) "1.0 * SUM(" col " * frames) / SUM(CASE WHEN " col " IS NOT NULL THEN frames END)"
/* fps combined as frames.md 7.1 does: total frames over total frame time, over the reports
 * with fps > 0 only. A whole-trace row's fps leaves its fps-0 reports out but its frames count
 * them, so its time is (frames - fps-0 frames) / fps: the frames of the fps-0 reports are
 * those of its per-report rows (reports model, ts set; z per scene, zt for "*"). A
 * frames-weighted mean of fps would overstate it. */
#define FPS_FRAMES "(frames - COALESCE(z.zf, zt.zf, 0))"
#define HAVG_FPS                                                                               \
    "1.0 * SUM(CASE WHEN fps > 0 THEN " FPS_FRAMES " END) / SUM(CASE WHEN fps > 0 THEN "      \
    FPS_FRAMES " / fps END)"
#define PCT(col) "100.0 * SUM(" col ") / SUM(frames)"
#define SQL_FPS_ZERO(S)                                                                        \
    "WITH z AS (SELECT trace_id, scene, SUM(frames) AS zf FROM " S ".scene_frame_stats "       \
    "WHERE model = 'reports' AND ts IS NOT NULL AND NOT fps > 0 AND " TRACE_OK("trace_id")    \
    " GROUP BY trace_id, scene), zt AS (SELECT trace_id, SUM(zf) AS zf FROM z GROUP BY "      \
    "trace_id) "
#define SQL_SCENES(S)                                                                          \
    SQL_FPS_ZERO(S) "SELECT model, r.scene, " HAVG_FPS ", " PCT("jank_count") ", "             \
    WAVG("p50_dur") " / 1e6, " WAVG("p90_dur") " / 1e6, " WAVG("p95_dur") " / 1e6, "          \
    WAVG("p99_dur") " / 1e6, " PCT("level_frozen_count") ", " PCT("level_high_count") ", "    \
    PCT("level_middle_count") ", SUM(frames) FROM " S ".scene_frame_stats r "                 \
    "LEFT JOIN z ON r.model = 'reports' AND z.trace_id = r.trace_id AND z.scene = r.scene "   \
    "LEFT JOIN zt ON r.model = 'reports' AND r.scene = '*' AND zt.trace_id = r.trace_id "     \
    "WHERE ts IS NULL AND frames > 0 AND " TRACE_OK("r.trace_id") " GROUP BY model, r.scene"
/* the sampled slices of each function (calls); its times and samples are the samples' own
 * weights (diff_sampled.c), never the slices' */
#define SQL_SAMPLED(S)                                                                         \
    "SELECT NULL, name, NULL, NULL, NULL, 1 FROM " S ".slice WHERE category = 'sampled' AND "  \
    TRACE_OK("trace_id")
#define SQL_FOLD_SLICES(S)                                                                     \
    "SELECT id, parent_id, name, self_dur FROM " S ".slice WHERE category <> 'sampled' AND "  \
    TRACE_OK("trace_id") " ORDER BY id"
#define SQL_FOLD_NODES(S)                                                                      \
    "SELECT id, parent_id, name, self_dur FROM " S ".call_node WHERE " ISSUE_TREES(S)         \
    " ORDER BY id"

#define SIDES(M) {M("b"), M("n")}
#define NS_COLS 3u /* values 0 and 1 are integer ns: summed exactly, then ms */
static const struct {
    const char *sql[2];
    int nval;
    unsigned ns; /* bit i: value i is integer ns */
} sections[TDB_DIFF__COUNT] = {
    [TDB_DIFF_METHODS] = {SIDES(SQL_METHODS), 3, NS_COLS},
    [TDB_DIFF_ISSUES] = {SIDES(SQL_ISSUES), 3, 0},
    [TDB_DIFF_STARTUP] = {SIDES(SQL_STARTUP), 2, 0},
    [TDB_DIFF_SCENES] = {SIDES(SQL_SCENES), 10, 0},
    [TDB_DIFF_SAMPLED] = {SIDES(SQL_SAMPLED), 4, NS_COLS},
};
static const char *const sql_traces[2] = SIDES(SQL_TRACES);
static const char *const sql_nodes[2] = SIDES(SQL_NODES);
#define LAUNCH_NOW(S) LX_NOW(S) SQL_LAUNCH(S)
#define LAUNCH_OLD(S) LX_OLD(S) SQL_LAUNCH(S)
static const char *const sql_launch[2][2] = {SIDES(LAUNCH_NOW), SIDES(LAUNCH_OLD)};
/* the folded queries: self time in ns (slices other than sampled ones, call trees); the
 * samples follow (fold_sampled) */
static const char *const sql_fold[2][2] = {SIDES(SQL_FOLD_SLICES), SIDES(SQL_FOLD_NODES)};

/* ---- opening ---- */
/* Attaches a side read-only, as tdb_open_read opens it (tdb__attach_read). */
static int attach(tdb_diff *d, int side, const char *path, int immutable, tt_error *err)
{
    return tdb__attach_read(d->db.h, path, schema[side], immutable, err);
}

static int trace_exists(tdb_diff *d, int side, const char *path, tt_error *err)
{
    int64_t n;
    int rc = tdb_diff_traces(d, side, &n, err);
    if (!rc && !n)
        rc = d->trace[side] ? tt_error_set(err, TT_ENOTFOUND, path, 0, 0,
                                           "no trace %lld in this database",
                                           (long long)d->trace[side])
                            : tt_error_set(err, TT_EFORMAT, path, 0, 0,
                                           "the database holds no trace");
    return rc;
}

int tdb_diff_open(tdb_diff **out, const char *base_path, int64_t base_trace,
                  const char *new_path, int64_t new_trace, int newer[2], tt_error *err)
{
    *out = NULL;
    const char *paths[2] = {base_path, new_path};
    int immutable[2] = {0, 0};
    int absent[2];
    for (int i = 0; i < 2; i++) {
        tdb_db *check;
        absent[i] = tdb__wal_absent(paths[i]);
        int rc = tdb_open_read(&check, paths[i], 0, &newer[i], err);
        if (rc)
            return rc;
        immutable[i] = tdb__immutable(check);
        tdb_close(check);
    }
    tdb_diff *d = calloc(1, sizeof *d);
    if (d) {
        d->db.path = strdup(base_path);
        d->path[0] = strdup(base_path);
        d->path[1] = strdup(new_path);
    }
    if (!d || !d->db.path || !d->path[0] || !d->path[1]) {
        tdb_diff_close(d);
        return tt_error_set(err, TT_ENOMEM, base_path, 0, 0, "out of memory");
    }
    d->db.readonly = 1;
    for (int i = 0; i < 2; i++) {
        tt_vec_init(&d->kept[i].cs, sizeof(kcs));
        tt_vec_init(&d->kept[i].ids, sizeof(uint32_t));
    }
    d->trace[0] = base_trace;
    d->trace[1] = new_trace;
    for (int i = 0; i < 2; i++)
        d->wal_tidy[i] = absent[i] && !immutable[i];
    int rc = 0;
    if (sqlite3_open_v2(":memory:", &d->db.h,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI |
                            SQLITE_OPEN_NOMUTEX,
                        NULL) != SQLITE_OK)
        rc = tdb__sqlerr(&d->db, err, "cannot open an in-memory database");
    for (int i = 0; i < 2 && !rc; i++)
        rc = attach(d, i, paths[i], immutable[i], err);
    if (!rc)
        rc = tdb__exec(&d->db, "PRAGMA query_only = ON", err);
    for (int i = 0; i < 2 && !rc; i++)
        rc = trace_exists(d, i, paths[i], err);
    if (rc) {
        tdb_diff_close(d);
        return rc;
    }
    *out = d;
    return 0;
}

void tdb_diff_close(tdb_diff *d)
{
    if (!d)
        return;
    sqlite3_close(d->db.h);
    for (int i = 0; i < 2; i++) {
        tt_intern_free(d->kept[i].keys);
        tt_vec_free(&d->kept[i].cs);
        tt_vec_free(&d->kept[i].ids);
    }
    for (int i = 0; i < 2; i++)
        if (d->wal_tidy[i] && d->path[i])
            tdb__wal_tidy(d->path[i]);
    free(d->db.path);
    free(d->path[0]);
    free(d->path[1]);
    free(d);
}

/* Every statement reads one side only: its errors name that side's file. */
static int side_error(tdb_diff *d, int side, tt_error *err)
{
    return tt_error_set(err, TT_EIO, d->path[side], 0, 0, "diff query: %s",
                        sqlite3_errmsg(d->db.h));
}

static int prepare_side(tdb_diff *d, const char *sql, int side, sqlite3_stmt **st,
                        tt_error *err)
{
    if (sqlite3_prepare_v2(d->db.h, sql, -1, st, NULL) != SQLITE_OK)
        return side_error(d, side, err);
    sqlite3_bind_int64(*st, 1, d->trace[side]);
    return 0;
}

static int step_error(tdb_diff *d, int side, sqlite3_stmt *st, tt_error *err)
{
    int rc = side_error(d, side, err);
    sqlite3_finalize(st);
    return rc;
}

int tdb_diff_traces(tdb_diff *d, int side, int64_t *n, tt_error *err)
{
    sqlite3_stmt *st;
    int rc = prepare_side(d, sql_traces[side], side, &st, err);
    if (rc)
        return rc;
    if (sqlite3_step(st) != SQLITE_ROW)
        return step_error(d, side, st, err);
    *n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return 0;
}

/* The end of a statement's loop: out of memory, a step error (rc not SQLITE_DONE) or 0. */
static int step_end(tdb_diff *d, int side, sqlite3_stmt *st, int oom, int rc, tt_error *err)
{
    if (oom) {
        sqlite3_finalize(st);
        return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    }
    if (rc != SQLITE_DONE)
        return step_error(d, side, st, err);
    sqlite3_finalize(st);
    return 0;
}

/* ---- sections: rows of both sides summed per (sub, key) ---- */
typedef struct acc {
    int have[2];
    double v[2][TDB_DIFF_NVAL];
    int64_t ns[2][TDB_DIFF_NVAL]; /* the sums of integer ns values (sections[].ns) */
} acc;

/* The accumulator of key (sub NULL or "sub\037key", unit separator), created empty. */
static acc *key_acc(tt_intern *keys, tt_vec *accs, tt_buf *kb, const char *sub, const char *key,
                    size_t key_len)
{
    uint32_t id;
    if (sub) {
        kb->len = 0;
        if (tt_buf_puts(kb, sub) || tt_buf_put(kb, "\037", 1) || tt_buf_put(kb, key, key_len) ||
            tt_intern_get(keys, kb->data, kb->len, &id))
            return NULL;
    } else if (tt_intern_get(keys, key, key_len, &id)) {
        return NULL;
    }
    if (id == accs->len) {
        acc *a = tt_vec_push(accs, NULL);
        if (!a)
            return NULL;
        for (int i = 0; i < TDB_DIFF_NVAL; i++) {
            a->v[0][i] = a->v[1][i] = NAN;
            a->ns[0][i] = a->ns[1][i] = 0;
        }
    }
    return &TT_VEC_AT(accs, acc, id);
}

static void acc_add(acc *a, int side, int i, double x)
{
    a->v[side][i] = isnan(a->v[side][i]) ? x : a->v[side][i] + x;
}

static void add_ns(acc *a, int side, int i, int64_t x)
{
    a->ns[side][i] = x > 0 && a->ns[side][i] > INT64_MAX - x ? INT64_MAX : a->ns[side][i] + x;
    a->v[side][i] = 0;
}

static int read_side(tdb_diff *d, int section, int side, tt_intern *keys, tt_vec *accs,
                     tt_buf *kb, tt_error *err)
{
    sqlite3_stmt *st;
    int rc = prepare_side(d, sections[section].sql[side], side, &st, err);
    if (rc)
        return rc;
    int nval = sections[section].nval;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *sub = (const char *)sqlite3_column_text(st, 0);
        const char *key = (const char *)sqlite3_column_text(st, 1);
        if (!key)
            continue;
        acc *a = key_acc(keys, accs, kb, sub, key, (size_t)sqlite3_column_bytes(st, 1));
        if (!a)
            goto nomem;
        a->have[side] = 1;
        for (int i = 0; i < nval; i++) {
            if (sqlite3_column_type(st, 2 + i) == SQLITE_NULL)
                continue;
            if (sections[section].ns & (1u << i)) {
                add_ns(a, side, i, sqlite3_column_int64(st, 2 + i));
                continue;
            }
            acc_add(a, side, i, sqlite3_column_double(st, 2 + i));
        }
    }
    if (rc != SQLITE_DONE)
        return step_error(d, side, st, err);
    sqlite3_finalize(st);
    return 0;
nomem:
    sqlite3_finalize(st);
    return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
}

/* The call nodes of the methods section: self time and calls of every node, total time of
 * the outermost call only (a node of a method already on its path, directly or through other
 * calls, is nested in a call of it: tracetool-diff(1)). One pass, a stack of the current path
 * and per method the count of its nodes on it. A node whose parent is not on the path (ids out
 * of pre-order, a parent outside the selection) starts a new path, as a root does. */
typedef struct pnode {
    int64_t id;
    uint32_t acc; /* UINT32_MAX: no name */
} pnode;

static void path_pop(tt_vec *path, uint32_t *active)
{
    pnode *top = &TT_VEC_AT(path, pnode, path->len - 1);
    if (top->acc != UINT32_MAX)
        active[top->acc]--;
    path->len--;
}

static int node_row(sqlite3_stmt *st, int side, tt_intern *keys, tt_vec *accs, tt_buf *kb,
                    tt_vec *path, tt_vec *active)
{
    pnode n = {sqlite3_column_int64(st, 0), UINT32_MAX};
    int64_t parent = sqlite3_column_int64(st, 1);
    while (path->len && (parent == n.id || TT_VEC_AT(path, pnode, path->len - 1).id != parent))
        path_pop(path, active->data);
    const char *key = (const char *)sqlite3_column_text(st, 2);
    if (key) {
        acc *a = key_acc(keys, accs, kb, NULL, key, (size_t)sqlite3_column_bytes(st, 2));
        if (!a)
            return TT_ENOMEM;
        n.acc = (uint32_t)(a - (acc *)accs->data);
        while (active->len < accs->len) {
            uint32_t zero = 0;
            if (!tt_vec_push(active, &zero))
                return TT_ENOMEM;
        }
        uint32_t *on_path = &TT_VEC_AT(active, uint32_t, n.acc);
        a->have[side] = 1;
        add_ns(a, side, 0, sqlite3_column_int64(st, 3));
        add_ns(a, side, 1, *on_path ? 0 : sqlite3_column_int64(st, 4));
        if (sqlite3_column_type(st, 5) != SQLITE_NULL)
            acc_add(a, side, 2, sqlite3_column_double(st, 5));
        ++*on_path;
    }
    return tt_vec_push(path, &n) ? 0 : TT_ENOMEM;
}

static int node_rows(tdb_diff *d, int side, tt_intern *keys, tt_vec *accs, tt_buf *kb,
                     tt_error *err)
{
    sqlite3_stmt *st;
    int rc = prepare_side(d, sql_nodes[side], side, &st, err);
    if (rc)
        return rc;
    tt_vec path, active;
    tt_vec_init(&path, sizeof(pnode));
    tt_vec_init(&active, sizeof(uint32_t));
    int oom = 0;
    while (!oom && (rc = sqlite3_step(st)) == SQLITE_ROW)
        oom = node_row(st, side, keys, accs, kb, &path, &active) != 0;
    tt_vec_free(&path);
    tt_vec_free(&active);
    return step_end(d, side, st, oom, rc, err);
}

/* The launch rows of the startup section: per launch state and component the mean TotalTime
 * and the count, from tt_su_dist_compute as tracetool startup computes its statistics (the
 * mean integer ms truncated toward zero, startup.md 5.5), so both agree on the same launches. */
static int launch_group(tt_intern *keys, tt_vec *accs, tt_buf *kb, int side, const char *sub,
                        const char *key, tt_vec *v)
{
    if (!v->len)
        return 0;
    acc *a = key_acc(keys, accs, kb, sub, key, strlen(key));
    if (!a)
        return TT_ENOMEM;
    tt_su_dist dist;
    tt_su_dist_compute(&dist, v->data, v->len);
    a->have[side] = 1;
    acc_add(a, side, 0, (double)dist.mean);
    acc_add(a, side, 1, (double)dist.count);
    v->len = 0;
    return 0;
}

static int launch_rows(tdb_diff *d, int side, tt_intern *keys, tt_vec *accs, tt_buf *kb,
                       tt_error *err)
{
    int now = tdb__has_column(&d->db, schema[side], "launch", "not_launched");
    sqlite3_stmt *st;
    int rc = prepare_side(d, sql_launch[!now][side], side, &st, err);
    if (rc)
        return rc;
    tt_buf sub = {0}, key = {0}; /* the current group */
    tt_vec v;
    tt_vec_init(&v, sizeof(int64_t));
    int oom = 0;
    while (!oom && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *k = (const char *)sqlite3_column_text(st, 0);
        const char *c = (const char *)sqlite3_column_text(st, 1);
        int64_t x = sqlite3_column_int64(st, 2);
        if (!k || !c)
            continue;
        if (v.len && (strcmp(k, sub.data) || strcmp(c, key.data))) {
            if (launch_group(keys, accs, kb, side, sub.data, key.data, &v))
                oom = 1;
        }
        if (!v.len) {
            sub.len = key.len = 0;
            if (tt_buf_put(&sub, k, strlen(k) + 1) || tt_buf_put(&key, c, strlen(c) + 1))
                oom = 1;
        }
        if (!oom && !tt_vec_push(&v, &x))
            oom = 1;
    }
    if (!oom && rc == SQLITE_DONE && launch_group(keys, accs, kb, side, sub.data, key.data, &v))
        oom = 1;
    tt_buf_free(&sub);
    tt_buf_free(&key);
    tt_vec_free(&v);
    return step_end(d, side, st, oom, rc, err);
}

/* The sampled section's times and samples of one trace (samples.md 6): the leaf of each
 * sample gets self, every distinct function on its stack total (recursion once), in the
 * trace's time weight (diff_sampled.c). */
typedef struct srows {
    tt_intern *keys;
    tt_vec *accs, ids, stamp; /* ids: acc per frame; stamp: per acc, the last callsite + 1 */
    tt_buf *kb;
    int side;
    kept *k;
} srows;

/* Appends the callsites of one trace to k (k->off when they cannot be kept). */
static void keep_trace(kept *k, const tdb__sw *w)
{
    size_t nf = tt_profile_nframes(w->p), nc = tt_profile_ncallsites(w->p), base = k->cs.len;
    if (k->off || (!k->keys && !(k->keys = tt_intern_new())) || nc >= UINT32_MAX - base) {
        k->off = 1;
        return;
    }
    k->ids.len = 0;
    for (size_t f = 0; f < nf && !k->off; f++) {
        uint32_t id;
        k->off = tt_intern_get(k->keys, w->key[f], strlen(w->key[f]), &id) ||
                 !tt_vec_push(&k->ids, &id);
    }
    for (size_t c = 0; c < nc && !k->off; c++) {
        const tt_callsite *cs = tt_profile_callsite(w->p, (uint32_t)c);
        kcs e = {cs->parent == TT_NONE ? UINT32_MAX : (uint32_t)(base + cs->parent),
                 TT_VEC_AT(&k->ids, uint32_t, cs->frame), w->self_ns[c],
                 (int64_t)w->cw[c].self_samples, w->timeless};
        k->off = !tt_vec_push(&k->cs, &e);
    }
}

static int sampled_trace(void *ctx, const tdb__sw *w)
{
    srows *r = ctx;
    size_t nf = tt_profile_nframes(w->p), nc = tt_profile_ncallsites(w->p);
    r->ids.len = 0;
    for (size_t f = 0; f < nf; f++) {
        acc *a = key_acc(r->keys, r->accs, r->kb, NULL, w->key[f], strlen(w->key[f]));
        uint32_t id = a ? (uint32_t)(a - (acc *)r->accs->data) : 0;
        if (!a || !tt_vec_push(&r->ids, &id))
            return TT_ENOMEM;
    }
    while (r->stamp.len < r->accs->len) {
        uint64_t zero = 0;
        if (!tt_vec_push(&r->stamp, &zero))
            return TT_ENOMEM;
    }
    acc *accs = r->accs->data;
    uint64_t *stamp = r->stamp.data;
    keep_trace(r->k, w);
    for (size_t c = 0; c < nc; c++) {
        if (!w->cw[c].self_samples && !w->self_ns[c])
            continue;
        int64_t ns = w->timed ? w->self_ns[c] : 0;
        const tt_callsite *cs = tt_profile_callsite(w->p, (uint32_t)c);
        acc *leaf = &accs[TT_VEC_AT(&r->ids, uint32_t, cs->frame)];
        add_ns(leaf, r->side, 0, ns);
        acc_add(leaf, r->side, 2, (double)w->cw[c].self_samples);
        for (uint32_t k = (uint32_t)c; k != TT_NONE; k = cs->parent) {
            cs = tt_profile_callsite(w->p, k);
            uint32_t id = TT_VEC_AT(&r->ids, uint32_t, cs->frame);
            if (stamp[id] == c + 1)
                continue; /* recursion: counted once per sample */
            stamp[id] = c + 1;
            acc *a = &accs[id];
            a->have[r->side] = 1;
            add_ns(a, r->side, 0, 0);
            add_ns(a, r->side, 1, ns);
            acc_add(a, r->side, 2, 0);
            acc_add(a, r->side, 3, 0); /* calls: the sampled slices (SQL_SAMPLED) */
        }
    }
    return 0;
}

static int sampled_rows(tdb_diff *d, int side, tt_intern *keys, tt_vec *accs, tt_buf *kb,
                        tt_error *err)
{
    srows r = {.keys = keys, .accs = accs, .kb = kb, .side = side, .k = &d->kept[side]};
    r.k->cs.len = 0;
    r.k->done = r.k->off = 0;
    tt_vec_init(&r.ids, sizeof(uint32_t));
    tt_vec_init(&r.stamp, sizeof(uint64_t));
    int rc = tdb__diff_sampled(d->path[side], d->trace[side], sampled_trace, &r, err);
    tt_vec_free(&r.ids);
    tt_vec_free(&r.stamp);
    r.k->done = !rc && !r.k->off;
    return rc == 1 ? tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory") : rc;
}

/* The last separator in k[lo, hi), or hi when there is none. */
static size_t last_sep(const char *k, size_t lo, size_t hi)
{
    for (size_t i = hi; i > lo; i--)
        if (k[i - 1] == '\037')
            return i - 1;
    return hi;
}

/* "SUB\037KEY" (k, n bytes; sep its first separator) into r->sub and r->key, copied to b
 * (NUL-terminated strings); with endpoints, KEY is "NAME\037FROM\037TO" (SQL_STARTUP), split
 * from the right so that a name may hold the separator. */
static int split_key(tdb_diff_row *r, tt_buf *b, const char *k, size_t n, const char *sep,
                     int endpoints)
{
    size_t lo = (size_t)(sep - k) + 1, to_sep = last_sep(k, lo, n);
    size_t from_sep = to_sep < n ? last_sep(k, lo, to_sep) : n;
    if (from_sep >= to_sep)
        endpoints = 0; /* not a key SQL_STARTUP made: no endpoints */
    size_t key_end = endpoints ? from_sep : n, at[2];
    b->len = 0;
    if (tt_buf_put(b, k, lo - 1) || tt_buf_put(b, "", 1) ||
        tt_buf_put(b, k + lo, key_end - lo) || tt_buf_put(b, "", 1))
        return -1;
    at[0] = b->len;
    at[1] = at[0] + (to_sep - from_sep);
    if (endpoints && (tt_buf_put(b, k + from_sep + 1, to_sep - from_sep - 1) ||
                      tt_buf_put(b, "", 1) || tt_buf_put(b, k + to_sep + 1, n - to_sep - 1) ||
                      tt_buf_put(b, "", 1)))
        return -1;
    r->sub = b->data;
    r->key = b->data + lo;
    r->from = endpoints && to_sep - from_sep > 1 ? b->data + at[0] : NULL;
    r->to = endpoints && n - to_sep > 1 ? b->data + at[1] : NULL;
    return 0;
}

int tdb_diff_section(tdb_diff *d, int section, tdb_diff_fn fn, void *ctx, tt_error *err)
{
    if (section < 0 || section >= TDB_DIFF__COUNT)
        return tt_error_set(err, TT_EINVAL, NULL, 0, 0, "no diff section %d", section);
    tt_intern *keys = tt_intern_new();
    tt_vec accs;
    tt_vec_init(&accs, sizeof(acc));
    tt_buf kb = {0}, sub = {0};
    int rc = keys ? 0 : tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    for (int side = 0; side < 2 && !rc; side++) {
        rc = read_side(d, section, side, keys, &accs, &kb, err);
        if (!rc && section == TDB_DIFF_METHODS)
            rc = node_rows(d, side, keys, &accs, &kb, err);
        if (!rc && section == TDB_DIFF_STARTUP)
            rc = launch_rows(d, side, keys, &accs, &kb, err);
        if (!rc && section == TDB_DIFF_SAMPLED)
            rc = sampled_rows(d, side, keys, &accs, &kb, err);
    }
    for (size_t i = 0; i < accs.len && !rc; i++) {
        acc *a = &TT_VEC_AT(&accs, acc, i);
        tdb_diff_row r = {0};
        size_t n;
        const char *k = tt_intern_str(keys, (uint32_t)i, &n);
        const char *sep = memchr(k, '\037', n);
        r.key = k;
        /* only sections with a sub have separators: a method name is taken whole */
        if (sep && section != TDB_DIFF_METHODS && section != TDB_DIFF_SAMPLED &&
            split_key(&r, &sub, k, n, sep, section == TDB_DIFF_STARTUP)) {
            rc = tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
            break;
        }
        for (int s = 0; s < 2; s++) {
            r.have[s] = a->have[s];
            for (int j = 0; j < TDB_DIFF_NVAL; j++)
                r.v[s][j] = !a->have[s]                          ? 0
                            : sections[section].ns & (1u << j) && !isnan(a->v[s][j])
                                ? (double)a->ns[s][j] / 1e6
                                : a->v[s][j];
        }
        if (fn(ctx, &r))
            break;
    }
    tt_intern_free(keys);
    tt_vec_free(&accs);
    tt_buf_free(&kb);
    tt_buf_free(&sub);
    return rc;
}

/* ---- folded call paths: a prefix tree of (parent node, name) shared by both sides ---- */
typedef struct fnode {
    uint32_t parent, name; /* parent UINT32_MAX at a root */
    int64_t w[2];          /* self time in ns per side */
    int64_t n[2];          /* untimed samples per side */
} fnode;
typedef struct frow {
    int64_t id;
    uint32_t node;
} frow;
typedef struct fold {
    tt_intern *names, *edges;
    tt_vec nodes;      /* fnode by edge id */
    unsigned units[2]; /* TDB_FOLDED_* seen per side */
} fold;

static int64_t find_node(const tt_vec *rows, int64_t id)
{
    size_t lo = 0, hi = rows->len;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int64_t v = TT_VEC_AT(rows, frow, mid).id;
        if (v == id)
            return TT_VEC_AT(rows, frow, mid).node;
        if (v < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

/* The node of (parent, name) in the tree, created empty; UINT32_MAX when out of memory. */
static uint32_t fold_node(fold *f, uint32_t parent, const char *name)
{
    uint32_t nid, edge[2], node;
    if (tt_intern_get(f->names, name ? name : "", name ? strlen(name) : 0, &nid))
        return UINT32_MAX;
    edge[0] = parent;
    edge[1] = nid;
    if (tt_intern_get(f->edges, (const char *)edge, sizeof edge, &node))
        return UINT32_MAX;
    if (node == f->nodes.len) {
        fnode *nd = tt_vec_push(&f->nodes, NULL);
        if (!nd)
            return UINT32_MAX;
        nd->parent = parent;
        nd->name = nid;
    }
    return node;
}

/* One query (ordered by id; parents precede children) into the tree: self time in ns. */
static int fold_rows(tdb_diff *d, fold *f, int q, int side, tt_error *err)
{
    const char *sql = sql_fold[q][side];
    sqlite3_stmt *st;
    int rc = prepare_side(d, sql, side, &st, err);
    if (rc)
        return rc;
    tt_vec rows;
    tt_vec_init(&rows, sizeof(frow));
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        frow r = {sqlite3_column_int64(st, 0), 0};
        int64_t parent = UINT32_MAX;
        if (sqlite3_column_type(st, 1) != SQLITE_NULL &&
            (parent = find_node(&rows, sqlite3_column_int64(st, 1))) < 0)
            parent = UINT32_MAX; /* a parent outside the selection: start a new root */
        r.node = fold_node(f, (uint32_t)parent, (const char *)sqlite3_column_text(st, 2));
        if (r.node == UINT32_MAX)
            goto nomem;
        fnode *nd = &TT_VEC_AT(&f->nodes, fnode, r.node);
        int64_t v = sqlite3_column_int64(st, 3);
        nd->w[side] = tt_sat_add_i64(nd->w[side], v);
        f->units[side] |= v ? TDB_FOLDED_MS : 0;
        if (!tt_vec_push(&rows, &r))
            goto nomem;
    }
    tt_vec_free(&rows);
    if (rc != SQLITE_DONE)
        return step_error(d, side, st, err);
    sqlite3_finalize(st);
    return 0;
nomem:
    tt_vec_free(&rows);
    sqlite3_finalize(st);
    return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
}

/* The sampled stacks of one trace into the tree: each callsite with the time of the samples
 * whose leaf it is (diff_sampled.c), or for a trace without times (folded input, samples.md
 * 2.3) their count. */
typedef struct fsampled {
    fold *f;
    tt_vec node; /* fold node per callsite */
    int side;
} fsampled;

static int fold_trace(void *ctx, const tdb__sw *w)
{
    fsampled *fs = ctx;
    fold *f = fs->f;
    fs->node.len = 0;
    for (size_t c = 0; c < tt_profile_ncallsites(w->p); c++) {
        const tt_callsite *cs = tt_profile_callsite(w->p, (uint32_t)c);
        uint32_t parent = cs->parent == TT_NONE ? UINT32_MAX
                                                : TT_VEC_AT(&fs->node, uint32_t, cs->parent);
        uint32_t node = fold_node(f, parent, w->key[cs->frame]);
        if (node == UINT32_MAX || !tt_vec_push(&fs->node, &node))
            return 1;
        fnode *nd = &TT_VEC_AT(&f->nodes, fnode, node);
        if (w->timeless) {
            nd->n[fs->side] += (int64_t)w->cw[c].self_samples;
            f->units[fs->side] |= w->cw[c].self_samples ? TDB_FOLDED_SAMPLES : 0;
        } else {
            nd->w[fs->side] = tt_sat_add_i64(nd->w[fs->side], w->self_ns[c]);
            f->units[fs->side] |= w->self_ns[c] ? TDB_FOLDED_MS : 0;
        }
    }
    return 0;
}

/* The kept callsites of a side into the tree, as fold_trace puts them there. */
static int fold_kept(fsampled *fs, const kept *k)
{
    fold *f = fs->f;
    for (size_t c = 0; c < k->cs.len; c++) {
        const kcs *e = &TT_VEC_AT(&k->cs, kcs, c);
        uint32_t parent = e->parent == UINT32_MAX ? UINT32_MAX
                                                  : TT_VEC_AT(&fs->node, uint32_t, e->parent);
        uint32_t node = fold_node(f, parent, tt_intern_str(k->keys, e->key, NULL));
        if (node == UINT32_MAX || !tt_vec_push(&fs->node, &node))
            return 1;
        fnode *nd = &TT_VEC_AT(&f->nodes, fnode, node);
        if (e->timeless) {
            nd->n[fs->side] += e->self_samples;
            f->units[fs->side] |= e->self_samples ? TDB_FOLDED_SAMPLES : 0;
        } else {
            nd->w[fs->side] = tt_sat_add_i64(nd->w[fs->side], e->self_ns);
            f->units[fs->side] |= e->self_ns ? TDB_FOLDED_MS : 0;
        }
    }
    return 0;
}

static int fold_sampled(tdb_diff *d, fold *f, int side, tt_error *err)
{
    fsampled fs = {.f = f, .side = side};
    tt_vec_init(&fs.node, sizeof(uint32_t));
    int rc = d->kept[side].done
                 ? fold_kept(&fs, &d->kept[side])
                 : tdb__diff_sampled(d->path[side], d->trace[side], fold_trace, &fs, err);
    tt_vec_free(&fs.node);
    return rc == 1 ? tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory") : rc;
}

typedef struct fpath {
    char *path;
    int64_t w[2];
} fpath;

static int cmp_path(const void *a, const void *b)
{
    return strcmp(((const fpath *)a)->path, ((const fpath *)b)->path);
}

static char *node_path(const fold *f, uint32_t node, tt_buf *b, tt_vec *chain)
{
    chain->len = 0;
    for (uint32_t i = node; i != UINT32_MAX; i = TT_VEC_AT(&f->nodes, fnode, i).parent)
        if (!tt_vec_push(chain, &TT_VEC_AT(&f->nodes, fnode, i).name))
            return NULL;
    b->len = 0;
    for (size_t i = chain->len; i-- > 0;) {
        const char *nm = tt_intern_str(f->names, TT_VEC_AT(chain, uint32_t, i), NULL);
        if (i + 1 < chain->len && tt_buf_put(b, ";", 1))
            return NULL;
        size_t start = b->len;
        if (tt_buf_puts(b, nm))
            return NULL;
        /* ';' separates frames and a line break lines: never inside a name (as export) */
        if (b->len > start)
            tt_folded_name_fix(b->data + start, b->len - start);
    }
    char *s = malloc(b->len + 1);
    if (s) {
        memcpy(s, b->data ? b->data : "", b->len);
        s[b->len] = 0;
        /* blanks separate the two weights (difffolded.pl): none inside a name */
        for (char *p = s, *e = s + b->len; p < e; p++)
            if (*p == ' ' || *p == '\t')
                *p = '_';
    }
    return s;
}

int tdb_diff_folded(unsigned units[2], tdb_diff *d, tdb_folded_fn fn, void *ctx,
                    tt_error *err)
{
    fold f = {tt_intern_new(), tt_intern_new(), {0}, {0, 0}};
    tt_vec_init(&f.nodes, sizeof(fnode));
    tt_vec paths, chain;
    tt_vec_init(&paths, sizeof(fpath));
    tt_vec_init(&chain, sizeof(uint32_t));
    tt_buf b = {0};
    int rc = f.names && f.edges ? 0 : tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    for (int q = 0; q < 2 && !rc; q++)
        for (int side = 0; side < 2 && !rc; side++)
            rc = fold_rows(d, &f, q, side, err);
    for (int side = 0; side < 2 && !rc; side++)
        rc = fold_sampled(d, &f, side, err);
    for (size_t i = 0; i < f.nodes.len && !rc; i++) {
        const fnode *nd = &TT_VEC_AT(&f.nodes, fnode, i);
        /* whole milliseconds (rounded once per path) plus samples */
        int64_t w0 = llround((double)nd->w[0] / 1e6) + nd->n[0];
        int64_t w1 = llround((double)nd->w[1] / 1e6) + nd->n[1];
        if (!w0 && !w1)
            continue;
        fpath p = {node_path(&f, (uint32_t)i, &b, &chain), {w0, w1}};
        if (!p.path || !tt_vec_push(&paths, &p)) {
            free(p.path);
            rc = tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
        }
    }
    if (paths.len)
        qsort(paths.data, paths.len, sizeof(fpath), cmp_path);
    for (size_t i = 0; i < paths.len; i++) {
        fpath *p = &TT_VEC_AT(&paths, fpath, i);
        if (!rc && fn(ctx, p->path, p->w[0], p->w[1]))
            rc = 1;
        free(p->path);
    }
    tt_intern_free(f.names);
    tt_intern_free(f.edges);
    tt_vec_free(&f.nodes);
    tt_vec_free(&paths);
    tt_vec_free(&chain);
    tt_buf_free(&b);
    units[0] = f.units[0];
    units[1] = f.units[1];
    return rc < 0 ? rc : 0;
}
