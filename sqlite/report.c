/* The rows of the HTML report (spec/visual.md 10.2): one query per table, every one totally
 * ordered so that the document is deterministic. The only SQL of the report. */
#include "tdb.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tdb_int.h"

typedef struct rq {
    const char *section, *caption;
    int chart, label_col, value_col, details;
    const char *unit;
    const char *sql; /* ?1, ?2: trace id range; ?3: top N */
    int ref_col;     /* 1 + the column of the bars' reference line; 0 = none */
} rq;

/* The summary's rows (o, item, value, num, subj): num the figure of a text value (cold TTID,
 * worst scene), else NULL; subj what the figure is of (the scene; the startup row or the am
 * launches), two sides' figures compared only when they have the same subj; SUMMARY_NUM the
 * figure of every row (diff mode compares them, summary_diff). Cold
 * TTID (startup.md 2): the first cold startup's ttid, else the median TotalTime of the COLD
 * am start -W launches counted in statistics (startup.md 4.4, 5.5). */
#define SUMMARY_ROWS                                                                            \
    "SELECT 1 AS o, 'package' AS item, COALESCE(MAX(package), '-') AS value, NULL AS num, "   \
    "  NULL AS subj "                                                                          \
    "  FROM trace WHERE id BETWEEN ?1 AND ?2 "                                                  \
    "UNION ALL SELECT 2, 'app version', COALESCE(MAX(app_version), '-'), NULL, NULL FROM trace " \
    "  WHERE id BETWEEN ?1 AND ?2 "                                                             \
    "UNION ALL SELECT 3, 'traces', COUNT(*), NULL, NULL FROM trace WHERE id BETWEEN ?1 AND ?2 " \
    "UNION ALL SELECT 4, 'source formats', COALESCE(GROUP_CONCAT(source_format, ', '), '-'), "  \
    "  NULL, NULL FROM (SELECT DISTINCT source_format FROM trace WHERE id BETWEEN ?1 AND ?2 "   \
    "  ORDER BY source_format) "                                                                \
    "UNION ALL SELECT 5, 'samples', COALESCE(SUM(count), 0), NULL, NULL FROM sample "           \
    "  WHERE trace_id BETWEEN ?1 AND ?2 "                                                       \
    "UNION ALL SELECT 6, 'threads', COUNT(*), NULL, NULL FROM thread "                         \
    "  WHERE trace_id BETWEEN ?1 AND ?2 "                                                      \
    "UNION ALL SELECT 7, 'slices', COUNT(*), NULL, NULL FROM slice "                           \
    "  WHERE trace_id BETWEEN ?1 AND ?2 "                                                      \
    "UNION ALL SELECT 8, 'UI frames', COUNT(*), NULL, NULL FROM ui_frame "                      \
    "  WHERE trace_id BETWEEN ?1 AND ?2 "                                                       \
    "UNION ALL SELECT 8.1, 'overall fps', COALESCE((SELECT ROUND(SUM(frames) / "                \
    "  SUM(frames / fps), 2) FROM scene_frame_stats WHERE trace_id BETWEEN ?1 AND ?2 "          \
    "  AND ts IS NULL AND scene = '*' AND fps > 0), '-'), NULL, NULL "                          \
    "UNION ALL SELECT 8.2, 'jank %', COALESCE((SELECT ROUND(100.0 * SUM(jank_count) / "         \
    "  SUM(frames), 2) FROM scene_frame_stats WHERE trace_id BETWEEN ?1 AND ?2 "                \
    "  AND ts IS NULL AND scene = '*' AND jank_count IS NOT NULL AND frames > 0), '-'), "      \
    "  NULL, NULL "                                                                            \
    "UNION ALL SELECT 8.3, 'frozen frames', COALESCE((SELECT SUM(frozen_count) "                \
    "  FROM scene_frame_stats WHERE trace_id BETWEEN ?1 AND ?2 AND ts IS NULL "                 \
    "  AND scene = '*' AND frozen_count IS NOT NULL), '-'), NULL, NULL "                        \
    "UNION ALL SELECT 9, 'issues', COUNT(*), NULL, NULL FROM issue "                           \
    "  WHERE trace_id BETWEEN ?1 AND ?2 "                                                      \
    "UNION ALL SELECT 10, 'startups', COUNT(*), NULL, NULL FROM startup "                       \
    "  WHERE trace_id BETWEEN ?1 AND ?2 "                                                       \
    "UNION ALL SELECT 10.1, 'cold TTID', COALESCE(f.v, m.v, '-'), COALESCE(f.x, m.x), "         \
    "  CASE WHEN f.v IS NOT NULL THEN 'startup' WHEN m.v IS NOT NULL THEN 'am' END "            \
    "  FROM (SELECT 1) LEFT JOIN (SELECT rtrim(rtrim(format('%.3f', ttid_dur / 1e6), '0'), "    \
    "  '.') || ' ms (startup #' || id || CASE WHEN n > 1 THEN ', the first of ' || n || "       \
    "  ' cold startups' ELSE '' END || ')' AS v, ROUND(ttid_dur / 1e6, 3) AS x FROM (SELECT "   \
    "  id, ttid_dur, COUNT(*) OVER () AS n FROM startup WHERE trace_id BETWEEN ?1 AND ?2 "      \
    "  AND kind = 'cold' AND ttid_dur IS NOT NULL) ORDER BY id LIMIT 1) f "                     \
    "  LEFT JOIN (SELECT md || ' ms (median of ' || n || ' COLD am start -W launch' || "        \
    "  CASE WHEN n > 1 THEN 'es' ELSE '' END || ')' AS v, md AS x FROM (SELECT "                \
    "  (a / 2 + b / 2 + (a % 2 + b % 2) / 2) AS md, n FROM (SELECT "                            \
    "  MAX(CASE WHEN k = (n + 1) / 2 THEN total_ms END) AS a, MAX(CASE WHEN k = n / 2 + 1 "     \
    "  THEN total_ms END) AS b, MAX(n) AS n FROM (SELECT total_ms, ROW_NUMBER() OVER "          \
    "  (ORDER BY total_ms) AS k, COUNT(*) OVER () AS n FROM lx WHERE trace_id "                 \
    "  BETWEEN ?1 AND ?2 AND source = 'am' AND launch_state = 'COLD' AND status = 'ok' "        \
    "  AND total_ms IS NOT NULL AND COALESCE(not_launched, 0) = 0)) WHERE n > 0)) m "           \
    "UNION ALL SELECT 11, 'worst scene', COALESCE(w.v, '-'), w.x, w.scene FROM (SELECT 1) "     \
    "  LEFT JOIN (SELECT scene || ' (' || ROUND(fps, 2) || ' fps)' AS v, ROUND(fps, 2) AS x, "  \
    "  scene FROM scene_frame_stats WHERE trace_id BETWEEN ?1 AND ?2 AND ts IS NULL "           \
    "  AND scene <> '*' AND frames > 0 ORDER BY fps, scene LIMIT 1) w "
