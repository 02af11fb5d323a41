#!/bin/sh
# analyze --jobs N is deterministic: the database (byte for byte, once the run's clock time
# trace.imported_unix_ms is set aside), standard output, standard error and the exit status
# are those of --jobs 1, for a directory of every input kind (iOS files of several reports
# sharing a module among them), --keep-going over corrupt
# inputs, a run that fails at a bad input, indexes sorted with helper threads, a mapping loaded
# ahead, and --append re-runs (run in tests/data).
set -u
t=$TT_TMP/an-jobs
rm -rf "$t" && mkdir -p "$t/c/more"
cp ../../samples/* "$t/c/" 2> /dev/null
cp perf-variants.txt perf-mixed.txt ios-lag-2001.json ios-crash-kscrash.json ios-cpu-2003.json \
    ios-array.json ios-swift-b2.json ios-custom-2011.json ios-reals.json frames-120hz.jsonl report-v04.jsonl msg-split.jsonl deep.folded art/ex52-v2wall.txt \
    "$t/c/more/"
sh ../cli/analyze/mkmixed.sh "$t/mixed"
# big: 40,000 slices whose 2.6 MB of names go past the 2 MiB runs SQLite's sorter hands to
# helper threads when --jobs builds the indexes
# the first -m mapping is loaded while it is hashed ahead: its warnings (a duplicate id) and
# errors (a line without a method name) are those of --jobs 1
mkdir -p "$t/maps" && cp map-dup.txt map-bad.txt "$t/maps/"
mkdir -p "$t/big"
gen_beat mapping -n 3000 --seed 3 -o "$t/big/map.txt"
gen_beat buffer --records 80000 --ids 3000 --seed 3 -o "$t/big/ring.bin"
# ring: a raw ring dump read with --ring-next beside other inputs (the workers rotate it)
mkdir -p "$t/ring"
gen_beat sample --ring-next 700 -o "$t/ring/ring.bin"
# many: 78 small report files (each line of reports.jsonl, each pair of lines), a copy of one
# (imported once) and a file that is not a report: far more inputs than jobs in flight, so
# the writer runs queued ones itself while workers parse others
mkdir -p "$t/many"
n=$(wc -l < ../../samples/reports.jsonl)
for i in $(seq 1 "$n"); do
    sed -n "${i}p" ../../samples/reports.jsonl > "$t/many/r$i.jsonl"
    for k in $(seq $((i + 1)) "$n"); do
        sed -n "${i}p;${k}p" ../../samples/reports.jsonl > "$t/many/r$i-$k.jsonl"
    done
done
cp "$t/many/r3-7.jsonl" "$t/many/r3-7-copy.jsonl"
echo "not a trace" > "$t/many/notes.txt"
# run NAME JOBS ARGS...: in $t/NAME-JOBS, database t.db
run() {
    name=$1 j=$2
    shift 2
    d=$t/$name-$j
    mkdir -p "$d"
    (cd "$d" && tracetool analyze --jobs "$j" -o t.db "$@" > out 2> err; echo "exit $?" > rc)
}
# same NAME: every --jobs run of NAME against --jobs 1
same() {
    for j in 2 4; do
        a=$t/$1-1 b=$t/$1-$j r=""
        for f in out err rc; do
            cmp -s "$a/$f" "$b/$f" || r="$r $f"
        done
        if [ -f "$a/t.db" ] || [ -f "$b/t.db" ]; then
            for x in "$a" "$b"; do
                cp "$x/t.db" "$x/n.db" 2> /dev/null &&
                    tracetool query --write "$x/n.db" "UPDATE trace SET imported_unix_ms = 0"
            done
            cmp -s "$a/n.db" "$b/n.db" || r="$r database"
        fi
        echo "$1 --jobs $j: $(cat "$b/rc"), ${r:+DIFFERENT:}${r:-same as --jobs 1}"
    done
}
for j in 1 2 4; do
    run corpus $j ../c
    run keep $j --keep-going ../mixed ../c/beat.bin ../c/perf-fib.txt.gz
    run fail $j ../c/reports.jsonl ../c/perf-fib.txt.gz ../mixed/nested/corrupt.bin ../c/beat.bin \
        ../c/samples.jsonl
    run big $j -m ../big/map.txt ../big/ring.bin
    run mapdup $j -m ../maps/map-dup.txt ../c/beat.bin
    run mapbad $j -m ../maps/map-bad.txt ../c/beat.bin
    run many $j --skip-unknown ../many
    run ring $j --ring-next 700 -m ../c/methodMapping.txt ../c/reports.jsonl ../ring/ring.bin \
        ../c/frames.jsonl
    run append $j --append ../c/more
    (cd "$t/append-$j" && tracetool analyze --jobs "$j" --append -o t.db ../c/more ../c/beat.bin \
        > out 2> err; echo "exit $?" > rc)
done
for n in corpus keep fail big mapdup mapbad many append ring; do
    same $n
done
grep -c imported "$t/corpus-4/out" | sed 's/^/corpus: inputs imported: /'
sed -n 's/^rows: /corpus: rows: /p' "$t/corpus-4/out"
grep -c ' imported (' "$t/many-4/out" | sed 's/^/many: inputs imported: /'
grep -c 'already imported' "$t/append-4/err" | sed 's/^/append again: already imported: /'
tracetool query "$t/ring-4/t.db" "SELECT count(*) AS ring_evil_methods FROM issue i JOIN trace t ON t.id = i.trace_id WHERE i.kind = 'evil_method' AND t.source_format = 'matrix_beat'"
[ -f "$t/fail-4/t.db" ] && echo "fail: database written" || echo "fail: no database"
tail -n 1 "$t/fail-4/err"
