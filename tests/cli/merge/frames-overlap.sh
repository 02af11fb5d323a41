#!/bin/sh
# Overlapping framestats dumps analysed in different runs, then merged (merge(1)
# DESCRIPTION): one analyze of both de-duplicates them (frames_duplicate); shards do not, and
# merge counts the frames the later trace shares with an earlier one in its 'frames_overlap'
# stats row, warns naming both inputs, and keeps the rows (the documented exception). The
# count is recounted in a merge of merges and with --append; merging a database that holds
# both dumps of one run finds none. A shard holding dump 2 with dump 1 and one holding it
# alone give different copies under one import key: the order of the merge shows (merge(1)).
set -u
t=$TT_TMP/merge-frames-overlap
rm -rf "$t" && mkdir -p "$t"
cp frames-overlap-1.txt "$t/dump1.txt" && cp frames-overlap-2.txt "$t/dump2.txt" || exit 1
cd "$t" || exit 1
tracetool analyze -o all.db dump1.txt dump2.txt > /dev/null || exit 1
tracetool analyze -o s1.db dump1.txt > /dev/null || exit 1
tracetool analyze -o s2.db dump2.txt > /dev/null || exit 1
q="select (select count(*) from ui_frame) as ui_frames, (select sum(frames) from worst_scenes) as frames, (select sum(jank_frames) from worst_scenes) as jank, (select group_concat(t.trace_id || ':' || t.name || '=' || t.value, ' ') from (select trace_id, name, value from stats where name in ('frames_duplicate', 'frames_overlap') order by trace_id, name) t) as stats"
echo "== one analyze"
tracetool query all.db "$q"
echo "== merge s1 s2"
tracetool merge -o m12.db s1.db s2.db 2>&1 > /dev/null
tracetool query m12.db "$q"
tracetool query m12.db "select description from stats where name = 'frames_overlap'"
echo "== merge s2 s1"
tracetool merge -o m21.db s2.db s1.db 2>&1 > /dev/null
tracetool query m21.db "$q"
echo "== merge of merges, and --append"
tracetool merge -o mm.db m12.db m21.db 2>&1 > /dev/null
tracetool query mm.db "$q"
cp s1.db ap.db
tracetool merge --append -o ap.db s2.db 2>&1 > /dev/null
tracetool query ap.db "$q"
echo "== one run's database: no overlap"
tracetool merge -o one.db all.db 2>&1 > /dev/null
tracetool query one.db "$q"
echo "== A = dumps 1 and 2 of one run, B = dump 2 alone"
tracetool merge -o ab.db all.db s2.db 2>&1 > /dev/null
tracetool query ab.db "$q"
tracetool merge -o ba.db s2.db all.db 2>&1 > /dev/null
tracetool query ba.db "$q"
echo "== rows written: a copied 'frames_overlap' row that is recounted is one row"
echo "making m12.db: $(tracetool merge -o m12b.db s1.db s2.db 2> /dev/null | sed 's/.*, //')"
echo "merging m12.db alone: $(tracetool merge -o c12b.db m12.db 2> /dev/null | sed 's/.*, //')"