#define SUMMARY_NUM "COALESCE(num, CASE WHEN typeof(value) IN ('integer', 'real') THEN value END)"
static const char summary_num_sql[] =
    "SELECT item, value, " SUMMARY_NUM ", subj FROM (" SUMMARY_ROWS ") ORDER BY o";

static const rq queries[] = {
    {"summary", "Summary", TT_RCHART_NONE, 0, 0, 0, NULL,
     "SELECT item, value FROM (" SUMMARY_ROWS ") ORDER BY o", 0},
    {"inputs", "Inputs", TT_RCHART_NONE, 0, 0, 0, NULL,
     "SELECT trace_id AS trace, path AS name, kind, bytes, substr(sha256, 1, 12) AS sha256 "
     "FROM trace_input WHERE trace_id BETWEEN ?1 AND ?2 ORDER BY trace_id, ordinal", 0},
    {"inputs", "Import statistics (data loss and errors first)", TT_RCHART_NONE, 0, 0, 1, NULL,
     "SELECT name, severity, value, description FROM stats WHERE trace_id BETWEEN ?1 AND ?2 "
     "ORDER BY severity = 'error' DESC, severity = 'data_loss' DESC, name, id", 0},
    {"startup", "Startups", TT_RCHART_NONE, 0, 0, 0, NULL,
     "SELECT kind, source, ROUND(COALESCE(dur / 1e6, startup_duration_ms), 3) AS dur_ms, "
     "ROUND(ttid_dur / 1e6, 3) AS ttid_ms, ROUND(ttfd_dur / 1e6, 3) AS ttfd_ms FROM startup "
     "WHERE trace_id BETWEEN ?1 AND ?2 ORDER BY id", 0},
    /* a segment starts at seg.ts - startup.ts; without times at 0 (Matrix's numbers all
     * start at the first method) */
    {"startup", "Startup segments", TT_RCHART_WATERFALL, 2, 4, 0, "ms",
     "SELECT s.kind || ' #' || s.id AS startup, s.kind AS kind, g.name AS segment, "
     "g.from_event || ' -> ' || g.to_event AS events, "
     "ROUND(CASE WHEN g.ts IS NOT NULL AND s.ts IS NOT NULL THEN (g.ts - s.ts) / 1e6 "
     "ELSE 0 END, 3) AS start_ms, ROUND(g.dur / 1e6, 3) AS dur_ms FROM startup_segment g "
     "JOIN startup s ON s.id = g.startup_id WHERE s.trace_id BETWEEN ?1 AND ?2 "
     "ORDER BY s.id, g.ordinal, g.id", 0},
    /* system-measured launches (startup.md 4.3, 4.4) grouped by source, launch state and
     * component, a group's rows consecutive; left_out names why a row is not in the
     * statistics, as tracetool startup counts them (5.5): not launched, no TotalTime, an am
     * status other than ok */
    {"startup", "Launches (am start -W TotalTime, logcat Displayed)", TT_RCHART_STRIP, 0, 5, 0,
     "ms",
     "SELECT source || COALESCE(' ' || launch_state, '') || ': ' || component AS launch, "
     "source, component, COALESCE(launch_state, '') AS state, COALESCE(status, '') AS status, "
     "total_ms, CASE WHEN COALESCE(not_launched, 0) = 1 THEN 'not launched' "
     "WHEN total_ms IS NULL THEN 'no TotalTime' WHEN source = 'am' AND status IS NULL "
     "THEN 'no status' WHEN source = 'am' AND status <> 'ok' THEN 'status ' || status "
     "ELSE '' END AS left_out, CASE WHEN incomplete = 1 THEN 'yes' ELSE '' END AS incomplete, "
     "wait_ms, fully_drawn_ms AS ttfd_ms, COALESCE(log_time, '') AS log_time FROM lx "
     "WHERE trace_id BETWEEN ?1 AND ?2 ORDER BY source, launch_state, component, trace_id, id", 0},
    /* per scene over the traces of the range (overlapping dumps given as several inputs are
     * one scene): fps = frames / estimated time (frames / fps summed: busy time for the
     * native model, the reports' harmonic mean for reports); percentiles by nearest rank over
     * the stored frames (frames.md 6.2; none for reports) */
    {"frames", "Frame statistics per scene (worst first)", TT_RCHART_NONE, 0, 0, 0, NULL,
     "WITH s AS (SELECT scene, model, SUM(frames) AS frames, "
     "SUM(CASE WHEN fps > 0 THEN frames END) AS ff, SUM(CASE WHEN fps > 0 THEN frames / fps "
     "END) AS ft, SUM(jank_count) AS jank, SUM(slow_count) AS slow, "
     "SUM(frozen_count) AS frozen, SUM(COALESCE(level_frozen_count, 0) + "
     "COALESCE(level_high_count, 0)) AS bad FROM scene_frame_stats "
     "WHERE trace_id BETWEEN ?1 AND ?2 AND ts IS NULL AND scene <> '*' AND frames > 0 "
     "GROUP BY scene, model), "
     "r AS (SELECT scene, dur, ROW_NUMBER() OVER (PARTITION BY scene ORDER BY dur) AS k, "
     "COUNT(*) OVER (PARTITION BY scene) AS n FROM ui_frame WHERE trace_id BETWEEN ?1 AND ?2), "
     "p AS (SELECT scene, MIN(CASE WHEN k >= MAX(1, (50 * n + 99) / 100) THEN dur END) AS p50, "
     "MIN(CASE WHEN k >= MAX(1, (90 * n + 99) / 100) THEN dur END) AS p90, "
     "MIN(CASE WHEN k >= MAX(1, (99 * n + 99) / 100) THEN dur END) AS p99 FROM r "
     "GROUP BY scene) "
     "SELECT s.scene, s.model, s.frames, ROUND(s.ff / s.ft, 2) AS fps, "
     "ROUND(100.0 * s.jank / s.frames, 2) AS jank_pct, s.jank AS jank, s.slow AS slow, "
     "s.frozen AS frozen, ROUND(p.p50 / 1e6, 2) AS p50_ms, ROUND(p.p90 / 1e6, 2) AS p90_ms, "
     "ROUND(p.p99 / 1e6, 2) AS p99_ms, ROUND(1000.0 * s.bad / s.frames, 2) AS bad_per_1000 "
     "FROM s LEFT JOIN p ON p.scene = s.scene AND s.model = 'native' "
     "ORDER BY bad_per_1000 DESC, fps, s.scene, s.model LIMIT ?3", 0},
    {"frames", "FPS per scene (worst first)", TT_RCHART_BARS, 0, 3, 0, "fps",
     "SELECT scene, model, SUM(frames) AS frames, ROUND(SUM(CASE WHEN fps > 0 THEN frames END) "
     "/ SUM(CASE WHEN fps > 0 THEN frames / fps END), 2) AS fps, SUM(jank_count) AS jank, "
     "ROUND(1000.0 * SUM(COALESCE(level_frozen_count, 0) + COALESCE(level_high_count, 0)) / "
     "SUM(frames), 2) AS bad_per_1000, (SELECT ROUND(1e9 / MIN(u.interval_dur), 1) "
     "FROM ui_frame u WHERE u.trace_id BETWEEN ?1 AND ?2 AND u.scene = f.scene "
     "AND f.model = 'native' AND u.interval_dur > 0) AS refresh_hz "
     "FROM scene_frame_stats f WHERE trace_id BETWEEN ?1 AND ?2 "
     "AND ts IS NULL AND scene <> '*' AND frames > 0 GROUP BY scene, model "
     "ORDER BY bad_per_1000 DESC, fps, scene, model LIMIT ?3", 7},
    /* frame-time histogram: buckets at the drop level edges (frames.md 2), frame time
     * (d + 1) x the most common refresh period (named when scenes ran at several rates: the
     * ms are those of that rate); report-only data: the level counts */
    {"frames", "Frame-time histogram (dropped frames per frame)", TT_RCHART_HIST, 0, 1, 0,
     "frames",
     "WITH b(i, lo, hi, lbl, level) AS (VALUES (0, 0, 0, '0', 'best'), (1, 1, 1, '1', 'best'), "
     "(2, 2, 2, '2', 'best'), (3, 3, 8, '3-8', 'normal'), (4, 9, 23, '9-23', 'middle'), "
     "(5, 24, 41, '24-41', 'high'), (6, 42, 9000000000000000000, '>=42', 'frozen')), "
     "p(ns, np) AS (SELECT interval_dur, (SELECT COUNT(DISTINCT interval_dur) FROM ui_frame "
     "WHERE trace_id BETWEEN ?1 AND ?2 AND interval_dur > 0) FROM ui_frame "
     "WHERE trace_id BETWEEN ?1 AND ?2 "
     "AND interval_dur > 0 GROUP BY interval_dur ORDER BY COUNT(*) DESC, interval_dur LIMIT 1) "
     "SELECT dropped, frames, level FROM ("
     "SELECT 0 AS src, b.i AS o, 'd ' || b.lbl || ' (' || CASE WHEN b.i = 6 "
     "THEN '>= ' || ROUND(43 * p.ns / 1e6, 1) WHEN b.lo = b.hi "
     "THEN ROUND((b.lo + 1) * p.ns / 1e6, 1) ELSE ROUND((b.lo + 1) * p.ns / 1e6, 1) || '-' || "
     "ROUND((b.hi + 1) * p.ns / 1e6, 1) END || ' ms' || CASE WHEN p.np > 1 "
     "THEN ' @' || CAST(ROUND(1e9 / p.ns) AS INTEGER) || ' Hz' ELSE '' END || ')' "
     "AS dropped, "
     "(SELECT COUNT(*) FROM ui_frame u WHERE u.trace_id BETWEEN ?1 AND ?2 "
     "AND u.dropped_frames BETWEEN b.lo AND b.hi) AS frames, b.level AS level FROM b, p "
     "UNION ALL SELECT 1, o, lvl, cnt, lvl FROM (SELECT 0 AS o, 'best' AS lvl, "
     "SUM(level_best_count) AS cnt FROM scene_frame_stats WHERE trace_id BETWEEN ?1 AND ?2 "
     "AND scene = '*' AND ts IS NULL UNION ALL SELECT 1, 'normal', SUM(level_normal_count) "
     "FROM scene_frame_stats WHERE trace_id BETWEEN ?1 AND ?2 AND scene = '*' AND ts IS NULL "
     "UNION ALL SELECT 2, 'middle', SUM(level_middle_count) FROM scene_frame_stats "
     "WHERE trace_id BETWEEN ?1 AND ?2 AND scene = '*' AND ts IS NULL "
     "UNION ALL SELECT 3, 'high', SUM(level_high_count) FROM scene_frame_stats "
     "WHERE trace_id BETWEEN ?1 AND ?2 AND scene = '*' AND ts IS NULL "
     "UNION ALL SELECT 4, 'frozen', SUM(level_frozen_count) FROM scene_frame_stats "
     "WHERE trace_id BETWEEN ?1 AND ?2 AND scene = '*' AND ts IS NULL) "
     "WHERE cnt IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ui_frame "
     "WHERE trace_id BETWEEN ?1 AND ?2)) ORDER BY src, o", 0},
    /* fps over time (frames.md 6.3): the windowed rows, all scenes (rank 0) and the top 5
     * scenes by frames; time in ms from the first window drawn; a series per trace (and
     * model) when there are several, for the top N (?3) traces by frames (series_caption
     * says how many there are when it leaves some out). A series of more than FPS_POINTS windows is cut
     * into runs (a run ends where a window does not follow the previous one or where frames
     * start or stop: the chart's breaks) and each run into buckets of ceil(windows /
     * FPS_POINTS) consecutive windows, a row each: its start and end, the frames summed, the
     * lowest fps of the bucket (a drop stays visible) and how many windows it holds; so a
     * series has at most FPS_POINTS rows plus one per break */
#define FPS_POINTS "600"
    {"frames", "FPS over time (all scenes; the top 5 scenes by frames folded)",
     TT_RCHART_SERIES, 0, 2, 0, "fps",
     "WITH w AS (SELECT trace_id, model, scene, ts, dur, frames, fps FROM scene_frame_stats "
     "WHERE trace_id BETWEEN ?1 AND ?2 AND ts IS NOT NULL AND dur IS NOT NULL), "
     "tr AS (SELECT trace_id FROM w GROUP BY trace_id ORDER BY SUM(CASE WHEN scene = '*' "
     "THEN frames ELSE 0 END) DESC, trace_id LIMIT ?3), "
     "wk AS (SELECT * FROM w WHERE trace_id IN tr), "
     "o AS (SELECT (SELECT MIN(ts) FROM wk) AS t0, COUNT(DISTINCT trace_id) AS nt, "
     "COUNT(DISTINCT model) AS nm FROM w), "
     "top AS (SELECT scene, ROW_NUMBER() OVER (ORDER BY SUM(frames) DESC, scene) AS k FROM wk "
     "WHERE scene <> '*' GROUP BY scene ORDER BY k LIMIT 5), "
     "kept AS (SELECT wk.*, CASE WHEN wk.scene = '*' THEN 0 ELSE top.k END AS rank FROM wk "
     "LEFT JOIN top ON top.scene = wk.scene WHERE wk.scene = '*' OR top.k IS NOT NULL), "
     "br AS (SELECT *, CASE WHEN LAG(ts + dur) OVER p IS NOT ts OR (frames > 0) IS NOT "
     "(LAG(frames) OVER p > 0) THEN 1 ELSE 0 END AS brk, (COUNT(*) OVER (PARTITION BY "
     "trace_id, model, scene) + " FPS_POINTS " - 1) / " FPS_POINTS " AS per FROM kept "
     "WINDOW p AS (PARTITION BY trace_id, model, scene ORDER BY ts)), "
     "run AS (SELECT *, SUM(brk) OVER (PARTITION BY trace_id, model, scene ORDER BY ts ROWS "
     "UNBOUNDED PRECEDING) AS seg FROM br), "
     "bk AS (SELECT *, (ROW_NUMBER() OVER (PARTITION BY trace_id, model, scene, seg ORDER BY "
     "ts) - 1) / per AS b FROM run) "
     "SELECT CASE WHEN bk.scene = '*' THEN 'all scenes' ELSE bk.scene END || CASE WHEN o.nm > 1 "
     "THEN ' (' || bk.model || ')' ELSE '' END || CASE WHEN o.nt > 1 THEN ' #' || bk.trace_id "
     "ELSE '' END AS series, rank, (MIN(ts) - o.t0) / 1000000 AS start_ms, CASE WHEN "
     "COUNT(*) = 1 THEN MIN(dur) / 1000000 ELSE (MAX(ts + dur) - o.t0) / 1000000 - "
     "(MIN(ts) - o.t0) / 1000000 END AS dur_ms, SUM(frames) AS frames, ROUND(MIN(fps), 2) "
     "AS fps, COUNT(*) AS windows FROM bk CROSS JOIN o GROUP BY bk.trace_id, bk.model, "
     "bk.scene, seg, b ORDER BY rank, series, bk.trace_id, bk.model, MIN(ts)",
     0},
    {"frames", "Drop levels per scene", TT_RCHART_LEVELS, 0, 1, 0, "frames",
     "SELECT scene || ' (' || model || ')' AS scene, SUM(COALESCE(level_best_count, 0)) AS best, "
     "SUM(COALESCE(level_normal_count, 0)) AS normal, "
     "SUM(COALESCE(level_middle_count, 0)) AS middle, "
     "SUM(COALESCE(level_high_count, 0)) AS high, "
     "SUM(COALESCE(level_frozen_count, 0)) AS frozen "
     "FROM scene_frame_stats f WHERE trace_id BETWEEN ?1 AND ?2 AND ts IS NULL "
     "AND scene <> '*' AND frames > 0 GROUP BY f.scene, model ORDER BY f.scene, model "
     "LIMIT ?3", 0},
    {"issues", "Issues by stack key", TT_RCHART_BARS, 1, 2, 0, "issues",
     "SELECT kind, COALESCE(stack_key, 'unresolved:' || stack_key_raw) AS stack_key, "
     "COUNT(*) AS issues, MAX(cost_ms) AS max_cost_ms, ROUND(AVG(cost_ms), 2) AS avg_cost_ms, "
     "COUNT(DISTINCT scene) AS scenes FROM issue WHERE trace_id BETWEEN ?1 AND ?2 "
     "AND kind <> 'fps' AND tag <> 'Trace_StartUp' AND stack_key_raw IS NOT NULL "
     "AND stack_key_raw <> '' GROUP BY kind, 2 ORDER BY issues DESC, max_cost_ms DESC, kind, 2 "
     "LIMIT ?3", 0},
    {"issues", "Costliest issues", TT_RCHART_NONE, 0, 0, 1, NULL,
     "SELECT kind, COALESCE(stack_key, 'unresolved:' || stack_key_raw) AS stack_key, "
     "cost_ms, scene FROM issue WHERE trace_id BETWEEN ?1 AND ?2 AND kind <> 'fps' "
     "AND tag <> 'Trace_StartUp' ORDER BY cost_ms DESC, id LIMIT 10", 0},
    {"methods", "Top methods by self time", TT_RCHART_BARS, 0, 2, 0, "ms",
     "SELECT name, SUM(calls) AS calls, ROUND(SUM(self_dur) / 1e6, 3) AS self_ms, "
     "ROUND(SUM(total_dur) / 1e6, 3) AS total_ms FROM top_self_methods "
     "WHERE trace_id BETWEEN ?1 AND ?2 GROUP BY name ORDER BY SUM(self_dur) DESC, name "
     "LIMIT ?3", 0},
};

