#!/bin/sh
# `make demo`: the main job on the inputs in samples/. `tracetool analyze` detects every
# input by content and writes one SQLite database; `tracetool query` answers questions from
# it; `report` and `beat` show the Matrix data with names. Run from the repository root
# after `make` (the Makefile's demo target does both).
set -e
tt=./tracetool
s=samples
db=${TMPDIR:-/tmp}/tracetool-demo.db
run() {
    printf '$ tracetool'
    shift_done=0
    for a in "$@"; do
        [ $shift_done = 0 ] && { shift_done=1; continue; }
        case $a in *" "*) printf ' "%s"' "$a" ;; *) printf ' %s' "$a" ;; esac
    done
    printf '\n'
    "$@"
    echo
}

echo "== the main job: every sample input into one database"
run $tt analyze -o "$db" -m $s/methodMapping.txt $s/beat.bin $s/reports.jsonl \
    $s/framestats.txt $s/startup-events.jsonl $s/startup-am.txt $s/perf-fib.txt.gz \
    $s/sampling.bin 2>&1

echo "== questions are one query away"
run $tt query "$db" "select name, calls, self_ms from top_self_methods where trace_id = 1 order by self_dur desc limit 5"
run $tt query "$db" "select kind, issues, max_cost_ms, stack_key from issues_by_stack_key where stack_key is not null and max_cost_ms is not null order by max_cost_ms desc"
run $tt query "$db" "select scene, model, frames, avg_fps, bad_per_1000 from worst_scenes order by bad_per_1000 desc limit 5"
echo "== the summary's notices: the warnings printed above and the repairs counted while reading"
run $tt query "$db" "select trace_id, severity, name, value from stats where severity <> 'info' order by trace_id, name"
run $tt query "$db" "select seg.name, seg.dur / 1000000 as ms from startup st join startup_segment seg on seg.startup_id = st.id order by seg.ordinal"

echo "== Matrix reports made readable (first report)"
$tt report -m $s/methodMapping.txt $s/reports.jsonl | sed -n '1,/^$/p'

echo "== the sample method-beat slice as a call tree (first lines)"
$tt beat -m $s/methodMapping.txt --end-ms 6600 $s/beat.bin | sed -n '1,25p'
echo "   ..."
echo
echo "== the fields Matrix's evil-method report would carry for this slice"
run $tt beat --format matrix --cost 1200 --end-ms 6600 $s/beat.bin
echo "database: $db"
