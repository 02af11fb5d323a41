-- Indexes, created after bulk loading (storage.md 3.9, 5.3).
CREATE INDEX IF NOT EXISTS slice_by_thread   ON slice(trace_id, utid, ts);
CREATE INDEX IF NOT EXISTS slice_by_name     ON slice(name);
CREATE INDEX IF NOT EXISTS slice_by_parent   ON slice(parent_id);
CREATE INDEX IF NOT EXISTS sample_by_thread  ON sample(trace_id, utid, ts);
CREATE INDEX IF NOT EXISTS callsite_by_parent ON callsite(parent_id);
CREATE INDEX IF NOT EXISTS frame_by_name     ON stack_frame(trace_id, name);
CREATE INDEX IF NOT EXISTS node_by_tree      ON call_node(tree_id, parent_id);
CREATE INDEX IF NOT EXISTS issue_by_key      ON issue(stack_key);
CREATE INDEX IF NOT EXISTS method_by_name ON method(name); -- as tdb_method_index
CREATE INDEX IF NOT EXISTS stats_by_trace    ON stats(trace_id, name);
CREATE INDEX IF NOT EXISTS symbol_by_set     ON symbol(symbol_set_id);