static int issue_trees(tt_hreport *r, tdb_db *db, int64_t lo, int64_t hi, tt_error *err);
static int launch_stats(tt_hreport *r, const tt_hreport_table *t);

typedef struct rctx {
    tt_hreport *r;
    tt_hreport_table *t;
    const rq *q;
    int oom;
} rctx;

static int on_row(void *ctx, int event, int ncol, const char *const *names,
                  const tdb_value *vals)
{
    rctx *c = ctx;
    if (event == TDB_EV_BEGIN) {
        if (tt_hreport_table_add(c->r, &c->t, c->q->section, c->q->caption, (size_t)ncol, names))
            return c->oom = 1;
        c->t->chart = c->q->chart;
        c->t->label_col = c->q->label_col;
        c->t->value_col = c->q->value_col;
        c->t->unit = c->q->unit;
        c->t->details = c->q->details;
        c->t->ref_col = c->q->ref_col;
        return 0;
    }
    if (event != TDB_EV_ROW)
        return 0;
    const char *cells[16];
    double nums[16];
    char tmp[16][48];
    for (int i = 0; i < ncol && i < 16; i++) {
        nums[i] = NAN;
        cells[i] = NULL;
        if (vals[i].type == TDB_INT) {
            snprintf(tmp[i], sizeof tmp[i], "%lld", (long long)vals[i].i);
            cells[i] = tmp[i];
            nums[i] = (double)vals[i].i;
        } else if (vals[i].type == TDB_REAL) {
            /* views round to 3 decimals; print as rounded, without trailing zeros */
            snprintf(tmp[i], sizeof tmp[i], "%.3f", vals[i].r);
            char *e = tmp[i] + strlen(tmp[i]);
            while (e > tmp[i] && e[-1] == '0')
                *--e = 0;
            if (e > tmp[i] && e[-1] == '.')
                *--e = 0;
            cells[i] = tmp[i];
            nums[i] = vals[i].r;
        } else if (vals[i].type == TDB_TEXT) {
            cells[i] = vals[i].s;
        }
    }
    if (tt_hreport_row_add(c->r, c->t, cells, nums))
        return c->oom = 1;
    return 0;
}

