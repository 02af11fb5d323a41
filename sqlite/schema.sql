-- tracetool database schema, version 1 (spec/storage.md section 3). Compiled into the
-- binary; every ts/dur/*_ts/*_dur column is int64 nanoseconds, *_ms whole milliseconds
-- kept verbatim from the source, *_unix_ms Unix epoch milliseconds. Documented column by
-- column in tracetool-schema(5).
CREATE TABLE trace (
  id               INTEGER PRIMARY KEY,
  import_key       TEXT NOT NULL UNIQUE,  -- sha256 hex, see 5.2
  content_sha256   TEXT NOT NULL,         -- sha256 over the inputs' content hashes
  source_format    TEXT NOT NULL,         -- 'matrix_beat','matrix_report','btrace','perf_script',
                                          -- 'folded','tt_samples','tt_frames','framestats',...
  tool_version     TEXT NOT NULL,
  options          TEXT NOT NULL,         -- canonical JSON of the analysis options used
  clock            TEXT NOT NULL CHECK (clock IN
                     ('boottime','monotonic','uptime','realtime','relative','unknown')),
  start_ts         INTEGER,               -- ns, trace clock
  end_ts           INTEGER,               -- ns
  package          TEXT,                  -- app package / process name
  app_version      TEXT,
  mapping_id       INTEGER REFERENCES method_mapping(id),
  imported_unix_ms INTEGER NOT NULL
);
CREATE TABLE trace_input (
  trace_id  INTEGER NOT NULL REFERENCES trace(id) ON DELETE CASCADE,
  ordinal   INTEGER NOT NULL,             -- argument order
  path      TEXT NOT NULL,                -- as given on the command line
  kind      TEXT NOT NULL,                -- detected input kind
  sha256    TEXT NOT NULL,                -- of the decompressed content
  bytes     INTEGER NOT NULL,             -- decompressed size
  PRIMARY KEY (trace_id, ordinal)
);
CREATE TABLE metadata (                   -- device model, os version, refresh rate, pid, ...
  trace_id  INTEGER NOT NULL REFERENCES trace(id) ON DELETE CASCADE,
  name      TEXT NOT NULL,
  int_value INTEGER,
  str_value TEXT,
  PRIMARY KEY (trace_id, name)
);
CREATE TABLE stats (                      -- import warnings and repairs (Perfetto's stats)
  id          INTEGER PRIMARY KEY,
  trace_id    INTEGER NOT NULL REFERENCES trace(id) ON DELETE CASCADE,
  name        TEXT NOT NULL,              -- e.g. 'btrace_truncated', 'beat_stray_exit'
  idx         INTEGER,                    -- optional index: type number, utid, line ...
  severity    TEXT NOT NULL CHECK (severity IN ('info','notice','data_loss','error')),
  source      TEXT NOT NULL CHECK (source IN ('trace','analysis')),
  value       INTEGER NOT NULL,           -- a count
  description TEXT NOT NULL               -- fixed per name, or the message of the first occurrence
);
CREATE TABLE args (                       -- extra key/values attached to any row
  arg_set_id   INTEGER NOT NULL,
  key          TEXT NOT NULL,
  value_type   TEXT NOT NULL CHECK (value_type IN ('int','real','string')),
  int_value    INTEGER,
  real_value   REAL,
  string_value TEXT,
  PRIMARY KEY (arg_set_id, key)
);

CREATE TABLE process (
  upid     INTEGER PRIMARY KEY,
  trace_id INTEGER NOT NULL REFERENCES trace(id) ON DELETE CASCADE,
  pid      INTEGER,                       -- NULL when the source has none
  name     TEXT,
  start_ts INTEGER, end_ts INTEGER
);
CREATE TABLE thread (
  utid           INTEGER PRIMARY KEY,     -- unique per trace and thread lifetime
  trace_id       INTEGER NOT NULL REFERENCES trace(id) ON DELETE CASCADE,
  upid           INTEGER REFERENCES process(upid),
  tid            INTEGER,
  tid_bits       INTEGER NOT NULL DEFAULT 32,  -- 16 for btrace: tid holds only the low 16 bits
  name           TEXT,
  is_main_thread INTEGER NOT NULL DEFAULT 0,
  start_ts INTEGER, end_ts INTEGER,
  arg_set_id     INTEGER                  -- e.g. iOS: the task index (spec/ios.md 10)
);

CREATE TABLE method_mapping (             -- one methodMapping.txt (shared by traces of one build)
  id           INTEGER PRIMARY KEY,
  sha256       TEXT NOT NULL,
  path         TEXT NOT NULL,
  method_count INTEGER NOT NULL,
  retrace_sha256 TEXT                      -- ProGuard/R8 mapping.txt applied, if any
);
-- a mapping is one methodMapping.txt with one retrace mapping (or none): the method names
-- differ; a UNIQUE index takes two NULLs as distinct, so the writers keep one row without a
-- retrace mapping (SQLite 3.8.3 has no index on an expression such as IFNULL(...))
CREATE UNIQUE INDEX method_mapping_pair ON method_mapping(sha256, retrace_sha256);
CREATE TABLE method (
  id           INTEGER PRIMARY KEY,
  mapping_id   INTEGER NOT NULL REFERENCES method_mapping(id) ON DELETE CASCADE,
  method_id    INTEGER NOT NULL,          -- Matrix id; valid only with this mapping
  access_flags INTEGER NOT NULL,
  class_name   TEXT NOT NULL,
  method_name  TEXT NOT NULL,
  descriptor   TEXT,                      -- NULL for native methods
  name         TEXT NOT NULL,             -- canonical key: com.x.Foo.bar(android.os.Bundle,int[])
  UNIQUE (mapping_id, method_id)
);
CREATE TABLE ignored_method (             -- ignoreMethodMapping.txt: methods left uninstrumented (schema 5)
  id           INTEGER PRIMARY KEY,
  mapping_id   INTEGER NOT NULL REFERENCES method_mapping(id) ON DELETE CASCADE,
  class_name   TEXT NOT NULL,             -- as the file gives it
  method_name  TEXT NOT NULL,
  descriptor   TEXT,                      -- as the file gives it; NULL when the line has none
  name         TEXT NOT NULL              -- canonical key, as method.name
);
-- one row per distinct line of a mapping's ignore files (the writers keep one row of a line
-- without a descriptor: a UNIQUE index takes two NULLs as distinct)
CREATE UNIQUE INDEX ignored_method_name ON ignored_method(mapping_id, class_name, method_name,
  descriptor);
CREATE TABLE call_tree (                  -- one tree per Matrix issue stack, startup, or profile
  id        INTEGER PRIMARY KEY,
  trace_id  INTEGER NOT NULL REFERENCES trace(id) ON DELETE CASCADE,
  kind      TEXT NOT NULL CHECK (kind IN ('issue_stack','beat_slice','sample_profile')),
  issue_id  INTEGER REFERENCES issue(id),
  utid      INTEGER REFERENCES thread(utid)
);
CREATE TABLE call_node (
  id          INTEGER PRIMARY KEY,
  tree_id     INTEGER NOT NULL REFERENCES call_tree(id) ON DELETE CASCADE,
  parent_id   INTEGER REFERENCES call_node(id),  -- NULL for roots
  depth       INTEGER NOT NULL,           -- as in the source (Matrix depth gaps are kept)
  ordinal     INTEGER NOT NULL,           -- pre-order position (Matrix line order)
  name        TEXT NOT NULL,              -- canonical name, or '<unknown id N>'
  method_id   INTEGER REFERENCES method(id),
  callsite_id INTEGER REFERENCES callsite(id),
  count       INTEGER NOT NULL,           -- Matrix: merged consecutive calls; samples: samples through the node
  self_count  INTEGER,                    -- samples: samples with this node as leaf
  total_dur   INTEGER,                    -- ns (Matrix totalMs x 1e6)
  self_dur    INTEGER,                    -- ns; total minus children
  arg_set_id  INTEGER,                    -- e.g. iOS profile: sample_background
  is_recursive INTEGER NOT NULL DEFAULT 0 -- a node of the same name is on its path (schema 6)
);

CREATE TABLE issue (
  id                  INTEGER PRIMARY KEY,
  trace_id            INTEGER NOT NULL REFERENCES trace(id) ON DELETE CASCADE,
  tag                 TEXT NOT NULL,      -- 'Trace_EvilMethod','Trace_StartUp','Trace_FPS'
  detail              TEXT,               -- Matrix detail: 'NORMAL','ANR','LAG','STARTUP','SIGNAL_ANR',...
  kind                TEXT NOT NULL CHECK (kind IN ('evil_method','anr','lag','startup',
                        'signal_anr','idle_lag','touch_lag','priority','timerslack','fps','other')),
  scene               TEXT,
  process_name        TEXT,
  report_unix_ms      INTEGER,            -- report 'time'
  cost_ms             INTEGER,            -- report 'cost', verbatim
  sub_type            INTEGER,            -- 1 cold, 2 warm (startup issues)
  stack_key_raw       TEXT,               -- as reported, e.g. '243|'
  stack_key_method_id INTEGER REFERENCES method(id),
  stack_key           TEXT,               -- canonical method name of the blamed id; NULL if unresolved
  stack_key_path      TEXT,               -- root-to-blamed names joined by ';' (stable across builds)
  is_foreground       INTEGER,
  thread_stack        TEXT,
  call_tree_id        INTEGER REFERENCES call_tree(id),
  utid                INTEGER REFERENCES thread(utid),
  ts                  INTEGER,            -- ns, when the data has a timeline
  arg_set_id          INTEGER,            -- remaining report keys (iOS: dump_type, user.*, ...)
  raw_json            TEXT NOT NULL       -- the report object as read
);

CREATE TABLE ui_frame (                   -- per-frame inputs only (frames.md 6.1)
  id             INTEGER PRIMARY KEY,
  trace_id       INTEGER NOT NULL REFERENCES trace(id) ON DELETE CASCADE,
  utid           INTEGER REFERENCES thread(utid),
  scene          TEXT,
  ts             INTEGER NOT NULL,        -- intended vsync (iv)
  dur            INTEGER NOT NULL,        -- T: total frame time
  interval_dur   INTEGER NOT NULL,        -- P: refresh period used
  expected_dur   INTEGER,                 -- deadline when known
  busy_dur       INTEGER NOT NULL,
  dropped_frames INTEGER NOT NULL,        -- d
  drop_level     TEXT NOT NULL CHECK (drop_level IN ('best','normal','middle','high','frozen')),
  is_jank INTEGER NOT NULL, is_slow INTEGER NOT NULL, is_frozen INTEGER NOT NULL,
  vsync_id       INTEGER,
  arg_set_id     INTEGER                  -- FrameMetrics phase durations
);
CREATE TABLE scene_frame_stats (          -- one row per (scene | '*', window | whole trace, model)
  id                 INTEGER PRIMARY KEY,
  trace_id           INTEGER NOT NULL REFERENCES trace(id) ON DELETE CASCADE,
  model              TEXT NOT NULL,       -- 'native','reports','matrix-a1','matrix-a2','matrix-b','matrix-c'
  scene              TEXT NOT NULL,       -- '*' = all scenes
  ts                 INTEGER,             -- window start; NULL = whole trace
  dur                INTEGER,             -- window length; NULL = whole trace
  frames             INTEGER NOT NULL,
  busy_dur           INTEGER,
  fps                REAL,                -- NULL when frames = 0
  dropped_sum        INTEGER,
  level_best_count INTEGER, level_best_sum INTEGER,
  level_normal_count INTEGER, level_normal_sum INTEGER,
  level_middle_count INTEGER, level_middle_sum INTEGER,
  level_high_count INTEGER, level_high_sum INTEGER,
  level_frozen_count INTEGER, level_frozen_sum INTEGER,
  jank_count INTEGER, slow_count INTEGER, frozen_count INTEGER,
  p50_dur INTEGER, p90_dur INTEGER, p95_dur INTEGER, p99_dur INTEGER,
  max_dur INTEGER, mean_dur INTEGER,
  issue_id           INTEGER REFERENCES issue(id),   -- for Matrix FPS reports
  arg_set_id         INTEGER                 -- reserved: NULL (no per-scene args written)
);

CREATE TABLE startup (
  id                       INTEGER PRIMARY KEY,
  trace_id                 INTEGER NOT NULL REFERENCES trace(id) ON DELETE CASCADE,
  kind                     TEXT NOT NULL CHECK (kind IN ('cold','warm','hot','unknown')),
  source                   TEXT NOT NULL,   -- 'events','matrix_report','beat'
  ts                       INTEGER,         -- ns; NULL when only report numbers exist
  dur                      INTEGER,
  start_event              TEXT,            -- endpoint events used, e.g. 'process_start'
  end_event                TEXT,            -- e.g. 'first_frame'
  application_create_ms    INTEGER,         -- Matrix report fields, verbatim
  application_create_scene INTEGER,
  first_activity_create_ms INTEGER,
  startup_duration_ms      INTEGER,
  ttid_dur                 INTEGER,         -- time to initial display, ns
  ttfd_dur                 INTEGER,         -- time to full display, ns
  matrix_over_threshold    INTEGER,
  matrix_stack_collected   INTEGER,
  vitals_excessive         INTEGER,
  issue_id                 INTEGER REFERENCES issue(id)   -- the STARTUP issue, if any
);
CREATE TABLE startup_segment (
  id         INTEGER PRIMARY KEY,
  startup_id INTEGER NOT NULL REFERENCES startup(id) ON DELETE CASCADE,
  ordinal    INTEGER NOT NULL,
  name       TEXT NOT NULL,                  -- 'system_to_process','application','first_screen','ttid',...
  from_event TEXT NOT NULL,
  to_event   TEXT NOT NULL,
  ts         INTEGER,
  dur        INTEGER NOT NULL
);
CREATE TABLE launch (                        -- system-measured launches: am start -W, logcat Displayed
  id             INTEGER PRIMARY KEY,
  trace_id       INTEGER NOT NULL REFERENCES trace(id) ON DELETE CASCADE,
  source         TEXT NOT NULL CHECK (source IN ('am','logcat')),
  component      TEXT NOT NULL,
  launch_state   TEXT,                       -- 'COLD','WARM','HOT','RELAUNCH', NULL if absent
  status         TEXT,                       -- am: 'ok' / 'timeout'
  total_ms       INTEGER,                    -- verbatim; = TTID
  wait_ms        INTEGER,
  this_ms        INTEGER,
  fully_drawn_ms INTEGER,                    -- logcat 'Fully drawn'
  log_time       TEXT,                       -- logcat 'MM-DD HH:MM:SS.mmm' if present
  not_launched   INTEGER,                    -- 1: am 'Warning: Activity not started' (no real launch); NULL before schema 4
  incomplete     INTEGER                     -- 1: am block without 'Complete'; NULL before schema 4
);

CREATE TABLE module (                      -- shared by all traces (keyed by build id)
  id             INTEGER PRIMARY KEY,
  build_id       TEXT,                     -- lowercase hex; Mach-O UUID lowercase without dashes
  name           TEXT NOT NULL,            -- basename / soname
  path           TEXT,
  kind           TEXT NOT NULL CHECK (kind IN ('elf','macho','apk','dex','oat','jit','kernel','unknown')),
  has_debug_info INTEGER,
  UNIQUE (build_id, name)
);
CREATE TABLE binary_image (                -- Mach-O images of iOS reports (spec/ios.md 10)
  trace_id     INTEGER NOT NULL REFERENCES trace(id) ON DELETE CASCADE,
  report_id    TEXT NOT NULL,              -- report.id
  module_id    INTEGER REFERENCES module(id),
  image_addr   INTEGER NOT NULL,           -- load address (runtime)
  image_vmaddr INTEGER NOT NULL,           -- __TEXT vmaddr
  image_size   INTEGER NOT NULL,           -- __TEXT vmsize
  name         TEXT NOT NULL,              -- device path
  arch         TEXT,
  debug_file   TEXT,                       -- dSYM or symbol file used, NULL if none
  n_frames     INTEGER NOT NULL DEFAULT 0, -- frames of the report in it (0: --all-images)
  PRIMARY KEY (trace_id, report_id, image_addr)
);
CREATE TABLE stack_frame (
  id            INTEGER PRIMARY KEY,
  trace_id      INTEGER NOT NULL REFERENCES trace(id) ON DELETE CASCADE,
  name          TEXT NOT NULL,             -- canonical display name
  raw_name      TEXT,                      -- as in the source (PrettyMethod, perf symbol+off)
  kind          TEXT NOT NULL CHECK (kind IN ('java','native','kernel','js','synthetic')),
  module_id     INTEGER REFERENCES module(id),
  rel_pc        INTEGER,                   -- ELF vaddr / pointer, when address identity applies
  symbol_set_id INTEGER,                   -- -> symbol.symbol_set_id
  method_id     INTEGER REFERENCES method(id),
  file          TEXT,                      -- source file the input names (perf srcline, JSON-lines)
  line          INTEGER                    -- its line, 1-based
);
CREATE TABLE callsite (                    -- prefix tree: (parent, frame)
  id        INTEGER PRIMARY KEY,
  trace_id  INTEGER NOT NULL REFERENCES trace(id) ON DELETE CASCADE,
  parent_id INTEGER REFERENCES callsite(id),  -- NULL at the root frame
  depth     INTEGER NOT NULL,              -- 0 at the root
  frame_id  INTEGER NOT NULL REFERENCES stack_frame(id)
);
CREATE TABLE sample (                      -- one row per run of identical samples (samples.md 4.3)
  id          INTEGER PRIMARY KEY,
  trace_id    INTEGER NOT NULL REFERENCES trace(id) ON DELETE CASCADE,
  utid        INTEGER NOT NULL REFERENCES thread(utid),
  ts          INTEGER,                     -- NULL for folded input (no time)
  dur         INTEGER NOT NULL DEFAULT 0,  -- last - first sample, or interval length
  callsite_id INTEGER NOT NULL REFERENCES callsite(id),  -- leaf callsite
  count       INTEGER NOT NULL DEFAULT 1,
  weight      INTEGER NOT NULL DEFAULT 1,  -- sum of weights (perf period)
  type        TEXT NOT NULL DEFAULT 'cpu',
  event       TEXT,                        -- perf event name
  msg_id      INTEGER,
  is_interval INTEGER NOT NULL DEFAULT 0,
  is_blocking INTEGER NOT NULL DEFAULT 0,
  thread_ts   INTEGER,                     -- thread CPU clock at ts
  thread_dur  INTEGER
);
CREATE TABLE slice (                       -- rebuilt calls: sampled (samples.md 5) or instrumented (method-beat.md)
  id               INTEGER PRIMARY KEY,
  trace_id         INTEGER NOT NULL REFERENCES trace(id) ON DELETE CASCADE,
  utid             INTEGER NOT NULL REFERENCES thread(utid),
  ts               INTEGER NOT NULL,
  dur              INTEGER NOT NULL,
  depth            INTEGER NOT NULL,
  parent_id        INTEGER REFERENCES slice(id),
  name             TEXT NOT NULL,
  category         TEXT NOT NULL,          -- 'sampled','beat','synthetic'
  frame_id         INTEGER REFERENCES stack_frame(id),
  callsite_id      INTEGER REFERENCES callsite(id),
  method_id        INTEGER REFERENCES method(id),
  end_kind         TEXT NOT NULL CHECK (end_kind IN ('exact','inferred','unterminated','truncated')),
  thread_dur       INTEGER,                -- CPU time
  self_dur         INTEGER NOT NULL,
  self_thread_dur  INTEGER,
  block_dur        INTEGER,
  sample_count     INTEGER,
  gap_before       INTEGER,                -- ns to the previous sample without this call
  gap_after        INTEGER,
  msg_id           INTEGER,
  type             TEXT,
  is_recursive     INTEGER NOT NULL DEFAULT 0,  -- an ancestor has the same frame
  wakeup_utid      INTEGER REFERENCES thread(utid),
  alloc_objects INTEGER, alloc_bytes INTEGER, maj_flt INTEGER, nv_csw INTEGER, niv_csw INTEGER,
  arg_set_id       INTEGER
);
CREATE TABLE wakeup (
  id             INTEGER PRIMARY KEY,
  trace_id       INTEGER NOT NULL REFERENCES trace(id) ON DELETE CASCADE,
  wakee_slice_id INTEGER NOT NULL REFERENCES slice(id),
  waker_utid     INTEGER NOT NULL REFERENCES thread(utid),
  waker_ts       INTEGER NOT NULL,
  kind           TEXT NOT NULL              -- 'unpark','notify','unlock'
);

CREATE TABLE symbol (                      -- one row per frame of an inline chain
  id             INTEGER PRIMARY KEY,
  symbol_set_id  INTEGER NOT NULL,
  inline_depth   INTEGER NOT NULL,         -- 0 = innermost; the largest = out-of-line function
  name           TEXT NOT NULL,            -- display name ('??' when unknown)
  file           TEXT,
  line           INTEGER,
  column_no      INTEGER,
  is_inlined     INTEGER NOT NULL,
  symbol_name    TEXT,                     -- ELF symbol (clone suffix kept), outermost only
  is_approximate INTEGER NOT NULL DEFAULT 0,
  UNIQUE (symbol_set_id, inline_depth)
);
CREATE TABLE symbolized_pc (               -- cache: one lookup per (module, address)
  module_id     INTEGER NOT NULL REFERENCES module(id),
  rel_pc        INTEGER NOT NULL,
  symbol_set_id INTEGER NOT NULL,
  PRIMARY KEY (module_id, rel_pc)
) WITHOUT ROWID;
