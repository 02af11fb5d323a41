-- Views: part of the documented interface (storage.md section 4; tracetool-schema(5)).
-- Views are for people: derived REAL columns are rounded (milliseconds to 3 decimals, i.e.
-- microseconds; rates and averages to 2); tables keep the exact integer values.
-- Only SQL that SQLite 3.8.3 understands: no window functions.
-- Functions/methods by self time, from rebuilt slices (sampled or instrumented).
-- total_dur skips calls nested inside a call of the same function (recursion).
CREATE VIEW top_self_methods AS
SELECT trace_id, name,
       COUNT(*)                                   AS calls,
       SUM(self_dur)                              AS self_dur,
       SUM(CASE WHEN is_recursive = 0 THEN dur END) AS total_dur,
       SUM(self_thread_dur)                       AS self_thread_dur,
       MAX(dur)                                   AS max_dur,
       ROUND(SUM(self_dur) / 1e6, 3)              AS self_ms
FROM slice GROUP BY trace_id, name;

-- Matrix issues grouped by the blamed method; canonical name when resolved.
CREATE VIEW issues_by_stack_key AS
SELECT kind,
       COALESCE(stack_key, 'unresolved:' || stack_key_raw) AS stack_key,
       COUNT(*)                 AS issues,
       COUNT(DISTINCT trace_id) AS traces,
       COUNT(DISTINCT scene)    AS scenes,
       MAX(cost_ms)             AS max_cost_ms,
       ROUND(AVG(cost_ms), 2)   AS avg_cost_ms,
       MIN(report_unix_ms)      AS first_unix_ms,
       MAX(report_unix_ms)      AS last_unix_ms
FROM issue WHERE kind <> 'fps'
GROUP BY kind, COALESCE(stack_key, 'unresolved:' || stack_key_raw);

-- Scenes ordered worst first by the caller: frozen and high-drop frames per 1000 frames.
-- avg_fps combines rows as frames.md 7.1 does: total frames over total frame time (each
-- row's frames / fps), rows with fps 0 or NULL left out; not a mean of the rows' fps.
CREATE VIEW worst_scenes AS
SELECT scene, model,
       SUM(frames)                                         AS frames,
       SUM(level_frozen_count)                             AS frozen_level_frames,
       SUM(level_high_count)                               AS high_level_frames,
       SUM(dropped_sum)                                    AS dropped_sum,
       SUM(jank_count)                                     AS jank_frames,
       ROUND(1000.0 * (SUM(level_frozen_count) + SUM(level_high_count)) / SUM(frames), 2)
                                                           AS bad_per_1000,
       ROUND(SUM(CASE WHEN fps > 0 THEN frames END)
             / SUM(CASE WHEN fps > 0 THEN frames / fps END), 2) AS avg_fps
FROM scene_frame_stats
WHERE ts IS NULL AND scene <> '*' AND frames > 0
GROUP BY scene, model;

-- Per-thread sampling density: judge whether a thread's data can be trusted.
CREATE VIEW thread_sample_summary AS
SELECT t.trace_id, t.utid, t.tid, t.name, t.is_main_thread,
       SUM(s.count) AS samples, MIN(s.ts) AS first_ts, MAX(s.ts + s.dur) AS last_ts,
       (MAX(s.ts + s.dur) - MIN(s.ts)) / NULLIF(SUM(s.count), 0) AS avg_interval
FROM thread t JOIN sample s ON s.utid = t.utid
GROUP BY t.utid;

-- Slices with thread names and millisecond columns, for people reading results.
CREATE VIEW slice_ms AS
SELECT s.id, s.trace_id, t.tid, t.name AS thread_name, s.depth, s.name,
       s.ts, ROUND(s.dur / 1e6, 3) AS dur_ms, ROUND(s.self_dur / 1e6, 3) AS self_ms,
       ROUND(s.thread_dur / 1e6, 3) AS cpu_ms, ROUND(s.block_dur / 1e6, 3) AS block_ms,
       ROUND((s.dur - COALESCE(s.thread_dur, s.dur)) / 1e6, 3) AS off_cpu_ms
FROM slice s JOIN thread t ON t.utid = s.utid;

-- Methods by self time inside Matrix stacks (issue stacks and evil dispatches): for
-- report-only databases, which have call trees but no slices. total_dur skips nodes nested
-- in a node of the same name (recursion); max_dur needs no such rule (a nested call lies
-- within its outer one).
CREATE VIEW top_stack_methods AS
SELECT t.trace_id, n.name,
       COUNT(*)              AS nodes,
       SUM(n.count)          AS calls,
       SUM(n.self_dur)       AS self_dur,
       SUM(CASE WHEN n.is_recursive = 0 THEN n.total_dur END) AS total_dur,
       MAX(n.total_dur)      AS max_dur,
       ROUND(SUM(n.self_dur) / 1e6, 3) AS self_ms
FROM call_node n JOIN call_tree t ON t.id = n.tree_id
GROUP BY t.trace_id, n.name;

-- Evil-method, ANR and startup issues with the blamed method by name, worst first.
CREATE VIEW evil_methods AS
SELECT i.id AS issue_id, i.trace_id, i.kind, i.scene, i.cost_ms,
       COALESCE(i.stack_key, 'unresolved:' || i.stack_key_raw) AS stack_key,
       i.stack_key_path, i.process_name, i.report_unix_ms, i.ts
FROM issue i WHERE i.kind <> 'fps'
ORDER BY i.cost_ms DESC;

-- Startups slowest first, with their threshold verdicts (startup.md 5.3); dur_ms falls back
-- to Matrix's startup_duration_ms when only report numbers exist.
CREATE VIEW slow_startups AS
SELECT s.id AS startup_id, s.trace_id, s.kind, s.source,
       COALESCE(s.dur / 1000000, s.startup_duration_ms) AS dur_ms,
       s.ttid_dur / 1000000 AS ttid_ms, s.ttfd_dur / 1000000 AS ttfd_ms,
       s.matrix_over_threshold, s.vitals_excessive, s.issue_id,
       i.stack_key, i.cost_ms AS issue_cost_ms
FROM startup s LEFT JOIN issue i ON i.id = s.issue_id
ORDER BY COALESCE(s.dur / 1000000, s.startup_duration_ms) DESC;