/* The launch rows as "lx": a database of schema 3 or older (read, not migrated) has no
 * not_launched and incomplete columns (NULL: unknown). */
static const char lx_now[] = "WITH lx AS (SELECT * FROM launch) ";
static const char lx_old[] =
    "WITH lx AS (SELECT id, trace_id, source, component, launch_state, status, total_ms, "
    "wait_ms, this_ms, fully_drawn_ms, log_time, NULL AS not_launched, NULL AS incomplete "
    "FROM launch) ";

/* sql with the lx CTE of db in front when it reads lx; *q holds it (free with tt_buf_free). */
static const char *with_lx(tdb_db *db, const char *sql, tt_buf *q)
{
    const char *lx = tdb__has_column(db, "main", "launch", "not_launched") ? lx_now : lx_old;
    if (!strstr(sql, "FROM lx "))
        return sql;
    return tt_buf_puts(q, lx) || tt_buf_puts(q, sql) ? NULL : q->data;
}

/* One side's summary (all its traces): up to NSUM rows of item, value and figure. */
enum { NSUM = 24 };
typedef struct sumside {
    size_t n;
    char *item[NSUM], *value[NSUM], *subj[NSUM]; /* subj NULL: none */
    double num[NSUM]; /* NAN: no figure */
} sumside;

