#!/bin/sh
# Builds $TT_TMP/diff/NAME/{base,new}.db for the diff tests: gen_diffpair's method-beat pair
# (MODE regress, noise or same) analysed with each build's own mapping. The startup and
# frames importers do not exist yet, so a cold start with one segment and one scene's frame
# statistics and an `am start -W` launch are inserted with `tracetool query --write`
# (regress: cold start 1000 -> 1300 ms, launch 900 -> 1250 ms, fps 58 -> 50; noise: 1000 ->
# 1020 ms, 900 -> 910 ms, fps 58 -> 57.5; same: identical rows).
set -eu
name=$1
mode=$2
d=$TT_TMP/diff/$name
mkdir -p "$d"
case $mode in
regress) gen_diffpair "$d" ;;
noise) gen_diffpair --noise "$d" ;;
same) gen_diffpair --same "$d" ;;
esac
tracetool analyze -o "$d/base.db" -m "$d/base-map.txt" "$d/base.bin" > /dev/null
tracetool analyze -o "$d/new.db" -m "$d/new-map.txt" "$d/new.bin" > /dev/null
# db cold_ms application_ms fps jank_frames p90_ms high_frames am_start_total_ms
rows() {
    tracetool query --write "$1" "
INSERT INTO startup (trace_id, kind, source, dur) VALUES (1, 'cold', 'events', $2 * 1000000);
INSERT INTO startup_segment (startup_id, ordinal, name, from_event, to_event, dur)
  VALUES (last_insert_rowid(), 0, 'application', 'process_start', 'application_created',
          $3 * 1000000);
INSERT INTO scene_frame_stats (trace_id, model, scene, frames, fps, jank_count, p90_dur,
  level_frozen_count, level_high_count, level_middle_count)
  VALUES (1, 'native', 'com.example.FeedActivity', 600, $4, $5, $6 * 1000000, 0, $7, 10);
INSERT INTO launch (trace_id, source, component, launch_state, status, total_ms)
  VALUES (1, 'am', 'com.example/.MainActivity', 'COLD', 'ok', $8);" > /dev/null
}
rows "$d/base.db" 1000 400 58 12 14 6 900
case $mode in
regress) rows "$d/new.db" 1300 700 50 60 25 30 1250 ;;
noise) rows "$d/new.db" 1020 410 57.5 12 14 6 910 ;;
same) rows "$d/new.db" 1000 400 58 12 14 6 900 ;;
esac
