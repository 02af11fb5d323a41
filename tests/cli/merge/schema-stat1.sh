#!/bin/sh
# The merged database has analyze's schema (merge(1)): the same sqlite_master rows in the
# same order (method_by_name created when methods arrive, as analyze creates it when it
# loads a mapping; the same CREATE INDEX text) and the same planner statistics
# (sqlite_stat1: PRAGMA optimize after the summary's plans, not after merge's own lookups).
set -u
t=$TT_TMP/merge-schema
rm -rf "$t" && mkdir -p "$t" || exit 1
s=../../samples
master="select type, name, tbl_name, sql from sqlite_master order by rowid"
stat="select tbl, idx, stat from sqlite_stat1 order by tbl, idx"
check() { # name one.db merged.db
    tracetool query --format csv "$2" "$master" > "$t/a.master" &&
        tracetool query --format csv "$3" "$master" > "$t/b.master" || exit 1
    cmp -s "$t/a.master" "$t/b.master" && echo "$1: same sqlite_master" || diff "$t/a.master" "$t/b.master"
    tracetool query --format csv "$2" "$stat" > "$t/a.stat" &&
        tracetool query --format csv "$3" "$stat" > "$t/b.stat" || exit 1
    cmp -s "$t/a.stat" "$t/b.stat" && echo "$1: same sqlite_stat1 ($(($(wc -l < "$t/a.stat") - 1)) rows)" || diff "$t/a.stat" "$t/b.stat"
}
tracetool analyze -o "$t/one.db" -m $s/methodMapping.txt $s/beat.bin $s/reports.jsonl > /dev/null 2>&1 || exit 1
tracetool analyze -o "$t/s1.db" -m $s/methodMapping.txt $s/beat.bin > /dev/null 2>&1 || exit 1
tracetool analyze -o "$t/s2.db" -m $s/methodMapping.txt $s/reports.jsonl > /dev/null 2>&1 || exit 1
tracetool merge -o "$t/m.db" "$t/s1.db" "$t/s2.db" > /dev/null || exit 1
check "with a mapping" "$t/one.db" "$t/m.db"
tracetool analyze -o "$t/one2.db" $s/stacks.folded frames-overlap-1.txt > /dev/null 2>&1 || exit 1
tracetool analyze -o "$t/s3.db" $s/stacks.folded > /dev/null 2>&1 || exit 1
tracetool analyze -o "$t/s4.db" frames-overlap-1.txt > /dev/null 2>&1 || exit 1
tracetool merge -o "$t/m2.db" "$t/s3.db" "$t/s4.db" > /dev/null || exit 1
check "without" "$t/one2.db" "$t/m2.db"