static void sumside_free(sumside *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->item[i]);
        free(s->value[i]);
        free(s->subj[i]);
    }
}

static void fmt_num(char *out, size_t cap, double x, int sign)
{
    snprintf(out, cap, sign ? "%+.3f" : "%.3f", x);
    char *e = out + strlen(out);
    while (e > out && e[-1] == '0')
        *--e = 0;
    if (e > out && e[-1] == '.')
        *--e = 0;
}

static int summary_side(sumside *s, tdb_db *db, tt_error *err)
{
    tt_buf q = {0};
    sqlite3_stmt *st;
    const char *sql = with_lx(db, summary_num_sql, &q);
    if (!sql)
        return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    int prc = sqlite3_prepare_v2(db->h, sql, -1, &st, NULL);
    tt_buf_free(&q);
    if (prc != SQLITE_OK)
        return tdb__sqlerr(db, err, "report summary");
    sqlite3_bind_int64(st, 1, 1);
    sqlite3_bind_int64(st, 2, INT64_MAX);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW && s->n < NSUM) {
        const char *it = (const char *)sqlite3_column_text(st, 0);
        const char *v = (const char *)sqlite3_column_text(st, 1);
        size_t k = s->n;
        s->item[k] = strdup(it ? it : "");
        s->value[k] = strdup(v ? v : "");
        s->num[k] = sqlite3_column_type(st, 2) == SQLITE_NULL ? NAN
                                                              : sqlite3_column_double(st, 2);
        const char *sj = (const char *)sqlite3_column_text(st, 3);
        s->subj[k] = sj ? strdup(sj) : NULL;
        s->n++;
        if (!s->item[k] || !s->value[k] || (sj && !s->subj[k])) {
            sqlite3_finalize(st);
            return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
        }
    }
    rc = rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : tdb__sqlerr(db, err, "report summary");
    sqlite3_finalize(st);
    return rc;
}

/* The Summary of diff mode (visual.md 10.2): each figure of base and of new with new - base
 * (Δ; of the same subject only); another item differing between the sides says "changed". */
static int summary_diff(tt_hreport *r, tdb_db *base, tdb_db *db, tt_error *err)
{
    static const char *const cols[] = {"item", "base", "new", "\xce\x94"};
    sumside s[2] = {{0}, {0}};
    int rc = summary_side(&s[0], base, err);
    if (!rc)
        rc = summary_side(&s[1], db, err);
    tt_hreport_table *t = NULL;
    if (!rc && tt_hreport_table_add(r, &t, "summary", "Summary (base and new database)", 4, cols))
        rc = tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    for (size_t i = 0; !rc && i < s[1].n && i < s[0].n; i++) {
        char d[48] = "";
        double b = s[0].num[i], n = s[1].num[i], x = NAN;
        const char *sb = s[0].subj[i], *sn = s[1].subj[i];
        if (!isnan(b) && !isnan(n) && (sb ? sn && !strcmp(sb, sn) : !sn))
            fmt_num(d, sizeof d, x = n - b, n != b);
        else if (strcmp(s[0].value[i], s[1].value[i]))
            snprintf(d, sizeof d, "changed");
        const char *cells[4] = {s[1].item[i], s[0].value[i], s[1].value[i], d};
        double nums[4] = {NAN, b, n, x};
        if (tt_hreport_row_add(r, t, cells, nums))
            rc = tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    }
    sumside_free(&s[0]);
    sumside_free(&s[1]);
    return rc;
}

/* The fps-over-time chart draws the top traces by frames: when the range has more traces
 * with windows than that, its caption (in buf) says how many of them are drawn. */
static int series_caption(tdb_db *db, rq *q, int64_t lo, int64_t hi, int top, char *buf,
                          size_t cap, tt_error *err)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->h,
                           "SELECT COUNT(DISTINCT trace_id) FROM scene_frame_stats WHERE trace_id "
                           "BETWEEN ?1 AND ?2 AND ts IS NOT NULL AND dur IS NOT NULL",
                           -1, &st, NULL) != SQLITE_OK)
        return tdb__sqlerr(db, err, "report");
    sqlite3_bind_int64(st, 1, lo);
    sqlite3_bind_int64(st, 2, hi);
    int rc = sqlite3_step(st);
    int64_t n = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW)
        return tdb__sqlerr(db, err, "report");
    if (n > top) {
        size_t len = strlen(q->caption);
        snprintf(buf, cap, "%.*s; the %d of %lld traces with the most frames)",
                 (int)(len && q->caption[len - 1] == ')' ? len - 1 : len), q->caption, top,
                 (long long)n);
        q->caption = buf;
    }
    return 0;
}

int tdb_report_fill(tt_hreport *r, tdb_db *db, tdb_db *base, int64_t trace_lo,
                    int64_t trace_hi, int top, tt_error *err)
{
    for (size_t i = 0; i < sizeof queries / sizeof queries[0]; i++) {
        if (i == 0 && base) {
            int rc = summary_diff(r, base, db, err);
            if (rc)
                return rc;
            continue;
        }
        sqlite3_stmt *st;
        tt_buf q = {0};
        const char *sql = with_lx(db, queries[i].sql, &q);
        if (!sql) {
            tt_buf_free(&q);
            return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
        }
        int prc = sqlite3_prepare_v2(db->h, sql, -1, &st, NULL);
        tt_buf_free(&q);
        if (prc != SQLITE_OK)
            return tdb__sqlerr(db, err, "report");
        sqlite3_bind_int64(st, 1, trace_lo);
        sqlite3_bind_int64(st, 2, trace_hi);
        if (sqlite3_bind_parameter_count(st) >= 3)
            sqlite3_bind_int(st, 3, top);
        rq qi = queries[i];
        char caption[256];
        if (qi.chart == TT_RCHART_SERIES) {
            int crc = series_caption(db, &qi, trace_lo, trace_hi, top, caption, sizeof caption,
                                     err);
            if (crc) {
                sqlite3_finalize(st);
                return crc;
            }
        }
        rctx c = {r, NULL, &qi, 0};
        int rc = tdb__rows(db, st, on_row, &c, err);
        sqlite3_finalize(st);
        if (c.oom)
            return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
        if (rc)
            return rc;
        if (c.t && c.t->chart == TT_RCHART_STRIP && launch_stats(r, c.t))
            return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    }
    return issue_trees(r, db, trace_lo, trace_hi, err);
}

/* The statistics of each launch group of t (the rows of the strip chart, a group's rows
 * consecutive): the TTIDs tracetool startup counts (startup.md 5.5: median the truncated
 * mean of the middle two, p90 by nearest rank), the rows left out counted apart. */
static int launch_stats(tt_hreport *r, const tt_hreport_table *t)
{
    static const char *const cols[] = {"launch", "rows", "counted", "min_ms", "median_ms",
                                       "p90_ms", "max_ms", "not_launched", "incomplete",
                                       "other_left_out"};
    enum { NC = sizeof cols / sizeof cols[0] };
    tt_hreport_table *s;
    if (!t->nrow) /* the launch table's "no data" line says it */
        return 0;
    if (tt_hreport_table_add(r, &s, "startup", "Launch statistics (TTID ms; not launched rows, "
                             "rows without TotalTime and am rows whose status is not ok left "
                             "out)", NC, cols))
        return 1;
    int64_t *v = malloc((t->nrow ? t->nrow : 1) * sizeof *v);
    if (!v)
        return 1;
    size_t vc = (size_t)t->value_col;
    const char *const *cell = t->cells.data;
    const double *num = t->nums.data;
    int rc = 0;
    for (size_t r0 = 0, r1; r0 < t->nrow && !rc; r0 = r1) {
        const char *g = cell[r0 * t->ncol];
        size_t nv = 0, nl = 0, inc = 0, other = 0;
        for (r1 = r0; r1 < t->nrow; r1++) {
            const char *h = cell[r1 * t->ncol];
            if (r1 > r0 && (!g || !h || strcmp(g, h)))
                break;
            const char *why = cell[r1 * t->ncol + vc + 1], *in = cell[r1 * t->ncol + vc + 2];
            double x = num[r1 * t->ncol + vc];
            if (in && *in)
                inc++;
            if (why && !strcmp(why, "not launched"))
                nl++;
            else if ((why && *why) || isnan(x))
                other++;
            else
                v[nv++] = (int64_t)x;
        }
        tt_su_dist d;
        tt_su_dist_compute(&d, v, nv);
        char txt[NC][32];
        const char *cells[NC] = {g};
        double nums[NC] = {NAN};
        const int64_t iv[NC] = {0, (int64_t)(r1 - r0), (int64_t)nv, d.min, d.median, d.p90,
                                d.max, (int64_t)nl, (int64_t)inc, (int64_t)other};
        for (size_t k = 1; k < NC; k++) {
            int stat = k >= 3 && k <= 6;
            nums[k] = stat && !nv ? NAN : (double)iv[k];
            snprintf(txt[k], sizeof txt[k], "%lld", (long long)iv[k]);
            cells[k] = stat && !nv ? "-" : txt[k];
        }
        rc = tt_hreport_row_add(r, s, cells, nums) != 0;
    }
    free(v);
    return rc;
}

/* The call trees of the 10 costliest issues that have one (visual.md 10.2 item 5). */
static int issue_trees(tt_hreport *r, tdb_db *db, int64_t lo, int64_t hi, tt_error *err)
{
    static const char q_issues[] =
        "SELECT id, kind || ': ' || COALESCE(stack_key, 'unresolved:' || stack_key_raw, '?') || "
        "' (' || COALESCE(cost_ms, '?') || ' ms' || COALESCE(', ' || scene, '') || ')', "
        "call_tree_id FROM issue WHERE trace_id BETWEEN ?1 AND ?2 AND kind <> 'fps' "
        "AND tag <> 'Trace_StartUp' AND call_tree_id IS NOT NULL ORDER BY cost_ms DESC, id LIMIT 10";
    static const char q_nodes[] =
        "SELECT id, parent_id, name, count, total_dur, self_dur FROM call_node "
        "WHERE tree_id = ?1 ORDER BY ordinal, id";
    sqlite3_stmt *si = NULL, *sn = NULL;
    int64_t *ids = NULL;
    uint32_t *depth = NULL;
    size_t cap = 0;
    int rc = 0;
    if (sqlite3_prepare_v2(db->h, q_issues, -1, &si, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db->h, q_nodes, -1, &sn, NULL) != SQLITE_OK) {
        rc = tdb__sqlerr(db, err, "report");
        goto out;
    }
    sqlite3_bind_int64(si, 1, lo);
    sqlite3_bind_int64(si, 2, hi);
    while (!rc && sqlite3_step(si) == SQLITE_ROW) {
        tt_hreport_tree *t;
        if (tt_hreport_tree_add(r, &t, sqlite3_column_int64(si, 0),
                                (const char *)sqlite3_column_text(si, 1))) {
            rc = TT_ENOMEM;
            break;
        }
        sqlite3_reset(sn);
        sqlite3_bind_int64(sn, 1, sqlite3_column_int64(si, 2));
        size_t n = 0;
        while (!rc && sqlite3_step(sn) == SQLITE_ROW) {
            if (n == cap) {
                size_t nc = cap ? cap * 2 : 256;
                int64_t *a = realloc(ids, nc * sizeof *a);
                if (a)
                    ids = a;
                uint32_t *d = a ? realloc(depth, nc * sizeof *d) : NULL;
                if (!a || !d) {
                    rc = TT_ENOMEM;
                    break;
                }
                depth = d;
                cap = nc;
            }
            /* rows nest by parent_id (Matrix depth may skip levels); parents come first */
            uint32_t dp = 0;
            if (sqlite3_column_type(sn, 1) != SQLITE_NULL) {
                int64_t par = sqlite3_column_int64(sn, 1);
                for (size_t k = n; k-- > 0;)
                    if (ids[k] == par) {
                        dp = depth[k] + 1;
                        break;
                    }
            }
            ids[n] = sqlite3_column_int64(sn, 0);
            depth[n++] = dp;
            int64_t v[3];
            for (int k = 0; k < 3; k++)
                v[k] = sqlite3_column_type(sn, 3 + k) == SQLITE_NULL
                           ? -1 : sqlite3_column_int64(sn, 3 + k);
            if (tt_hreport_node_add(r, t, dp, (const char *)sqlite3_column_text(sn, 2), v[0],
                                    v[1], v[2]))
                rc = TT_ENOMEM;
        }
    }
    if (rc == TT_ENOMEM)
        rc = tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
out:
    sqlite3_finalize(si);
    sqlite3_finalize(sn);
    free(ids);
    free(depth);
    return rc;
}

int tdb_call_tree_rows(tdb_db *db, int64_t id, int by_issue, tdb_row_fn fn, void *ctx,
                       tt_error *err)
{
    static const char by_tree[] =
        "SELECT id, parent_id, depth, name, count, total_dur, self_dur, self_count "
        "FROM call_node WHERE tree_id = ?1 ORDER BY id";
    static const char by_iss[] =
        "SELECT id, parent_id, depth, name, count, total_dur, self_dur, self_count "
        "FROM call_node WHERE tree_id = (SELECT call_tree_id FROM issue WHERE id = ?1) "
        "ORDER BY id";
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->h, by_issue ? by_iss : by_tree, -1, &st, NULL) != SQLITE_OK)
        return tdb__sqlerr(db, err, "call tree");
    sqlite3_bind_int64(st, 1, id);
    int rc = tdb__rows(db, st, fn, ctx, err);
    sqlite3_finalize(st);
    return rc;
}

int tdb_startup_window(tdb_startup_win *out, tdb_db *db, int64_t id, int64_t prefer_trace,
                       tt_error *err)
{
    static const char sql[] =
        "SELECT s.id, s.trace_id, s.kind, s.ts, s.dur, COALESCE(t.clock, 'unknown') "
        "FROM startup s JOIN trace t ON t.id = s.trace_id "
        "WHERE (?1 = 0 OR s.id = ?1) AND s.ts IS NOT NULL AND s.dur IS NOT NULL "
        "ORDER BY s.trace_id = ?2 DESC, s.id LIMIT 1";
    sqlite3_stmt *st;
    memset(out, 0, sizeof *out);
    if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
        return tdb__sqlerr(db, err, "startup window");
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_int64(st, 2, prefer_trace);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        out->id = sqlite3_column_int64(st, 0);
        out->trace_id = sqlite3_column_int64(st, 1);
        snprintf(out->kind, sizeof out->kind, "%s", (const char *)sqlite3_column_text(st, 2));
        out->ts = sqlite3_column_int64(st, 3);
        out->dur = sqlite3_column_int64(st, 4);
        snprintf(out->clock, sizeof out->clock, "%s", (const char *)sqlite3_column_text(st, 5));
        rc = 0;
    } else if (rc == SQLITE_DONE) {
        rc = tt_error_set(err, TT_ENOTFOUND, NULL, 0, 0, "no startup");
    } else {
        rc = tdb__sqlerr(db, err, "startup window");
    }
    sqlite3_finalize(st);
    return rc;
}
